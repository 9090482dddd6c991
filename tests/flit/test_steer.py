"""The steered run-ahead (fuzz/games/flit/play.py), played on the reference alone: what it
reaches from a new game, and what it cannot. The figures its docstring and the report
quote come from these games (printed with -s)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamecert.fuzz.games.flit.play import Plan, quick_move
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.flit import Flit
from gamecert.spec import load_catalogue


class _Driver:
    """What a plan reads of a lockstep: the reference game, its state, the profile."""

    def __init__(self, profile_id: str, seed: int) -> None:
        self.game, self.profile = Flit(), load_catalogue("flit").profile(profile_id)
        self.ref = self.game.initial(self.profile)
        self.rng = random.Random(seed)
        while self.game.current(self.ref) == CHANCE:
            self.step(self.game.action_to_json(
                self.ref, self.game.random_chance(self.ref, self.rng)))

    def step(self, action: Any) -> None:
        self.ref, _ = self.game.apply(self.ref, self.game.action_from_json(self.ref, action))
        # an engine that draws for itself: its reply holds the neutral step
        while self.game.current(self.ref) == CHANCE:
            self.ref, _ = self.game.apply(self.ref, self.game.random_chance(self.ref, self.rng))


def _run(profile_id: str, seed: int, length: int, finish: bool) -> tuple[Any, int]:
    ls = _Driver(profile_id, seed)
    plan = Plan(ls, random.Random(seed), length)  # type: ignore[arg-type]
    plan.leader, plan.others, plan.finish = 1, "pass", finish
    steps = 0
    while (action := plan.next()) is not None:
        ls.step(action)
        steps += 1
    return ls.ref, steps


@pytest.mark.parametrize("seed", [1, 3])
def test_the_leader_reaches_the_catch_up_end_under_the_list_reading(seed: int) -> None:
    state, steps = _run("list-neutrals", seed, 4096, finish=False)
    print(f"list-neutrals seed {seed}: {state.result} after {steps} turns")
    assert Flit().current(state) == TERMINAL
    assert state.result["reasons"] == ["catch-up"] and state.result["winner"] == 1
    assert steps < 4096


def test_a_finished_run_ends_with_every_bot_passing_and_the_leader_winning() -> None:
    state, _ = _run("standard", 2, 512, finish=True)
    print(f"standard, 512 turns then passes: {state.result}")
    assert state.result["reasons"] == ["all-pass"]
    counts = state.result["counts"]
    assert state.result["winner"] == 1 and counts[0] > max(counts[1:])


def test_under_the_square_reading_a_run_stops_far_from_the_catch_up_end() -> None:
    state, steps = _run("standard", 1, 4096, finish=False)
    game = Flit()
    counts = game.counts(state)
    spare = state.board.count(5) + state.board.count(0) - 4
    print(f"standard, {steps} turns: counts {counts}, lead {counts[0] - max(counts[1:])}, "
          f"P = {spare}; the catch-up end wants a lead over P")
    assert steps == 1024 and game.current(state) != TERMINAL
    assert counts[0] - max(counts[1:]) < spare


@pytest.mark.parametrize("seed", range(3))
def test_a_quick_move_is_legal_and_needs_no_listing(seed: int) -> None:
    """The stretch's random move is one of the reference's legal moves at every turn of
    random games (crowded boards and one-piece bots included), and the same seed draws
    the same move."""
    game, profile, rng = Flit(), load_catalogue("flit").profile(), random.Random(seed)
    state, moves = game.initial(profile), 0
    for _ in range(1500):
        who = game.current(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            action = game.random_chance(state, rng)
        else:
            action = quick_move(game, state, random.Random(seed * 10**6 + moves))
            assert action in set(game.legal(state))
            assert action == quick_move(game, state, random.Random(seed * 10**6 + moves))
            moves += 1
        state, _ = game.apply(state, action)
    assert moves > 300
