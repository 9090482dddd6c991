"""Kingdomino mutants, the set-up: players, kings, the tile list, the tiles in play."""
