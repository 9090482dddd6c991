"""Seeded runs of the machine's own rules (fuzz.search.play.runs), the draws they make
(fuzz.search.play.seeded_data) and the campaign's driver (fuzz.search.play.driver).

A run plays the same operations from the same seed and position; its trace replays alone;
it draws what the strategies allow; it reaches a game's end from a new game; the driver
ends an example with its game and surfaces what the lockstep finds."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from examples.engines import load
from gamecert.fuzz.engines.capabilities import FULL, LOAD_STATE
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.botwars.bot_text import bot_text_strategy
from gamecert.fuzz.search.machine import has_runs, machine_class
from gamecert.fuzz.search.play import seeded_data
from gamecert.fuzz.search.play.driver import driven_test
from gamecert.fuzz.search.play.rules import Plan
from gamecert.fuzz.search.play.runs import seeded_run
from gamecert.fuzz.search.play.seeded_data import SeededData, sample
from gamecert.fuzz.search.rounds import RoundJob, RoundSetup, open_player
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import TERMINAL, Session
from gamecert.spec import load_catalogue

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # examples/ is not installed

GAMES = ("botwars", "carcassonne", "kingdomino")


def _lockstep(game: str, engine: Any, coverage: Coverage | None = None) -> Lockstep:
    profile = load_catalogue(game).profile()
    ls = Lockstep(reference_game(game), engine, profile, oracles_for(game),
                  coverage=coverage or Coverage(), seed=3)
    ls.start({"kind": "new_game"})
    return ls


def _run(game: str, engine: Any, seed: int, length: int = 4096) -> Lockstep:
    ls = _lockstep(game, engine)
    plan = Plan.of(plugin_for(game), ls.profile, FULL)
    seeded_run(plan, ls, seed, length)
    return ls


def test_seeded_draws_stay_within_their_strategies() -> None:
    data = SeededData(random.Random(5))
    ints = [data.draw(st.integers(3, 9)) for _ in range(400)]
    assert set(ints) == set(range(3, 10))  # every value, the ends included
    assert {data.draw(st.sampled_from("abc")) for _ in range(100)} == {"a", "b", "c"}
    assert all(1 <= len(x) <= 4 and set(x) <= {1, 2}
               for x in (data.draw(st.lists(st.integers(1, 2), min_size=1, max_size=4))
                         for _ in range(100)))
    mixed = {type(data.draw(st.one_of(st.none(), st.booleans()))) for _ in range(100)}
    assert mixed == {type(None), bool}
    # what is not sampled directly is drawn by Hypothesis, transformations applied
    assert all(data.draw(st.integers(0, 5).map(lambda x: 2 * x)) % 2 == 0 for _ in range(20))
    texts = [sample(bot_text_strategy(load_catalogue("botwars").profile()), random.Random(i))
             for i in range(200)]
    assert all(isinstance(t, str) for t in texts) and len(set(texts)) > 100


def test_seeded_draws_read_each_strategy_once_and_keep_a_few_thousand() -> None:
    """What each strategy is (an integer range, a pick, ...) is read once and kept by
    identity (`seeded_data._kinds`): the same values as reading it afresh at every draw,
    and no more kept than KINDS_KEPT (a pick made afresh per draw passes through)."""
    made = [st.integers(0, 9), st.sampled_from("abc"), st.booleans(),
            st.one_of(st.just(1), st.integers(5, 6)), st.lists(st.integers(0, 3), max_size=4),
            st.text(max_size=3)]
    for strategy in made:
        warm = [sample(strategy, random.Random(i)) for i in range(30)]
        cold = []
        for i in range(30):
            seeded_data._kinds.clear()
            cold.append(sample(strategy, random.Random(i)))
        assert warm == cold
    for n in range(seeded_data.KINDS_KEPT + 10):
        sample(st.sampled_from([n, n + 1]), random.Random(n))
    assert len(seeded_data._kinds) <= seeded_data.KINDS_KEPT


def test_seeded_draws_repeat_from_the_same_seed() -> None:
    strategies = [st.integers(0, 10**6), st.text(max_size=5), st.sampled_from(range(50))]
    first = [sample(s, random.Random(8)) for s in strategies]
    assert first == [sample(s, random.Random(8)) for s in strategies]


@pytest.mark.parametrize("game", GAMES)
def test_a_run_replays_exactly_from_its_seed(game: str) -> None:
    first = _run(game, InProcessEngine(reference_session(game)), seed=21)
    again = _run(game, InProcessEngine(reference_session(game)), seed=21)
    other = _run(game, InProcessEngine(reference_session(game)), seed=22)
    assert first.ops == again.ops and first.ops != other.ops
    assert sum(op["op"] == "apply" for op in first.ops) > 10
    first.end_example()
    result = replay(first.trace(), InProcessEngine(reference_session(game)))
    assert result.finding is None and result.ops_run == len(first.ops)


@pytest.mark.parametrize("game", GAMES)
def test_a_run_plays_the_machines_rules_mostly_moves(game: str) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(4):
        kinds.update(op["op"] for op in _run(game, InProcessEngine(reference_session(game)),
                                               seed).ops)
    others = kinds["probe"] + kinds["bot_output"] + kinds["legal"] + kinds["observe"] \
        + kinds["reload"]
    assert kinds["probe"] + kinds["bot_output"] > 0 and kinds["observe"] + kinds["reload"] > 0
    assert kinds["apply"] > 3 * others, kinds


@pytest.mark.parametrize("game", GAMES)
def test_runs_reach_the_end_of_a_game(game: str) -> None:
    """Moves that end a game at once (a stop, a disqualification) are rare in a run: most
    runs from a new game end it by its own rules, deep in."""
    ended = deep = 0
    for seed in range(6):
        ls = _run(game, InProcessEngine(reference_session(game)), seed)
        ended += ls.game.current(ls.ref) == TERMINAL
        deep += sum(op["op"] == "apply" for op in ls.ops) > 50
    assert ended >= 4 and deep >= 4


def test_a_finding_in_a_run_replays_alone() -> None:
    module = load("kingdomino", "discard_when_fits")

    def engine() -> InProcessEngine:
        return InProcessEngine(Session(module.ENGINE(), name="discard_when_fits"))

    found: Finding | None = None
    for seed in range(40):
        try:
            _run("kingdomino", engine(), seed).end_example()
        except Finding as f:
            found = f
            break
    assert found is not None, "no run met the mutant's departure"
    assert module.RULE in found.rules
    assert replay(trace_document(found), engine()).reproduced


def _driven(game: str, engine: Any, examples: int) -> tuple[Counter[str], Coverage]:
    """A round's test under the driver, its rules counted."""
    profile = load_catalogue(game).profile()
    coverage = Coverage()
    cls = machine_class(plugin_for(game), profile, FULL)
    calls: Counter[str] = Counter()
    after_end: list[int] = []

    def make() -> Any:
        m = cls(lambda: Lockstep(reference_game(game), engine, profile, oracles_for(game),
                                 coverage=coverage, seed=1))
        original = m.ls.step

        def step(action: Any) -> Any:
            if m.ls.ref is not None and m.ls.game.current(m.ls.ref) == TERMINAL:
                after_end.append(1)
            calls["step"] += 1
            return original(action)

        m.ls.step = step
        return m

    test = driven_test(cls, make, settings(
        max_examples=examples, stateful_step_count=25, deadline=None, database=None,
        derandomize=True, suppress_health_check=list(HealthCheck),
        phases=[Phase.generate]))
    test()
    assert not after_end  # nothing is played past a game's end
    return calls, coverage


def test_the_driver_plays_examples_and_ends_them_with_their_game() -> None:
    calls, coverage = _driven("kingdomino", InProcessEngine(reference_session("kingdomino")),
                              examples=15)
    assert coverage.examples >= 15 and calls["step"] > 15 * 5


def test_the_driver_raises_what_the_lockstep_finds() -> None:
    module = load("kingdomino", "discard_when_fits")
    with pytest.raises((Finding, BaseExceptionGroup)):
        _driven("kingdomino", InProcessEngine(Session(module.ENGINE())), examples=200)


def _round(player: Any, round_no: int) -> Coverage:
    outcome = player.play(RoundJob(round_no, frozenset()))
    assert not outcome.found
    return outcome.coverage


def test_carcassonne_plays_runs_only_from_its_later_rounds() -> None:
    """A campaign's first rounds of Carcassonne play one rule a step (where its public
    mutants fall); from the plugin's `runs_from_round` on, its examples go deep."""
    plugin = plugin_for("carcassonne")
    first = plugin.runs_from_round
    assert first > 0 and plugin.seeded_runs
    profile = load_catalogue("carcassonne").profile()
    assert [has_runs(plugin, FULL, n) for n in (0, first - 1, first, first + 5)] == [
        False, False, True, True]
    assert not has_runs(plugin, FULL - {LOAD_STATE}, first)  # runs load states
    assert has_runs(plugin_for("kingdomino"), FULL, 0)  # its runs from the first round
    names = {n: {name for name in vars(machine_class(plugin, profile, FULL, n))
                 if not name.startswith("_")} for n in (0, first)}
    assert "run" not in names[0] and {"run", "run_to_end"} <= names[first]
    assert names[first] - names[0] == {"run", "run_to_end"}

    setup = RoundSetup("carcassonne", {"kind": "python", "object": "reference"}, profile.id,
                       seed=0, examples=12, steps=50)
    player = open_player(setup)
    try:
        shallow, deep = _round(player, 0), _round(player, first)
        assert _round(player, 1).steps > 0  # the class of the first rounds is kept
        assert len(player.machines) == 2
    finally:
        player.engine.close()
    # the deep round's examples run whole stretches of play
    assert deep.steps / deep.examples > 3 * shallow.steps / shallow.examples
