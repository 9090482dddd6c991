"""A lockstep made with `defer` (issue 15: a lean lockstep): the oracles of the steps on
which the engine agreed with the reference are asked in batches (`Lockstep.finish`).

Deferring only moves work: these tests check that it counts what judging at once counts,
that a finding on a deferred step is the very finding judging at once raises (its rules,
its operation, its trace, its states), that findings come in the order of their
operations, that a muted one still taints what follows, and that the state machine's
teardown finishes the example without hiding an exception already on its way.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import AGREED_BATCH, Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict, Violation
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue
from tests.test_lane import LOOKED, _counts, _play

GAME = "kingdomino"


@pytest.mark.parametrize("game_name", LOOKED)
def test_deferred_steps_count_what_judging_at_once_counts(game_name: str) -> None:
    games = {"kingdomino": 3, "carcassonne": 1, "flit": 1}[game_name]
    deferred = _play(game_name, oracles_for(game_name), seed=8, games=games, defer=16)
    at_once = _play(game_name, oracles_for(game_name), seed=8, games=games)
    assert all(ls.defer == 16 and not ls.pending for ls in deferred)
    assert _counts(deferred) == _counts(at_once)
    assert sum(ls.coverage.steps for ls in deferred) == sum(
        ls.coverage.steps for ls in at_once)


def _with_spy(turn: int = 2) -> list[Oracle]:
    """The game's oracles (its looks stand in for theirs, so the lane runs and steps are
    deferred) and a check that flags every step from `turn` on."""
    return [*oracles_for(GAME), _flag_turn(turn)]


def _flag_turn(turn: int, rule: str = "SPY") -> Oracle:
    """A check that finds fault with every step from the reference's turn `turn` on: it
    flags the reference's own JSON, so the engine agrees and the step is deferred."""
    def check(t: Transition, profile: Profile) -> Verdict:
        return Violation("turn reached") if t.before["turn"] >= turn else OK
    return Oracle(rule, check=check)


def _actions(seed: int, count: int) -> list[Any]:
    game = reference_game(GAME)
    profile = load_catalogue(GAME).profile()
    rng, state, out = random.Random(seed), game.initial(profile), []
    while len(out) < count and (who := game.current(state)) != TERMINAL:
        act = (game.random_chance(state, rng) if who == CHANCE  # type: ignore[attr-defined]
               else game.random_action(state, rng))  # type: ignore[attr-defined]
        out.append(game.action_to_json(state, act))
        state, _ = game.apply(state, act)
    return out


def _lockstep(oracles: list[Oracle], defer: int, engine: Any = None,
              muted: tuple[str, ...] = ()) -> Lockstep:
    ls = Lockstep(reference_game(GAME), engine or InProcessEngine(reference_session(GAME)),
                  load_catalogue(GAME).profile(), oracles, coverage=Coverage(), muted=muted,
                  defer=defer)
    ls.start({"kind": "new_game"})
    return ls


def _raised(ls: Lockstep, actions: list[Any]) -> tuple[Finding, int]:
    """The finding `ls` raises over `actions` (and its finish), and how many steps it had
    taken when it did."""
    for i, action in enumerate(actions):
        try:
            ls.step(action)
        except Finding as finding:
            return finding, i + 1
    try:
        ls.finish()
    except Finding as finding:
        return finding, len(actions)
    raise AssertionError("no finding")


def test_a_deferred_finding_is_the_finding_judging_at_once_raises() -> None:
    oracles = _with_spy()
    actions = _actions(seed=3, count=60)
    late, taken = _raised(_lockstep(oracles, defer=AGREED_BATCH), actions)
    now, at = _raised(_lockstep(oracles, defer=0), actions)
    assert now.rules == ["SPY"] and at < taken == len(actions)  # raised at the finish
    for name in ("rules", "kind", "message", "op_index", "trace", "related", "violations",
                 "tainted", "expected", "got"):
        assert getattr(late, name) == getattr(now, name), name
    assert late.op_index == at - 1 and len(late.trace["ops"]) == at  # type: ignore[index]


def test_a_full_batch_is_judged_at_once() -> None:
    oracles = _with_spy()
    actions = _actions(seed=3, count=60)
    _, at = _raised(_lockstep(oracles, defer=0), actions)
    finding, taken = _raised(_lockstep(oracles, defer=4), actions)
    assert at <= taken < at + 4 and finding.op_index == at - 1


class _OffAfter:
    """The reference as the engine, but its state's turn counter is off from its `n`-th
    step on: a divergence, judged at once."""

    def __init__(self, n: int) -> None:
        self.inner = InProcessEngine(reference_session(GAME))
        self.n = n
        self.steps = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def apply(self, action: Any) -> Any:
        self.steps += 1
        state, events = self.inner.apply(action)
        return ({**state, "turn": 99} if self.steps >= self.n else state), events


def test_a_deferred_finding_comes_before_a_later_divergence() -> None:
    actions = _actions(seed=3, count=60)
    _, at = _raised(_lockstep(_with_spy(), defer=0), actions)
    engine = _OffAfter(at + 3)
    finding, taken = _raised(_lockstep(_with_spy(), defer=AGREED_BATCH, engine=engine),
                             actions)
    assert taken == at + 3  # raised while the divergence was being judged
    assert finding.rules == ["SPY"] and finding.op_index == at - 1


def test_a_muted_deferred_finding_taints_what_follows() -> None:
    actions = _actions(seed=3, count=60)
    _, at = _raised(_lockstep(_with_spy(), defer=0), actions)
    ls = _lockstep(_with_spy(), defer=AGREED_BATCH, engine=_OffAfter(at + 3),
                   muted=("SPY",))
    finding, taken = _raised(ls, actions)
    # the divergence (a turn counter the game's oracles also fault), after the muted ones
    assert taken == at + 3 and finding.op_index == at + 2 and finding.tainted
    assert set(finding.rules) - {"SPY"}
    # every flagged step before the divergence passed over: the first kept with its own
    # trace, cut at its step, and the two after it counted on it (one cause, one trace)
    [first] = ls.muted_findings
    assert first.op_index == at - 1 and first.repeats == 2
    assert len(first.trace["ops"]) == at  # type: ignore[index]


def test_a_lockstep_no_look_answers_for_judges_at_once() -> None:
    """Only the lane's steps wait: with no look standing in for its oracles, a lockstep
    asked to defer judges every step as it is played."""
    ls = _lockstep([_flag_turn(2)], defer=AGREED_BATCH)
    assert ls.lane is None and ls.defer == 0
    actions = _actions(seed=3, count=60)
    _, at = _raised(_lockstep(_with_spy(), defer=0), actions)
    finding, taken = _raised(ls, actions)
    assert taken == at and finding.op_index == at - 1 and not ls.pending


def test_the_machine_teardown_finishes_the_example() -> None:
    from gamecert.fuzz.games import plugin_for
    from gamecert.fuzz.search.machine import make_machine

    profile = load_catalogue(GAME).profile()
    reported: list[Finding] = []
    actions = _actions(seed=3, count=40)
    _, at = _raised(_lockstep(_with_spy(), defer=0), actions)

    def new_lockstep() -> Lockstep:
        return Lockstep(reference_game(GAME), InProcessEngine(reference_session(GAME)),
                        profile, _with_spy(), defer=AGREED_BATCH,
                        on_finding=reported.append)

    machine_class = make_machine(plugin_for(GAME), profile, new_lockstep)

    def played() -> Any:
        machine = machine_class()
        machine.ls.start({"kind": "new_game"})
        for action in actions[:at + 2]:
            machine.ls.step(action)
        assert machine.ls.pending  # nothing judged yet
        return machine

    machine = played()
    with pytest.raises(Finding) as raised:
        machine.teardown()
    assert raised.value.op_index == at - 1 and reported == [raised.value]
    # an example already ending on an exception keeps it: the finding is only reported
    machine = played()
    with pytest.raises(KeyError):
        try:
            raise KeyError("on its way")
        finally:
            machine.teardown()
    assert len(reported) == 2 and reported[1].op_index == at - 1
    assert not machine.ls.pending


def test_na_and_ok_only_oracles_never_find_anything_deferred() -> None:
    quiet = Oracle("QUIET", check=lambda t, p: NA if t.action.get("type") == "deal" else OK)
    for ls in _play(GAME, [*oracles_for(GAME), quiet], seed=2, games=2, defer=8):
        assert ls.coverage.applied["QUIET"] > 0 and not ls.muted_findings
