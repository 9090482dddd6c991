"""Carcassonne mutants, claiming features with meeples: where, when, how many, their return."""
