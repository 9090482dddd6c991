"""Mutant: An invalid reply freezes the bot whatever the profile says. Breaks FLIT-MOVE-INVALID."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import InvalidDisqualifies as Mutant

RULE = "FLIT-MOVE-INVALID"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-invalid_disqualifies")
