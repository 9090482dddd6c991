"""The machine's `stretch` rule: many steps from one drawn seed and length, for every
engine. A stretch plays exactly the same steps from the same seed, and its trace (every
step recorded) replays alone, with no seed, to the same end or the same finding."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from examples.engines import engine_spec, load
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.search.machine import RUN_AHEAD, play_stretch
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import Session
from gamecert.spec import load_catalogue

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # examples/ is not installed

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")


def _stretch(game: str, engine: Any, seed: int, times: int = 3) -> Lockstep:
    """A new game, then `times` stretches of the game's longest length, as the machine's
    rule plays them (the plugin's policy included)."""
    profile = load_catalogue(game).profile()
    plugin = plugin_for(game)
    ls = Lockstep(reference_game(game), engine, profile, oracles_for(game),
                  coverage=Coverage(), seed=3)
    ls.start({"kind": "new_game"})
    for i in range(times):
        play_stretch(ls, seed + i, max(getattr(plugin, "run_ahead", RUN_AHEAD)),
                     getattr(plugin, "run_ahead_policy", None))
    return ls


@pytest.mark.parametrize("game", GAMES)
def test_a_stretch_replays_exactly_from_its_seed(game: str) -> None:
    first = _stretch(game, InProcessEngine(reference_session(game)), seed=11)
    again = _stretch(game, InProcessEngine(reference_session(game)), seed=11)
    other = _stretch(game, InProcessEngine(reference_session(game)), seed=12)
    assert len(first.ops) > 10  # it played: a stretch is many steps
    assert first.ops == again.ops
    assert first.ops != other.ops
    assert all(op["op"] == "apply" for op in first.ops)
    first.end_example()
    # the trace needs no seed of the stretch: it replays alone, to the same end
    result = replay(first.trace(), InProcessEngine(reference_session(game)))
    assert result.finding is None and result.ops_run == len(first.ops)


def test_a_finding_in_a_stretch_replays_alone() -> None:
    module = load("carcassonne", "meeples_kept")

    def engine() -> InProcessEngine:
        return InProcessEngine(Session(module.ENGINE(), name="meeples_kept"))

    found: Finding | None = None
    for seed in range(40):
        try:
            ls = _stretch("carcassonne", engine(), seed=100 * seed, times=1)
            ls.end_example()
        except Finding as f:
            found = f
            break
    assert found is not None, "random play never met the mutant's departure"
    assert module.RULE in found.rules
    result = replay(trace_document(found), engine())
    assert result.reproduced


def test_a_finding_deep_in_a_stretch_shrinks_to_a_late_start() -> None:
    """Minimising starts the trace later, from the reference's state loaded: a departure
    met after a long stretch becomes a trace of a few operations that still shows it."""
    from gamecert.fuzz.engines.recipes import object_recipe
    from gamecert.fuzz.findings.minimize import minimize

    module = load("carcassonne", "meeples_kept")
    found: Finding | None = None
    for seed in range(40):
        try:
            ls = _stretch("carcassonne", InProcessEngine(Session(module.ENGINE())), 100 * seed,
                          times=1)
            ls.end_example()
        except Finding as f:
            if f.trace is not None and len(f.trace["ops"]) > 20:
                found = f
                break
    assert found is not None, "no departure deep in a stretch"
    shrunk = minimize(found, object_recipe("carcassonne",
                                           engine_spec("carcassonne", "meeples_kept")))
    assert shrunk.trace is not None and shrunk.trace["start"]["kind"] == "state"
    assert len(shrunk.trace["ops"]) < len(found.trace["ops"]) // 4
    assert module.RULE in shrunk.rules
    assert replay(trace_document(shrunk),
                  InProcessEngine(Session(module.ENGINE()))).reproduced
