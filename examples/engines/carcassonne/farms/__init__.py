"""Carcassonne mutants, the farms stage (profile syncs-2025-farms): fields, farmers, farm
scoring."""
