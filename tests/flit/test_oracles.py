"""Flit oracles: silent on the reference, loud on broken transitions."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gamecert.oracles import OK, Transition, Violation, oracles_for
from gamecert.oracles.base import NA
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.flit import Flit
from gamecert.spec import load_catalogue

CAT = load_catalogue("flit")
ORACLES = oracles_for("flit")
GAME = Flit()
TEXTS = ["0 0 0 0", "1 2 3", "x", "40 1 2 3", "3 3 4 4", "-1 0 0 0", ""]


def play_and_judge(profile_id: str, seed: int, steps: int) -> tuple[Counter[str], list[str]]:
    prof = CAT.profile(profile_id)
    rng = random.Random(seed)
    s = GAME.initial(prof)
    applied: Counter[str] = Counter()
    alarms: list[str] = []

    def note(rule: str, verdict: object) -> None:
        if verdict is OK:
            applied[rule] += 1
        elif isinstance(verdict, Violation):
            applied[rule] += 1
            alarms.append(f"{rule}: {verdict}")

    for _ in range(steps):
        who = GAME.current(s)
        if who == TERMINAL:
            s = GAME.initial(prof)
            continue
        before = GAME.observe(s)
        if who == CHANCE:
            action = GAME.random_chance(s, rng)
        else:
            r = rng.random()
            action = ("timeout",) if r < 0.12 else ("invalid",) if r < 0.16 else \
                ("pass",) if r < 0.3 else GAME.random_action(s, rng)
            xy = " ".join(str(rng.randrange(32)) for _ in range(4))
            for text in [*TEXTS, xy]:
                got = GAME.action_to_json(s, GAME.referee(s, text))
                for o in ORACLES:
                    if o.referee:
                        note(o.rule, o.referee(before, text, got, prof))
        aj = GAME.action_to_json(s, action)
        s2, events = GAME.apply(s, action)
        t = Transition(before, aj, GAME.observe(s2), events)
        for o in ORACLES:
            if o.state:
                note(o.rule, o.state(t.after, prof))
            if o.check:
                note(o.rule, o.check(t, prof))
            if o.judge:
                note(o.rule, o.judge(before, aj, True, prof))
        s = s2
    return applied, alarms


@pytest.mark.parametrize("profile", sorted(CAT.profiles))
def test_no_false_alarms_on_the_reference(profile: str) -> None:
    applied, alarms = play_and_judge(profile, seed=11, steps=4000)
    assert alarms == []
    # every rule was judged at least once, so "no alarm" means something
    assert set(applied) == set(CAT.rule_ids), set(CAT.rule_ids) - set(applied)


def test_oracles_catch_a_doctored_transition() -> None:
    prof = CAT.profile()
    rng = random.Random(2)
    s = GAME.initial(prof)
    while GAME.current(s) == CHANCE:
        s, _ = GAME.apply(s, GAME.random_chance(s, rng))
    before = GAME.observe(s)
    move = next(a for a in GAME.legal(s) if a[0] == "move")
    s2, events = GAME.apply(s, move)
    after = GAME.observe(s2)
    doctored = dict(after, board=after["board"].replace("1", "2", 1))  # a piece changes sides
    t = Transition(before, GAME.action_to_json(s, move), doctored, events)
    fired = {o.rule for o in ORACLES if o.check and isinstance(o.check(t, prof), Violation)}
    assert "FLIT-PROTO-UPDATES" in fired or "FLIT-CONVERT" in fired


def test_illegal_acceptance_is_attributed_to_its_rule() -> None:
    prof = CAT.profile()
    judge = {o.rule: o.judge for o in ORACLES if o.judge}
    state = GAME.observe(GAME.initial(prof))
    assert judge["FLIT-TURN-ORDER"](state, {"type": "pass"}, True, prof) != OK
    assert judge["FLIT-TURN-ORDER"](state, {"type": "pass"}, False, prof) is OK
    assert judge["FLIT-MOVE-VALID"](state, {"type": "setup", "at": [0, 0]}, True, prof) is NA
