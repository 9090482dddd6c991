"""Carcassonne's oracle speed-ups (issue 15) give the answers the plain computations give.

Each shortcut in `oracles/carcassonne` is checked against the computation it stands in for,
on states of random games of every profile, and on boards no valid game reaches (tiles laid
with edges that differ), since an engine under test may reply with any board.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gamecert.oracles.base import NA, Transition, expect
from gamecert.oracles.carcassonne import ORACLES, action_kind, checks, tower
from gamecert.oracles.carcassonne import board as cb
from gamecert.reference_engine.carcassonne import Carcassonne
from gamecert.reference_engine.contract import legal_json
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue
from tests.random_play import random_states, random_steps

PROFILES = list(load_catalogue("carcassonne").profiles)
GAME = Carcassonne()
PROFILE_FARMS = load_catalogue("carcassonne").profile("syncs-2025-farms")


def _states(profile_id: str, seed: int, games: int = 1) -> list[Any]:
    """Canonical states of random games, in order (the first included)."""
    return random_states("carcassonne", profile_id, seed, games)


def _shape_facts(shapes: cb.Shapes
                 ) -> tuple[list[tuple[Any, ...]], dict[tuple[cb.Cell, int], int]]:
    """Every shape in order, and which of them each (cell, part) belongs to."""
    found, index = shapes[0].list(), shapes[1]
    facts = [(f.kind, sorted(f.parts), sorted(f.tiles), f.open_sides, f.banners, f.present,
              f.first) for f in found]
    where = {id(f): i for i, f in enumerate(found)}
    assert all(id(f) in where for f in index.values())
    return facts, {at: where[id(f)] for at, f in index.items()}


def _fresh(state: Any) -> tuple[list[tuple[Any, ...]], dict[tuple[cb.Cell, int], int]]:
    """A flood fill from scratch (it reads no cache)."""
    return _shape_facts(cb.Board(state)._flood_shapes())


def _grown_in_order(states: list[Any], monkeypatch: pytest.MonkeyPatch,
                    by: str = "cells") -> int:
    """Each state's shapes as the oracles get them (grown from the last ones when the tiles
    are one more) equal a fresh flood's; returns how many were grown. `by` "cells": the
    boards' cells shared and linked to the cells they grew from (`cells_of`); "layout":
    none of that kept between states, only the layouts' cache."""
    grown = []

    def counted(*args: Any) -> Any:
        grown.append(1)
        return _grown(*args)

    _grown = cb._grown
    monkeypatch.setattr(cb, "_grown", counted)
    for cache in (cb._shapes, cb._by_cells, cb._parents, cb._recent):
        cache.clear()
    for state in states:
        if by == "layout":
            for cache in (cb._by_cells, cb._parents, cb._recent):
                cache.clear()
        bd = cb.Board(state)
        assert _shape_facts(bd._shapes()) == _fresh(state)
    return len(grown)


@pytest.mark.parametrize("by", ["cells", "layout"])
@pytest.mark.parametrize("profile_id", PROFILES)
def test_shapes_grown_tile_by_tile_equal_a_fresh_flood(profile_id: str, by: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    states = _states(profile_id, seed=13)
    assert _grown_in_order(states, monkeypatch, by) > 20


def _wild_boards(seed: int, tiles: int) -> list[Any]:
    """Boards grown one random tile at a time on any empty cell next to the board, whatever
    its edges face: what an engine with a broken placement rule could reply."""
    rng = random.Random(seed)
    ids = sorted(t for t, info in cb.catalogue().items() if info.set != "river")
    board = [{"at": [0, 0], "tile": "RS", "rotation": 0}]
    cells = {(0, 0)}
    out = []
    for _ in range(tiles):
        free = sorted({(x + dx, y + dy) for x, y in cells for dx, dy in cb.STEP} - cells)
        at = rng.choice(free)
        cells.add(at)
        board = [*board, {"at": list(at), "tile": rng.choice(ids),
                          "rotation": rng.randrange(4)}]
        out.append({"board": board, "players": 2, "meeples": []})
    return out


@pytest.mark.parametrize("by", ["cells", "layout"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shapes_grown_on_boards_with_edges_that_differ(seed: int, by: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    boards = _wild_boards(seed, 60)
    assert _grown_in_order(boards, monkeypatch, by) == len(boards) - 1


def test_completes_any_on_grown_shapes_equals_looking_at_every_feature() -> None:
    cb._shapes.clear()
    for state in _states(PROFILES[0], seed=17)[::2] + _wild_boards(6, 80):
        bd = cb.Board(state)
        for cell in list(bd.cells)[-4:]:
            slow = any(f.complete for f in bd.features_on(cell) + bd.monasteries_near(cell))
            assert bd.completes_any(cell) == slow


def _plain_features(state: Any) -> tuple[list[tuple[Any, ...]], dict[tuple[cb.Cell, int], int]]:
    """The features with their meeples as first computed: a fresh flood, every shape
    copied, each meeple counted on the copy its spot names."""
    bd = cb.Board(state)
    found, index = _fresh_shapes(bd)
    copies = {id(f): f.blank(bd.players) for f in found}
    for m in state["meeples"]:
        cell = (m["at"][0], m["at"][1])
        part = bd.part_at(cell, m["on"]) if cell in bd.cells else None
        if part is not None:
            copies[id(index[(cell, part)])].meeples[m["player"] - 1] += 1
    out = [copies[id(f)] for f in found]
    return _meeple_facts(out, {at: copies[id(f)] for at, f in index.items()})


def _fresh_shapes(bd: cb.Board) -> tuple[list[cb.Feature], dict[tuple[cb.Cell, int], cb.Feature]]:
    found, index = bd._flood_shapes()  # from scratch: it reads no cache
    return found.list(), index


def _meeple_facts(found: list[cb.Feature], index: dict[tuple[cb.Cell, int], cb.Feature]
                  ) -> tuple[list[tuple[Any, ...]], dict[tuple[cb.Cell, int], int]]:
    facts = [(f.kind, f.tile_list(), f.open_sides, f.banners, list(f.meeples), f.present)
             for f in found]
    where = {id(f): i for i, f in enumerate(found)}
    return facts, {at: where[id(f)] for at, f in index.items()}


@pytest.mark.parametrize("profile_id", PROFILES)
def test_features_with_meeples_on_shared_shapes_equal_fresh_copies(profile_id: str) -> None:
    cb._shapes.clear()
    held = 0
    for state in _states(profile_id, seed=19):
        bd = cb.Board(state)
        got = _meeple_facts(bd.features(), bd._index)
        assert got == _plain_features(state)
        held += any(any(f.meeples) for f in bd.features())
    assert held > 20


def test_shapes_stay_as_they_were_after_the_boards_that_share_them() -> None:
    """A board that counts meeples copies the shapes it puts them on: the cached shapes
    keep no meeples and are the same as a fresh flood's."""
    cb._shapes.clear()
    for state in _states(PROFILES[0], seed=23)[::5]:
        cb.Board(state).features()
        for (players, _), (found, _) in cb._shapes.items():
            assert all(f.meeples == [0] * players for f in found.list())


def _outcome(fn: Any, *args: Any) -> Any:
    """What `fn` answers, or the error it raises (its type and text)."""
    try:
        return fn(*args)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return repr(exc)


def _odd_states(state: Any) -> list[Any]:
    """`state` with its tiles counted in odd places: what an engine's reply may hold."""
    hands = state["hands"]
    return [
        {**state, "hands": [{"A": 3}, *hands[1:]]},  # a hand as an object
        {**state, "hands": ["AB", *hands[1:]]},
        {**state, "discarded": {"D": 2, "E": 1}},
        {**state, "discarded": ["RS", ["x"]]},  # an unhashable tile
        {**state, "deck": {**state["deck"], "A": "7"}, "hands": [["A"], *hands[1:]]},
        {**state, "board": [*state["board"], ["A"]]},
        {**state, "board": [*state["board"], {"at": [9, 9]}]},
        {**state, "hands": 5},
        {key: v for key, v in state.items() if key != "discarded"} | {"hands": [[[1]]]},
        {**state, "hands": [["TO1", "ZZ", "A"], *hands[1:]]},  # a Tower and an unknown tile
        {**state, "deck": {**state["deck"], "A": 0, "TO2": 2}},
        {**state, "deck": {**state["deck"], "TO2": 2.5}},
    ]


@pytest.mark.parametrize("profile_id", PROFILES)
def test_tile_counts_equal_the_plain_count(profile_id: str) -> None:
    for state in _states(profile_id, seed=29)[::4]:
        for s in [state, *_odd_states(state)]:
            assert _outcome(cb._count_tiles, s) == _outcome(cb._count_tiles_plainly, s)


def _tiles_conserved_plainly(s: Any, p: Any) -> Any:
    """CARC-TILES as first written."""
    want = {tid: info.count for tid, info in cb.catalogue().items() if info.set != "tower"}
    cat = cb.catalogue()
    got = {k: n for k, n in cb._count_tiles_plainly(s).items()
           if k not in cat or cat[k].set != "tower"}
    diff = {k: got.get(k, 0) - n for k, n in want.items() if got.get(k, 0) != n}
    extra = sorted(set(got) - set(want))
    return expect(not diff and not extra, f"tile counts off by {diff} {extra or ''} (board + "
                                           f"hands + piles + discards must hold the set)")


def _tower_tiles_plainly(s: Any, p: Any) -> Any:
    """CARC-TOWER-TILES as first written."""
    stage = tower.tower_stage(p)
    want = sum(i.count for i in cb.catalogue().values() if i.set == "tower") if stage else 0
    got = sum(n for tid, n in cb._count_tiles_plainly(s).items()
              if tid in cb.catalogue() and cb.catalogue()[tid].set == "tower")
    if not stage:
        return expect(got == 0 and "towers" not in s,
                      "Tower tiles or towers outside the tower stage") if got or "towers" in s \
            else NA
    return expect(got == want, f"{got} Tower tiles in the game, the tower stage has {want}")


@pytest.mark.parametrize("profile_id", PROFILES)
def test_tile_oracles_answer_as_first_written(profile_id: str) -> None:
    p = load_catalogue("carcassonne").profile(profile_id)
    seen = set()
    for state in _states(profile_id, seed=31)[::4]:
        for s in [state, *_odd_states(state)]:
            for fast, plain in ((checks.tiles_conserved, _tiles_conserved_plainly),
                                (tower.tower_tiles, _tower_tiles_plainly)):
                want = _outcome(plain, s, p)
                assert _outcome(fast, s, p) == want
                assert type(_outcome(fast, s, p)) is type(want)
                seen.add(type(want))
    assert len(seen) >= 3  # verdicts OK or NA, violations and errors among them


def _steps(profile_id: str, seed: int) -> list[Transition]:
    return random_steps("carcassonne", profile_id, seed)


ODD_ACTIONS = [None, [], "place", {"type": 5}, {"type": ["place"]}, {}, {"type": "Place"}]


def test_action_kind_names_the_type_the_checks_read() -> None:
    actions = [t.action for p in PROFILES for t in _steps(p, seed=37)] + ODD_ACTIONS
    kinds = {k for o in ORACLES for k in (o.on or ())}
    assert kinds >= {"place", "draw", "claim", "pass", "discard", "tower", "cap"}
    for action in actions:
        t = Transition({}, action, {}, [])
        for k in kinds:
            assert (action_kind(action) == k) == checks._is(t, k), (action, k)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_kind_bound_checks_answer_na_elsewhere_without_reading_the_reply(
        profile_id: str) -> None:
    """A check that says `on` decides NA from the state before and the action alone: at a
    step of another kind it answers NA even when the reply cannot be read at all."""
    p = load_catalogue("carcassonne").profile(profile_id)
    bound = [o for o in ORACLES if o.on is not None]
    asked = 0
    for t in _steps(profile_id, seed=41):
        unreadable = Transition(t.before, t.action, None, None)  # type: ignore[arg-type]
        for o in bound:
            if action_kind(t.action) not in (o.on or ()):
                assert o.check is not None and o.check(unreadable, p) is NA, o.rule
                asked += 1
    assert asked > 100


def _odd_boards(board: list[Any]) -> list[Any]:
    """`board` with one more entry in odd shapes, and boards that are not lists of entries."""
    last = board[-1]
    return [
        [*board, {"at": [99, 99], "tile": "A", "rotation": 1}],
        [{"at": [-99, 0], "tile": "B", "rotation": 2}, *board],
        [*board[:1], {**last}, *board[1:]],  # a second entry on a held cell, placed earlier
        [*board, {**last, "rotation": (last["rotation"] + 1) % 4}],  # ... and later
        [*board, ["A"]],
        [*board, {"at": [7]}],
        [*board, {"at": [5, 5], "tile": "A"}],
        [*board[:-1], {**last, "tile": "ZZ"}],
        tuple(board),
        5,
    ]


@pytest.mark.parametrize("profile_id", PROFILES[:4])
def test_cells_read_from_a_board_seen_lately_equal_a_fresh_read(profile_id: str) -> None:
    shared = 0
    for state in _states(profile_id, seed=43):
        for board in [state["board"], *_odd_boards(state["board"]), state["board"]]:
            want = _outcome(cb._cells_plainly, board)
            shared += any(seen == board for seen, _ in cb._recent if type(seen) is list)
            got = _outcome(cb.cells_of, board)
            assert got == want
            assert type(got) is type(want)
    assert shared > 100


def test_a_placement_adds_one_cell_to_the_cells_before() -> None:
    grown = 0
    states = _states(PROFILES[0], seed=47)
    for before, after in itertools.pairwise(states):
        old, new = before["board"], after["board"]
        if len(new) == len(old) + 1:
            got = cb._one_more(old, cb._cells_plainly(old), new)
            assert got == cb._cells_plainly(new)
            grown += 1
    assert grown > 40


def test_coords_reads_the_cells_as_first_written() -> None:
    plain = lambda board: [tuple(b["at"]) for b in board]  # noqa: E731
    for state in _states(PROFILES[0], seed=53)[::9]:
        for board in [state["board"], *_odd_boards(state["board"]),
                      [*state["board"], {"at": "xy"}], [*state["board"], {"at": 3}]]:
            fast = _outcome(lambda b: list(map(tuple, map(checks._AT, b))), board)
            assert fast == _outcome(plain, board)


@pytest.mark.parametrize("seed", [4, 5])
def test_feature_lists_made_late_after_many_placements_equal_a_fresh_flood(seed: int) -> None:
    """A grown layout lists its features only when asked: asked after many placements, the
    lists of the last layout and of layouts before it are the flood fill's."""
    for cache in (cb._shapes, cb._by_cells, cb._parents, cb._recent):
        cache.clear()
    boards = _wild_boards(seed, 50)
    kept = []
    for state in boards:
        kept.append((state, cb.Board(state)._shapes()))
    for state, shapes in [kept[-1], kept[len(kept) // 2], kept[-2]]:
        assert _shape_facts(shapes) == _fresh(state)


def test_the_cloister_tiles_are_those_with_a_part_named_monastery() -> None:
    named = {tid for tid in cb.catalogue() for r in range(4)
             if any(name == "monastery" for _, _, _, name in cb.parts(tid, r))}
    assert cb._cloister_tiles() == named and named


@pytest.mark.parametrize("profile_id", PROFILES[:3])
def test_tile_count_fast_path_is_taken_and_answers_ok(profile_id: str) -> None:
    p = load_catalogue("carcassonne").profile(profile_id)
    states = _states(profile_id, seed=43)[::5]
    oks = sum(checks.tiles_conserved(s, p) is _tiles_conserved_plainly(s, p) for s in states)
    assert oks == len(states)  # every valid state: OK, by both


_PIECES = st.one_of(st.integers(-3, 5), st.booleans(), st.floats(0, 3), st.none(),
                    st.sampled_from(["A", "RA", "AB12", "ABCDE", "a", "A\n", "", "top", "left2",
                                     "field", "tower", "T1"]),
                    st.lists(st.integers(-2, 2), max_size=3))
_ACTIONS = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["place", "draw", "discard", "claim",
                                                    "pass", "tower"])},
                          optional={"tile": _PIECES, "at": _PIECES, "rotation": _PIECES,
                                    "on": _PIECES, "extra": _PIECES}),
    st.builds(lambda t, at, r: {"type": "place", "tile": t, "at": at, "rotation": r},
              st.sampled_from(["A", "RB", "Q2", "ab", "A-"]),
              st.lists(st.one_of(st.integers(-3, 3), st.booleans(), st.floats(0, 2)),
                       min_size=1, max_size=3), _PIECES))


@settings(max_examples=400, derandomize=True)
@given(_ACTIONS)
@example({"type": "place", "tile": "A", "at": [True, 0], "rotation": 0})
@example({"type": "place", "tile": "A", "at": [0, 0], "rotation": True})
@example({"type": "place", "tile": "A\n", "at": [0, 0], "rotation": 1})
@example({"type": "claim", "on": ["top"]})
def test_a_plainly_valid_action_is_valid_under_the_schema(action: dict[str, Any]) -> None:
    """`plainly_valid` answers without the action schema only for actions the schema
    accepts (else the schema is asked: the verdict is the schema's either way)."""
    if checks.common.plainly_valid(action):
        assert first_error("carcassonne-action", action) is None, action


def test_the_reference_s_own_actions_are_plainly_valid() -> None:
    """The shortcut is taken for what play sends: every legal action of random games."""
    seen = set()
    for state in _states("syncs-2025-farms", 3)[:60]:
        for o in legal_json(GAME, GAME.load(PROFILE_FARMS, state)).get("actions", []):
            assert checks.common.plainly_valid(o), o
            seen.add(o["type"])
    assert {"place", "claim", "pass"} <= seen
