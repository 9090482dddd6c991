"""The lockstep's shared hook plan and its lane (issue 15: a lean lockstep).

The plan (`fuzz.step.hook_plan`) sorts the oracles' hooks once per game, profile and oracle list;
the lane counts a step by the identities of the two looks' answer tuples. Both only save
work: these tests check that every count and every finding is what the plain path gives,
that a violation is never remembered, and that the looks hand out one tuple per set of
answers (what the lane keys on).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.hook_plan import build_plan, plan_for
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for, prejudge_for, state_prejudge_for
from gamecert.oracles.base import NA, OK, Oracle, Violation
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE
from gamecert.spec import load_catalogue
from tests.random_play import random_steps

# the games with a step look, where the lane runs (Flit's state hooks are asked, not looked at)
LOOKED = ["kingdomino", "carcassonne", "flit"]


def _play(game_name: str, oracles: list[Oracle], seed: int, games: int, *,
          lane: bool = True, muted: tuple[str, ...] = (),
          prepare: Callable[[Lockstep], Lockstep] | None = None,
          defer: int = 0) -> list[Lockstep]:
    """Random games through fresh locksteps; the lane switched off where `lane` is False;
    each lockstep made ready by `prepare`, if given; with `defer`, each finished at its
    game's end."""
    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile()
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        ls = Lockstep(game, InProcessEngine(reference_session(game_name)), profile, oracles,
                      coverage=Coverage(), muted=muted, defer=defer)
        if not lane:
            ls.lane = None
        if prepare is not None:
            ls = prepare(ls)
        ls.start({"kind": "new_game"})
        while ls.live:
            ref = ls.ref
            a = (game.random_chance(ref, rng) if game.current(ref) == CHANCE  # type: ignore[attr-defined]
                 else game.random_action(ref, rng))  # type: ignore[attr-defined]
            ls.step(game.action_to_json(ref, a))
        ls.finish()
        out.append(ls)
    return out


def _counts(locksteps: list[Lockstep]) -> dict[str, int]:
    total: dict[str, int] = {}
    for ls in locksteps:
        for rule, n in ls.coverage.applied.items():
            total[rule] = total.get(rule, 0) + n
    return total


@pytest.mark.parametrize("game_name", LOOKED)
def test_the_lane_counts_what_the_plain_path_counts(game_name: str) -> None:
    games = {"kingdomino": 3, "carcassonne": 1, "flit": 1}[game_name]
    with_lane = _play(game_name, oracles_for(game_name), seed=5, games=games)
    lane = with_lane[0].lane
    assert lane, "the lane remembered no step"
    without = _play(game_name, oracles_for(game_name), seed=5, games=games, lane=False)
    assert _counts(with_lane) == _counts(without)
    assert sum(ls.coverage.steps for ls in with_lane) == sum(
        ls.coverage.steps for ls in without)


def test_a_look_that_says_a_violation_is_never_remembered(monkeypatch: Any) -> None:
    """A state look answering the very same tuple at every step, holding a violation whose
    text is OK's and an answer for every other hook: every step is a finding (muted here so
    the game goes on), none counted from the lane."""
    module = importlib.import_module("gamecert.oracles.kingdomino")
    rules, real = module.STATE_PREJUDGE
    first = rules[0]
    # every hook answered (so the lane would keep the step if it kept violations)
    said = (Violation(str(OK)), *([OK] * (len(rules) - 1)))

    def look(s: Any, p: Any) -> Any:
        real(s, p)
        return said

    monkeypatch.setattr(module, "STATE_PREJUDGE", (rules, look))
    [ls] = _play("kingdomino", oracles_for("kingdomino"), seed=2, games=1, muted=(first,))
    steps = ls.coverage.steps
    assert steps > 50
    # one muted finding at the new game and one at every step, each naming the rule
    # (a cause met again in one example is counted on its first finding, not kept again)
    assert len(ls.muted_findings) + sum(f.repeats for f in ls.muted_findings) == steps + 1
    assert all(f.rules == [first] for f in ls.muted_findings)
    assert ls.coverage.applied[first] == steps + 1


@pytest.mark.parametrize(("game_name", "hook", "at"), [("kingdomino", "check", 40),
                                                       ("flit", "state", 60)])
def test_a_violation_from_a_hook_behind_the_lane_is_found(game_name: str, hook: str,
                                                          at: int) -> None:
    """The lane remembers a step's count by its looks' answers; a hook no look answers for
    (a test's own) is asked at every step, and its violation found even where the looks'
    answers repeat: a check beside Kingdomino's two looks, and a state hook beside Flit's
    step look (with no state look, the state hooks' own verdicts are part of the key)."""
    calls = []

    def late(x: Any, p: Any) -> Any:
        calls.append(x)
        return Violation("seen") if len(calls) == at else OK

    oracles = [*oracles_for(game_name), Oracle("TEST-LATE", **{hook: late})]
    with pytest.raises(Finding) as found:
        _play(game_name, oracles, seed=3, games=1)
    assert found.value.rules == ["TEST-LATE"] and len(calls) == at


@pytest.mark.parametrize("game_name", LOOKED)
def test_the_looks_hand_out_one_tuple_per_set_of_answers(game_name: str) -> None:
    _, check_look = prejudge_for(game_name)  # type: ignore[misc]
    state = state_prejudge_for(game_name)
    profile = load_catalogue(game_name).profile()
    by_value: dict[Any, Any] = {}
    shared = state is not None  # the games with both looks build JSON from the step before
    for t in random_steps(game_name, None, seed=4, shared=shared, limit=300):
        answers = [check_look(t, profile)]
        if state is not None:
            answers.append(state[1](t.after, profile))
        for said in answers:
            assert all(v is OK or v is NA or v is None for v in said)
            assert by_value.setdefault(said, said) is said


def test_one_plan_for_the_same_game_profile_and_oracles(monkeypatch: Any) -> None:
    game = reference_game("kingdomino")
    profile = load_catalogue("kingdomino").profile()
    oracles = oracles_for("kingdomino")

    def lockstep(with_oracles: list[Oracle]) -> Lockstep:
        return Lockstep(game, InProcessEngine(reference_session("kingdomino")), profile,
                        with_oracles)

    a, b = lockstep(oracles), lockstep(list(oracles))
    assert a.plan is b.plan and a.plan.lane is not None
    # a test's own hook for a rule: another plan, where the look does not stand in for it
    mine = next(o for o in oracles if o.state is not None)
    wrapped = [Oracle(o.rule, state=lambda s, p, h=o.state: h(s, p)) if o is mine else o
               for o in oracles]
    c = lockstep(wrapped)
    assert c.plan is not a.plan
    assert -1 in c.state_where and -1 not in a.state_where
    # the game's look replaced: another plan, built on the new look
    rules, _ = state_prejudge_for("kingdomino")  # type: ignore[misc]
    module = importlib.import_module("gamecert.oracles.kingdomino")
    monkeypatch.setattr(module, "STATE_PREJUDGE", (rules, lambda s, p: (None,) * len(rules)))
    d = lockstep(oracles)
    assert d.plan is not a.plan and d.state_prejudge is not a.state_prejudge
    # what the plan holds is what a plan built afresh holds
    fresh = build_plan("kingdomino", profile, oracles)
    shared = plan_for("kingdomino", profile, tuple(oracles))
    for name in ("state_rules", "state_where", "every_check", "judge_hooks", "listed_hooks"):
        assert getattr(fresh, name) == getattr(shared, name)


def test_the_new_game_is_judged_on_the_reference_json_when_equal() -> None:
    """As at a step: an engine's first state equal to the reference's is judged on the
    reference's own JSON (the first step's JSON shares its parts); a different one on the
    engine's."""
    seen: list[Any] = []
    spy = Oracle("SPY", state=lambda s, p: seen.append(s) or NA)
    game = reference_game("flit")
    profile = load_catalogue("flit").profile()

    class Off:  # the reference, but its new game's turn counter is off
        def __init__(self) -> None:
            self.inner = InProcessEngine(reference_session("flit"))

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def new_game(self, *args: Any) -> Any:
            return {**self.inner.new_game(*args), "turn": 99}

    ls = Lockstep(game, InProcessEngine(reference_session("flit")), profile, [spy])
    ls.start({"kind": "new_game"})
    assert seen[-1] is ls.ref_json
    off = Lockstep(game, Off(), profile, [spy])  # type: ignore[arg-type]
    with pytest.raises(Finding):
        off.start({"kind": "new_game"})
    assert seen[-1]["turn"] == 99


def test_the_benchmarks_timers_leave_the_looks_in_place() -> None:
    """The overhead benchmark's parts pass times the oracles as they run: the lockstep it
    times still asks the game's looks (and the lane), counts what an untimed one counts,
    and the time it charges to the oracles is some of the whole, not all."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "speed"))
    import overhead  # type: ignore[import-not-found]

    plain = _play("kingdomino", oracles_for("kingdomino"), seed=6, games=2)
    clock = overhead.Clock()
    timed = _play("kingdomino", oracles_for("kingdomino"), seed=6, games=2,
                  prepare=lambda ls: overhead.time_oracles_of(ls, clock))
    assert all(ls.prejudge is not None and ls.lane is not None for ls in timed)
    assert all(getattr(ls.prejudge, "__name__", "") == "timed" for ls in timed)
    assert _counts(timed) == _counts(plain)
    assert clock.parts["oracles"] > 0 and clock.depth["oracles"] == 0
