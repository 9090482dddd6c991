"""Flit mutants, engines breaking several rules at once (the compounds run behind `bare:`)."""
