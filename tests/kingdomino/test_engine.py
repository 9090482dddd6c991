"""The Kingdomino reference engine plays the rules of spec/kingdomino.json."""

from __future__ import annotations

from collections import Counter

import pytest

from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.reference_engine.kingdomino.engine import DEAL, EMPTY_GRID, PLAY
from gamecert.reference_engine.kingdomino.tiles import TileDataError, parse_tiles, tiles_for
from tests.kingdomino.helpers import GAME, at_turn, grid, play_random, profile

SCORING = """
.  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .
.  .  l1 l0 w0 .  .  .  .
.  .  l0 g2 g0 c0 .  .  .
.  .  f0 g0 *0 c1 c0 .  .
.  .  f1 f0 m2 m0 c0 .  .
.  .  f0 w1 m0 l0 .  .  .
.  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .
"""


def test_board_game_tile_list() -> None:
    tiles = tiles_for("board-game")
    assert sorted(tiles) == list(range(1, 49))
    counts = Counter(sq[0] for pair in tiles.values() for sq in pair)
    assert counts == {"c": 26, "f": 22, "g": 14, "l": 18, "w": 10, "m": 6}
    assert sum(int(sq[1]) for pair in tiles.values() for sq in pair) == 39
    assert tiles[13] == ("c0", "f0") and tiles[37] == ("l0", "g1")
    assert tiles[1] == ("c0", "c0") and tiles[23] == ("c1", "m0") and tiles[48] == ("c0", "m3")


def test_second_public_tile_list_differs_on_13_and_37_only() -> None:
    a, b = tiles_for("board-game"), tiles_for("fiddleatwork")
    assert {t for t in a if a[t] != b[t]} == {13, 37}
    assert b[13] == ("g0", "f0") and b[37] == ("l0", "c1")
    counts = Counter(sq[0] for pair in b.values() for sq in pair)
    assert counts == {"c": 26, "f": 22, "g": 14, "l": 18, "w": 10, "m": 6}
    s = GAME.initial(profile("legend-fiddleatwork"))
    assert s.cfg.tiles[37] == ("l0", "c1")


# Every tile, typed by hand from the public sources (facts, in our own notation: first square
# / second square, a digit for crowns). The board game's numbering (catalogue source
# `board-game`, the rulebook's domino list) with tiles 13 and 37 as our data file's default;
# the second public list (source `tiles-fiddleatwork`, src/main/resources/tiles.csv) differs
# on those two tiles only.
BOARD_GAME_TILES = """
1 c0 c0   2 c0 c0   3 f0 f0   4 f0 f0   5 f0 f0   6 f0 f0   7 l0 l0   8 l0 l0
9 l0 l0   10 g0 g0  11 g0 g0  12 w0 w0  13 c0 f0  14 c0 l0  15 c0 g0  16 c0 w0
17 f0 l0  18 f0 g0  19 c1 f0  20 c1 l0  21 c1 g0  22 c1 w0  23 c1 m0  24 f1 c0
25 f1 c0  26 f1 c0  27 f1 c0  28 f1 l0  29 f1 g0  30 l1 c0  31 l1 c0  32 l1 f0
33 l1 f0  34 l1 f0  35 l1 f0  36 c0 g1  37 l0 g1  38 c0 w1  39 g0 w1  40 m1 c0
41 c0 g2  42 l0 g2  43 c0 w2  44 g0 w2  45 m2 c0  46 w0 m2  47 w0 m2  48 c0 m3
"""
FIDDLEATWORK_CHANGES = {13: ("g0", "f0"), 37: ("l0", "c1")}


def _typed(table: str) -> dict[int, tuple[str, str]]:
    words = table.split()
    return {int(words[i]): (words[i + 1], words[i + 2]) for i in range(0, len(words), 3)}


def test_both_public_tile_lists_tile_by_tile() -> None:
    board_game = _typed(BOARD_GAME_TILES)
    assert sorted(board_game) == list(range(1, 49))
    assert tiles_for("board-game") == board_game
    assert tiles_for("fiddleatwork") == {**board_game, **FIDDLEATWORK_CHANGES}
    assert GAME.initial(profile("legend")).cfg.tiles == board_game


def test_bad_tile_data_is_a_clear_error() -> None:
    with pytest.raises(TileDataError, match=r"x\.json: .*required"):
        parse_tiles('{"format": "gamecert-kingdomino-tiles/1"}', "x.json")
    with pytest.raises(TileDataError, match="line 1"):
        parse_tiles("{", "x.json")


def test_scoring_zones_size_times_crowns() -> None:
    # lakes: {l1,l0,l0} 3 x 1; grass {g2,g0,g0} 3 x 2; corn {c0,c1,c0,c0} 4 x 1;
    # forest {f0,f1,f0,f0} 4 x 1; mine {m2,m0,m0} 3 x 2; wetland w1 alone 1 x 1;
    # w0 and the lone l0 have no crown: 0. The castle is in no zone.
    g = grid(SCORING)
    assert GAME.score_grid(g) == 3 + 6 + 4 + 4 + 6 + 1
    zones = sorted(GAME.zones(g))
    assert ("l", 1, 0) in zones and ("w", 1, 0) in zones and ("w", 1, 1) in zones
    assert GAME.territory(GAME.config(profile()), g) == 24 - 4
    assert GAME.crowns(g) == 8


def test_zones_do_not_join_diagonally_or_through_the_castle() -> None:
    g = grid("""
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . c1 . . . . .
. . . . *0 c1 . . .
. . . . c0 . . . .
. . c1 c0 . . . . .
. . . . . . . . .
. . . . . . . . .
""")
    # c1 at (3,3) is alone (diagonal to nothing of its own), c1 at (5,4) alone; (4,5) c0
    # and (3,6) are diagonal: separate; (2,6)-(3,6) one zone of 2 with one crown
    assert GAME.score_grid(g) == 1 + 1 + 0 + 2


def test_tie_break_territory_then_crowns() -> None:
    # A and B tie on 10; B has the larger territory: B + 1. C and D tie on 7 with equal
    # territory (both + 1, still tied); D has more crowns: D + 1
    final = GAME.tie_break([10, 10, 7, 7], [12, 14, 9, 9], [3, 3, 2, 4])
    assert final == [10, 11, 8, 9]
    assert GAME.tie_break([5, 6], [1, 9], [0, 9]) == [5, 6]  # no tie, no bonus
    assert GAME.tie_break([5, 5], [3, 3], [2, 2]) == [7, 7]  # tied for good


def test_rotation_puts_the_second_square_right_below_left_above() -> None:
    state = at_turn("legend", 3, 2)
    tile, p = state.placing[state.nxt]
    assert [GAME.second_cell(4, 2, r) for r in range(4)] == [(5, 2), (4, 3), (3, 2), (4, 1)]
    for r in range(4):
        put = (4, 3, r) if r != 1 else (4, 2, 3)
        if GAME.placement_error(state, state.grids[p - 1], tile, put) is None:
            g = GAME.place(state, state.grids[p - 1], tile, put)
            a, b = state.cfg.tiles[tile]
            x2, y2 = GAME.second_cell(*put)
            assert g[2 * (put[1] * 9 + put[0]):][:2] == a and g[2 * (y2 * 9 + x2):][:2] == b


def test_placement_rules() -> None:
    state = at_turn("legend", 5, 2)
    tile, p = state.placing[state.nxt]
    g = state.grids[p - 1]
    err = GAME.placement_error
    assert "overlaps" in (err(state, g, tile, (4, 4, 0)) or "")
    assert "grid" in (err(state, g, tile, (8, 0, 0)) or "")
    assert "neither" in (err(state, g, tile, (0, 0, 0)) or "")
    assert err(state, g, tile, (5, 4, 0)) is None  # next to the castle
    full = grid("""
. . . . . . . . .
. . . . . . . . .
. . c0 c0 c0 c0 c0 . .
. . c0 c0 c0 c0 c0 . .
. . c0 c0 *0 c0 c0 . .
. . c0 c0 c0 c0 c0 . .
. . c0 c0 c0 c0 . . .
. . . . . . . . .
. . . . . . . . .
""")
    st = state._replace(grids=(*state.grids[:p - 1], full, *state.grids[p:]))
    # the one free cell inside 5 x 5 is (6, 6): a domino cannot fit, so it is discarded
    assert GAME.placements(st, full, tile) == []
    assert GAME.can_discard(st, full, tile)
    assert "wider" in (err(st, full, tile, (6, 6, 0)) or "")
    assert not GAME.can_discard(state, g, tile)


def test_first_turn_seat_order_and_no_put() -> None:
    s = GAME.initial(profile("legend-2p"))
    assert [o.action for o in GAME.chance(s)] == [("order", (1, 2, 1, 2))]
    s, _ = GAME.apply(s, ("order", (1, 2, 1, 2)))
    for t in (30, 4, 17, 9):
        assert GAME.current(s) == CHANCE
        s, _ = GAME.apply(s, ("deal", t))
    assert [t for t, _ in s.line] == [4, 9, 17, 30]
    assert GAME.current(s) == 1
    assert {a[1] for a in GAME.legal(s)} == {None}
    with pytest.raises(IllegalAction, match="first turn"):
        GAME.apply(s, ("play", (5, 4, 0), 4))
    for who, pick in ((1, 30), (2, 4), (1, 9), (2, 17)):
        assert GAME.current(s) == who
        s, _ = GAME.apply(s, ("play", None, pick))
    # KD-ORDER: 4 (player 2), 9 (player 1), 17 (player 2), 30 (player 1)
    assert s.phase == DEAL and s.turn == 2
    assert s.placing == ((4, 2), (9, 1), (17, 2), (30, 1))


def test_shuffled_first_order_is_a_chance_step() -> None:
    s = GAME.initial(profile("board-game-start"))
    outcomes = GAME.chance(s)
    assert len(outcomes) == 6 and sum(o.probability for o in outcomes) == 1
    assert all(Counter(o.action[1]) == {1: 2, 2: 2} for o in outcomes)


@pytest.mark.parametrize(("pid", "turns", "drawn", "kings"), [
    ("legend-2p", 7, 24, 4), ("legend-3p", 13, 36, 3), ("legend", 13, 48, 4)])
def test_game_length_and_tiles_in_play(pid: str, turns: int, drawn: int, kings: int) -> None:
    state, events = play_random(pid, 11)
    assert GAME.current(state) == TERMINAL and state.turn == turns
    assert sum(e["type"] == "dealt" for e in events) == drawn
    assert len(state.bag) == 48 - drawn
    plays = sum(e["type"] in ("placed", "discarded") for e in events)
    assert plays == kings * (turns - 1)
    assert sum(e["type"] == "picked" for e in events) == kings * (turns - 1)
    assert state.result is not None
    assert state.result["scores"] == [GAME.score_grid(g) for g in state.grids]


def test_last_turn_has_no_line_and_no_pick() -> None:
    s = at_turn("legend-2p", 2, 7)
    assert s.phase == PLAY and s.line == ()
    assert {a[2] for a in GAME.legal(s)} == {None}
    tile, _p = s.placing[s.nxt]
    legal = GAME.legal(s)
    with pytest.raises(IllegalAction, match="last turn"):
        GAME.apply(s, ("play", legal[0][1], tile))


def test_discard_only_when_nothing_fits() -> None:
    s = at_turn("legend", 8, 3)
    with pytest.raises(IllegalAction, match="fits somewhere"):
        GAME.apply(s, ("play", None, s.line[0][0]))


def test_stop_skips_the_player_and_keeps_its_score() -> None:
    s = at_turn("legend", 4, 3)
    p = GAME.current(s)
    s2, ev = GAME.apply(s, ("stop", "format"))
    assert ev[0]["type"] == "stopped" and s2.stopped[p - 1]
    rng_state, _ = s2, None
    import random
    rng = random.Random(0)
    while GAME.current(rng_state) != TERMINAL:
        assert GAME.current(rng_state) != p
        who = GAME.current(rng_state)
        a = GAME.random_chance(rng_state, rng) if who == CHANCE else \
            GAME.random_action(rng_state, rng)
        rng_state, _ = GAME.apply(rng_state, a)
    assert rng_state.result is not None
    assert rng_state.result["scores"][p - 1] == GAME.score_grid(s2.grids[p - 1])


def test_invalid_put_depends_on_the_league() -> None:
    legend, wood = at_turn("legend", 6, 2), at_turn("wood", 6, 2)
    pick = legend.line[0][0]
    with pytest.raises(IllegalAction):
        GAME.apply(legend, ("invalid-put", pick))
    after, ev = GAME.apply(wood, ("invalid-put", pick))
    assert ev[0]["rule"] == "KD-PUT-INVALID" and after.discarded == (wood.placing[0][0],)
    with pytest.raises(IllegalAction):
        GAME.apply(wood, ("stop", "put"))
    _, ev = GAME.apply(legend, ("stop", "put"))
    assert ev[0]["rule"] == "KD-PUT-INVALID"


def test_load_refuses_impossible_states() -> None:
    prof = profile()
    s = GAME.observe(at_turn("legend", 1, 2))
    assert GAME.observe(GAME.load(prof, s)) == s
    bad_castle = {**s, "grids": [[r.replace("*0", "c0") for r in g] for g in s["grids"]]}
    with pytest.raises(BadState, match="castle"):
        GAME.load(prof, bad_castle)
    with pytest.raises(BadState, match="players"):
        GAME.load(profile("legend-2p"), s)
    with pytest.raises(BadState, match="bag"):
        GAME.load(prof, {**s, "bag": s["bag"] + [s["line"][0]["tile"]]})
    with pytest.raises(BadState, match="not a Kingdomino state"):
        GAME.load(prof, {"game": "kingdomino"})
    assert EMPTY_GRID.count("*0") == 1 and EMPTY_GRID.index("*0") == 2 * 40


def test_fast_placement_listing_equals_the_rule_hooks() -> None:
    class HooksOnly(type(GAME)):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self._fast = False

    slow = HooksOnly()
    checked = 0
    for pid in ("legend", "legend-2p", "legend-fiddleatwork"):
        for seed in range(4):
            for turn in (2, 5, 9):
                if pid == "legend-2p" and turn > 7:
                    continue
                s = at_turn(pid, seed, turn)
                tile, p = s.placing[s.nxt]
                g = s.grids[p - 1]
                assert GAME.placements(s, g, tile) == slow.placements(s, g, tile)
                assert GAME.fits_somewhere(s, g, tile) == slow.fits_somewhere(s, g, tile)
                checked += 1
    assert checked >= 30
