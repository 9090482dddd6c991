"""The Tower (profile syncs-2025-tower): the seed's reach example, captures (one's own back to
the supply, an opponent's into prison, a capping meeple reopening its tower), the immediate
exchange, ransom at its limits, floors per player count, the placed-tile reading, loading,
and the z3 conservation proofs on the engine's own step code."""

from __future__ import annotations

from typing import Any

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.main import main
from gamecert.reference_engine.carcassonne.engine import CarcState, pack
from gamecert.reference_engine.contract import BadState, IllegalAction

from .helpers import CLOSED_RIVER, ENGINE, crafted, load, profile

TOWER = "syncs-2025-tower"
# a tower (TO2) at [1, -1], one high; a capped tower (TO3) right below it; monasteries (B)
# at [2, -1] and [3, -1] in line to the right and [1, -3] two up across the empty cell
# [1, -2]; a town (E, turned to the left) at [0, -2], diagonal to the tower
BOARD = [*CLOSED_RIVER, (1, -1, "TO2", 0), (1, 0, "TO3", 0), (2, -1, "B", 0), (3, -1, "B", 0),
         (0, -2, "E", 3), (0, -3, "B", 0), (1, -3, "B", 0)]
MEEPLES = [(2, -1, "monastery", 1), (3, -1, "monastery", 2), (0, -2, "left", 3),
           (1, -3, "monastery", 2)]


def position(pid: str = TOWER, **change: Any) -> dict[str, Any]:
    """The claim step after player 1 placed the B at [0, -3]."""
    o = crafted(BOARD, pid=pid, meeples=MEEPLES, step="claim", placed=(0, -3))
    o["towers"] = [{"at": [1, -1], "height": 1, "cap": None},
                   {"at": [1, 0], "height": 1, "cap": 3}]
    o["floors"][0] -= 1
    o["floors"][2] -= 1
    o["supply"][2] -= 1  # player 3's meeple caps the tower at [1, 0]
    o.update(change)
    return o


def floors(state: CarcState, at: tuple[int, int]) -> set[Any]:
    """The captures a floor on the tower at `at` offers (None: no capture)."""
    out = set()
    for a in ENGINE.legal(state):
        if a[0] == "tower" and a[1] == pack(*at):
            j = ENGINE.action_to_json(state, a)
            out.add(None if "capture" not in j else (tuple(j["capture"]["at"]),
                                                     j["capture"]["on"]))
    return out


def test_seed_reach_example_height_two_reaches_nine_cells() -> None:
    """Seed 001, Towers: "a tower with a height of 2 could remove a meeple lying within 2
    tiles in each cardinal direction from the tower, giving you access to 9 tiles, if you
    include the tower tile as well. This reach passes over any empty tiles and towers"."""
    s = load(position())
    assert len(set(ENGINE.reach_cells(s, pack(1, -1), 2))) == 9
    # the next floor makes the tower 2 high: two steps right, two up across the empty cell,
    # the capping meeple one down; the diagonal monastery is out of reach
    assert floors(s, (1, -1)) == {None, ((2, -1), "monastery"), ((3, -1), "monastery"),
                                  ((1, -3), "monastery"), ((1, 0), "tower")}
    one_high = load(position(towers=[{"at": [1, -1], "height": 0 + 1, "cap": None},
                                     {"at": [1, 0], "height": 1, "cap": 3}]))
    assert ((0, -2), "left") not in floors(one_high, (1, -1))


def test_capture_own_meeple_goes_home_opponents_to_prison() -> None:
    s = load(position())
    own = ENGINE.action_from_json(s, {"type": "tower", "at": [1, -1],
                                      "capture": {"at": [2, -1], "on": "monastery"}})
    after, events = ENGINE.apply(s, own)
    assert after.supply[0] == s.supply[0] + 1 and after.prisoners == s.prisoners
    assert [e["type"] for e in events][:2] == ["tower-built", "meeple-captured"]
    theirs = ENGINE.action_from_json(s, {"type": "tower", "at": [1, -1],
                                         "capture": {"at": [3, -1], "on": "monastery"}})
    after, events = ENGINE.apply(s, theirs)
    assert after.prisoners[0][1] == 1 and after.supply[1] == s.supply[1]
    assert after.towers[pack(1, -1)] == (2, 0) and after.floors[0] == s.floors[0] - 1
    assert {"at": [3, -1], "on": "monastery", "player": 2} not in ENGINE.observe(after)[
        "meeples"]


def test_capturing_a_capping_meeple_reopens_its_tower() -> None:
    s = load(position())
    a = ENGINE.action_from_json(s, {"type": "tower", "at": [1, -1],
                                    "capture": {"at": [1, 0], "on": "tower"}})
    after, _ = ENGINE.apply(s, a)
    assert after.towers[pack(1, 0)] == (1, 0) and after.prisoners[0][2] == 1


def test_mutual_prisoners_are_exchanged_at_once() -> None:
    o = position()
    o["prisoners"][1][0] = 1  # player 2 holds one of player 1's meeples
    o["supply"][0] -= 1
    s = load(o)
    a = ENGINE.action_from_json(s, {"type": "tower", "at": [1, -1],
                                    "capture": {"at": [3, -1], "on": "monastery"}})
    after, events = ENGINE.apply(s, a)
    assert after.prisoners[0][1] == after.prisoners[1][0] == 0
    assert after.supply[0] == s.supply[0] + 1 and after.supply[1] == s.supply[1] + 1
    assert {"type": "prisoners-exchanged", "rule": "CARC-TOWER-EXCHANGE",
            "players": [1, 2]} in events
    o["prisoners"][0][1], o["supply"][1] = 1, o["supply"][1] - 1
    with pytest.raises(BadState, match="CARC-TOWER-EXCHANGE"):
        load(o)


def test_refused_tower_actions_name_their_rule() -> None:
    s = load(position())
    for data, rule in [
            ({"type": "tower", "at": [1, -1], "capture": {"at": [0, -2], "on": "left"}},
             "CARC-TOWER-REACH"),
            ({"type": "tower", "at": [2, -1]}, "CARC-TOWER-ACTION"),
            ({"type": "tower", "at": [1, 0]}, "CARC-TOWER-ACTION"),  # capped
            ({"type": "cap", "at": [1, 0]}, "CARC-TOWER-ACTION")]:
        with pytest.raises(IllegalAction, match=rule):
            ENGINE.apply(s, ENGINE.action_from_json(s, data))
    empty = load(position(floors=[0, 7, 6, 7], towers=[{"at": [1, -1], "height": 7,
                                                         "cap": None},
                                                        {"at": [1, 0], "height": 1, "cap": 3}]))
    with pytest.raises(IllegalAction, match="CARC-TOWER-FLOORS"):
        ENGINE.apply(empty, ("tower", pack(1, -1), -1, -1))
    capped, _ = ENGINE.apply(s, ENGINE.action_from_json(s, {"type": "cap", "at": [1, -1]}))
    assert capped.towers[pack(1, -1)] == (1, 1) and capped.supply[0] == s.supply[0] - 1


def test_placed_tile_reading_keeps_floors_on_the_tile_just_placed() -> None:
    s = load(position("syncs-2025-tower-placed"))
    assert not [a for a in ENGINE.legal(s) if a[0] in ("tower", "cap")]
    with pytest.raises(IllegalAction, match="CARC-TOWER-ACTION"):
        ENGINE.apply(s, ("tower", pack(1, -1), -1, -1))


def test_floors_follow_the_player_count() -> None:
    for pid, n, given in (("syncs-2025-tower", 4, 7), ("syncs-2025-tower-2p", 2, 10)):
        s = ENGINE.initial(profile(pid))
        assert s.floors == (given,) * n and s.prisoners == ((0,) * n,) * n


def ransom_state(points: int, held: int = 1) -> CarcState:
    """Player 1's place step on `points` points; player 2 holds `held` of their meeples."""
    o = crafted([*CLOSED_RIVER, (1, -1, "W", 3)], pid=TOWER, hands=[["U"], [], [], []],
                scores=[points, 0, 0, 0])
    o["prisoners"][1][0] = held
    o["supply"][0] -= held
    return load(o)


def test_ransom_at_exactly_three_points_moves_three_points_and_frees_one() -> None:
    s = ransom_state(3)
    assert ("ransom", 2) in ENGINE.legal(s)
    after, events = ENGINE.apply(s, ("ransom", 2))
    assert after.scores == (0, 3, 0, 0) and after.prisoners[1][0] == 0
    assert after.supply[0] == s.supply[0] + 1 and after.ransomed
    assert events == [{"type": "ransom-paid", "rule": "CARC-TOWER-RANSOM", "player": 1,
                       "captor": 2, "points": 3}]


def test_ransom_refused_short_of_points_twice_or_to_the_wrong_player() -> None:
    short = ransom_state(2)
    assert ("ransom", 2) not in ENGINE.legal(short)
    with pytest.raises(IllegalAction, match="fewer than the ransom"):
        ENGINE.apply(short, ("ransom", 2))
    rich = ransom_state(6, held=2)
    once, _ = ENGINE.apply(rich, ("ransom", 2))
    with pytest.raises(IllegalAction, match="already paid this turn"):
        ENGINE.apply(once, ("ransom", 2))
    with pytest.raises(IllegalAction, match="holds no meeple"):
        ENGINE.apply(rich, ("ransom", 3))


def test_the_ransom_flag_resets_with_the_next_turn() -> None:
    s = ransom_state(6, held=2)
    s, _ = ENGINE.apply(s, ("ransom", 2))
    s, _ = ENGINE.apply(s, ENGINE.legal(s)[0])  # place the U
    s, _ = ENGINE.apply(s, ("pass",))
    assert not s.ransomed and s.to_move == 2


def test_tower_states_round_trip_and_bad_ones_are_refused() -> None:
    o = position()
    assert ENGINE.observe(load(o)) == o
    for change, message in [({"floors": [7, 7, 7, 7]}, "CARC-TOWER-FLOORS"),
                            ({"towers": [{"at": [2, -1], "height": 1, "cap": None},
                                         {"at": [1, 0], "height": 1, "cap": 3}]},
                             "no tower foundation")]:
        with pytest.raises(BadState, match=message):
            load({**o, **change})
    base = crafted(CLOSED_RIVER, hands=[["U"], [], [], []])
    with pytest.raises(BadState, match="tower stage only"):
        load({**base, "towers": [], "floors": [7] * 4, "prisoners": [[0] * 4] * 4,
              "ransom_paid": False})


def test_prove_runs_the_conservation_proofs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "carcassonne", "--engine", "reference", "--profile", TOWER]) == 0
    out = capsys.readouterr().out
    for rule in ("CARC-TOWER-FLOORS", "CARC-TOWER-RANSOM", "CARC-TOWER-MEEPLES"):
        assert f"{rule} conservation proof: PROVED" in out
    for mutant, rule in (("ransom_pays_2", "CARC-TOWER-RANSOM"),
                         ("no_exchange", "CARC-TOWER-MEEPLES")):
        assert main(["prove", "carcassonne", "--engine",
                     engine_spec("carcassonne", mutant), "--profile", TOWER]) == 1
        assert f"{rule} conservation proof: FAILED: " in capsys.readouterr().out


def test_z3_reach_boundary_keeps_the_floor_count() -> None:
    from gamecert.oracles.carcassonne.tower_z3 import reach_boundary

    split = reach_boundary(3, 7, 4, other_floors=2, mover=0)
    assert split is not None
    height, left = split
    assert height == 2 and left[0] >= 1 and sum(7 - f for f in left) == 2 + height
    assert reach_boundary(3, 1, 2, other_floors=2, mover=0) is None  # no floor left for it


def test_fuzz_starts_put_a_meeple_at_the_edge_of_a_reach() -> None:
    from gamecert.fuzz.games.carcassonne.starts import pools

    prof = profile(TOWER)
    kinds = pools(prof).by_kind
    assert kinds["reach-exact"] and kinds["reach-gap"] and kinds["mutual"]
    for kind in ("reach-exact", "reach-gap", "mutual"):
        for o in kinds[kind][:5]:
            s = ENGINE.load(prof, o)
            edge = [a for a in ENGINE.legal(s) if a[0] == "tower" and a[2] != -1
                    and s.towers.get(a[1], (0, 0))[0] + 1 in
                    {abs(a[2] % 256 - a[1] % 256) + abs(a[2] // 256 - a[1] // 256)}]
            assert edge, kind  # a capture exactly as far as the next floor reaches
    for o in kinds["mutual"][:5]:
        assert any(any(row) for row in o["prisoners"])


def test_on_request_exchange_waits_for_the_mover_to_ask() -> None:
    """CARC-TOWER-EXCHANGE on-request (profile syncs-2025-tower-placed): the capture leaves
    mutual prisoners; the next place step of either player offers the exchange."""
    o = position("syncs-2025-tower-placed", placed=[1, -1])
    o["prisoners"][1][0] = 1
    o["supply"][0] -= 1
    s = load(o)
    a = ENGINE.action_from_json(s, {"type": "tower", "at": [1, -1],
                                    "capture": {"at": [3, -1], "on": "monastery"}})
    after, events = ENGINE.apply(s, a)
    assert after.prisoners[0][1] == after.prisoners[1][0] == 1
    assert not [e for e in events if e["type"] == "prisoners-exchanged"]
    place = ransom_state(0)._replace(cfg=after.cfg, prisoners=((0, 1, 0, 0), (1, 0, 0, 0),
                                                               (0, 0, 0, 0), (0, 0, 0, 0)))
    assert ("exchange", 2) in ENGINE.legal(place)
    swapped, events = ENGINE.apply(place, ENGINE.action_from_json(place, {"type": "exchange",
                                                                          "with": 2}))
    assert swapped.prisoners[0][1] == swapped.prisoners[1][0] == 0
    assert events[0]["type"] == "prisoners-exchanged"
    with pytest.raises(IllegalAction):
        ENGINE.apply(ransom_state(3), ("exchange", 2))  # immediate: nothing to ask for
