"""Flit mutants, turns and moves: order, valid moves, passes, conversion, freezing, time
limits."""
