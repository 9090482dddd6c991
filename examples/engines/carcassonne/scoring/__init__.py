"""Carcassonne mutants, scoring roads, towns and monasteries: completion, majorities, timing."""
