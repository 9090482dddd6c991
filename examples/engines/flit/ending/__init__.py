"""Flit mutants, the game's end and the winner."""
