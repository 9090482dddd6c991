"""Flit mutants, the bot protocol's replies and updates."""
