"""Mutant: Four time-outs in a row freeze a bot. Breaks FLIT-FREEZE."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitConfig

RULE = "FLIT-FREEZE"


class Mutant(Flit):
    """Four time-outs in a row freeze a bot."""

    def freezes(self, cfg: FlitConfig, run: int) -> bool:
        return run >= cfg.freeze_after - 1


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-freeze_after_four")
