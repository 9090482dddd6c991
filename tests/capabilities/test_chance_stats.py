"""Statistical checks of the draws an engine makes for itself: the chi-square survival
function, pooling, calibration (the false-alarm rate), and a biased deck caught."""

from __future__ import annotations

import json
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.findings.chance_stats import (
    ALPHA,
    MIN_SAMPLES,
    ChanceStats,
    chi2_sf,
    pearson,
)
from gamecert.fuzz.reports.certificate import render_capabilities, write_report
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.search.chance_sim import gather
from gamecert.reference_engine.contract import Outcome
from gamecert.schemas import first_error

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # examples/

BIASED = engine_spec("carcassonne", "deck_biased", "minimal")


# (x, df, P(X >= x)): the classical table's critical values, and two exact cases
@pytest.mark.parametrize(("x", "df", "p"), [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (10.827566, 1, 0.001),
    (5.991465, 2, 0.05), (18.307038, 10, 0.05), (23.209251, 10, 0.01),
    (43.772972, 30, 0.05), (124.342113, 100, 0.05), (1.0, 2, 0.6065306597),
    (0.0, 3, 1.0), (2.0, 2, 0.3678794412),
])
def test_chi_square_survival_function_matches_the_tables(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-6, abs=1e-12)


def test_small_categories_are_pooled() -> None:
    _, df, cats = pearson({"a": 50, "b": 45, "c": 6, "d": 4},
                          {"a": 48.0, "b": 48.0, "c": 6.0, "d": 6.0})
    assert df == 2 and cats["(pooled small)"] == (10, 12.0)
    # pooled, still under the minimum: joined to the smallest tested category
    _, df, cats = pearson({"a": 50, "b": 45, "c": 3, "d": 2},
                          {"a": 50.0, "b": 46.0, "c": 2.0, "d": 2.0})
    assert df == 1 and cats == {"a": (50, 50.0), "b": (50, 50.0)}


def _outcomes(weights: list[int]) -> list[Outcome[Any]]:
    total = sum(weights)
    return [Outcome(("draw", k), Fraction(w, total)) for k, w in enumerate(weights)]


def _simulate(draw_weights: list[int], truth: list[int], n: int, rng: random.Random) -> float:
    """One campaign's p-value: n draws with `draw_weights`, tested against `truth`."""
    stats = ChanceStats()
    listing = _outcomes(truth)
    for i in range(n):
        drawn = rng.choices(range(len(draw_weights)), weights=draw_weights)[0]
        stats.add("carcassonne", "CARC-DECK-DRAW", (i, 0), listing, ("draw", drawn))
    [test] = stats.tests()
    assert test.p_value is not None
    return test.p_value


def test_a_correct_distribution_raises_false_alarms_at_the_stated_rate() -> None:
    """400 simulated campaigns of 300 draws over 11 unequal kinds (grouped in tenths of
    the listing): about 5% of p-values fall under 0.05 and 1% under 0.01 (three binomial
    standard deviations). Under ALPHA, 3,000 such runs gave 0.0013; bounded here at 1%."""
    rng = random.Random(2026)
    truth = [9, 8, 5, 4, 4, 3, 3, 2, 2, 1, 1]
    ps = [_simulate(truth, truth, 300, rng) for _ in range(400)]
    assert 0.05 - 0.033 <= sum(p < 0.05 for p in ps) / len(ps) <= 0.05 + 0.033
    assert sum(p < 0.01 for p in ps) / len(ps) <= 0.01 + 0.015
    assert sum(p < ALPHA for p in ps) <= 4


def test_one_kind_dealt_twice_as_often_is_caught() -> None:
    rng = random.Random(7)
    truth = [9, 8, 5, 4, 4, 3, 3, 2, 2, 1, 1]
    biased = [18, *truth[1:]]
    caught = sum(_simulate(biased, truth, 600, rng) < ALPHA for _ in range(50))
    assert caught >= 45  # power of at least 90% at 600 draws


def test_too_few_draws_are_not_enough_samples() -> None:
    stats = ChanceStats()
    listing = _outcomes([1, 1])
    for i in range(MIN_SAMPLES - 1):
        stats.add("botwars", "BOTWARS-ENERGY-SPAWN", (i, 0), listing, ("draw", i % 2))
    [test] = stats.tests()
    assert test.verdict == "not enough samples" and test.p_value is None


def test_a_repeated_seed_counts_once_and_forced_draws_not_at_all() -> None:
    stats = ChanceStats()
    stats.add("carcassonne", "CARC-DECK-DRAW", (5, 0), _outcomes([1, 1]), ("draw", 0))
    stats.add("carcassonne", "CARC-DECK-DRAW", (5, 0), _outcomes([1, 1]), ("draw", 0))
    stats.add("carcassonne", "CARC-DECK-DRAW", (5, 1), _outcomes([1]), ("draw", 0))
    assert stats.rules["CARC-DECK-DRAW"].n == 1


def test_the_reference_behind_the_wrapper_passes_and_the_biased_deck_fails() -> None:
    """The same 20 seeded games of random play; only the engine's deck differs."""
    good = gather("carcassonne", object_recipe("carcassonne", "minimal:reference").open(), 20,
                  seed=1)
    bad = gather("carcassonne", object_recipe("carcassonne", BIASED).open(), 20, seed=1)
    [g] = good.tests()
    [b] = bad.tests()
    assert g.verdict == "passed" and g.n > 1000
    assert b.verdict == "failed" and b.p_value is not None and b.p_value < 1e-4


@pytest.mark.slow
def test_a_campaign_finds_the_biased_deck_under_its_rule(tmp_path: Path) -> None:
    # 4 x 60 steps (no load_state); 6 rounds: about 1,700 draws under either Hypothesis
    # profile (3 rounds gave 980 draws and p = 4e-5 outside CI, only 690 and p = 0.03 in it)
    result = run_campaign("carcassonne", object_recipe("carcassonne", BIASED), rounds=6,
                          seed=0, steps_per_example=60)
    [dep] = result.departures
    assert dep.primary == "CARC-DECK-DRAW" and dep.finding.kind == "chance-statistics"
    assert "no step trace" in dep.message and "--seed 0" in dep.message
    assert "CARC-DECK-DRAW: failed" in render_capabilities(result)
    doc = json.loads(write_report(result, tmp_path).read_text())
    assert first_error("report", doc) is None
    [finding] = doc["findings"]
    assert finding["trace"] is None and finding["primary"] == "CARC-DECK-DRAW"
    [test] = doc["chance_statistics"]["tests"]
    assert test["verdict"] == "failed" and test["p_value"] < 0.001 / 1
