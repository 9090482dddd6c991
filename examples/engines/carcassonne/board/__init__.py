"""Carcassonne mutants, placing a tile: adjacency, matching edges, board coordinates."""
