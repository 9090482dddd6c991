"""Kingdomino's targets for `hypothesis.target`: the fullest kingdom, discards, a tie on
score, the turn, one player's kings back to back. Reads the reference's state only.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from gamecert.fuzz.games.kingdomino.starts import GAME

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


def target_scores(ls: Lockstep) -> dict[str, float]:
    s = ls.ref_json
    empty = min(sum(r.count("_") for r in g) for g in s["grids"])
    scores = [GAME.score_grid("".join(g)) for g in s["grids"]]
    gap = min(abs(a - c) for i, a in enumerate(scores) for c in scores[i + 1:])
    owners = [k["player"] for k in s["placing"]]
    double = sum(a == b for a, b in pairwise(owners))
    return {"fullest kingdom": float(81 - empty), "discards": float(len(s["discarded"])),
            "score tie": float(-gap), "turn": float(s["turn"]),
            "double kings": float(double)}
