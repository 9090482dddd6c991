"""Mutant: A claim naming a field edge (or a missing monastery) puts the meeple on the tile's
first feature. Breaks CARC-CLAIM-PLACED-TILE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import ClaimOnField as Mutant

RULE = "CARC-CLAIM-PLACED-TILE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_on_field")
