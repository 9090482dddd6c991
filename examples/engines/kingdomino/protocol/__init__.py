"""Kingdomino mutants, the bot protocol: input and output lines, time limits, stopped players."""
