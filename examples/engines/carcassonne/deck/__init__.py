"""Carcassonne mutants, the deck and the hands: players, tiles, draws, deals, hand size,
discards."""
