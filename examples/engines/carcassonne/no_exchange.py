"""Mutant: Players holding each other's meeples keep them. Breaks CARC-TOWER-EXCHANGE (tower
stage)."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, rules
from gamecert.reference_engine.carcassonne.engine import JSON

RULE = "CARC-TOWER-EXCHANGE"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """Players holding each other's meeples keep them."""

    def exchange(self, prisoners: list[list[Any]], supply: list[Any], a: int, b: int,
                 events: list[JSON] | None, ite: rules.Ite = rules.py_ite) -> None:
        return

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-no_exchange")
