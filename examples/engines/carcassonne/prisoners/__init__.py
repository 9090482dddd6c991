"""Carcassonne mutants, The Tower's prisoners (profile syncs-2025-tower): capture, exchange,
ransom."""
