"""Bot Wars mutants, the bots' replies: their format."""
