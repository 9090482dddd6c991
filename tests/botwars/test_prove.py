"""`gamecert prove botwars`: the engine's own battle predicate proved with z3 when it runs
in-process, and the z3 battle model played against the engine on crowded boards and on the
seed's four pictures (any engine, subprocess ones included)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games.botwars import PLUGIN
from gamecert.fuzz.games.botwars.crafted import PICTURES
from gamecert.fuzz.games.botwars.proofs import battle_predicate, prove_battle_predicate
from gamecert.reference_engine.botwars import BotWars, rules
from gamecert.reference_engine.contract import Session

from .boards import seed_pictures
from .fuzzing import CAT, mutant_engine, reference_engine


def _disagreements(lines: list[str]) -> int:
    hit = re.search(r"(\d+) disagreements", "\n".join(lines))
    assert hit, lines
    return int(hit.group(1))


def test_the_plugin_carries_the_seeds_four_pictures() -> None:
    assert [(tuple(b), tuple(a)) for b, a in seed_pictures()] == list(PICTURES)


@pytest.mark.parametrize("profile_id", ["standard", "alternate"])  # the two battle readings
def test_the_reference_is_proved_in_process(profile_id: str) -> None:
    profile = CAT.profile(profile_id)
    engine = reference_engine("in-process")
    ok, lines = PLUGIN.prove(engine, profile)
    assert ok, lines
    reading = profile.variant("BOTWARS-BATTLE")
    assert lines[0].startswith(f"BOTWARS-BATTLE symbolic proof ({reading}): PROVED")
    assert _disagreements(lines) == 0
    assert "8 crowded boards and the seed's 4 pictures" in lines[1]


def test_over_the_wire_only_the_boards_are_played() -> None:
    engine = reference_engine("subprocess")
    try:
        ok, lines = PLUGIN.prove(engine, CAT.profile())
    finally:
        engine.close()
    assert not ok  # nothing proved about code it cannot see
    assert "NOT RUN" in lines[0]
    assert _disagreements(lines) == 0


def test_a_mutant_battle_step_is_caught_on_boards_and_pictures() -> None:
    ok, lines = PLUGIN.prove(mutant_engine("battle_pairwise", "in-process"), CAT.profile())
    assert not ok
    assert "NOT POSSIBLE" in lines[0] and "battle_deaths" in lines[0]
    assert _disagreements(lines) >= 2
    assert any("seed picture 3" in line for line in lines)  # the "multiple battles" one


@pytest.mark.parametrize("every", [False, True])
def test_the_predicate_proof_accepts_the_rule_and_rejects_the_other_reading(every: bool) -> None:
    assert prove_battle_predicate(rules.dies, every)[0]

    def other_reading(neighbours: Sequence[tuple[Any, Any]], every: bool) -> Any:
        return rules.dies(neighbours, not every)

    proved, message = prove_battle_predicate(other_reading, every)
    assert not proved and "the engine says" in message


class OwnPredicate(BotWars):
    """An engine that names its battle predicate itself, written with Python control flow:
    it cannot run on z3 terms."""

    def dies(self, neighbours: Sequence[tuple[Any, Any]], every: bool = False) -> Any:
        own = sum(e for e, _ in neighbours)
        return any(e and theirs <= own for e, theirs in neighbours)


def test_which_predicate_is_proved_and_when_it_cannot_be() -> None:
    assert battle_predicate(BotWars()) is rules.dies
    own = OwnPredicate()
    assert battle_predicate(own) == own.dies
    assert isinstance(battle_predicate(mutant_engine("battle_pairwise", "in-process")
                                       .session.game), str)  # type: ignore[attr-defined]
    ok, lines = PLUGIN.prove(InProcessEngine(Session(OwnPredicate(), "own")), CAT.profile())
    assert not ok
    assert "NOT POSSIBLE: the predicate does not run on z3 terms" in lines[0]
    assert _disagreements(lines) == 0  # it plays the reference's battles all the same
