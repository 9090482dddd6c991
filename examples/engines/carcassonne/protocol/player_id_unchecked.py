"""Mutant: The referee takes any player_id as the player to move's. Breaks CARC-PROTO-REPLY."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import PlayerIdUnchecked as Mutant

RULE = "CARC-PROTO-REPLY"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-player_id_unchecked")
