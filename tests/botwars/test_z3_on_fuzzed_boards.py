"""The z3 battle model agrees with the reference on every board the fuzzer reaches.

A campaign on the reference runs with one more oracle: on every turn resolution whose
field has botlets in contact, z3 solves the battle model for that post-move field, proves
its dead set unique, and compares it with the deaths the engine reported.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.search import campaign as fuzz_campaign
from gamecert.fuzz.search import rounds as fuzz_rounds
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict, Violation
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.battle_z3 import dead_set
from gamecert.reference_engine import reference_session
from gamecert.spec import Profile

checked: list[str] = []
deaths: list[int] = []


def z3_agrees(t: Transition, profile: Profile) -> Verdict:
    r = m.readings(profile)
    if not m.is_resolution(t.before, t.action, r):
        return NA
    field = "".join(m.after_moves(t.before, t.events))
    if not any(c in "12" for c in field):
        return NA
    dead, unique = dead_set(field, t.before["rows"], t.before["cols"], wrap=r.wrap,
                            every=r.every_fight)
    reported = {e["at"] for e in m.events_of(t.events, "died", "BOTWARS-BATTLE")}
    checked.append(field)
    deaths.append(len(dead))
    if not unique:
        return Violation(f"the battle model allows more than one dead set on {field}")
    if set(dead) != reported:
        return Violation(f"z3 says {sorted(dead)} die, the engine reported {sorted(reported)}")
    return OK


@pytest.mark.parametrize("profile", ["standard", "alternate"])
def test_z3_model_agrees_on_every_fuzzed_board(profile: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def with_z3(game: str) -> list[Any]:
        return [*oracles_for(game), Oracle("BOTWARS-BATTLE", check=z3_agrees)]

    monkeypatch.setattr(fuzz_campaign, "oracles_for", with_z3)
    monkeypatch.setattr(fuzz_rounds, "oracles_for", with_z3)  # where rounds get theirs
    checked.clear()
    deaths.clear()
    result = run_campaign("botwars", InProcessEngine(reference_session("botwars")),
                          profile_id=profile, rounds=3, seed=2)
    assert not result.departures and result.status in ("certified", "incomplete"), \
        [str(f) for f in result.findings]
    assert len(checked) >= 20, f"only {len(checked)} battle fields reached"
    # the boards really were battles: several had botlets of both sides in contact
    assert sum(1 for f in checked if "1" in f and "2" in f) >= 10
    assert sum(1 for d in deaths if d) >= 5, "too few battles with a death to mean much"
