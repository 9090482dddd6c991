"""What an engine declares it can do (`hello`'s `capabilities`), and what the harness plans
from it.

The minimum every engine offers is `hello`, `new_game` (with a seed), `apply` and `observe`.
Everything else is declared: `load_state` (crafted starts, reloads, resyncs), `legal` (legal
sets compared), `bot_output` (the referee's reading of raw bot text), `chance` (chance
outcomes accepted as actions; without it the engine draws for itself and reports its draws:
follow mode). A missing or malformed list means the minimum.

This module only plans: which rules cannot be checked without a capability, which rule a
chance outcome falls under, how examples start. It must not drive engines or write reports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis import strategies as st

from gamecert.oracles.base import Oracle

JSON = Any

LOAD_STATE, LEGAL, BOT_OUTPUT, CHANCE, STATELESS = (
    "load_state", "legal", "bot_output", "chance", "stateless")
KNOWN = (LOAD_STATE, LEGAL, BOT_OUTPUT, CHANCE, STATELESS)
# what an engine that declares everything can be asked (today's full protocol)
FULL: frozenset[str] = frozenset(KNOWN)
MINIMUM: frozenset[str] = frozenset()

# Not a capability but a declared limit (extension, adapters helper): the engine reports no
# events of its own (a real engine has none of our canonical events), so the harness compares
# its states and its draw reports only, and its oracles read the reference's events. Kept
# out of KNOWN and FULL: an engine that does not declare it has its events compared.
NO_EVENTS = "no_events"

# An optional capability kept out of KNOWN and FULL too (extension, adapters): `undo` takes
# back the last accepted `apply` and answers the state before it. An engine without
# `load_state` that keeps its game from before a move (the adapter kit's `copy_before_play`)
# offers it, so an example can go on after it accepted an action it should have refused.
UNDO = "undo"
# what an engine without events lacks, for the certificate ("needs events")
EVENTS = "events"

# A declared limit too (extension, adapters): the engine has no referee, so the actions
# only a referee makes (a bot's failure recorded as an action, such as Kingdomino's `stop`)
# mean nothing to it, as in a board game played at a console that asks again. The harness
# sends it none; the rules about them are then exercised by no step of this engine.
NO_REFEREE = "no_referee"
REFEREE_ACTIONS: dict[str, tuple[str, ...]] = {"kingdomino": ("stop", "invalid-put")}
# The rules about those actions: with no referee action ever sent, nothing checks them, so
# the certificate lists them as not checkable rather than passed on steps that never met them.
# Named here: the rules whose oracles also look at other steps (a stopped king in a state);
# a rule whose oracle judges only referee actions (`on` within REFEREE_ACTIONS, no state or
# referee hook, such as KD-PROTO-LIMITS: a late reply is a `stop`) is found by `_referee_only`.
REFEREE_RULES: dict[str, tuple[str, ...]] = {"kingdomino": ("KD-STOP", "KD-PUT-INVALID")}
REFEREE = "a referee (the engine declares no_referee)"

# Harness checks that need a capability to exist at all.
HARNESS_NEEDS = {"ENGINE-LOAD-STATE": LOAD_STATE, "ENGINE-STATE-ROUNDTRIP": LOAD_STATE}

# The rule a chance outcome is drawn under, by the kind of the reference's chance action
# (its first element). A reported outcome the reference does not list is a finding under
# this rule, and the statistics of the draws are charged to it.
CHANCE_RULES: dict[str, dict[str, str]] = {
    "carcassonne": {"draw": "CARC-DECK-DRAW"},
    "flit": {"setup": "FLIT-SETUP-AVAILABLE", "neutral": "FLIT-NEUTRAL-ADD",
             "neutral-list": "FLIT-NEUTRAL-ADD"},
    "botwars": {"energy": "BOTWARS-ENERGY-SPAWN"},
    "kingdomino": {"order": "KD-ORDER-FIRST", "deal": "KD-DEAL"},
}

# Rules an engine without `chance` gives no way to check: their oracle must see the state
# between a player's action and the draw that follows it (the engine replies with both at
# once), or a draw as a step of its own (set-up draws happen inside new_game). Found by
# running the reference behind the minimum-capability wrapper (fuzz.engines.minimal): these oracles
# flag the reference's own combined steps, or never apply; tests/capabilities checks the
# list stays true.
NEEDS_CHANCE: dict[str, tuple[str, ...]] = {
    "flit": ("FLIT-CONVERT", "FLIT-END-TIMING", "FLIT-MOVE-INVALID", "FLIT-MOVE-NOMOVE",
             "FLIT-TIME-LIMIT", "FLIT-TURN-ORDER", "FLIT-SETUP-ORDER"),
    "botwars": ("BOTWARS-ENERGY-SPAWN",),
    "carcassonne": ("CARC-HAND-DEAL", "CARC-RIVER-DRAW"),
    "kingdomino": (),
}

# seeds for new games when nothing can be loaded: Hypothesis draws them, so they shrink and
# replay with the example
SEEDS = st.integers(0, 2**31 - 1)


def capabilities_of(hello: JSON) -> frozenset[str]:
    """The capabilities `hello` declares; a missing or non-list entry means the minimum.
    Unknown strings are kept (an engine may declare more than this harness knows)."""
    caps = hello.get("capabilities") if isinstance(hello, dict) else None
    if not isinstance(caps, list):
        return MINIMUM
    return frozenset(c for c in caps if isinstance(c, str))


def chance_rule(game: str, action: Any) -> str:
    """The rule a reference chance action (internal form) is drawn under."""
    kind = action[0] if isinstance(action, tuple) and action else action
    rules = CHANCE_RULES.get(game, {})
    return rules.get(str(kind), next(iter(rules.values()), "ENGINE-AGREES"))


def is_chance_report(event: JSON) -> bool:
    """`{"chance": <outcome>}`: a draw the engine made and reports (follow mode)."""
    return isinstance(event, dict) and len(event) == 1 and "chance" in event


def not_checkable(caps: frozenset[str], oracles: Iterable[Oracle],
                  game: str = "") -> dict[str, str]:
    """Rule id -> the missing capability it needs: rules the engine gives no way to check.

    A rule is listed only when every hook of its oracle needs the missing capability:
    referee hooks need `bot_output`; `listed` hooks need `legal` (judges also speak on
    probes, so a rule with a judge stays checkable). Without `chance`, the game's
    `NEEDS_CHANCE`. The harness's load checks need `load_state`."""
    out: dict[str, str] = {}
    for o in oracles:
        other = any((o.state, o.check, o.judge))
        if o.referee and not other and not o.listed and BOT_OUTPUT not in caps:
            out[o.rule] = BOT_OUTPUT
        elif o.listed and not other and not o.referee and LEGAL not in caps:
            out[o.rule] = LEGAL
        elif not other and o.referee and o.listed and LEGAL not in caps \
                and BOT_OUTPUT not in caps:
            out[o.rule] = f"{LEGAL} or {BOT_OUTPUT}"
    if CHANCE not in caps:
        for rule in NEEDS_CHANCE.get(game, ()):
            out.setdefault(rule, CHANCE)
    if NO_REFEREE in caps:
        for rule in (*REFEREE_RULES.get(game, ()), *_referee_only(oracles, game)):
            out.setdefault(rule, REFEREE)
    if NO_EVENTS in caps:  # what only the step's events show is never seen
        for rule in _event_only(oracles):
            out.setdefault(rule, EVENTS)
    for rule, cap in HARNESS_NEEDS.items():
        if cap not in caps:
            out[rule] = cap
    return out


def _referee_only(oracles: Iterable[Oracle], game: str) -> list[str]:
    """Rules every oracle of which judges referee actions only: with no referee, no step of
    the engine ever meets them."""
    kinds = set(REFEREE_ACTIONS.get(game, ()))
    by_rule: dict[str, list[Oracle]] = {}
    for o in oracles:
        by_rule.setdefault(o.rule, []).append(o)
    return [rule for rule, these in by_rule.items()
            if kinds and all(o.on is not None and o.on <= kinds and o.check is not None
                             and not any((o.state, o.judge, o.referee, o.listed, o.weights))
                             for o in these)]


def checked_in_part(caps: frozenset[str], oracles: Iterable[Oracle], game: str = "",
                    unchecked: dict[str, str] | None = None,
                    crafted: Mapping[str, Iterable[str]] | None = None) -> dict[str, str]:
    """Rule id -> the missing capability a part of it needs: rules still checked, but not
    whole. Derived from what each oracle's hooks need, never from a run:

    * a chance rule without `chance`: the draws are followed and tested, but which outcomes
      the engine would accept (an outcome the rules forbid, one it never draws) only a
      harness that chooses outcomes can offer;
    * a rule with a `listed` or `weights` hook without `legal`: what the engine would list
      (moves, probabilities) is never seen, only what it does;
    * a rule with a `judge` hook without `legal`: what the engine accepts is seen only
      through the probes tried, never as its whole legal set;
    * a rule with a `referee` hook without `bot_output`: raw bot text is never read;
    * a rule the game's crafted starts are for (`crafted`: the plugin's `crafted_for`, each
      kind of start and the rules whose rare cases it puts a step away) without
      `load_state`: its cases are met only where play from a new game gets to them.

    A rule already not checkable at all (`unchecked`) is not listed again; a rule with
    parts needing two capabilities names both ("chance and legal")."""
    out: dict[str, list[str]] = {}
    skip = unchecked or {}

    def add(rule: str, cap: str) -> None:
        if cap not in out.setdefault(rule, []):
            out[rule].append(cap)

    if CHANCE not in caps:
        for rule in CHANCE_RULES.get(game, {}).values():
            add(rule, CHANCE)
    if LOAD_STATE not in caps:
        for rules in (crafted or {}).values():
            for rule in rules:
                add(rule, LOAD_STATE)
    for o in oracles:
        if (o.listed or o.weights or o.judge) and LEGAL not in caps:
            add(o.rule, LEGAL)
        if o.referee and BOT_OUTPUT not in caps:
            add(o.rule, BOT_OUTPUT)
        if o.reads_events and NO_EVENTS in caps:
            add(o.rule, EVENTS)
    return {r: " and ".join(c) for r, c in out.items() if r not in skip}


def _event_only(oracles: Iterable[Oracle]) -> list[str]:
    """Rules whose every check reads the step's events with no state-only form, and that
    have no other hook: an engine without events gives them nothing to judge."""
    hooks: dict[str, list[bool]] = {}
    for o in oracles:
        blind = o.check is not None and o.reads_events and o.bare is None
        other = any((o.state, o.judge, o.referee, o.listed, o.weights)) or (
            o.check is not None and not blind)
        hooks.setdefault(o.rule, []).append(blind and not other)
    return [rule for rule, blind in hooks.items() if all(blind)]


def seeded_new_games() -> st.SearchStrategy[JSON]:
    """Starts for an engine that cannot load states: new games, each with its own seed."""
    return SEEDS.map(lambda s: {"kind": "new_game", "seed": s})
