"""Each open point, played under each of its readings on a small position."""

from __future__ import annotations

from typing import Any

import pytest

from gamecert.reference_engine.botwars import BotWars, BotWarsState
from gamecert.spec import load_catalogue

from .boards import put, state

CAT = load_catalogue("botwars")
ENGINE = BotWars()
EMPTY = "." * 400


def load(profile: str, grid: str, **kw: Any) -> BotWarsState:
    return ENGINE.load(CAT.profile(profile), state(grid, profile=profile, **kw))


def turn(s: BotWarsState, p1: tuple[tuple[int, int], ...] = (),
         p2: tuple[tuple[int, int], ...] = ()) -> tuple[BotWarsState, list[Any]]:
    """Play a whole turn from phase p1."""
    s, first = ENGINE.apply(s, ("moves", p1))
    s, second = ENGINE.apply(s, ("moves", p2))
    return s, first + second


def moved(events: list[Any]) -> list[tuple[int, int]]:
    return sorted((e["from"], e["to"]) for e in events if e["type"] == "moved")


LINE = put(EMPTY, s100="1", s101="1", s102="1", s300="2")


@pytest.mark.parametrize(("profile", "want"), [
    ("standard", []),  # blocked (and the invalid moves lose the turn)
    ("lenient", [(100, 101), (101, 102), (102, 103)]),  # follow-own: the line advances
])
def test_a_line_of_botlets_advancing(profile: str, want: list[tuple[int, int]]) -> None:
    s = load(profile, LINE, phase="p1")
    _, events = turn(s, ((100, 101), (101, 102), (102, 103)))
    assert moved(events) == want


@pytest.mark.parametrize(("profile", "want"), [
    ("standard", []),  # blocked anyway
    ("alternate", []),  # follow-own, but swaps are invalid
    ("lenient", [(100, 101), (101, 100)]),  # follow-own and swaps allowed
])
def test_a_swap(profile: str, want: list[tuple[int, int]]) -> None:
    s = load(profile, LINE, phase="p1")
    _, events = turn(s, ((100, 101), (101, 100)))
    assert moved(events) == want


@pytest.mark.parametrize(("profile", "want"), [
    ("standard", []),  # first-wins makes the second invalid, and the turn is lost
    ("lenient", [(100, 80)]),  # first-wins, only the second dropped
    ("alternate", []),  # all-invalid: both dropped
])
def test_two_own_botlets_onto_one_square(profile: str, want: list[tuple[int, int]]) -> None:
    s = load(profile, put(EMPTY, s100="1", s81="1", s300="2"), phase="p1")
    _, events = turn(s, ((100, 80), (81, 80)))
    assert moved(events) == want


@pytest.mark.parametrize(("profile", "dead"), [("standard", set()), ("alternate", {100, 102})])
def test_enemies_colliding_on_one_square(profile: str, dead: set[int]) -> None:
    s = load(profile, put(EMPTY, s100="1", s102="2", s300="2", s50="1"), phase="p1")
    s, events = turn(s, ((100, 101),), ((102, 101),))
    assert moved(events) == []
    assert {e["at"] for e in events if e["type"] == "died"} == dead
    assert s.grid[101] == ord(".")


@pytest.mark.parametrize(("profile", "rule", "field"), [
    ("standard", "BOTWARS-ENERGY-COLLECT", "1."),  # blocked: collected from beside, in step 5
    ("lenient", "BOTWARS-MOVE-ENERGY", ".1"),  # gather: taken by stepping on it, in step 1
])
def test_moving_onto_energy(profile: str, rule: str, field: str) -> None:
    s = load(profile, put(EMPTY, s100="1", s101="*", s300="2"), phase="p1", razed=(True, False))
    s, events = turn(s, ((100, 101),))
    assert s.energy[0] == 1 and s.grid[100:102].decode() == field
    assert [e["rule"] for e in events if e["type"] == "energy-collected"] == [rule]


@pytest.mark.parametrize(("profile", "energy", "spawned"), [("standard", 1, False),
                                                            ("alternate", 0, False)])
def test_a_taken_spawn_point(profile: str, energy: int, spawned: bool) -> None:
    s = load(profile, put(EMPTY, s21="1", s300="2"), phase="p1", energy=(1, 0))
    s, events = turn(s)
    assert s.energy[0] == energy
    assert any(e["type"] == "spawned" for e in events) is spawned
    assert any(e["type"] == "spawn-wasted" for e in events) is (profile == "alternate")


@pytest.mark.parametrize(("profile", "p1", "p2"), [("standard", 0, 0), ("port", 1, 0)])
def test_contested_energy(profile: str, p1: int, p2: int) -> None:
    grid = put(EMPTY, s204="1", s185="1", s205="*", s206="2", s300="2", s100="1")
    s = load(profile, grid, phase="p1", razed=(True, True))
    s, _ = turn(s)
    assert s.energy == (p1, p2) and s.grid[205] == ord(".")


@pytest.mark.parametrize(("profile", "gained"), [("standard", 0), ("alternate", 1)])
def test_energy_diagonal_to_a_botlet(profile: str, gained: int) -> None:
    s = load(profile, put(EMPTY, s184="1", s205="*", s300="2"), phase="p1", razed=(True, True))
    s, _ = turn(s)
    assert s.energy[0] == gained


@pytest.mark.parametrize(("profile", "winner"), [("standard", 0), ("alternate", 2)])
def test_a_tie_at_the_turn_limit(profile: str, winner: int) -> None:
    s = load(profile, put(EMPTY, s100="1", s300="2"), phase="p1", turns=199, energy=(0, 3),
             razed=(False, True))
    s, events = turn(s)
    assert s.phase == "over" and s.end_reason == "turn-limit" and s.winner == winner
    assert events[-1]["rule"] == "BOTWARS-END-TURNLIMIT"


@pytest.mark.parametrize(("profile", "dies"), [("standard", True), ("alternate", False)])
def test_a_botlet_facing_a_weaker_and_a_stronger_enemy(profile: str, dies: bool) -> None:
    # the p1 botlet on 104 faces 103 (one enemy: it) and 105 (three enemies)
    grid = put(EMPTY, s103="2", s104="1", s105="2", s85="1", s125="1", s106="1", s300="2")
    s = load(profile, grid, phase="p1")
    _, events = turn(s)
    assert (104 in {e["at"] for e in events if e["type"] == "died"}) is dies


def test_razing_needs_a_live_botlet_after_the_battles() -> None:
    s = load("standard", put(EMPTY, s22="2", s300="2", s100="1"), phase="p1")
    s, events = turn(s, (), ((22, 21),))
    assert s.razed == (True, False) and [e["type"] for e in events][-1] == "razed"
    s = load("standard", put(EMPTY, s1="1", s20="1", s22="2", s300="2"), phase="p1")
    s, events = turn(s, (), ((22, 21),))
    assert s.razed == (False, False) and s.grid[21] == ord("X")


def test_elimination_ends_the_game() -> None:
    s = load("standard", put(EMPTY, s100="1", s102="2"), phase="p1")
    s, events = turn(s, ((100, 101),))
    assert s.phase == "over" and s.end_reason == "elimination" and s.winner == 0
    assert events[-1] == {"type": "game-ended", "rule": "BOTWARS-END-ELIMINATION",
                          "endReason": "elimination", "winner": None, "botlets": [0, 0]}
