"""The farms stage (profile syncs-2025-farms): fields join from half-edges and are cut by roads,
towns and the river; farmers go only on unclaimed fields, stay until the end, and score 3 per
completed town bordering their field for every player tied for the most farmers. The seed's
farmer-placement picture is rebuilt as a board; the engine's incremental fields are compared
with the oracles' flood fill on random games."""

from __future__ import annotations

from typing import Any

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.main import main
from gamecert.oracles.base import Transition, Violation
from gamecert.oracles.carcassonne import ORACLES
from gamecert.oracles.carcassonne.board import Board
from gamecert.reference_engine.carcassonne.engine import FIELD, CarcState, lay, pack
from gamecert.reference_engine.contract import TERMINAL, BadState, IllegalAction

from .helpers import CLOSED_RIVER, ENGINE, crafted, load, play, profile

FARMS = "syncs-2025-farms"
K = ENGINE.initial(profile(FARMS)).cfg.t.index


def claims(state: CarcState) -> set[str]:
    """The claim spots the reference lists."""
    return {ENGINE.action_to_json(state, a)["on"] for a in ENGINE.legal(state)
            if a[0] == "claim"}


def seed_picture() -> CarcState:
    """The seed's farmer-placement picture, as a board: Blue (player 1) holds the lake's field
    with a farmer; the curve V placed at [1, -1] (road from its right to its bottom edge)
    splits its grass in two: the outer field joins Blue's field across the lake's edge, the
    inner corner (bottom right, between the road's two ends) is a field of its own."""
    s = load(crafted(CLOSED_RIVER, pid=FARMS, meeples=[(0, -1, "top1", 1)],
                     hands=[["V"], [], [], []]))
    return ENGINE.apply(s, ("place", K["V"], pack(1, -1), 3))[0]


def test_seed_picture_only_the_unclaimed_corner_takes_a_farmer() -> None:
    s = seed_picture()
    assert claims(s) == {"right", "right2"}  # the road, and the inner corner's field
    for spot in ("top1", "left1", "bottom2"):  # any half-edge of the outer, claimed field
        with pytest.raises(IllegalAction, match="CARC-FARM-CLAIM"):
            ENGINE.apply(s, ENGINE.action_from_json(s, {"type": "claim", "on": spot}))
    # the corner may be named by either of its half-edges; it is listed by its first one
    after, events = ENGINE.apply(s, ENGINE.action_from_json(s, {"type": "claim",
                                                                 "on": "bottom1"}))
    assert events[0] == {"type": "meeple-placed", "rule": "CARC-FARM-CLAIM", "player": 1,
                         "at": [1, -1], "on": "right2", "feature": "field"}
    assert {"at": [1, -1], "on": "right2", "player": 1} in ENGINE.observe(after)["meeples"]


def test_a_field_claim_names_a_half_edge_off_a_town() -> None:
    board = [*CLOSED_RIVER, (1, -1, "E", 0)]  # E: a town on its top edge
    s = load(crafted(board, pid=FARMS, hands=[["E"], [], [], []]))
    s = ENGINE.apply(s, ("place", K["E"], pack(2, -1), 0))[0]
    with pytest.raises(IllegalAction, match="lies on a town"):
        ENGINE.action_from_json(s, {"type": "claim", "on": "top1"})
    assert claims(s) == {"top", "right1"}  # the town, and the grass joined to the lake's


def test_stage_one_refuses_farmers_clearly() -> None:
    s = load(crafted(CLOSED_RIVER, hands=[["V"], [], [], []]))
    s = ENGINE.apply(s, ("place", K["V"], pack(1, -1), 3))[0]
    assert claims(s) == {"right"}
    with pytest.raises(IllegalAction, match="farms stage"):
        ENGINE.action_from_json(s, {"type": "claim", "on": "right2"})
    with pytest.raises(BadState, match="no road, town or monastery named 'top1'"):
        load(crafted(CLOSED_RIVER, meeples=[(0, -1, "top1", 1)], hands=[["V"], [], [], []]))


def final_scoring() -> tuple[CarcState, list[Any]]:
    """A completed two-tile town at [1, -2]/[1, -1], an open town at [2, -1]. Players 1 and 2
    tie with one farmer each on the big field (lake, spring and the E below the town), which
    borders both towns; player 3's farmer holds the grass above the town. The last tile, B,
    goes at [-1, -1]; a pass ends the game."""
    board = [*CLOSED_RIVER, (1, -1, "E", 0), (1, -2, "E", 2), (2, -1, "E", 0)]
    s = load(crafted(board, pid=FARMS, hands=[["B"], [], [], []], deck_left=0,
                     meeples=[(0, -1, "top1", 1), (1, -1, "right1", 2), (1, -2, "top1", 3)]))
    s = ENGINE.apply(s, ("place", K["B"], pack(-1, -1), 0))[0]
    return ENGINE.apply(s, ("pass",))


def test_final_farm_scoring_counts_completed_towns_and_pays_every_tied_player() -> None:
    after, events = final_scoring()
    assert ENGINE.current(after) == TERMINAL
    farms = [e for e in events if e["type"] == "farm-scored"]
    town = [[1, -2], [1, -1]]
    assert farms == [
        {"type": "farm-scored", "rule": "CARC-FARM-SCORE", "feature": "field",
         "tiles": [[-1, -1], [0, -1], [0, 0], [1, -1], [2, -1]], "towns": [town],
         "meeples": [1, 1, 0, 0], "points": 3, "scorers": [1, 2]},
        {"type": "farm-scored", "rule": "CARC-FARM-SCORE", "feature": "field",
         "tiles": [[1, -2]], "towns": [town], "meeples": [0, 0, 1, 0], "points": 3,
         "scorers": [3]},
    ]
    assert after.scores == (3, 3, 3, 0) and after.supply == (7, 7, 7, 7) and not after.meeples
    assert after.result is not None and after.result["winners"] == [1, 2, 3]


def test_farm_oracles_pass_the_reference_and_flag_doctored_scores() -> None:
    s = load(crafted([*CLOSED_RIVER, (1, -1, "E", 0), (1, -2, "E", 2), (2, -1, "E", 0)],
                     pid=FARMS, hands=[["B"], [], [], []], deck_left=0,
                     meeples=[(0, -1, "top1", 1), (1, -1, "right1", 2), (1, -2, "top1", 3)]))
    s = ENGINE.apply(s, ("place", K["B"], pack(-1, -1), 0))[0]
    after, events = ENGINE.apply(s, ("pass",))
    prof = profile(FARMS)
    by_rule = {o.rule: o for o in ORACLES}

    def verdicts(evs: list[Any]) -> dict[str, Any]:
        t = Transition(ENGINE.observe(s), {"type": "pass"}, ENGINE.observe(after), evs)
        return {r: by_rule[r].check(t, prof) for r in  # type: ignore[misc]
                ("CARC-FARM-FIELDS", "CARC-FARM-SCORE", "CARC-FARM-MAJORITY")}

    assert not any(isinstance(v, Violation) for v in verdicts(events).values())
    farm = next(i for i, e in enumerate(events) if e["type"] == "farm-scored")
    for change, rule in [({"points": 6}, "CARC-FARM-SCORE"), ({"scorers": [1]},
                                                            "CARC-FARM-MAJORITY"),
                         ({"tiles": [[0, -1], [0, 0]]}, "CARC-FARM-FIELDS")]:
        doctored = [dict(e, **change) if i == farm else e for i, e in enumerate(events)]
        bad = {r for r, v in verdicts(doctored).items() if isinstance(v, Violation)}
        assert rule in bad, (change, bad)


def test_farmers_stay_when_a_town_they_border_completes() -> None:
    board = [*CLOSED_RIVER, (1, -1, "E", 0)]
    s = load(crafted(board, pid=FARMS, meeples=[(1, -1, "right1", 2)],
                     hands=[["E"], [], [], []]))
    placed = ENGINE.apply(s, ("place", K["E"], pack(1, -2), 2))[0]
    after, events = ENGINE.apply(placed, ("pass",))  # the unheld town scores after the claim
    assert [e["rule"] for e in events if e["type"] == "feature-completed"] == [
        "CARC-TOWN-COMPLETE"]
    assert ENGINE.observe(after)["meeples"] == [{"at": [1, -1], "on": "right1", "player": 2}]


def _parts(state: CarcState, f: Any) -> frozenset[tuple[tuple[int, int], int]]:
    """A field of the engine as (cell, field index on the tile) pairs, like the oracles'."""
    t = state.cfg.t
    parts = set()
    for node in f.nodes:
        pos = node // 8
        k, r = state.board[pos]
        parts.add(((pos % 256 - 128, pos // 256 - 128), node % 8 - len(t.rot[k][r].segs)))
    return frozenset(parts)


@pytest.mark.parametrize(("pid", "seed"), [(FARMS, 3), (FARMS, 4),
                                           ("syncs-2025-farms-river-joins", 5)])
def test_engine_fields_equal_the_oracles_flood_fill(pid: str, seed: int) -> None:
    """The engine joins fields tile by tile; the oracles flood them from scratch: same fields,
    same farmers, at every tenth step of a random game."""
    checked = 0
    for i, (_, _, after, _) in enumerate(play(profile(pid), seed)):
        if i % 10 or after.result is not None:
            continue
        ours = {_parts(after, f): list(f.meeples) for f in after.feats.values()
                if f.kind == FIELD}
        theirs = {frozenset(f.parts): f.meeples for f in Board(ENGINE.observe(after)).fields()}
        assert ours == theirs
        checked += 1
    assert checked > 10


def test_random_farm_games_claim_fields_and_score_farms() -> None:
    farmers = farms = 0
    for seed in (1, 2):
        for _, _, _, events in play(profile(FARMS), seed):
            farmers += sum(1 for e in events if e.get("feature") == "field"
                           and e["type"] == "meeple-placed")
            farms += sum(1 for e in events if e["type"] == "farm-scored")
    assert farmers > 5 and farms > 2


def test_prove_covers_the_farm_majority(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "carcassonne", "--engine", "reference", "--profile", FARMS]) == 0
    assert "CARC-FARM-MAJORITY symbolic proof: PROVED" in capsys.readouterr().out
    mutant = engine_spec("carcassonne", "farm_tie_one")
    assert main(["prove", "carcassonne", "--engine", mutant, "--profile", FARMS]) == 1
    assert "CARC-FARM-MAJORITY symbolic proof: FAILED: counterexample" in (
        capsys.readouterr().out)


def test_fuzz_targets_steer_to_tied_farmers_and_the_final_farm_scoring() -> None:
    from gamecert.fuzz.games.carcassonne.targets import _farm_targets

    board = [*CLOSED_RIVER, (1, -1, "E", 0), (1, -2, "E", 2), (2, -1, "E", 0)]
    early = load(crafted(board, pid=FARMS, hands=[["B"], [], [], []],
                         meeples=[(0, -1, "top1", 1), (1, -1, "right1", 2)]))
    late = load(crafted(board, pid=FARMS, hands=[["B"], [], [], []], deck_left=3,
                        meeples=[(0, -1, "top1", 1)]))
    assert _farm_targets(early)["players tied on a field"] == 2.0
    assert "players tied on a field" not in _farm_targets(late)
    assert (_farm_targets(late)["tiles left before the farm scoring"]
            > _farm_targets(early)["tiles left before the farm scoring"])
    assert _farm_targets(load(crafted(board, pid=FARMS, hands=[["B"], [], [], []]))) == {}


def test_the_river_cuts_fields_or_not_by_the_chosen_reading() -> None:
    """The straight river tile R2 laid alone: its two banks are two fields (default,
    river-cuts) or one (variant river-joins). (On a board the banks also meet around the
    spring and the lake, whose fields surround them.)"""
    for pid, fields in ((FARMS, 2), ("syncs-2025-farms-river-joins", 1)):
        cfg = ENGINE.initial(profile(pid)).cfg
        owner: dict[int, int] = {}
        lay(cfg.t, {}, {}, owner, {}, pack(0, 0), cfg.t.index["R2"], 0, 4, fields=True,
            river_joins=cfg.river_joins)
        assert len(set(owner.values())) == fields, pid
