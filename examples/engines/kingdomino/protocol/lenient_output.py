"""Mutant: The referee accepts lower case and runs of spaces in the two output lines.
Breaks KD-PROTO-OUTPUT."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.protocol import LenientOutput as Mutant

RULE = "KD-PROTO-OUTPUT"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-lenient_output")
