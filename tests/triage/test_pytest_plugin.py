"""The pytest plugin, run in a scratch project (pytester) against a mutant: the broken rule
is a failing item, the other rules pass, a corpus trace is an item of its own."""

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
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rA", "--gamecert-game", "flit",
        "--gamecert-engine", "myengine:Mutant", "--gamecert-budget", "6",
        "--gamecert-corpus", str(corpus))
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed") == 1, result.stdout.str()
    result.stdout.fnmatch_lines(["FAILED *gamecert?FLIT-MOVE-VALID?*"])
    result.stdout.fnmatch_lines(["PASSED *gamecert-trace?clean.json?*"])
    assert outcomes.get("passed", 0) >= 15
