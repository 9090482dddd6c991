"""The departure library (gamecert.reference_engine.botwars.departures): each model is a
real one-rule departure (it differs from the reference somewhere, and there its own rule's
oracle objects: with the model's own events, or in its state-only form, or as a judge of
what it accepts), blame by its models names it, and the reference itself is never
explained by a model: behind `bare:` it gives no finding at all."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from gamecert.fuzz.engines.capabilities import capabilities_of
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.minimal import minimal_session
from gamecert.fuzz.games.botwars.crafted import layout, position
from gamecert.fuzz.games.botwars.play import move_list
from gamecert.fuzz.games.botwars.starts import played_state
from gamecert.fuzz.step.blame import blame_for
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Transition, Verdict
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig, BotWarsState
from gamecert.reference_engine.botwars.departures import MODELS, NOT_MODELS
from gamecert.reference_engine.contract import CHANCE, BadState, IllegalAction
from gamecert.spec import Profile

from .fuzzing import CAT

REF = BotWars()
PROFILE = CAT.profile()
BY_RULE = {o.rule: o for o in oracles_for("botwars")}
KINDS = ("walk", "odd", "attack", "bump", "energy", "collide")


def _objects(verdict: Verdict) -> bool:
    return verdict is not OK and verdict is not NA


def _extra(state: BotWarsState, rng: random.Random) -> list[tuple[int, int]]:
    """Entries the random lists seldom hold: a step onto an enemy, a diagonal step, a
    botlet named twice."""
    cfg, grid, side = state.cfg, state.grid, state.side
    mine = REF.botlets(grid, side)
    out = []
    for f in mine:
        for t in cfg.nbrs[f]:
            if grid[t] == b"12"[2 - side]:
                out.append((f, t))
    if mine:
        f = rng.choice(mine)
        out.append((f, rng.choice([d for d in cfg.nbrs8[f] if d not in cfg.nbrs[f]])))
        out += [(f, t) for t in cfg.nbrs[f][:2]]
    return out


def positions(seed: int, profile: Profile = PROFILE) -> Iterator[BotWarsState]:
    """Mid-game positions with the rare cases near (the plugin's crafted layouts), each
    bot to move, and positions of played games (the end near included)."""
    rng = random.Random(seed)
    cfg = BotWarsConfig.of(profile)
    for k in range(40):
        grid = bytes(layout(cfg, rng))
        turns = rng.choice([5, 50, 120, cfg.max_turns - 1, cfg.max_turns - 2])
        energy = (rng.choice([0, 1, 3]), rng.choice([0, 1, 3]))
        for phase in ("p1", "p2"):
            yield REF.load(profile, position(profile, grid, turns, phase, energy,
                                             (k % 5 == 0, False), rng))
        yield REF.load(profile, played_state(profile, k, rng.choice([3, 60, 190, 199]),
                                             rng.choice([0.0, 0.7])))


def built(profile: Profile) -> Iterator[BotWarsState]:
    """Positions random play seldom reaches, built square by square: p1's last botlet
    about to die between two enemies while p1 can pay for a new one (the end of the game
    judged before or after the spawns)."""
    grid = bytearray(b"." * 400)
    grid[100], grid[80], grid[120], grid[300] = ord("1"), ord("2"), ord("2"), ord("2")
    doc = position(profile, bytes(grid), 40, "p2", (1, 0), (False, False), None)
    yield REF.load(profile, doc)


def steps(seed: int, profile: Profile = PROFILE) -> Iterator[tuple[BotWarsState, Any]]:
    """(position, action): lists of every kind, the rare entries, and in an energy phase
    every kind of outcome (free pairs, taken pairs, none)."""
    rng = random.Random(seed)
    for state in [*built(profile), *positions(seed, profile)]:
        if REF.current(state) == CHANCE:
            size = state.cfg.size
            for s in rng.sample(range(size // 2), 6):
                yield state, ("energy", s)
            continue
        pending = REF.observe(state)["pending"]
        for kind in KINDS:
            yield state, ("moves", tuple(move_list(kind, state, pending, rng)))
        base = list(REF.random_action(state, rng, odd=0.0)[1])
        for entry in _extra(state, rng)[:6]:
            yield state, ("moves", (*[mv for mv in base if mv[0] != entry[0]], entry))
        yield state, ("moves", (*base, *base[:1]))
        # the turn carried out, then its energy (a chance step of its own)
        if state.phase == "p2":
            after, _ = REF.apply(state, ("moves", tuple(base)))
            if REF.current(after) == CHANCE:
                for s in rng.sample(range(after.cfg.size // 2), 6):
                    yield after, ("energy", s)


def _caught(model: BotWars, rule: str, seed: int, profile: Profile) -> str | None:
    """A step on which `model` departs from the reference and `rule`'s oracle objects (its
    check with the model's events, its state-only form, or its judge of the model's
    accepting an action the reference refuses), described; None when none is met."""
    oracle = BY_RULE[rule]
    for state, action in steps(seed, profile):
        before = REF.observe(state)
        action_json = REF.action_to_json(state, action)
        try:
            mine = model.load(profile, before)
            after, events = model.apply(mine, model.action_from_json(mine, action_json))
        except (IllegalAction, BadState):
            continue
        try:
            want = REF.observe(REF.apply(state, action)[0])
        except IllegalAction:  # the model accepts what the rules refuse
            if oracle.judge is not None and _objects(
                    oracle.judge(before, action_json, True, profile)):
                return f"accepts {action_json}"
            continue
        got = model.observe(after)
        if got == want:
            continue
        t = Transition(before, action_json, got, events)
        forms = [oracle.check, oracle.bare]
        for form in forms:
            if form is not None and (oracle.on is None or action_json["type"] in oracle.on):
                verdict = form(t if form is oracle.check else t._replace(events=[]), profile)
                if _objects(verdict):
                    return f"{action_json}: {verdict}"
        if oracle.state is not None and _objects(oracle.state(got, profile)):
            return f"{action_json}: {oracle.state(got, profile)}"
    return None


# Models whose departure shows under another profile only: of a botlet's entries, the
# last counting differs from the first counting only where the list is not lost anyway
SHOWN_UNDER = {"later-entry-counts": "lenient"}


@pytest.mark.parametrize(("rule", "kind", "text", "make"), MODELS,
                         ids=[f"{r}-{k}" for r, k, _, _ in MODELS])
def test_each_model_breaks_its_own_rule(rule: str, kind: str, text: str, make: Any) -> None:
    assert rule in CAT.rule_ids and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", kind) and text
    model = make()
    assert isinstance(model, BotWars) and type(model) is not BotWars
    profile = CAT.profile(SHOWN_UNDER.get(kind))
    assert _caught(model, rule, 0, profile) is not None, f"{kind}: no step shows it"


def test_the_models_are_not_the_catalogues_readings() -> None:
    """The library repeats no reading or parameter move (fuzz.step.blame makes those), and keeps
    the public mutants that are one out of MODELS."""
    made = {type(make()) for _, _, _, make in MODELS}
    assert not made & set(NOT_MODELS)
    assert len({(r, k) for r, k, _, _ in MODELS}) == len(MODELS)


@pytest.mark.parametrize(("rule", "kind", "text", "make"), MODELS,
                         ids=[f"{r}-{k}" for r, k, _, _ in MODELS])
def test_blame_names_the_model_on_a_step_it_departs(rule: str, kind: str, text: str,
                                                    make: Any) -> None:
    """A step of a model is explained by that model (others may explain it too, listed
    after it), and a step on which the engine agrees is explained by none."""
    profile = CAT.profile(SHOWN_UNDER.get(kind))
    blame = blame_for("botwars", profile)
    model = make()
    for state, action in steps(1, profile):
        before = REF.observe(state)
        action_json = REF.action_to_json(state, action)
        try:
            mine = model.load(profile, before)
            got = model.observe(model.apply(mine, model.action_from_json(mine, action_json))[0])
        except (IllegalAction, BadState):
            continue
        try:
            want = REF.observe(REF.apply(state, action)[0])
        except IllegalAction:  # it accepts what the rules refuse: blame's acceptance
            found = blame.acceptance(before, action_json, got)
            assert f"{rule}|model-{kind}" in {e.key for e in found}, (kind, found)
            return
        assert blame.step(before, action_json, want, want) == []
        if got != want:
            found = blame.step(before, action_json, got, want)
            assert f"{rule}|model-{kind}" in {e.key for e in found}, (kind, found)
            return
    pytest.fail(f"{kind}: no step departs")


def test_the_reference_behind_bare_gives_no_finding() -> None:
    """Whole games of the reference behind `bare:`: no model and no state-only form
    objects to a single step (nothing differs, so nothing is blamed)."""
    engine = InProcessEngine(minimal_session(reference_session("botwars"), bare=True))
    caps = capabilities_of(engine.hello())
    played = 0
    for k, toward in enumerate((0.0, 0.6)):
        ls = Lockstep(REF, engine, PROFILE, oracles_for("botwars"), seed=k, caps=caps,
                      go_on=True)
        ls.start({"kind": "new_game", "seed": k})
        rng = random.Random(k)
        while ls.live:
            state: Any = ls.ref
            act = (REF.random_chance(state, rng) if REF.current(state) == CHANCE
                   else REF.random_action(state, rng, odd=0.2, toward=toward))
            ls.step(REF.action_to_json(state, act))
        ls.end_example()
        assert ls.found == [] and ls.muted_findings == []
        played += ls.coverage.steps
    assert played > 500
