"""Mutant: When a placed tile's town joins a town on the board, only the board town's banners
are kept. Breaks CARC-FEATURE-JOIN."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import BannersLostInJoin as Mutant

RULE = "CARC-FEATURE-JOIN"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-banners_lost_in_join")
