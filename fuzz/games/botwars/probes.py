"""Bot Wars' probes: the plain probes (`draw_probe`: a step of the wrong phase, energy on a
taken or no mirror pair, malformed actions), and probes that each break one rule and no
other (the plugin's `rule_probes`).

A rule with a `judge` hook says which actions an engine must refuse; a one-rule probe is
such an action that only that rule's judge refuses in the current position (checked here:
every other judge finds accepting it fine). In Bot Wars a list of moves is never refused
(invalid moves are ignored, BOTWARS-MOVE-INVALID), so the probes are actions out of turn
(BOTWARS-TURN-ORDER), a bad-format verdict when no bot is to move (BOTWARS-FORMAT-DQ), and
energy outcomes the placement rules forbid (BOTWARS-ENERGY-SPAWN, -SQUARES).

No probe is JSON that equals a legal action once parsed: JSON has one number type, so an
integral float (21.0) or -0 is the integer to any engine, and a member order or repeated
key is not seen by a parser at all. A number's spelling is a bot's text, sent through
`bot_output` (BOTWARS-FORMAT-DQ's referee), never an action.

This module builds actions only; it must not drive engines.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.botwars.play import _moves_json, _weighted, index
from gamecert.oracles.base import Violation
from gamecert.oracles.botwars import ORACLES
from gamecert.reference_engine.botwars import BotWars, BotWarsState
from gamecert.reference_engine.contract import IllegalAction
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any
GAME = BotWars()
JUDGES = tuple((o.rule, o.judge) for o in ORACLES if o.judge is not None)

# Actions no engine may take: not a Bot Wars action at all. None equals a legal action once
# parsed (no 21.0 for 21), and none carries only an extra member (the rules ignore other
# members of a bot's reply; a lenient adapter that drops them is not wrong).
MALFORMED: tuple[JSON, ...] = (
    {"type": "pass"}, {"type": "moves"}, {"type": "moves", "moves": [{"from": 21}]},
    {"type": "moves", "moves": [{"from": True, "to": 22}]},
    {"type": "moves", "moves": [{"from": "21", "to": 22}]},
    {"type": "moves", "moves": [{"from": 21.5, "to": 22}]},
    {"type": "moves", "moves": [[21, 22]]}, {"type": "energy"}, {"type": "energy", "at": [5]},
    {"type": "energy", "at": [-1, 400]},
)


def only_rule(state: JSON, action: JSON, profile: Profile) -> str | None:
    """The one rule whose judge refuses `action` in `state` (every other judge finds
    accepting it fine or not its business), or None."""
    refusing = [rule for rule, judge in JUDGES
                if isinstance(judge(state, action, True, profile), Violation)]
    return refusing[0] if len(refusing) == 1 else None


def rule_probes(ls: Lockstep) -> list[tuple[str, JSON]]:
    """(rule, action) pairs: each action breaks that rule and no other in the reference's
    position (the lockstep's)."""
    return list(_probes(ls.ref, ls.profile))


@lru_cache(maxsize=64)  # a state is asked about as often as the machine probes it
def _probes(state: BotWarsState, profile: Profile) -> tuple[tuple[str, JSON], ...]:
    seen = GAME.observe(state)
    out: list[tuple[str, JSON]] = []
    for rule, action in _candidates(state):
        if _refused(state, action) and only_rule(seen, action, profile) == rule:
            out.append((rule, action))
    return tuple(out)


def _candidates(state: BotWarsState) -> list[tuple[str, JSON]]:
    """The actions tried, each with the rule it is built to break."""
    cfg = state.cfg
    size = cfg.size
    pairs = GAME.free_pairs(state)
    some = [pairs[0], pairs[len(pairs) // 2], pairs[-1]] if pairs else []
    energy = [{"type": "energy", "at": [s, size - 1 - s]} for s in dict.fromkeys(some)]
    bot = [{"type": "moves", "moves": []}, {"type": "timeout"}]
    if state.phase in ("p1", "p2"):
        # energy placed in a bot's phase: out of turn
        return [("BOTWARS-TURN-ORDER", a) for a in [*energy, {"type": "energy", "at": None}]]
    if state.phase == "over":
        return [*[("BOTWARS-TURN-ORDER", a) for a in [*bot, *energy]],
                ("BOTWARS-FORMAT-DQ", {"type": "bad-format"})]
    # the energy phase: a bot's action, a bad-format verdict, a pair that is not free (a
    # botlet or energy on it), a spawn point's pair where spawn points take none, none
    # placed while a pair is free
    half = size // 2
    taken = [s for s in range(half) if not GAME.free_pair(state, s)
             and GAME.energy_may_cover(cfg, s) and GAME.energy_may_cover(cfg, size - 1 - s)]
    spawn_pairs = sorted({min(sq, size - 1 - sq) for sq in cfg.spawns[1:]})
    out = [*[("BOTWARS-TURN-ORDER", a) for a in bot],
           ("BOTWARS-FORMAT-DQ", {"type": "bad-format"})]
    out += [("BOTWARS-ENERGY-SPAWN", {"type": "energy", "at": [s, size - 1 - s]})
            for s in taken[:3]]
    out += [("BOTWARS-ENERGY-SQUARES", {"type": "energy", "at": [s, size - 1 - s]})
            for s in spawn_pairs]
    if pairs:
        out.append(("BOTWARS-ENERGY-SPAWN", {"type": "energy", "at": None}))
    return out


def _refused(state: BotWarsState, action: JSON) -> bool:
    """Does the reference refuse `action` (a probe only where it does)?"""
    try:
        GAME.apply(state, GAME.action_from_json(state, action))
    except IllegalAction:
        return True
    return False


__all__ = ["MALFORMED", "only_rule", "rule_probes"]


def draw_probe(data: st.DataObject, ls: Lockstep) -> JSON:
    state: BotWarsState = ls.ref
    cfg = state.cfg
    kind = data.draw(PROBE_KINDS, label="probe kind")
    if kind == "malformed":
        return data.draw(MALFORMED_ACTIONS, label="malformed")
    if kind == "wrong-phase":
        if state.phase == "energy":
            return data.draw(BOT_ACTIONS, label="bot action")
        pairs = GAME.free_pairs(state)
        s = pairs[data.draw(index(len(pairs)), label="pair")] if pairs else 0
        return {"type": "energy", "at": [s, cfg.size - 1 - s]}
    half = cfg.size // 2
    taken = [s for s in range(half) if not GAME.free_pair(state, s)] \
        if kind == "energy-taken" else []
    if kind == "energy-none" or (kind == "energy-taken" and not taken):
        # (every pair free: an empty field where spawn points take energy too)
        return {"type": "energy", "at": None}
    if kind == "energy-taken":  # a mirror pair with something on it, or a spawn
        s = taken[data.draw(index(len(taken)), label="taken pair")]
        return {"type": "energy", "at": [s, cfg.size - 1 - s]}
    a = data.draw(index(cfg.size), label="square")
    b = data.draw(OTHER_END, label="other end")(a, cfg.size)
    return {"type": "energy", "at": [a, b] if a + b != cfg.size - 1 else [max(a, b),
                                                                           min(a, b)]}


MALFORMED_ACTIONS = st.sampled_from(MALFORMED)
BOT_ACTIONS = st.sampled_from([_moves_json([]), {"type": "timeout"}, {"type": "bad-format"}])
# the other square of an energy outcome that is no mirror pair: the same square, one past
# or before the mirror, the next square
OTHER_END: st.SearchStrategy[Callable[[int, int], int]] = st.sampled_from([
    lambda a, size: a, lambda a, size: size - a, lambda a, size: size - 2 - a,
    lambda a, size: a + 1])
PROBE_KINDS = _weighted(("wrong-phase", 3), ("energy-taken", 3), ("energy-none", 2),
                        ("energy-unpaired", 2), ("malformed", 1))
