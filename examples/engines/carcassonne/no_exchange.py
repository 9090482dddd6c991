"""Mutant: Players holding each other's meeples keep them. Breaks CARC-TOWER-EXCHANGE (tower
stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne
from gamecert.reference_engine.carcassonne.engine import JSON

RULE = "CARC-TOWER-EXCHANGE"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """Players holding each other's meeples keep them."""

    def exchange(self, prisoners: list[list[int]], supply: list[int], a: int, b: int,
                 events: list[JSON]) -> None:
        return

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-no_exchange")
