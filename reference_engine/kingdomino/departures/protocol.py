"""One-rule departures of Kingdomino's protocol rules (KD-STOP, KD-PUT-INVALID,
KD-PROTO-INPUT, KD-PROTO-OUTPUT, KD-PROTO-LIMITS): each a small subclass of the reference
engine that overrides one hook.

Models for blame and the classes of the public mutants; nothing else belongs here.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from gamecert.reference_engine.kingdomino.engine import Kingdomino
from gamecert.reference_engine.kingdomino.state import Action, KdConfig, KdState
from gamecert.spec import Profile


class _PlaysOnAfterStop(Kingdomino):
    """A stop of one of `CAUSES` only skips the king's turn: the player plays on."""

    CAUSES: tuple[str, ...] = ()

    def _stop(self, state: KdState, cause: Any) -> tuple[KdState, list[Any]]:
        after, events = super()._stop(state, cause)
        if cause in self.CAUSES and after.result is None:
            p = state.placing[state.nxt][1]
            stopped = tuple(s and i != p - 1 for i, s in enumerate(after.stopped))
            after = after._replace(stopped=stopped)
        return after, events


class StopSkipsTurn(_PlaysOnAfterStop):
    """KD-STOP: a badly formatted output or an invalid PICK only skips the turn; the player
    plays on."""

    CAUSES = ("format", "pick")


class TimeoutSkipsTurn(_PlaysOnAfterStop):
    """KD-PROTO-LIMITS: a late reply only skips the turn; the player plays on."""

    CAUSES = ("timeout",)


class InvalidPutDiscards(Kingdomino):
    """KD-PUT-INVALID: above Wood too an invalid PUT discards the tile (the Wood rule: a
    reading of the rule, `reading-discard` for blame; kept for the public mutant)."""

    def config(self, profile: Profile) -> KdConfig:
        return replace(super().config(profile), put_discards=True)


class EmptyCellsUnderscored(Kingdomino):
    """KD-PROTO-INPUT: grids print an empty cell as '__' instead of '_0'."""

    def observe(self, state: KdState) -> dict[str, Any]:
        out = super().observe(state)
        out["grids"] = [[row.replace("_0", "__") for row in g] for g in out["grids"]]
        return out

    def load(self, profile: Profile, observed: Any) -> KdState:
        if isinstance(observed, dict) and isinstance(observed.get("grids"), list):
            observed = {**observed, "grids": [[r.replace("__", "_0") for r in g]
                                              for g in observed["grids"]]}
        return super().load(profile, observed)


class LenientOutput(Kingdomino):
    """KD-PROTO-OUTPUT: the referee accepts lower case and runs of spaces in the two output
    lines (a referee's reading only: it explains no step)."""

    def referee(self, state: KdState, text: str) -> Action:
        lines = [re.sub(r"[ \t]+", " ", ln.strip()).upper() for ln in text.split("\n")]
        return super().referee(state, "\n".join(lines))
