"""Carcassonne's departure library (reference_engine/carcassonne/departures): each model
breaks its own rule, which that rule's oracle sees, and blame names the model where it
departs; the reference's own steps are explained by no model.

A model departs from the reference at a start (its new game differs), at a step (the same
action gives another state), at a refusal (it refuses an action the reference takes) or at
an acceptance (it takes an action the reference refuses). Positions come from random
reference games (players claiming often, so meeples crowd the board and the end scores
them) and from the fuzz plugin's crafted starts (ties, a loop one tile from closing, a
monastery one gap from complete, towers in reach, ransoms...), each played on a few steps
the way the plugin's "best" mode plays (close features, claim, take The Tower's moves).
At each position the reference's own move is tried, and so are the position's one-rule
probes and the draws a river phase must refuse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest

from gamecert.fuzz.engines.capabilities import capabilities_of
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.games.carcassonne.play import _best_placement
from gamecert.fuzz.games.carcassonne.probes import rule_probes
from gamecert.fuzz.games.carcassonne.starts import pools
from gamecert.fuzz.step.blame import Blame, Model, models_for
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Transition
from gamecert.oracles.carcassonne import ORACLES
from gamecert.reference_engine.carcassonne.departures import MODELS, NOT_STATE
from gamecert.reference_engine.carcassonne.engine import CLAIM, PLACE, RIVER_PHASE, CarcState
from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.spec import Profile
from tests.carcassonne.helpers import ENGINE, profile

BY_RULE = {o.rule: o for o in ORACLES}
# Models whose change lives in what a state's JSON does not hold and a load rebuilds the
# rules' way (the fields, derived from the board): from an adopted state, one step under
# them gives the reference's state, so blame cannot name them and no single step shows
# them. They depart over a game played on their own state (`test_models_of_derived_state`).
DERIVED = {("CARC-FARM-FIELDS", "field-crosses-road")}
STEPS_FROM_CRAFTED = 6  # steps played from each crafted start
CRAFTED_PER_KIND = 3  # crafted starts of each kind walked
CLAIMS = 10  # legal claims tried at a claim step, at most


def profile_for(rule: str) -> str:
    """The profile where `rule` shows: its stage's, else the base game's."""
    if rule.startswith("CARC-TOWER-"):
        return "syncs-2025-tower"
    if rule.startswith("CARC-FARM-"):
        return "syncs-2025-farms"
    return "syncs-2025-base"


@dataclass
class Departure:
    how: str  # start, step, refusal, acceptance
    before: Any
    action: Any
    model_after: Any
    reference_after: Any
    events: list[Any]  # the model's events at the step


UNLOADABLE = object()  # a state the model cannot even load: it says nothing there
ERRORS = (IllegalAction, KeyError, TypeError, ValueError, IndexError)


def _after(game: Any, prof: Profile, before: Any, action: Any) -> tuple[Any, list[Any]]:
    """The game's state and events after `action` from `before` (None: it refuses it)."""
    try:
        s = game.adopt(prof, before)
    except BadState:
        return UNLOADABLE, []
    try:
        nxt, events = game.apply(s, game.action_from_json(s, action))
    except ERRORS:
        return None, []
    return game.observe(nxt), events


def _choose(state: CarcState, rng: random.Random) -> Any:
    """The plugin's play: mostly its "best" mode (The Tower's moves, closing placements,
    claims rather than passes), else a random move."""
    if ENGINE.current(state) == CHANCE:
        return ENGINE.random_chance(state, rng)
    if rng.random() < 0.3:
        return ENGINE.random_action(state, rng)
    actions = ENGINE.legal(state)
    rare = [a for a in actions if a[0] in ("ransom", "tower", "cap", "exchange")]
    if rare:
        actions = rare
    elif state.step == PLACE:
        actions = _best_placement(state, actions) or actions
    elif state.step == CLAIM and len(actions) > 1:
        actions = actions[1:]
    return rng.choice(actions)


def _tries(prof: Profile, state: CarcState, chosen: Any) -> list[Any]:
    """What to try at `state`: the move chosen, at a claim step every other claim (a model
    may refuse one the rules allow), the one-rule probes, and at a river draw the lake before
    its time and a land tile."""
    out = [ENGINE.action_to_json(state, chosen)]
    if state.step == CLAIM and ENGINE.current(state) != CHANCE:
        out += [ENGINE.action_to_json(state, a) for a in ENGINE.legal(state)[:CLAIMS]
                if a != chosen]
    before = ENGINE.observe(state)
    if ENGINE.current(state) == CHANCE:
        if state.phase == RIVER_PHASE:
            land = next(k for k, n in enumerate(state.deck) if n)
            out += [{"type": "draw", "tile": "RE"},
                    {"type": "draw", "tile": state.cfg.t.ids[land]}]
        return out
    ls = SimpleNamespace(ref=state, ref_json=before, profile=prof)
    return out + [a for _, a in rule_probes(ls)]  # type: ignore[arg-type]


Walk = list[tuple[Any, list[tuple[Any, Any]]]]


def _play(prof: Profile, state: CarcState, rng: random.Random, steps: int | None) -> Walk:
    out: Walk = []
    while ENGINE.current(state) != TERMINAL and (steps is None or len(out) < steps):
        chosen = _choose(state, rng)
        before = ENGINE.observe(state)
        out.append((before, [(a, _after(ENGINE, prof, before, a)[0])
                             for a in _tries(prof, state, chosen)]))
        state = ENGINE.apply(state, chosen)[0]
    return out


@cache
def _walk(pid: str) -> Walk:
    """The positions of `pid` to try models at, with the reference's state after each try
    (None: it refuses it): the crafted starts first (their rare cases are a step or two
    away), then one whole random game. Shared by every model's test."""
    prof = profile(pid)
    rng = random.Random(f"departures-{pid}")
    out: Walk = []
    for _, states in sorted(pools(prof).by_kind.items()):
        for o in states[:CRAFTED_PER_KIND]:
            out += _play(prof, ENGINE.load(prof, o), rng, STEPS_FROM_CRAFTED)
    return out + _play(prof, ENGINE.initial(prof, 1), rng, None)


def departures(model: Model, most: int = 2) -> list[Departure]:
    """Up to `most` places where `model` departs from the reference (its new game alone,
    where that differs)."""
    prof = model.profile
    start = model.game.observe(model.game.initial(prof, 1))
    reference = ENGINE.observe(ENGINE.initial(prof, 1))
    if start != reference:
        return [Departure("start", None, None, start, reference, [])]
    out: list[Departure] = []
    for before, tries in _walk(prof.id):
        for action, ref in tries:
            mine, events = _after(model.game, prof, before, action)
            if mine == ref or mine is UNLOADABLE:
                continue
            how = "refusal" if mine is None else "acceptance" if ref is None else "step"
            out.append(Departure(how, before, action, mine, ref, events))
            if len(out) >= most:
                return out
    return out


def _bad(v: Any) -> bool:
    return v is not NA and v is not OK


def objects(rule: str, d: Departure, prof: Profile) -> bool:
    """Whether `rule`'s own oracle objects to the departure: its state hook, its check (with
    the model's events, or its state-only form with none), or its judge."""
    o = BY_RULE[rule]
    if d.how == "start":
        return o.state is not None and _bad(o.state(d.model_after, prof))
    if d.how in ("refusal", "acceptance"):
        return o.judge is not None and _bad(o.judge(d.before, d.action, d.how == "acceptance",
                                                    prof))
    with_events = Transition(d.before, d.action, d.model_after, d.events)
    without = Transition(d.before, d.action, d.model_after, [])
    return ((o.check is not None and _bad(o.check(with_events, prof)))
            or (o.bare is not None and _bad(o.bare(without, prof)))
            or (o.state is not None and _bad(o.state(d.model_after, prof))))


def explained(blame: Blame, d: Departure) -> list[tuple[str, str]]:
    if d.how == "start":
        found = blame.start(1, d.model_after, d.reference_after)
    elif d.how == "refusal":
        found = blame.refusal(d.before, d.action)
    elif d.how == "acceptance":
        found = blame.acceptance(d.before, d.action, d.model_after)
    else:
        found = blame.step(d.before, d.action, d.model_after, d.reference_after)
    return [(e.rule, e.kind) for e in found]


def test_every_model_is_listed_once_with_a_kind_of_its_own() -> None:
    kinds = [(rule, kind) for rule, kind, _, _ in MODELS]
    assert len(set(kinds)) == len(kinds)
    assert {rule for rule, _ in kinds} <= set(BY_RULE)
    assert all(kind == kind.lower() and " " not in kind for _, kind in kinds)
    made = {type(make()) for _, _, _, make in MODELS}
    assert not made & set(NOT_STATE)  # no step's state tells those from the reference


SINGLE_STEP = [(r, k) for r, k, _, _ in MODELS if (r, k) not in DERIVED]


@pytest.mark.parametrize(("rule", "kind"), SINGLE_STEP, ids=[f"{r}-{k}" for r, k in SINGLE_STEP])
def test_each_model_breaks_its_rule_and_explains_itself(rule: str, kind: str) -> None:
    """In the profile where its rule shows, the model departs; its own rule's oracle objects
    there, and blame lists the model among the one-rule changes that explain it."""
    prof = profile(profile_for(rule))
    model = next(m for m in models_for("carcassonne", prof)
                 if (m.rule, m.kind) == (rule, f"model-{kind}"))
    found = departures(model)
    assert found, f"{rule} {kind}: no departure in {prof.id}"
    blame = Blame("carcassonne", prof)
    for d in found:
        assert (rule, model.kind) in explained(blame, d), (d.how, d.action)
    seen = [d for d in found if objects(rule, d, prof)]
    assert seen, [(d.how, d.action) for d in found]


@pytest.mark.parametrize("pid", ["syncs-2025-base", "syncs-2025-tower", "classic-farms-2p"])
def test_the_reference_is_explained_by_no_model(pid: str) -> None:
    """The reference behind `bare:` (its own draws, no events), played in lockstep through
    a random game with every one-rule probe offered at each of its turns: no finding, so no
    model is ever charged; and blame asked about a step where the engine agrees explains
    nothing."""
    prof = profile(pid)
    engine = object_recipe("carcassonne", "bare:reference").open()
    found: list[Any] = []
    ls = Lockstep(ENGINE, engine, prof, oracles_for("carcassonne"),
                  caps=capabilities_of(engine.hello()), go_on=True, on_finding=found.append)
    try:
        ls.start({"kind": "new_game", "seed": 3})
        rng, probes, steps = random.Random(3), 0, 0
        blame = Blame("carcassonne", prof)
        while ls.live and steps < 400:
            if ENGINE.current(ls.ref) != CHANCE:
                for rule, action in rule_probes(ls):
                    assert ls.probe(action, rule), (rule, action)  # the reference refuses it
                    probes += 1
            before, state = ls.ref_json, ls.ref
            action = ENGINE.action_to_json(state, _choose(state, rng))
            ls.step(action)
            steps += 1
            assert blame.step(before, action, ls.ref_json, ls.ref_json) == []
        ls.end_example()
    finally:
        engine.close()
    assert not found, [str(f) for f in found]
    assert probes > 100 and ls.coverage.probes["CARC-PLACE-MATCH"] > 0


def _apart(model: Model, seed: int) -> Departure | None:
    """The first step of a game where `model`, playing on its own state, does otherwise
    than the reference: the reference's moves (and at a claim step every claim) tried on
    both, from the same seed."""
    prof, game = model.profile, model.game
    rng = random.Random(seed)
    ref, mine = ENGINE.initial(prof, seed), game.initial(prof, seed)
    while ENGINE.current(ref) != TERMINAL:
        chosen = _choose(ref, rng)
        before = ENGINE.observe(ref)
        assert game.observe(mine) == before
        for action in _tries(prof, ref, chosen)[:1 + CLAIMS]:
            theirs, _ = _after(ENGINE, prof, before, action)
            try:
                after, events = game.apply(mine, game.action_from_json(mine, action))
                got: Any = game.observe(after)
            except ERRORS:
                got, events = None, []
            if got != theirs:
                how = "refusal" if got is None else "acceptance" if theirs is None else "step"
                return Departure(how, before, action, got, theirs, events)
        ref = ENGINE.apply(ref, chosen)[0]
        mine = game.apply(mine, chosen)[0]
    return None


@pytest.mark.parametrize(("rule", "kind"), sorted(DERIVED))
def test_models_of_derived_state(rule: str, kind: str) -> None:
    """A model of `DERIVED` departs in a game played on its own state, and its rule's own
    oracle objects there."""
    prof = profile(profile_for(rule))
    model = next(m for m in models_for("carcassonne", prof)
                 if (m.rule, m.kind) == (rule, f"model-{kind}"))
    found = [d for d in (_apart(model, seed) for seed in range(1, 6)) if d is not None]
    assert found, f"{rule} {kind}: the model never departs"
    assert any(objects(rule, d, prof) for d in found), [(d.how, d.action) for d in found]
