"""The CodinGame line protocol: the input a bot reads, byte for byte, and the referee's
reading of its two output lines (KD-PROTO-INPUT, KD-PROTO-OUTPUT, KD-STOP, KD-PUT-INVALID)."""

from __future__ import annotations

import pytest

from gamecert.reference_engine.contract import IllegalAction
from gamecert.reference_engine.kingdomino.protocol import (
    game_start,
    limits_ms,
    referee,
    turn_input,
)
from tests.kingdomino.helpers import GAME, at_turn, profile


def first_turn_2p() -> object:
    s = GAME.initial(profile("legend-2p"))
    s, _ = GAME.apply(s, ("order", (1, 2, 1, 2)))
    for t in (23, 4, 46, 13):
        s, _ = GAME.apply(s, ("deal", t))
    return s


def test_input_lines_byte_exact() -> None:
    s = first_turn_2p()
    s, _ = GAME.apply(s, ("play", None, 23))  # player 1 takes 23; player 2 to play
    assert game_start(s) == "2\n4\n"
    text = turn_input(GAME, s, 2)
    lines = text.split("\n")
    assert text.endswith("\n") and len(lines) == 2 * 9 + 4 + 4 + 1
    assert lines[4] == "_0_0_0_0*0_0_0_0_0" and lines[9 + 4] == "_0_0_0_0*0_0_0_0_0"
    assert lines[18:22] == ["-1 _0 _0 -1 0"] * 4  # first turn: nothing to place
    # tiles to pick in ascending id; 23 is player 1's, who is 1 for player 2 (you are 0)
    assert lines[22:26] == ["4 f0 f0 -1", "13 c0 f0 -1", "23 c1 m0 1", "46 w0 m2 -1"]


def test_empty_slots_omitted_under_the_other_reading() -> None:
    s = GAME.initial(profile("legend-short-lines"))
    s, _ = GAME.apply(s, ("order", (1, 2, 3, 4)))
    for t in (23, 4, 46, 13):
        s, _ = GAME.apply(s, ("deal", t))
    lines = turn_input(GAME, s, 1).split("\n")
    assert len(lines) == 4 * 9 + 4 + 1  # no placed-tile lines on the first turn
    assert lines[36:40] == ["4 f0 f0 -1", "13 c0 f0 -1", "23 c1 m0 -1", "46 w0 m2 -1"]


def test_input_marks_the_current_tile_and_owners() -> None:
    s = at_turn("legend", 2, 2)
    viewer = GAME.current(s)
    lines = turn_input(GAME, s, viewer).split("\n")
    placed = lines[36:40]
    tile, _owner = s.placing[s.nxt]
    a, b = s.cfg.tiles[tile]
    assert f"{tile} {a} {b} 0 1" in placed
    assert sum(line.endswith(" 1") for line in placed) == 1
    assert [int(line.split()[0]) for line in placed] == sorted(t for t, _ in s.placing)


def test_time_limits() -> None:
    s = GAME.initial(profile())
    assert limits_ms(s, first=True) == 1000 and limits_ms(s, first=False) == 50


@pytest.mark.parametrize("text", ["", "PUT 1 2 3\n", "PUT 1 2\nPICK 4\n", "put 1 2 3\nPICK 4\n",
                                  "PUT 1 2 3\nPICK\n", "PUT 1 2 3\nPICK 4\nPICK 5\n",
                                  "PUT a 2 3\nPICK 4\n", "PUT 1  2 3\nPICK 4\n"])
def test_badly_formatted_output_ends_the_game(text: str) -> None:
    assert referee(GAME, first_turn_2p(), text) == ("stop", "format")


def test_first_turn_put_values_ignored_pick_checked() -> None:
    s = first_turn_2p()
    assert referee(GAME, s, "PUT 99 -3 7\nPICK 13 hello there\n") == ("play", None, 13)
    assert referee(GAME, s, "PUT 0 0 0\r\nPICK 46") == ("play", None, 46)
    assert referee(GAME, s, "PUT 0 0 0\nPICK 5\n") == ("stop", "pick")


def test_put_valid_invalid_and_ignored() -> None:
    s = at_turn("legend", 6, 2)
    free = s.line[0][0]
    legal = GAME.legal(s)
    put = next(a[1] for a in legal if a[1] is not None)
    assert referee(GAME, s, f"PUT {put[0]} {put[1]} {put[2]}\nPICK {free}\n") == \
        ("play", put, free)
    assert referee(GAME, s, f"PUT 0 0 0\nPICK {free}\n") == ("stop", "put")
    wood = at_turn("wood", 6, 2)
    assert referee(GAME, wood, f"PUT 0 0 0\nPICK {free}\n") == ("invalid-put", free)
    assert referee(GAME, wood, "PUT 0 0 0\nPICK 99\n") == ("stop", "pick")


def test_last_turn_pick_ignored() -> None:
    s = at_turn("legend-2p", 3, 7)
    legal = GAME.legal(s)
    put = legal[0][1]
    line = "PUT 0 0 0" if put is None else f"PUT {put[0]} {put[1]} {put[2]}"
    assert referee(GAME, s, f"{line}\nPICK 777\n") == ("play", put, None)


def test_referee_only_when_a_king_plays() -> None:
    with pytest.raises(IllegalAction):
        referee(GAME, GAME.initial(profile()), "PUT 0 0 0\nPICK 1\n")
