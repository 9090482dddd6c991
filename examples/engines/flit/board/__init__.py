"""Flit mutants, the board and the set-up: its size, the torus, set-up placements, the neutral
square."""
