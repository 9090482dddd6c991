"""The rules text's four battle pictures (typed into tests/botwars/data) are reproduced exactly by
the engine, by the z3 model and by the oracles' restatement, under both readings of the
battle rule."""

from __future__ import annotations

import pytest

from gamecert.oracles.base import OK, Transition
from gamecert.oracles.botwars import ORACLES
from gamecert.oracles.botwars.battle_z3 import dead_set
from gamecert.oracles.botwars.model import battle_deaths, readings
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig
from gamecert.spec import load_catalogue

from .boards import COLS, ROWS, moves, place, seed_pictures, state
from .play import Step, failures, verdicts

CAT = load_catalogue("botwars")
TOP, LEFT = 8, 7  # far from the edges and the spawn points
# the alternate profile plays lose-every-fight (it also wraps, which the middle never sees)
PROFILE_OF = {"lose-any-fight": "standard", "lose-every-fight": "alternate"}


def pictures() -> list[tuple[list[str], list[str]]]:
    return seed_pictures()


def expected(before: list[str], after: list[str]) -> tuple[str, set[int]]:
    """The post-move field and the squares the seed marks dead ('x', either colour)."""
    grid = place(before, TOP, LEFT)
    dead = set()
    for r, (b, a) in enumerate(zip(before, after, strict=True)):
        for c, (x, y) in enumerate(zip(b, a, strict=True)):
            assert (y == "x" and x in "12") or x == y, f"row {r} col {c}: {x} > {y}"
            if y == "x":
                dead.add((TOP + r) * COLS + LEFT + c)
    return grid, dead


def test_the_seed_has_four_pictures() -> None:
    pics = pictures()
    assert len(pics) == 4
    assert [len(b) for b, _ in pics] == [3, 3, 3, 4]
    assert pics[1] == ([".....", ".121.", "....."], [".....", ".1x1.", "....."])


@pytest.mark.parametrize("reading", sorted(PROFILE_OF))
@pytest.mark.parametrize("index", range(4))
def test_engine_z3_and_restatement_reproduce_picture(index: int, reading: str) -> None:
    grid, dead = expected(*pictures()[index])
    profile = CAT.profile(PROFILE_OF[reading])
    assert profile.variant("BOTWARS-BATTLE") == reading
    engine_dead = {sq for sq, _ in BotWars().battle_deaths(BotWarsConfig.of(profile),
                                                           grid.encode())}
    assert engine_dead == dead
    z3_dead, unique = dead_set(grid, ROWS, COLS, every=reading == "lose-every-fight")
    assert set(z3_dead) == dead and unique
    assert set(battle_deaths(readings(profile), grid)) == dead


@pytest.mark.parametrize("index", range(4))
def test_a_turn_on_the_picture_marks_exactly_its_dead(index: int) -> None:
    grid, dead = expected(*pictures()[index])
    engine, profile = BotWars(), CAT.profile()
    before = state(grid)
    after, events = engine.apply(engine.load(profile, before), ("moves", ()))
    seen = engine.observe(after)
    for sq in range(ROWS * COLS):
        want = ("x" if grid[sq] == "1" else "X") if sq in dead else grid[sq]
        assert seen["grid"][sq] == want, sq
    assert {e["at"] for e in events if e["type"] == "died"} == dead
    step = Step(Transition(before, moves(), seen, events), None, None)
    for oracle in ORACLES:
        assert not failures(verdicts(oracle, step, profile)), oracle.rule
    battle = next(o for o in ORACLES if o.rule == "BOTWARS-BATTLE")
    assert verdicts(battle, step, profile) == [OK]
