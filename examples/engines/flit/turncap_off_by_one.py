"""Mutant: The game runs one turn past the cap. Breaks FLIT-END-TURNCAP."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-END-TURNCAP"


class Mutant(Flit):
    """The game runs one turn past the cap."""

    def turn_cap_reached(self, state: FlitState) -> bool:
        return state.turn > state.cfg.max_turns


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-turncap_off_by_one")
