"""Carcassonne mutants, the turn order, the game's end and the winner."""
