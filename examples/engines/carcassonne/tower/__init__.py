"""Carcassonne mutants, The Tower (profile syncs-2025-tower): tower tiles, floors, reach, caps."""
