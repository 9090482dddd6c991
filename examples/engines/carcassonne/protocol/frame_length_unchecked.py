"""Mutant: The referee ignores the length prefix of a bot's message. Breaks CARC-PROTO-FRAME."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import FrameLengthUnchecked as Mutant

RULE = "CARC-PROTO-FRAME"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-frame_length_unchecked")
