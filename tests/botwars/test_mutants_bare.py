"""Every public one-rule mutant behind `bare:` (the minimum capabilities, its own draws,
no events, as a real engine is) is blamed on its own rule only. Each plays a few seeded
whole games beside the reference in a campaign's lockstep (going on past each departure),
with the reference's own random moves, keen to meet the enemy in some games (battles,
razing, contested energy). The table (mutant, rule expected, rules blamed) is printed.

A mutant that such games do not show is one whose break needs a capability the engine
lacks: the certificate names its rule as not checkable, or checked in part, with that
capability (`LIMITS`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from examples.engines import load
from examples.engines.botwars import CASCADES, MUTANTS
from gamecert.fuzz.engines.capabilities import capabilities_of, checked_in_part, not_checkable
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.minimal import minimal_session
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.step.lockstep import Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, Session
from gamecert.spec import Profile

from .fuzzing import CAT

GAMES, STEPS = 4, 650  # whole games (a Bot Wars game is about 600 steps)
TOWARD = (0.0, 0.5, 0.9, 0.3)  # how keen each game's botlets are to head for the enemy spawn
ORACLES = oracles_for("botwars")
REF = reference_game("botwars")

# Mutants whole games from a new game do not show, each with the capability whose absence
# hides it: the certificate lists its rule as not checkable or checked in part with it.
LIMITS = {
    "lenient_format": "bot_output",  # only its reading of raw bot text differs
    "energy_weights": "chance",  # only the probabilities it lists differ (its draws are
    # left to the chi-square test of a campaign)
    "energy_on_spawn": "legal",  # it draws a spawn point's pair once in hundreds of
    # draws: what it would accept is seen through its own draws and probes only
    "battle_pairwise": "load_state",  # battles of three or more: crafted starts
    "raze_before_battle": "load_state",  # a raider dying on the spawn it reached
    "spawn_when_razed": "load_state",  # a razed spawn with energy to spend
    "contested_to_p1": "load_state",  # energy between both bots
}


def play(name: str) -> tuple[list[Finding], Profile]:
    """The findings of GAMES whole games of mutant `name` behind `bare:`."""
    module = load("botwars", name)
    profile = CAT.profile(getattr(module, "PROFILE", None))
    engine = InProcessEngine(minimal_session(Session(module.ENGINE(), name=name), bare=True))
    caps = capabilities_of(engine.hello())
    late = profile.variant("BOTWARS-TIME-LIMIT") == "empty-turn"  # a time-out ends no game
    found: list[Finding] = []
    muted: set[str] = set()
    for k in range(GAMES):
        ls = Lockstep(REF, engine, profile, ORACLES, seed=k, caps=caps, go_on=True,
                      muted=muted)
        ls.start({"kind": "new_game", "seed": k})
        rng = random.Random(k)
        for _ in range(STEPS):
            if not ls.live:
                break
            state: Any = ls.ref
            if REF.current(state) == CHANCE:
                act = REF.random_chance(state, rng)
            elif late and rng.random() < 0.02:
                act = ("timeout",)
            else:
                act = REF.random_action(state, rng, odd=0.2, toward=TOWARD[k])
            ls.step(REF.action_to_json(state, act))
        ls.end_example()
        found += ls.found
        for f in ls.found:
            muted |= f.causes
    return found, profile


NAMES = [*MUTANTS, *CASCADES]


def test_every_public_mutant_behind_bare_is_blamed_on_its_own_rule() -> None:
    rows, wrong, missed = [], [], []
    for name in NAMES:
        module = load("botwars", name)
        found, profile = play(name)
        blamed = sorted({r for f in found for r in f.rules})
        rows.append((name, module.RULE, ", ".join(blamed) or "-"))
        if set(blamed) - {module.RULE}:
            wrong.append((name, [str(f)[:300] for f in found]))
        if not found:
            missed.append((name, module.RULE, profile))
    width = max(len(n) for n in NAMES)
    print(f"\n{'mutant':<{width}}  {'rule expected':<26}  rules blamed")
    for name, rule, blamed_text in rows:
        print(f"{name:<{width}}  {rule:<26}  {blamed_text}")
    assert not wrong, wrong
    # a mutant not shown is one whose break needs a capability, named in the certificate
    caps = frozenset({"no_events"})
    crafted = getattr(plugin_for("botwars"), "crafted_for", None)
    for name, rule, _ in missed:
        assert name in LIMITS, f"{name} ({rule}) is not shown by whole games behind bare:"
        need = LIMITS[name]
        unchecked = not_checkable(caps, ORACLES, "botwars")
        in_part = checked_in_part(caps, ORACLES, "botwars", unchecked, crafted)
        assert need in unchecked.get(rule, "") or need in in_part.get(rule, ""), (
            name, rule, need, unchecked.get(rule), in_part.get(rule))


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_the_limits_name_real_mutants_and_capabilities(name: str) -> None:
    assert name in NAMES
    assert LIMITS[name] in {"chance", "load_state", "legal", "bot_output"}
