"""Carcassonne mutants, the bot protocol's frames and replies."""
