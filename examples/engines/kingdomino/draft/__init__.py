"""Kingdomino mutants, the draft: the order of the kings, picks, the line's deal, the first and
last turns."""
