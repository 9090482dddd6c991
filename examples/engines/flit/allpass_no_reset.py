"""Mutant: A real move does not reset the run of no moves. Breaks FLIT-END-ALLPASS."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-END-ALLPASS"


class Mutant(Flit):
    """A real move does not reset the run of no moves."""

    def passes_after_move(self, state: FlitState) -> int:
        return state.passes


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-allpass_no_reset")
