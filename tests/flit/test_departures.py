"""The departure library (reference_engine/flit/departures.py): each model breaks its own
rule, and blame by counterfactual names that rule for it; the public mutants are its
classes; an engine that agrees with the reference is never explained by a model."""

from __future__ import annotations

import random
from typing import Any

import pytest

from examples.engines import load
from examples.engines.flit import MUTANTS
from gamecert.fuzz.step.blame import Blame, models_for
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Transition
from gamecert.reference_engine.contract import CHANCE
from gamecert.reference_engine.flit import Flit, departures
from gamecert.spec import load_catalogue
from tests.flit.positions import GAME, actions, crafted, outcome, steered_states
from tests.random_play import random_steps

CATALOGUE = load_catalogue("flit")
PROFILE = CATALOGUE.profile("standard")
BLAME = Blame("flit", PROFILE)
ORACLES = oracles_for("flit")
START_RULES = ("FLIT-SETUP-ORDER",)


def _pool() -> list[tuple[Any, Any]]:
    """(state JSON, action JSON) pairs: steered games, crafted positions and the steps
    right after them."""
    rng = random.Random(4)
    states = steered_states(PROFILE, seed=1, turns=120)
    states += steered_states(PROFILE, seed=2, turns=400)[::7]
    for js in crafted(PROFILE):
        s = GAME.load(PROFILE, js)
        states.append(s)
        for a in list(actions(s, rng))[:10]:
            try:
                states.append(GAME.apply(s, GAME.action_from_json(s, a))[0])
            except Exception:  # a probe: refused, as it should be
                continue
    return [(GAME.observe(s), a) for s in states for a in actions(s, rng)]


POOL = _pool()


def _cases(model: Flit, limit: int = 4) -> list[tuple[str, Any, Any, Any]]:
    """Where `model` departs from the reference: (how, before, action, its state after)."""
    out = []
    for before, action in POOL:
        mine = outcome(model, PROFILE, before, action)
        ref = outcome(GAME, PROFILE, before, action)
        if mine == ref:
            continue
        how = "step" if mine is not None and ref is not None else \
            "refusal" if mine is None else "acceptance"
        out.append((how, before, action, mine))
        if len(out) >= limit:
            break
    return out


def _explained(how: str, before: Any, action: Any, mine: Any) -> list[Any]:
    """The models that explain the departure, in the order the lockstep charges them: those
    whose rule's own oracle objects too first, then phase order."""
    if how == "step":
        found = BLAME.step(before, action, mine, outcome(GAME, PROFILE, before, action))
        t = Transition(before, action, mine, [])
        objecting = {o.rule for o in ORACLES if o.check and not o.reads_events
                     and o.check(t, PROFILE) not in (OK, NA)}
    else:
        found = BLAME.refusal(before, action) if how == "refusal" else \
            BLAME.acceptance(before, action, mine)
        objecting = {o.rule for o in ORACLES if o.judge and o.judge(
            before, action, how == "acceptance", PROFILE) not in (OK, NA)}
    return sorted(found, key=lambda e: e.rule not in objecting)


def _start(model: Flit, seed: int) -> tuple[Any, Any, list[Any]]:
    """The reference's set-up from seeded draws, and the model's from the same squares."""
    rng = random.Random(seed)
    ref, mine = GAME.initial(PROFILE), model.initial(PROFILE)
    draws = []
    while GAME.current(ref) == CHANCE:
        act = GAME.random_chance(ref, rng)
        draws.append(GAME.action_to_json(ref, act))
        ref, _ = GAME.apply(ref, act)
        mine, _ = model.apply(mine, act)
    return GAME.observe(ref), model.observe(mine), draws


LIBRARY = [(rule, kind, make) for rule, kind, _, make in departures.MODELS]


@pytest.mark.parametrize(("rule", "kind", "make"), LIBRARY,
                         ids=[f"{r}-{k}" for r, k, _ in LIBRARY])
def test_each_model_breaks_its_rule_and_is_blamed_on_it(rule: str, kind: str,
                                                        make: Any) -> None:
    model = make()
    tag = f"model-{kind}"
    if rule in START_RULES:
        ref, mine, draws = _start(model, seed=3)
        assert mine != ref
        found = BLAME.start(None, mine, ref, draws)
        assert found and found[0].rule == rule and found[0].kind == tag, found
        return
    cases = _cases(model)
    assert cases, f"{rule} {kind}: the model never departs from the reference here"
    for how, before, action, mine in cases:
        found = _explained(how, before, action, mine)
        # its rule is charged first (a model of an earlier rule may explain it as well, as
        # a move refused across the wrap is both a torus and a distance departure)
        assert found, (how, action)
        assert (rule, tag) in {(e.rule, e.kind) for e in found}, (how, action, found)
    assert any(_explained(*case)[0].rule == rule for case in cases), (rule, kind)


def test_models_are_one_rule_each_and_not_the_catalogues_own() -> None:
    kinds = [(r, k) for r, k, _ in LIBRARY]
    assert len(kinds) == len(set(kinds))
    assert {r for r, _ in kinds} <= set(CATALOGUE.rule_ids)
    for _, kind, _ in LIBRARY:
        assert kind == kind.lower() and " " not in kind, kind
    # what the catalogue models already (readings, parameter moves) is not in the library
    library = {type(m.game) for m in models_for("flit", PROFILE) if m.source == "model"}
    assert not library & set(departures.NOT_MODELS)


@pytest.mark.parametrize("name", MUTANTS)
def test_public_mutants_are_the_librarys_classes(name: str) -> None:
    module = load("flit", name)
    assert module.ENGINE.__module__ == departures.__name__
    made = {make for _, _, _, make in departures.MODELS} | set(departures.NOT_MODELS)
    assert module.ENGINE in made


def test_an_engine_that_agrees_is_never_explained() -> None:
    for profile_id in CATALOGUE.profiles:
        blame = Blame("flit", CATALOGUE.profile(profile_id))
        for t in random_steps("flit", profile_id, seed=5, games=1, limit=300)[::5]:
            assert blame.step(t.before, t.action, t.after, t.after) == []
