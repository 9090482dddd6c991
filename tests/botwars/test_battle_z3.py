"""The z3 battle model against the engine, a proof about the engine's own battle predicate,
and the z3 generator of crowded battle boards."""

from __future__ import annotations

import random

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecert.oracles.botwars.battle_z3 import KINDS, crowded_board, dead_set
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig, rules
from gamecert.spec import load_catalogue

from .boards import COLS, ROWS

CAT = load_catalogue("botwars")
ENGINE = BotWars()
CONFIG = {False: BotWarsConfig.of(CAT.profile("standard")),
          True: BotWarsConfig.of(CAT.profile("alternate"))}  # alternate: lose-every-fight


def engine_dead(grid: str, every: bool) -> set[int]:
    return {sq for sq, _ in ENGINE.battle_deaths(CONFIG[every], grid.encode())}


@st.composite
def post_move_fields(draw: st.DrawFn) -> str:
    """A dense block of botlets somewhere inside the field (not touching an edge, so the
    wrapping alternate profile sees the same battles)."""
    h, w = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    top, left = draw(st.integers(1, ROWS - h - 1)), draw(st.integers(1, COLS - w - 1))
    cells = draw(st.lists(st.sampled_from(".1122"), min_size=h * w, max_size=h * w))
    grid = ["."] * (ROWS * COLS)
    for i, ch in enumerate(cells):
        grid[(top + i // w) * COLS + left + i % w] = ch
    return "".join(grid)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=post_move_fields(), every=st.booleans())
def test_z3_dead_set_is_unique_and_matches_the_engine(field: str, every: bool) -> None:
    dead, unique = dead_set(field, ROWS, COLS, every=every)
    assert unique
    assert set(dead) == engine_dead(field, every)


def test_z3_agrees_on_a_wrapped_field() -> None:
    rng = random.Random(3)
    grid = [rng.choice("..12") if r in (0, ROWS - 1) or c in (0, COLS - 1) else "."
            for r in range(ROWS) for c in range(COLS)]
    field = "".join(grid)
    dead, unique = dead_set(field, ROWS, COLS, wrap=True, every=True)
    assert unique and set(dead) == engine_dead(field, True)
    assert dead != dead_set(field, ROWS, COLS, wrap=False, every=True)[0]


@pytest.mark.parametrize("every", [False, True])
@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_engine_predicate_is_the_catalogue_rule_for_all_counts(size: int, every: bool) -> None:
    """rules.dies, fed z3 terms, equals the catalogue's wording for every neighbourhood of
    `size` squares: is each an enemy, and how many enemies does it face (1 to 4)."""
    is_enemy = [z3.Int(f"s{i}") for i in range(size)]
    theirs = [z3.Int(f"c{i}") for i in range(size)]
    domain = [z3.And(s >= 0, s <= 1, c >= 1, c <= 4) for s, c in zip(is_enemy, theirs, strict=True)]
    own = z3.Sum(is_enemy)
    if every:
        spec = z3.And(own >= 1, *[z3.Implies(s == 1, c <= own)
                                  for s, c in zip(is_enemy, theirs, strict=True)])
    else:
        spec = z3.Or([z3.And(s == 1, c <= own) for s, c in zip(is_enemy, theirs, strict=True)])
    engine = rules.dies(list(zip(is_enemy, theirs, strict=True)), every)
    solver = z3.Solver()
    solver.add(*domain, engine != spec)
    assert solver.check() == z3.unsat, solver.model()


@pytest.mark.parametrize("kind", KINDS)
def test_generated_boards_are_crowded_loadable_battles(kind: str) -> None:
    for seed in range(2):
        board = crowded_board(kind, seed)
        grid = board["grid"]
        state = ENGINE.load(CAT.profile(), board)  # a reachable state, or load refuses it
        assert grid.count("1") + grid.count("2") >= 10
        dead = engine_dead(grid, False)
        assert len(dead) >= 3
        _, events = ENGINE.apply(state, ("moves", ()))
        assert {e["at"] for e in events if e["type"] == "died"} == dead
        if kind == "split":
            assert engine_dead(grid, True) != dead
        if kind == "multi":
            left = [sq for sq in dead if sq % COLS < COLS // 2]
            assert left and len(left) < len(dead)


def test_generated_boards_differ_by_seed() -> None:
    assert crowded_board("chain", 0)["grid"] != crowded_board("chain", 1)["grid"]
