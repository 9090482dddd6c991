"""The reference engine: random games, round-trips, chance, crafted rule situations, load."""

from __future__ import annotations

import copy
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from gamecert.oracles.carcassonne.board import in_game
from gamecert.reference_engine.carcassonne import project
from gamecert.reference_engine.carcassonne.engine import (
    LEFT,
    RIGHT,
    STRAIGHT,
    River,
    pack,
    uturn_problem,
)
from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.schemas import first_error

from .helpers import CATALOGUE, ENGINE, TILES, crafted, load, play, profile

T = ENGINE.initial(profile()).cfg.t
K = T.index


def _tiles_everywhere(o: dict[str, Any]) -> Counter[str]:
    found: Counter[str] = Counter(b["tile"] for b in o["board"])
    for h in o["hands"]:
        found.update(h)
    found.update(o["deck"])
    found.update({k: v - 1 for k, v in o["deck"].items()})
    found.update(o["river_pile"])
    found.update({k: v - 1 for k, v in o["river_pile"].items()})
    found.update(o["discarded"])
    return found


# --- random games ----------------------------------------------------------------------------
@pytest.mark.parametrize("pid", sorted(CATALOGUE.profiles))
def test_random_games_finish_and_keep_invariants(pid: str) -> None:
    prof = profile(pid)
    n = prof.param("CARC-PLAYERS", "players")
    full = Counter({t.id: in_game(prof, t.id) for t in TILES if in_game(prof, t.id)})
    for seed in range(6):
        steps = 0
        for _, action, after, events in play(prof, seed):
            steps += 1
            assert all(e["rule"] in CATALOGUE.rule_ids for e in events)
            away = sum(map(sum, after.prisoners)) + sum(1 for _, c in after.towers.values() if c)
            assert sum(after.supply) + len(after.meeples) + away == 7 * n
            assert all(len(h) <= 3 for h in after.hands)
            if action[0] == "place":
                assert events[0]["type"] == "tile-placed"
        o = ENGINE.observe(after)
        assert after.result is not None and ENGINE.current(after) == TERMINAL
        assert _tiles_everywhere(o) == full
        assert o["meeples"] == []
        if "towers" not in o:
            assert o["supply"] == [7] * n
        assert o["result"]["scores"] == o["scores"]
        best = max(o["scores"])
        tied = [i + 1 for i, s in enumerate(o["scores"]) if s == best]
        shared = prof.variant("CARC-WINNER") == "shared"
        assert o["result"]["winners"] == (tied if shared or len(tied) == 1 else [])
        assert 150 < steps < 500


@pytest.mark.parametrize("pid", ["syncs-2025-base", "official-order"])
def test_observe_load_round_trip_on_every_state(pid: str) -> None:
    prof = profile(pid)
    for _, _, after, events in play(prof, 11):
        o = ENGINE.observe(after)
        assert first_error("carcassonne-state", o) is None
        again = ENGINE.load(prof, copy.deepcopy(o))
        assert ENGINE.observe(again) == o
        assert ENGINE.legal(again) == ENGINE.legal(after)
        for e in events:
            assert first_error("carcassonne-event", e) is None, e


def test_actions_round_trip_through_json() -> None:
    prof = profile()
    for before, action, _, _ in play(prof, 3):
        data = ENGINE.action_to_json(before, action)
        assert first_error("carcassonne-action", data) is None
        assert ENGINE.action_from_json(before, data) == action


def test_chance_outcomes_sum_to_one_and_apply() -> None:
    prof = profile()
    checked = 0
    for before, _, _, _ in play(prof, 5):
        if ENGINE.current(before) != CHANCE:
            continue
        outcomes = ENGINE.chance(before)
        assert sum((o.probability for o in outcomes), Fraction(0)) == 1
        assert all(o.probability > 0 for o in outcomes)
        if checked % 10 == 0:
            for o in outcomes:
                ENGINE.apply(before, o.action)
        checked += 1
    assert checked > 80


def test_lake_last_holds_back_the_lake() -> None:
    s = ENGINE.initial(profile())
    kinds = {T.ids[o.action[1]] for o in ENGINE.chance(s)}
    assert "RE" not in kinds and "RS" not in kinds and len(kinds) == 9
    shuffled = ENGINE.initial(profile("official-order"))
    assert "RE" in {T.ids[o.action[1]] for o in ENGINE.chance(shuffled)}
    with pytest.raises(IllegalAction, match="cannot be drawn"):
        ENGINE.apply(s, ("draw", K["RE"]))


def test_random_chance_follows_the_pile() -> None:
    s = ENGINE.initial(profile())
    rng = random.Random(0)
    seen = Counter(T.ids[ENGINE.random_chance(s, rng)[1]] for _ in range(2000))
    assert set(seen) == {"R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"}
    assert seen["R2"] > seen["R1"]  # two R2s in the pile


def test_every_legal_action_applies_and_illegal_ones_raise() -> None:
    prof = profile()
    for n, (before, _, _, _) in enumerate(play(prof, 8)):
        if n % 7 or ENGINE.current(before) in (CHANCE, TERMINAL):
            continue
        legal = ENGINE.legal(before)
        for a in legal:
            ENGINE.apply(before, a)
        if legal[0][0] == "place":
            _, k, pos, rot = legal[0]
            for bad in [("place", k, pos + 256 * 60, rot), ("place", k, pos, 5), ("pass",),
                        ("claim", 0), ("draw", k)]:
                if bad not in legal:
                    with pytest.raises(IllegalAction):
                        ENGINE.apply(before, bad)


# --- turn structure --------------------------------------------------------------------------
def test_river_phase_then_opening_deal() -> None:
    prof = profile()
    seen_end = False
    for before, action, after, events in play(prof, 2):
        if any(e["type"] == "river-phase-ended" for e in events):
            seen_end = True
            assert after.pending[:8] == (1, 1, 2, 2, 3, 3, 4, 4)
            assert after.pending[8:] == (after.to_move,)
            assert after.to_move == before.to_move % 4 + 1
            assert len(after.board) == 12
        if before.phase == 0 and action[0] == "draw":
            assert T.ids[action[1]] in {t.id for t in TILES.of_set("river")}
            assert before.pending == (before.to_move,)
    assert seen_end


def test_restart_variant_opens_the_land_phase_with_player_one() -> None:
    for _, _, after, events in play(profile("official-order"), 4):
        if any(e["type"] == "river-phase-ended" for e in events):
            assert after.to_move == 1 and after.pending[:6] == (1, 1, 2, 2, 3, 3)
            return
    raise AssertionError("the river phase never ended")


# --- placement and discards ------------------------------------------------------------------
def test_nothing_fits_so_the_only_move_is_a_discard() -> None:
    s = load(crafted([(0, 0, "RS", 0), (0, -1, "RE", 0)], hands=[["C"], [], [], []]))
    assert ENGINE.legal(s) == [("discard", K["C"])]
    after, events = ENGINE.apply(s, ("discard", K["C"]))
    assert events[0] == {"type": "tile-discarded", "rule": "CARC-HAND-NOFIT", "player": 1,
                         "tile": "C"}
    assert ENGINE.current(after) == CHANCE and after.pending == (1,)
    assert "C" in ENGINE.observe(after)["discarded"]
    drawn, _ = ENGINE.apply(after, ("draw", K["B"]))
    assert drawn.to_move == 1 and drawn.step == 1  # continue: player 1 places now


def test_discard_ends_the_turn_under_end_turn() -> None:
    s = load(crafted([(0, 0, "RS", 0), (0, -1, "RE", 0)], pid="official-order",
                     hands=[["C"], [], []]))
    after, _ = ENGINE.apply(s, ("discard", K["C"]))
    drawn, _ = ENGINE.apply(after, ("draw", K["B"]))
    assert drawn.to_move == 2 and ENGINE.current(drawn) == CHANCE


def test_discard_is_refused_when_a_tile_fits() -> None:
    s = load(crafted([(0, 0, "RS", 0), (0, -1, "RE", 0)], hands=[["B", "C"], [], [], []]))
    with pytest.raises(IllegalAction, match="CARC-HAND-NOFIT"):
        ENGINE.apply(s, ("discard", K["C"]))


def test_placement_errors_name_the_rule() -> None:
    s = load(crafted([(0, 0, "RS", 0), (0, -1, "RE", 0)], hands=[["W"], [], [], []]))
    with pytest.raises(IllegalAction, match="CARC-PLACE-MATCH"):
        ENGINE.apply(s, ("place", K["W"], pack(1, -1), 0))
    with pytest.raises(IllegalAction, match="CARC-PLACE-ADJACENT"):
        ENGINE.apply(s, ("place", K["W"], pack(5, 5), 0))
    with pytest.raises(IllegalAction, match="already holds a tile"):
        ENGINE.apply(s, ("place", K["W"], pack(0, 0), 0))
    with pytest.raises(IllegalAction, match="not in player 1's hand"):
        ENGINE.apply(s, ("place", K["B"], pack(1, 0), 0))
    after, _ = ENGINE.apply(s, ("place", K["W"], pack(1, -1), 3))
    assert after.step == 2


# --- the river -------------------------------------------------------------------------------
def _river(tiles: list[tuple[int, int, str, int]], hand: str, pid: str | None = None) -> Any:
    board = [(0, 0, "RS", 0), *tiles]
    used = Counter(t for *_, t, _ in tiles) + Counter([hand])
    pile = {t.id: t.count - used[t.id] for t in TILES.of_set("river")
            if t.role != "spring" and t.count - used[t.id] > 0}
    prof = profile(pid)
    n = prof.param("CARC-PLAYERS", "players")
    hands = [[hand]] + [[] for _ in range(n - 1)]
    o = crafted(board, pid=pid, phase="river", hands=hands, river_pile=pile)
    o["discarded"] = []
    o["deck"] = {t.id: t.count for t in TILES.of_set("land")}
    return load(o, pid)


def test_river_must_continue_at_the_open_end() -> None:
    s = _river([], "R2")
    assert {a[2] for a in ENGINE.legal(s)} == {pack(0, -1)}
    assert {a[3] for a in ENGINE.legal(s)} == {0, 2}
    with pytest.raises(IllegalAction, match="CARC-RIVER-CONTIGUOUS"):
        ENGINE.apply(s, ("place", K["R2"], pack(1, 0), 0))
    with pytest.raises(IllegalAction, match="CARC-RIVER-MEETS-RIVER"):
        ENGINE.apply(s, ("place", K["R2"], pack(0, -1), 1))  # a field bank on the spring


def test_immediate_u_turn_is_refused() -> None:
    s = _river([(0, -1, "R5", 2)], "R9")  # R5 turned right; R9 at [1, -1] may only go left
    legal = ENGINE.legal(s)
    assert legal == [("place", K["R9"], pack(1, -1), 3)]
    with pytest.raises(IllegalAction, match="U-turn"):
        ENGINE.apply(s, ("place", K["R9"], pack(1, -1), 2))


def test_alternate_refuses_same_way_after_a_straight() -> None:
    tiles = [(0, -1, "R5", 2), (1, -1, "R2", 1)]
    assert ("place", K["R9"], pack(2, -1), 2) in ENGINE.legal(_river(tiles, "R9"))
    alt = _river(tiles, "R9", "syncs-2025-river-alternate")
    assert ("place", K["R9"], pack(2, -1), 2) not in ENGINE.legal(alt)
    assert ("place", K["R9"], pack(2, -1), 3) in ENGINE.legal(alt)


def test_lookahead_refuses_flowing_into_a_tile() -> None:
    cfg = ENGINE.initial(profile("syncs-2025-river-lookahead")).cfg
    river = River(pack(0, -1), 0, STRAIGHT, LEFT)
    board = {pack(0, 0): (T.spring, 0), pack(0, -2): (K["B"], 0)}
    assert uturn_problem(cfg, board, river, K["R2"], 0, pack(0, -1)) is not None
    assert uturn_problem(cfg, {pack(0, 0): (T.spring, 0)}, river, K["R2"], 0,
                         pack(0, -1)) is None
    base = ENGINE.initial(profile()).cfg
    assert uturn_problem(base, board, river, K["R2"], 0, pack(0, -1)) is None
    turned = River(pack(0, -1), 0, RIGHT, RIGHT)
    assert uturn_problem(cfg, {}, turned, K["R9"], 1, pack(0, -1)) is not None  # right again
    assert uturn_problem(cfg, {}, turned, K["R9"], 2, pack(0, -1)) is None  # turns left


def test_loading_a_river_with_a_u_turn_is_refused() -> None:
    o = ENGINE.observe(_river([(0, -1, "R5", 2)], "R2"))
    o["board"].append({"at": [1, -1], "tile": "R9", "rotation": 2})
    o["river_pile"]["R2"] = 2
    del o["river_pile"]["R9"]
    o["hands"][0] = []
    o["step"], o["pending"] = "draw", [1]
    with pytest.raises(BadState, match="U-turn"):
        load(o)


# --- claims and scoring ----------------------------------------------------------------------
ROAD_END = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -1, "W", 3)]  # W: roads up, right, down


def test_claim_refused_on_a_joined_claimed_road() -> None:
    s = load(crafted(ROAD_END, meeples=[(1, -1, "right", 2)], hands=[["U"], [], [], []]))
    placed, _ = ENGINE.apply(s, ("place", K["U"], pack(2, -1), 1))
    assert ENGINE.legal(placed) == [("pass",)]
    with pytest.raises(IllegalAction, match=r"already holds meeples of player\(s\) \[2\]"):
        ENGINE.apply(placed, ("claim", 0))


def test_one_claim_per_turn_and_claim_on_a_field_edge() -> None:
    s = load(crafted(ROAD_END, hands=[["U"], [], [], []]))
    placed, _ = ENGINE.apply(s, ("place", K["U"], pack(2, -1), 1))
    with pytest.raises(IllegalAction, match="top edge is a field"):
        ENGINE.action_from_json(placed, {"type": "claim", "on": "top"})
    claimed, events = ENGINE.apply(placed, ENGINE.action_from_json(
        placed, {"type": "claim", "on": "left"}))
    assert events[0]["type"] == "meeple-placed" and claimed.supply[0] == 6
    with pytest.raises(IllegalAction):
        ENGINE.apply(claimed, ("claim", 0))


def test_no_claim_without_a_meeple_in_the_supply() -> None:
    for before, _, _, _ in play(profile(), 1):
        if before.step == 2 and before.supply[before.to_move - 1] == 0:
            assert ENGINE.legal(before) == [("pass",)]
            with pytest.raises(IllegalAction, match="CARC-MEEPLE-SUPPLY"):
                ENGINE.apply(before, ("claim", 0))
            return
    pytest.skip("no player ran out of meeples in this game")


def test_completed_road_scores_and_returns_the_meeple() -> None:
    s = load(crafted(ROAD_END, meeples=[(1, -1, "right", 1)], hands=[["W"], [], [], []]))
    after, events = ENGINE.apply(s, ("place", K["W"], pack(2, -1), 1))
    done = [e for e in events if e["type"] == "feature-completed"]
    assert done == [{"type": "feature-completed", "rule": "CARC-ROAD-COMPLETE",
                     "feature": "road", "tiles": [[1, -1], [2, -1]], "banners": 0,
                     "meeples": [1, 0, 0, 0], "points": 2, "scorers": [1]}]
    assert after.scores == (2, 0, 0, 0) and after.supply[0] == 7 and not after.meeples
    assert ENGINE.observe(after)["claim_blocked"] == ["left"]
    with pytest.raises(IllegalAction, match="counts as claimed"):
        ENGINE.apply(after, ENGINE.action_from_json(after, {"type": "claim", "on": "left"}))


def test_claiming_a_road_this_tile_completed_scores_at_once() -> None:
    s = load(crafted(ROAD_END, hands=[["W"], [], [], []]))
    placed, events = ENGINE.apply(s, ("place", K["W"], pack(2, -1), 1))
    assert not [e for e in events if e["type"] == "feature-completed"]
    claim = ENGINE.action_from_json(placed, {"type": "claim", "on": "left"})
    after, events = ENGINE.apply(placed, claim)
    assert [e["type"] for e in events] == ["meeple-placed", "feature-completed",
                                           "meeples-returned"]
    assert after.scores[0] == 2 and after.supply[0] == 7


def test_points_limit_ends_the_game_before_the_claim() -> None:
    s = load(crafted(ROAD_END, meeples=[(1, -1, "right", 1)], hands=[["W"], [], [], []],
                     scores=[48, 0, 0, 0]))
    after, events = ENGINE.apply(s, ("place", K["W"], pack(2, -1), 1))
    assert ENGINE.current(after) == TERMINAL
    assert after.result == {"reason": "points-limit", "scores": [50, 0, 0, 0], "winners": [1]}
    assert [e["type"] for e in events][-2:] == ["game-ended", "game-won"]


def test_after_claim_timing_scores_after_the_claim_step() -> None:
    s = load(crafted(ROAD_END, pid="official-order", meeples=[(1, -1, "right", 1)],
                     hands=[["W"], [], []], scores=[48, 0, 0]))
    placed, events = ENGINE.apply(s, ("place", K["W"], pack(2, -1), 1))
    assert ENGINE.current(placed) == 1 and placed.scores[0] == 48
    assert not any(e["type"] == "feature-completed" for e in events)
    after, events = ENGINE.apply(placed, ("claim", 0))  # the junction road on top
    assert after.result is not None and after.result["reason"] == "points-limit"
    finals = [e for e in events if e["type"] == "feature-final"]
    assert len(finals) == 1 and finals[0]["tiles"] == [[2, -1]]  # the new claim, incomplete
    assert after.scores[0] == 50 + 1


MONASTERY = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -1, "B", 0), (0, -2, "E", 0),
             (1, -2, "E", 0), (2, -2, "E", 0), (2, -1, "E", 1), (2, 0, "E", 2)]


def test_monastery_completes_when_surrounded() -> None:
    s = load(crafted(MONASTERY, meeples=[(1, -1, "monastery", 3)], hands=[["B"], [], [], []]))
    after, events = ENGINE.apply(s, ("place", K["B"], pack(1, 0), 0))
    done = [e for e in events if e["type"] == "feature-completed"]
    assert len(done) == 1 and done[0]["feature"] == "monastery" and done[0]["points"] == 9
    assert done[0]["rule"] == "CARC-MONASTERY-COMPLETE" and after.scores[2] == 9


def test_incomplete_monastery_counts_itself_and_the_tiles_around() -> None:
    s = load(crafted(MONASTERY, meeples=[(1, -1, "monastery", 3)], step="claim",
                     placed=(2, 0), to_move=3, deck_left=0))
    after, events = ENGINE.apply(s, ("pass",))
    finals = [e for e in events if e["type"] == "feature-final"]
    assert after.result is not None and after.result["reason"] == "tiles-exhausted"
    assert len(finals) == 1 and finals[0]["points"] == 8  # [1, 0] is still empty
    assert after.scores == (0, 0, 8, 0)


LOOP = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -2, "V", 3), (1, -1, "V", 2), (2, -1, "V", 1)]


def test_road_loop_completes_and_tied_players_both_score() -> None:
    s = load(crafted(LOOP, meeples=[(1, -2, "right", 1), (2, -1, "top", 2)],
                     hands=[[], [], ["V"], []], to_move=3))
    after, events = ENGINE.apply(s, ("place", K["V"], pack(2, -2), 0))
    done = [e for e in events if e["type"] == "feature-completed"]
    assert len(done) == 1 and len(done[0]["tiles"]) == 4
    assert done[0]["scorers"] == [1, 2] and after.scores == (4, 4, 0, 0)


# --- load ------------------------------------------------------------------------------------
def _good() -> dict[str, Any]:
    return crafted(ROAD_END, meeples=[(1, -1, "right", 1)], hands=[["U"], [], [], []])


@pytest.mark.parametrize(("change", "message"), [
    (lambda o: o["supply"].__setitem__(0, 7), r"player 1 has 8 meeples \(1 on the board, 7 in "
                                               r"the supply\); CARC-MEEPLE-SUPPLY gives 7"),
    (lambda o: next(b for b in o["board"] if b["tile"] == "RS").__setitem__("rotation", 1),
     "spring must lie at"),
    (lambda o: o["board"][2].__setitem__("rotation", 0), "faces a field edge"),
    (lambda o: o["deck"].__setitem__("A", 3), "tile A: 3 found"),
    (lambda o: o.__setitem__("scores", [50, 0, 0, 0]), "CARC-END-POINTS"),
    (lambda o: o.__setitem__("players", 2), "profile 'syncs-2025-base' plays with 4"),
    (lambda o: o.__setitem__("view", 1), "player's view"),
    (lambda o: o["meeples"][0].__setitem__("on", "left"), "no road, town or monastery"),
    (lambda o: o.__setitem__("step", "claim"), "placed must be set"),
    (lambda o: o["hands"].__setitem__(1, ["C", "C", "D", "D"]), "tile C: 3 found"),
    (lambda o: o.__setitem__("board", "nonsense"), "not a Carcassonne state"),
])
def test_load_refuses_bad_states_clearly(change: Any, message: str) -> None:
    o = _good()
    load(copy.deepcopy(o))  # the unchanged state is fine
    change(o)
    with pytest.raises(BadState, match=message):
        load(o)


def test_load_refuses_a_disconnected_tile_and_a_stray_river_tile() -> None:
    o = crafted([*ROAD_END, (5, 5, "B", 0)])
    with pytest.raises(BadState, match=r"\[5, 5\] is not connected"):
        load(o)
    o = crafted([(0, 0, "RS", 0), (0, -1, "RE", 0), (-1, 0, "R2", 1)])
    with pytest.raises(BadState, match=r"R2 at \[-1, 0\]: its right edge \(river\) faces a field"):
        load(o)
    o = crafted([(0, 0, "RS", 0), (0, -1, "RE", 0), (-1, 0, "R2", 0)], hands=[["U"], [], [], []])
    with pytest.raises(BadState, match=r"1 river tile.* off the river's course"):
        load(o)


def test_load_refuses_an_overfull_hand() -> None:
    o = crafted(ROAD_END, hands=[["A", "B", "C", "D"], [], [], []])
    with pytest.raises(BadState, match="more than 3 tiles"):
        load(o)


def test_load_refuses_meeples_left_on_a_completed_feature() -> None:
    o = crafted([*ROAD_END, (2, -1, "W", 1)], meeples=[(1, -1, "right", 1)],
                hands=[["U"], [], [], []])
    with pytest.raises(BadState, match=r"completed road at .* still holds meeples"):
        load(o)


def test_project_hides_other_hands_and_the_piles() -> None:
    o = ENGINE.observe(load(crafted(ROAD_END, hands=[["U"], ["B", "C"], [], []])))
    view = project(o, 2)
    assert view["hands"] == [{"count": 1}, ["B", "C"], {"count": 0}, {"count": 0}]
    assert view["deck"] == {"count": sum(o["deck"].values())}
    assert view["river_pile"] == {"count": 0} and view["view"] == 2
    assert o["hands"][0] == ["U"]  # the canonical state is untouched
    with pytest.raises(BadState, match="player's view"):
        load(view)
