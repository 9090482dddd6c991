"""Mutant: after the river, the land draw lists every tile kind left as equally likely,
whatever its copies (a kind with 9 copies left is drawn as often as one with 1). Its set of
outcomes and every transition are right: only the probabilities it lists are wrong. Breaks
CARC-DECK-DRAW."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import DrawByKind as Mutant

RULE = "CARC-DECK-DRAW"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-draw_by_kind")
