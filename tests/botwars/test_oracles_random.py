"""Every oracle answers OK or NA on every transition of many random reference games (no
false alarms), and each one applies at least once over those games."""

from __future__ import annotations

import copy
import random
from collections import Counter

from gamecert.oracles.base import Transition, Violation
from gamecert.oracles.botwars import ORACLES
from gamecert.oracles.botwars.battle_z3 import crowded_board
from gamecert.reference_engine.botwars import BotWars, BotWarsState
from gamecert.spec import load_catalogue

from .play import applied, failures, play, verdicts

CAT = load_catalogue("botwars")
ENGINE = BotWars()
GAMES_PER_PROFILE = 10
KEENNESS = (0.0, 0.3, 0.7)  # how keen botlets are to head for the enemy spawn


def test_oracles_hold_on_random_reference_games() -> None:
    applicable: Counter[str] = Counter()
    alarms: list[str] = []
    steps = 0
    for profile_id in sorted(CAT.profiles):
        profile = CAT.profile(profile_id)
        starts: list[BotWarsState | None] = [None] * GAMES_PER_PROFILE
        # two games per profile start from a z3-generated crowded battle board
        starts += [ENGINE.load(profile, crowded_board(kind, 1, profile_id))
                   for kind in ("ring", "split")]
        for n, start in enumerate(starts):
            rng = random.Random(f"{profile_id}/{n}")
            for step in play(ENGINE, profile, rng, bad_text=0.0004, late=0.0004, text=0.1,
                             toward=KEENNESS[n % 3], start=start):
                steps += 1
                for oracle in ORACLES:
                    answers = verdicts(oracle, step, profile)
                    if applied(answers):
                        applicable[oracle.rule] += 1
                    for bad in failures(answers):
                        alarms.append(f"{profile_id} game {n} {oracle.rule}: {bad}")
    assert not alarms, "\n".join(alarms[:10])
    never = [o.rule for o in ORACLES if not applicable[o.rule]]
    assert not never, f"oracles never applicable over {steps} steps: {never}"


def _tampered(t: Transition, how: int) -> Transition | None:
    """The transition with one thing in the state after, or in the events, made wrong."""
    after = copy.deepcopy(t.after)
    events = copy.deepcopy(t.events)
    if how == 0:
        sq = next((i for i, c in enumerate(after["grid"]) if c in "12*"), 0)
        after["grid"] = after["grid"][:sq] + "." + after["grid"][sq + 1:]
        if after["grid"] == t.after["grid"]:
            after["grid"] = after["grid"][:sq] + "*" + after["grid"][sq + 1:]
    elif how == 1:
        after["p2"]["energy"] += 1
    elif how == 2:
        after["p1"]["spawnDisabled"] = not after["p1"]["spawnDisabled"]
    elif how == 3:
        after["turnsElapsed"] += 1
    elif how == 4:
        if not events:
            return None
        events.pop(0)
    else:
        after["phase"] = "p1" if after["phase"] != "p1" else "energy"
    return Transition(t.before, t.action, after, events)


def test_oracles_object_to_tampered_transitions() -> None:
    """No vacuous oracles: spoil one thing of a real transition and some oracle objects."""
    unnoticed = []
    for profile_id in sorted(CAT.profiles):
        profile = CAT.profile(profile_id)
        rng = random.Random(profile_id)
        for n, step in enumerate(play(ENGINE, profile, rng, toward=0.3)):
            if n % 5:
                continue
            for how in range(6):
                bad = _tampered(step.transition, how)
                if bad is None:
                    continue
                said = [o.check(bad, profile) for o in ORACLES if o.check is not None]
                if not any(isinstance(v, Violation) for v in said):
                    unnoticed.append((profile_id, n, how, step.transition.action))
    assert not unnoticed, unnoticed[:5]
