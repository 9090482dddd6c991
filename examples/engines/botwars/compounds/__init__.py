"""Bot Wars compound mutants: three departures at once, run behind `bare:`."""
