"""Kingdomino's departure library (reference_engine/kingdomino/departures): each model breaks
its own rule, which that rule's oracle sees, and blame names the model where it departs; the
reference's own steps are explained by no model.

A model departs from the reference at a start (its new game differs), at a step (the same
action gives another state), at a refusal (it refuses an action the reference takes) or at
an acceptance (it takes a one-rule probe the reference refuses). Random reference games under
the profiles where each rule shows (2, 3 and 4 players, the Wood league) are walked, and at
each state the reference's own move, the referee's stops and the position's one-rule probes
are tried under every model.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from gamecert.fuzz.engines.capabilities import capabilities_of
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.games.kingdomino.probes import build
from gamecert.fuzz.step.blame import Blame, Model, models_for
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Transition
from gamecert.oracles.kingdomino import ORACLES
from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.reference_engine.kingdomino.departures import MODELS, NOT_MODELS
from gamecert.spec import Profile
from tests.kingdomino.helpers import GAME, profile

PROFILES = ("legend", "legend-3p", "legend-2p", "wood")
STOPS = [{"type": "stop", "cause": c} for c in ("format", "pick", "timeout")]
BY_RULE = {o.rule: o for o in ORACLES}


@dataclass
class Departure:
    how: str  # start, step, refusal, acceptance
    before: Any
    action: Any
    model_after: Any
    reference_after: Any


UNLOADABLE = object()  # a state the model cannot even load: it says nothing there


def _after(model: Model, before: Any, action: Any) -> Any:
    """The model's state after `action` (None: it refuses it)."""
    game = model.game
    try:
        s = game.load(model.profile, before)
    except BadState:
        return UNLOADABLE
    try:
        nxt, _ = game.apply(s, game.action_from_json(s, action))
    except IllegalAction:
        return None
    return game.observe(nxt)


def _reference_after(prof: Profile, before: Any, action: Any) -> Any:
    return _after(Model("", "", "", "", GAME, prof), before, action)


@cache
def _walk(pid: str, seed: int) -> list[tuple[Any, list[tuple[Any, Any]]]]:
    """Each state of a random reference game, with the actions to try there and the
    reference's state after each (None: it refuses it): the reference's own choice, then at
    a king's turn the stops and the one-rule probes. Shared by every model's test."""
    prof = profile(pid)
    rng = random.Random(seed)
    state = GAME.initial(prof)
    out = []
    while GAME.current(state) != TERMINAL:
        who = GAME.current(state)
        act = GAME.random_chance(state, rng) if who == CHANCE else \
            GAME.random_action(state, rng)
        before = GAME.observe(state)
        tries = [GAME.action_to_json(state, act)]
        if who != CHANCE:
            tries += STOPS
        tries += [a for _, a in build(before, prof)]
        out.append((before, [(a, _reference_after(prof, before, a)) for a in tries]))
        state, _ = GAME.apply(state, act)
    return out


def departures(model: Model, seeds: tuple[int, ...] = (1, 2), most: int = 3
               ) -> list[Departure]:
    """Up to `most` places where `model` departs from the reference in random games."""
    prof = model.profile
    out: list[Departure] = []
    start = model.game.observe(model.game.initial(prof))
    if start != GAME.observe(GAME.initial(prof)):
        out.append(Departure("start", None, None, start, GAME.observe(GAME.initial(prof))))
    for seed in seeds:
        for before, tries in _walk(prof.id, seed):
            for action, ref in tries:
                mine = _after(model, before, action)
                if mine == ref or mine is UNLOADABLE:
                    continue
                how = "refusal" if mine is None else "acceptance" if ref is None else "step"
                out.append(Departure(how, before, action, mine, ref))
                if len(out) >= most:
                    return out
    return out


def objects(rule: str, d: Departure, prof: Profile) -> bool:
    """Whether `rule`'s own oracle objects to the departure."""
    o = BY_RULE[rule]

    def bad(v: Any) -> bool:
        return v is not NA and v is not OK

    if d.how == "start":
        return o.state is not None and bad(o.state(d.model_after, prof))
    if d.how in ("refusal", "acceptance"):
        return o.judge is not None and bad(o.judge(d.before, d.action, d.how == "acceptance",
                                                   prof))
    t = Transition(d.before, d.action, d.model_after, [])
    return (o.check is not None and bad(o.check(t, prof))) or (
        o.state is not None and bad(o.state(d.model_after, prof)))


def explained(blame: Blame, d: Departure) -> list[tuple[str, str]]:
    if d.how == "start":
        found = blame.start(None, d.model_after, d.reference_after)
    elif d.how == "refusal":
        found = blame.refusal(d.before, d.action)
    elif d.how == "acceptance":
        found = blame.acceptance(d.before, d.action, d.model_after)
    else:
        found = blame.step(d.before, d.action, d.model_after, d.reference_after)
    return [(e.rule, e.kind) for e in found]


def _library_models(pid: str) -> list[Model]:
    return [m for m in models_for("kingdomino", profile(pid)) if m.source == "model"]


def test_every_model_is_listed_once_with_a_kind_of_its_own() -> None:
    kinds = [(rule, kind) for rule, kind, _, _ in MODELS]
    assert len(set(kinds)) == len(kinds)
    rules = {o.rule for o in ORACLES}
    assert {rule for rule, _ in kinds} <= rules
    assert all(kind == kind.lower() and " " not in kind for _, kind in kinds)
    made = {type(make()) for _, _, _, make in MODELS}
    assert not made & set(NOT_MODELS)  # a reading, a parameter, or no transition of its own


@pytest.mark.parametrize(("rule", "kind"), [(r, k) for r, k, _, _ in MODELS],
                         ids=[f"{r}-{k}" for r, k, _, _ in MODELS])
def test_each_model_breaks_its_rule_and_explains_itself(rule: str, kind: str) -> None:
    """Somewhere in the profiles, the model departs; its own rule's oracle objects there,
    and blame lists the model among the one-rule changes that explain it."""
    seen: list[str] = []
    for pid in PROFILES:
        model = next(m for m in _library_models(pid) if (m.rule, m.kind) == (rule,
                                                                            f"model-{kind}"))
        found = departures(model)
        if not found:
            continue
        blame = Blame("kingdomino", model.profile)
        for d in found:
            assert (rule, model.kind) in explained(blame, d), (pid, d.how, d.action)
        seen += [f"{pid}: {d.how} {d.action}" for d in found if objects(rule, d, model.profile)]
        if seen:
            break
    assert seen, f"{rule} {kind}: no departure its own oracle sees in {PROFILES}"


@pytest.mark.parametrize("pid", PROFILES)
def test_the_reference_is_explained_by_no_model(pid: str) -> None:
    """The reference behind `bare:` (its own draws, no events), played in lockstep through
    a random game with every one-rule probe offered at every king's turn: no finding, so no
    model is ever charged; and blame asked about a step where the engine agrees explains
    nothing."""
    prof = profile(pid)
    engine = object_recipe("kingdomino", "bare:reference").open()
    found: list[Any] = []
    ls = Lockstep(GAME, engine, prof, oracles_for("kingdomino"),
                  caps=capabilities_of(engine.hello()), go_on=True, on_finding=found.append)
    ls.start({"kind": "new_game", "seed": 3})
    rng, probes = random.Random(3), 0
    while ls.live:
        for rule, action in build(ls.ref_json, prof):
            assert ls.probe(action, rule), (rule, action)  # the reference refuses it
            probes += 1
        before, state = ls.ref_json, ls.ref
        action = GAME.action_to_json(state, GAME.random_action(state, rng))
        ls.step(action)
        assert Blame("kingdomino", prof).step(before, action, ls.ref_json, ls.ref_json) == []
    ls.end_example()
    assert not found, [str(f) for f in found]
    assert probes > 100 and ls.coverage.probes["KD-PLACE-EXTENT"] > 0
