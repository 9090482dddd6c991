"""Kingdomino mutants, placing a domino: extent, connection, overlap, rotation, the castle,
discards."""
