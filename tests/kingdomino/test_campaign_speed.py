"""Kingdomino's campaign speed-ups (issue 31) give what the plain computations give.

Each fast path is compared with the plain one it stands in for: the one-rule placement
probes read by cell sets (`fuzz.games.kingdomino.probes`) with the walk that asks every
PUT's faults; the king's move and the deal drawn without listing (`play.draw_action`) with
the draw from the full listing; the loader's scan for crowns on empty squares with the
square-by-square reading. Positions come from random games under several profiles, with
every tile and several territory sizes, and from grids broken on purpose.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import strategies as st

from gamecert.fuzz.games.kingdomino import bot_text, play
from gamecert.fuzz.games.kingdomino import probes as p
from gamecert.fuzz.search.play.seeded_data import sample
from gamecert.oracles.kingdomino import board as b
from gamecert.reference_engine.contract import CHANCE, TERMINAL, outcomes_json
from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.load import crowned_empty, crowned_empty_plain
from tests.kingdomino.helpers import GAME, profile
from tests.random_play import random_steps

PIDS = ("legend", "legend-3p", "wood", "board-game-start")


def _play(put: Any, pick: Any = None) -> Any:
    return {"type": "play", "put": put, "pick": pick}


def _grids(pid: str) -> list[str]:
    """The grids of random games' king steps (every one of a player's grids as it grows),
    and a few broken: a square overwritten, crowns on an empty square, the castle moved."""
    out: list[str] = []
    for t in random_steps("kingdomino", pid, seed=3, games=2):
        out += [b.grid(t.before, k + 1) for k in range(len(t.before["grids"]))]
    rng = random.Random(7)
    for g in list(dict.fromkeys(out))[::9]:
        i = 2 * rng.randrange(b.N * b.N)
        out.append(g[:i] + rng.choice(["w1", "*0", "_2", "m3", "_0"]) + g[i + 2:])
    return list(dict.fromkeys(out))


@pytest.mark.parametrize("pid", PIDS)
def test_placement_probes_by_cell_sets_equal_the_plain_walk(pid: str) -> None:
    prof = profile(pid)
    size = prof.param("KD-PLACE-EXTENT", "size")
    grids = _grids(pid)
    assert len(grids) > 40
    rng = random.Random(11)
    compared = 0
    for g in grids:
        for tile in rng.sample(range(1, 49), 8):
            squares = b.tiles(prof)[tile]
            for s in (size, size - 1, size + 2, 2, 1):
                plain = p._placement_probes_plain(g, tile, squares, s, prof, _play)
                fast = p._placement_probes_masks(g, tile, squares, s, prof, _play)
                # the same probes, rules in the same order (the order probes are offered in)
                assert list(fast.items()) == list(plain.items()), (g, tile, s)
                compared += 1
    assert compared > 1000


def test_placement_probes_read_other_grid_strings_square_by_square() -> None:
    prof = profile("legend")
    g = b.grid(random_steps("kingdomino", "legend", seed=3, games=1)[-1].before, 1)

    def outcome(fn: Any, grid: str) -> Any:
        try:
            return fn(grid, 5, b.tiles(prof)[5], 7, prof, _play)
        except IndexError:  # a grid too short for the squares asked
            return IndexError

    for odd in (g[:-2], g + "w0", g[:-1]):
        assert outcome(p._placement_probes, odd) == outcome(p._placement_probes_plain, odd)


class _Listing(Kingdomino):
    """The reference under another class: `draw_action` draws from its full listings."""


class _Stand:
    """What `draw_action` reads of a lockstep."""

    def __init__(self, game: Kingdomino, state: Any) -> None:
        self.game, self.ref, self.ref_json = game, state, GAME.observe(state)


class _Draws:
    """Draws the values a seeded Random picks, the same for the same strategies."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def draw(self, strategy: st.SearchStrategy[Any], label: Any = None) -> Any:
        return sample(strategy, self.rng)


@pytest.mark.parametrize("pid", PIDS)
def test_moves_drawn_without_listing_equal_the_moves_drawn_from_the_listing(pid: str) -> None:
    states = []
    rng = random.Random(5)
    for _ in range(3):
        s = GAME.initial(profile(pid))
        while (who := GAME.current(s)) != TERMINAL:
            states.append(s)
            a = GAME.random_chance(s, rng) if who == CHANCE else GAME.random_action(s, rng)
            s = GAME.apply(s, a)[0]
    assert any(s.phase == "deal" for s in states) and any(s.phase == "play" for s in states)
    listing = _Listing()
    for k, s in enumerate(states):
        if s.phase == "play":
            puts, picks = GAME.legal_parts(s)
            assert [("play", u, c) for u in puts for c in picks] == GAME.legal(s)
        for seed in (k, k + 10_000):
            fast = play.draw_action(_Draws(seed), _Stand(GAME, s))  # type: ignore[arg-type]
            plain = play.draw_action(_Draws(seed), _Stand(listing, s))  # type: ignore[arg-type]
            assert fast == plain, (s, seed)


def test_crowns_on_empty_squares_read_by_regex_as_square_by_square() -> None:
    rng = random.Random(3)
    g = b.grid(random_steps("kingdomino", "legend", seed=3, games=1)[-1].before, 1)
    cases = [g, "", "_", "_0", "_1", "w_", "__0", "_0_", "\n_\n1"]
    for _ in range(3000):  # grids with one square changed, and short odd strings
        i = rng.randrange(len(g) + 1)
        cases.append(g[:i] + rng.choice("_0123w*\n") + g[i + 1:])
        cases.append("".join(rng.choice("_0w1\n") for _ in range(rng.randrange(9))))
    for c in cases:
        try:
            want: Any = crowned_empty_plain(c)
        except IndexError:
            want = IndexError
        try:
            got: Any = crowned_empty(c)
        except IndexError:
            got = IndexError
        assert got == want, c


def test_bot_texts_are_made_once_per_profile() -> None:
    prof = profile("legend")
    assert bot_text.bot_text_strategy(prof) is bot_text.bot_text_strategy(prof)


@pytest.mark.parametrize("pid", PIDS)
def test_chance_listings_written_from_the_bag_equal_the_outcomes_written(pid: str) -> None:
    seen = 0
    for t in random_steps("kingdomino", pid, seed=4, games=2):
        s = GAME.load(profile(pid), t.before)
        assert GAME.chance_json(s) == outcomes_json(GAME, s)
        seen += s.phase == "deal"
    assert seen > 20
    s = GAME.load(profile(pid), next(t.before for t in random_steps("kingdomino", pid, seed=4)
                                     if t.before["phase"] == "deal"))
    for empty in (s._replace(bag=()), s._replace(bag=(7,))):
        try:
            want: Any = outcomes_json(GAME, empty)
        except ZeroDivisionError:
            want = ZeroDivisionError
        try:
            got: Any = GAME.chance_json(empty)
        except ZeroDivisionError:
            got = ZeroDivisionError
        assert got == want

    class Weighted(Kingdomino):  # a subclass that deals otherwise is listed by its `chance`
        def chance(self, state: Any) -> Any:
            return super().chance(state)[:1]

    assert Weighted().chance_json(s) == outcomes_json(Weighted(), s) != GAME.chance_json(s)
