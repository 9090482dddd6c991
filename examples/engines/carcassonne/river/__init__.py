"""Carcassonne mutants, the river phase: its draw, spring, lake, curves and how river edges
meet."""
