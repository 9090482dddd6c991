"""Mutant: A reply in time does not reset the run of time-outs. Breaks FLIT-TIME-LIMIT."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit

RULE = "FLIT-TIME-LIMIT"


class Mutant(Flit):
    """A reply in time does not reset the run of time-outs."""

    def answered_in_time(self, timeouts: tuple[int, int, int, int],
                         bot: int) -> tuple[int, int, int, int]:
        return timeouts


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-timeout_run_kept")
