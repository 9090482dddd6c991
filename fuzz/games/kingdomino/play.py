"""Kingdomino's play: the moves the state machine draws (a chance draw, a king's PUT and PICK
from the reference's legal list, a stop, an invalid PUT), and a stop after a refused move
so that the game goes on past it. Chooses actions only: it must not drive engines or judge.
"""

from __future__ import annotations

import weakref
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from hypothesis import strategies as st

from gamecert.reference_engine.contract import CHANCE
from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.state import DEAL, PLAY

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any
# How far a run-ahead goes (an engine without load_state): a whole game is 28 to 52 king
# steps (the draws are followed inside them). Short runs, several an example, still end games
# (about as many as runs of up to 1,024 steps did) and stop at positions all through them,
# where the probe rule then tries its one-rule probes: the longer runs left most probes on
# the first turn (benchmarks/reach/kingdomino_probe_reach.py).
RUN_AHEAD: tuple[int, ...] = (4, 8, 16)


# An engine that loads states plays seeded runs of the machine's rules beside one-step
# play (fuzz.search.play.runs): games to their end at a small part of Hypothesis's cost, and
# this game's public mutants are found as soon or sooner (docs/speed.md)
SEEDED_RUNS = True
# The moves that end a game at once (a stopped king): a run of the machine's rules
# (fuzz.search.play.runs) plays them rarely, so that its games get deep
ENDING_ACTIONS = frozenset({"stop"})


def cheap_to_list(ls: Lockstep) -> bool:
    """Chance listings are compared; a king's listing is not: a placement read wrongly
    changes dozens of entries at once, and one finding would then name every placement
    rule. Plays and probes judge the same actions one at a time."""
    return bool(ls.ref_json["phase"] != "play")


def draw_action(data: st.DataObject, ls: Lockstep) -> JSON:
    game, state = cast(Kingdomino, ls.game), ls.ref
    plain = type(game) is not Kingdomino  # a subclass may list otherwise: asked as it lists
    if game.current(state) == CHANCE:
        if state.phase == DEAL and not plain:
            # `chance` lists the bag's tiles in order, each with its probability: the same
            # index picks the same tile without the list (and its fractions)
            i = data.draw(index(len(state.bag)), label="chance")
            return {"type": "deal", "tile": state.bag[i]}
        outcomes = game.chance(state)
        i = data.draw(index(len(outcomes)), label="chance")
        return game.action_to_json(state, outcomes[i].action)
    if _DRAWN_AT.pop(ls, None) is ls.ref_json:
        return {"type": "stop", "cause": data.draw(STOPS, label="stop after refusal")}
    kind = data.draw(KINDS, label="kind")
    if kind.startswith("stop-"):
        return {"type": "stop", "cause": kind[5:]}
    if kind == "bad-put" and state.turn > 1 and state.placing[state.nxt][0]:
        tile, p = state.placing[state.nxt]
        if game.fits_somewhere(state, state.grids[p - 1], tile):
            picks = [t for t, o in state.line if o == 0] or [None]
            pick = picks[data.draw(index(len(picks)), label="pick")]
            if state.cfg.put_discards:
                return {"type": "invalid-put", "pick": pick}
            return {"type": "stop", "cause": "put"}
    if plain or state.phase != PLAY:
        legal = game.legal(state)
        i = data.draw(index(len(legal)), label="move")
        _DRAWN_AT[ls] = ls.ref_json
        return game.action_to_json(state, legal[i])
    # `legal` is every PUT with every PICK, PUT by PUT: its i-th action read from the parts,
    # without listing the product
    puts, picks = game.legal_parts(state)
    i = data.draw(index(len(puts) * len(picks)), label="move")
    _DRAWN_AT[ls] = ls.ref_json
    put, pick = puts[i // len(picks)], picks[i % len(picks)]
    return {"type": "play", "put": None if put is None else list(put), "pick": pick}


@cache
def index(n: int) -> st.SearchStrategy[int]:
    """An index into a list of n items (shrinks towards the first); made once per n, a
    strategy being costlier to make than to draw from."""
    return st.integers(0, n - 1)


# Where each lockstep last drew a king's move: drawn again at the very same state (the
# reference moves on to a new state object at every step it takes), the move before was
# refused, and the reference stays with an engine that refuses (no load_state). A tile the
# engine thinks fits where the reference discards it is refused every time: a stop (the
# referee's action, for an engine that has one) lets the game go on past it.
_DRAWN_AT: weakref.WeakKeyDictionary[Lockstep, JSON] = weakref.WeakKeyDictionary()
STOPS = st.sampled_from(["format", "pick", "timeout"])

KINDS = st.sampled_from(["legal"] * 12 + ["stop-format", "stop-pick", "stop-timeout",
                                          "bad-put"])
