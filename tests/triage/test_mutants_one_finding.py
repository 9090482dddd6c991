"""Every public mutant gives one finding, charged to the rule it breaks, with its repeats
counted; a deliberately two-cause engine gives two; a mutant that follows a catalogue
variant is fingerprinted to that variant."""

from __future__ import annotations

import importlib

import pytest

from examples.engines import load
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.reference_engine.contract import Session

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")
ALL = [(g, m) for g in GAMES for m in importlib.import_module(f"examples.engines.{g}").MUTANTS]
ROUNDS = 4  # past every departure (examples go on), so 4 rounds hold long games

def _campaign(game: str, name: str, rounds: int = ROUNDS):  # type: ignore[no-untyped-def]
    module = load(game, name)
    engine = InProcessEngine(Session(module.ENGINE(), name=name))
    return module, run_campaign(game, engine, rounds=rounds, seed=0)


@pytest.mark.parametrize(("game", "name"), ALL, ids=[f"{g}-{m}" for g, m in ALL])
def test_one_finding_per_public_mutant(game: str, name: str) -> None:
    module, result = _campaign(game, name)
    primaries = [d.primary for d in result.departures]
    extra = set(primaries) - {module.RULE}
    assert not extra, [d.message for d in result.departures]
    assert primaries.count(module.RULE) <= 1  # found at most once (caught: test_mutants*)


def test_repeats_are_counted_not_listed() -> None:
    _, result = _campaign("flit", "self_neighbour")
    [dep] = result.departures
    assert dep.count > 10 and len(result.findings) == 1


def test_a_two_cause_engine_gives_two_findings() -> None:
    from examples.engines.flit.compounds.two_causes import ENGINE, RULES

    result = run_campaign("flit", InProcessEngine(Session(ENGINE(), name="two")), rounds=8,
                          seed=0)
    assert sorted(d.primary for d in result.departures) == sorted(RULES)


@pytest.mark.parametrize(("game", "name", "rule", "variant"), [
    ("flit", "invalid_disqualifies", "FLIT-MOVE-INVALID", "disqualify"),
    ("flit", "end_after_move", "FLIT-END-TIMING", "after-move"),
    ("flit", "turncap_off_by_one", "FLIT-END-TURNCAP", "literal-exceeds"),
    ("botwars", "collect_diagonal", "BOTWARS-ENERGY-COLLECT", "eight-neighbours"),
])
def test_a_mutant_that_follows_a_variant_is_fingerprinted(game: str, name: str, rule: str,
                                                          variant: str) -> None:
    _, result = _campaign(game, name)
    [dep] = [d for d in result.departures if d.primary == rule]
    assert dep.reading is not None
    assert (dep.reading.rule, dep.reading.variant) == (rule, variant)
    assert dep.reading.text() == f"follows {rule}={variant}"
