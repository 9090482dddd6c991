"""Flit's targets for `hypothesis.target`: the catch-up margin, the no-move run and the
most time-outs, read from the reference's canonical state. Reads only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


def target_scores(ls: Lockstep) -> dict[str, float]:
    s = ls.ref_json
    counts = [s["board"].count(c) for c in "1234"]
    spare = s["board"].count("5") + s["board"].count("0") - 4
    margin = max(d - max(c + spare for j, c in enumerate(counts) if j != i)
                 for i, d in enumerate(counts))
    return {"catch-up margin": float(max(margin, -50)), "no-move run": float(s["passes"]),
            "most time-outs": float(max(s["timeouts"]))}
