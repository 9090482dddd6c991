"""Loading a canonical Kingdomino state: its shape (the state schema), then its sense.

A state that could not arise in a game under the profile is refused with a message that
says why (`BadState`); the checks are the ones two engines must agree on to fuzz from it.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from gamecert.reference_engine.contract import BadState
from gamecert.reference_engine.kingdomino.shape import surely_well_formed
from gamecert.reference_engine.kingdomino.state import DEAL, ORDER, OVER, PLAY, KdConfig, KdState, N
from gamecert.schemas import first_error
from gamecert.spec import Profile


class Game(Protocol):
    """What loading asks of the engine, which passes itself in (so this module never imports
    it: data flows one way, state -> load -> engine)."""

    def config(self, profile: Profile) -> KdConfig: ...

    def line_size(self, cfg: KdConfig) -> int: ...


# The schema check costs about 7 to 20 ms a state (jsonschema): a state whose shape the fast
# check vouches for (every state an engine observes) skips it (shape.py); jsonschema decides
# the rest and words their errors. Blame loads one state under every departure model in turn
# (fuzz.step.blame: some 50 of them): the last documents found well formed are remembered by
# identity too (and held, so no other object takes their id). Canonical states are never
# changed once observed.
_WELL_FORMED: list[Any] = []
_KEPT = 8


def _schema_problem(o: Any) -> str | None:
    if any(o is seen for seen in _WELL_FORMED):
        return None
    if surely_well_formed(o):
        return None
    problem = first_error("kingdomino-state", o)
    if problem is None:
        _WELL_FORMED.append(o)
        del _WELL_FORMED[:-_KEPT]
    return problem


# an empty square ("_" at an even index) followed by anything but "0": one regex scan
_CROWNED_EMPTY = re.compile(r"(?:..)*?_[^0]", re.DOTALL)


def crowned_empty(g: str) -> bool:
    """Whether a grid string has crowns on an empty square (a square's first character `_`,
    its second not `0`). A string of whole squares is scanned by regex (the state loader
    asks it of every grid at every load); any other square by square, as ever (an odd
    string's last `_` has no second character: IndexError)."""
    if len(g) % 2 == 0:
        return _CROWNED_EMPTY.match(g) is not None
    return crowned_empty_plain(g)


def crowned_empty_plain(g: str) -> bool:
    """`crowned_empty` square by square."""
    return any(g[i] == "_" and g[i + 1] != "0" for i in range(0, len(g), 2))


def load_state(game: Game, profile: Profile, o: Any, strict: bool = True) -> KdState:
    """A canonical state as the engine's; `strict`: refused unless a game under the profile
    could reach it (off: any well-formed state the engine can go on from, for adoption)."""
    problem = _schema_problem(o)
    if problem:
        raise BadState(f"not a Kingdomino state: {problem}")
    cfg = game.config(profile)
    n = cfg.players
    if o["players"] != n:
        raise BadState(f"the state has {o['players']} players, profile {profile.id!r} plays "
                       f"{n}")
    for key in ("kings", "grids", "stopped"):
        if len(o[key]) != n:
            raise BadState(f"{key} must have one entry per player ({n})")
    phase, turn = o["phase"], o["turn"]
    if strict and turn > cfg.turns:
        raise BadState(f"turn {turn} is past the last turn ({cfg.turns})")
    grids = tuple("".join(rows) for rows in o["grids"])
    castle = 2 * (4 * N + 4)
    for p, g in enumerate(grids, 1):
        if strict and (g[castle] != "*" or g.count("*") != 1 or "*" in g[1::2]
                       or g[castle + 1] != "0"):
            raise BadState(f"player {p}'s grid must hold the castle (*0) on (4, 4) and only there")
        if crowned_empty(g):
            raise BadState(f"player {p}'s grid has crowns on an empty square")
    line = tuple((e["tile"], e["player"] or 0) for e in o["line"])
    placing = tuple((e["tile"] or 0, e["player"]) for e in o["placing"])
    bag = tuple(o["bag"])
    if list(bag) != sorted(bag) or any(t not in cfg.tiles for t in bag):
        raise BadState("bag must list tile ids of the tile set in ascending order")
    if [t for t, _ in line] != sorted({t for t, _ in line}):
        raise BadState("the line's tiles are distinct and in ascending id")
    if strict and (any(t in bag for t, _ in line) or any(t in bag for t, _ in placing if t)):
        raise BadState("a tile in the line or being placed is still in the bag")
    if any(o_ > n for _, o_ in line) or any(p > n for _, p in placing):
        raise BadState(f"a king belongs to a player above {n}")
    if (phase == OVER) != (o["result"] is not None):
        raise BadState("result must be set exactly when the game is over")
    if phase in (ORDER, DEAL, OVER) and o["to_move"] is not None:
        raise BadState(f"nobody is to move in phase {phase}")
    if strict and phase == ORDER and (turn != 1 or line or placing
                                      or len(bag) != len(cfg.tiles)):
        raise BadState("the order step comes first: turn 1, nothing drawn, no kings placed")
    if phase == PLAY:
        if o["next"] >= len(placing):
            raise BadState("next must index a king of this turn")
        owner = placing[o["next"]][1]
        if strict and (o["to_move"] != owner or o["stopped"][owner - 1]):
            raise BadState("to_move must be the player of the next king, and not stopped")
    if not strict:
        return KdState(cfg, phase, turn, tuple(o["kings"]), bag, line, placing, o["next"],
                       grids, tuple(o["stopped"]), tuple(o["discarded"]), o["result"])
    if phase in (DEAL, PLAY) and turn > 1 and any(t == 0 for t, _ in placing):
        raise BadState("after the first turn every king places a tile")
    if phase in (DEAL, PLAY) and turn == 1 and any(t for t, _ in placing):
        raise BadState("on the first turn no king places a tile")
    if phase == DEAL and (len(line) >= game.line_size(cfg) or not placing):
        raise BadState("a deal step is due only while the new line is short")
    if phase == PLAY and turn < cfg.turns and not line:
        raise BadState("every turn but the last has a new line")
    if phase == PLAY and turn >= cfg.turns and line:
        raise BadState("the last turn has no new line")
    return KdState(cfg, phase, turn, tuple(o["kings"]), bag, line, placing, o["next"], grids,
                   tuple(o["stopped"]), tuple(o["discarded"]), o["result"])
