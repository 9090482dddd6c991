"""Kingdomino mutants, scoring: zones, crowns, the tie-break."""
