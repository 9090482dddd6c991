"""Mutant: Ties are broken by crowns first, then by territory. Breaks KD-TIE-BREAK."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino

RULE = "KD-TIE-BREAK"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Ties are broken by crowns first, then by territory."""

    def tie_break(self, scores: list[int], territory: list[int], crowns: list[int]) -> list[int]:
        return super().tie_break(scores, crowns, territory)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-tiebreak_crowns_first")
