"""The pytest plugin, run in a scratch project (pytester) against a mutant: the broken rule
is a failing item, the other rules pass, a corpus trace is an item of its own; a campaign
that leaves an applicable rule unexercised (certify's INCOMPLETE, exit 4) is never green."""

from __future__ import annotations

import json

import pytest

pytest_plugins = ["pytester"]

MUTANT = '''
from gamecert.reference_engine.flit import Flit


class Mutant(Flit):
    """The moving piece counts as its own neighbour (breaks FLIT-MOVE-VALID)."""

    def has_other_own_neighbour(self, state, origin, dest, bot):
        return any(state.board[n] == bot for n in self.neighbours(state)[dest])
'''


def test_plugin_is_off_without_its_options(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="def test_one():\n    assert True\n")
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_failing_rule_is_a_failing_item(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(myengine=MUTANT)
    corpus = pytester.mkdir("traces")
    (corpus / "clean.json").write_text(json.dumps({
        "format": "gamecert-trace/1", "game": "flit", "profile": "standard", "seed": None,
        "start": {"kind": "new_game"}, "ops": [{"op": "observe"}]}))
    # rounds, not a budget: what they exercise is the same on a busy machine
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rA", "--gamecert-game", "flit",
        "--gamecert-engine", "myengine:Mutant", "--gamecert-rounds", "12",
        "--gamecert-corpus", str(corpus))
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed") == 1, result.stdout.str()
    result.stdout.fnmatch_lines(["FAILED *gamecert?FLIT-MOVE-VALID?*"])
    result.stdout.fnmatch_lines(["PASSED *gamecert-trace?clean.json?*"])
    assert outcomes.get("passed", 0) >= 20


def test_an_incomplete_campaign_is_not_green(pytester: pytest.Pytester) -> None:
    """One round cannot exercise every Flit rule: certify would say INCOMPLETE (exit 4), so
    the rules it left unexercised are failing items, not skips, and the run fails, even
    when the mutant's own rule is among them."""
    pytester.makepyfile(myengine=MUTANT)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rA", "--gamecert-game", "flit",
        "--gamecert-engine", "myengine:Mutant", "--gamecert-rounds", "1")
    outcomes = result.parseoutcomes()
    assert result.ret != 0 and outcomes.get("failed", 0) >= 2, result.stdout.str()
    result.stdout.fnmatch_lines(["*the campaign is INCOMPLETE*"])
    # only what certify itself does not require may be skipped: harness checks a round did
    # not reach (a round that meets the departure in its first examples may end before any
    # reload: ENGINE-STATE-ROUNDTRIP), never a game rule
    skipped = [line for line in result.stdout.lines if line.startswith("SKIPPED")]
    assert all(": ENGINE-" in line for line in skipped), result.stdout.str()


def test_a_baseline_for_another_game_is_refused(pytester: pytest.Pytester) -> None:
    base = pytester.path / "accepted.json"
    base.write_text(json.dumps({"format": "gamecert-baseline/1", "game": "botwars",
                                "accepted": []}))
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--gamecert-game", "flit", "--gamecert-rounds", "1",
        "--gamecert-baseline", str(base))
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*a baseline for 'botwars', not for this 'flit' run*"])
