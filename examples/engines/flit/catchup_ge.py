"""Mutant: The catch-up test uses >= instead of >. Breaks FLIT-END-CATCHUP."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit import Flit, FlitConfig
from gamecert.reference_engine.flit.rules import Max2

RULE = "FLIT-END-CATCHUP"


class Mutant(Flit):
    """The catch-up test uses >= instead of >."""

    def cannot_be_caught(self, cfg: FlitConfig, d: Any, a: Any, b: Any, c: Any, n: Any,
                         e: Any, max2: Max2 = max) -> Any:
        p = n + e - cfg.p_offset
        return d >= max2(max2(a + p, b + p), c + p)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-catchup_ge")
