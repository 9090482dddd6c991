"""TO17's enclosed field (The Tower's tile with a banner town on three sides and a town on
the fourth): the grass between the two towns touches no edge, so it is a field of its own
that joins no other; a farmer goes on it as `field` (`enclosed_field` on the bot protocol),
and at the end it scores 3 per completed town it borders, both towns counted."""

from __future__ import annotations

import json

from gamecert.oracles.base import OK, Transition, Violation
from gamecert.oracles.carcassonne import ORACLES
from gamecert.oracles.carcassonne.board import Board
from gamecert.reference_engine.carcassonne.engine import CarcState, pack
from gamecert.reference_engine.carcassonne.protocol import frame, referee
from gamecert.reference_engine.contract import TERMINAL

from .helpers import CLOSED_RIVER, ENGINE, TILES, crafted, load, profile

TOWER = "syncs-2025-tower"
K = ENGINE.initial(profile(TOWER)).cfg.t.index
# E at [1, -1] turns its town to the right, onto [2, -1]; B and E below close a one-edge
# town at [2, 0] once TO17's own bottom town meets it
BOARD = [*CLOSED_RIVER, (1, -1, "E", 1), (1, 0, "B", 0), (2, 0, "E", 0)]


def placed_to17(**change: object) -> CarcState:
    s = load(crafted(BOARD, pid=TOWER, hands=[["TO17"], [], [], []], deck_left=0, **change))
    return ENGINE.apply(s, ("place", K["TO17"], pack(2, -1), 0))[0]


def test_the_tile_catalogue_has_the_enclosed_field() -> None:
    (to17,) = [t for t in TILES if t.id == "TO17"]
    (field,) = to17.fields
    assert field.halves == () and set(field.cities) == {1, 2}  # borders both towns


def test_a_farmer_goes_on_the_enclosed_field_and_it_joins_no_other() -> None:
    s = placed_to17()
    spots = {ENGINE.action_to_json(s, a)["on"] for a in ENGINE.legal(s) if a[0] == "claim"}
    assert {"field", "top", "bottom"} <= spots  # the field, both towns (listed by first side)
    after, events = ENGINE.apply(s, ENGINE.action_from_json(s, {"type": "claim",
                                                                 "on": "field"}))
    placed = events[0]
    assert (placed["type"], placed["on"], placed["feature"]) == ("meeple-placed", "field",
                                                                 "field")
    assert ENGINE.current(after) == TERMINAL  # the last tile: the game ends, farms score
    farm = next(e for e in events if e["type"] == "farm-scored")
    assert farm["tiles"] == [[2, -1]]  # its own field: no half-edge joins it to another
    assert farm["points"] == 3 and farm["scorers"] == [1]  # the closed town, not the open one
    assert farm["towns"] == [[[2, -1], [2, 0]]]
    bd = Board(ENGINE.observe(s))
    assert bd.field_at((2, -1), "field") is not None
    assert all(bd.field_at((2, -1), h) is None for h in ("top1", "right2", "bottom1"))


def test_the_oracles_agree_with_the_engine_on_the_enclosed_field() -> None:
    s = placed_to17()
    action = {"type": "claim", "on": "field"}
    after, events = ENGINE.apply(s, ENGINE.action_from_json(s, action))
    t = Transition(ENGINE.observe(s), action, ENGINE.observe(after), events)
    prof = profile(TOWER)
    verdicts = {o.rule: o.check(t, prof) for o in ORACLES if o.check}
    assert not [(r, v) for r, v in verdicts.items() if isinstance(v, Violation)]
    assert verdicts["CARC-FARM-SCORE"] is OK and verdicts["CARC-FARM-CLAIM"] is OK
    # an engine that paid the enclosed field nothing is caught
    wrong = [dict(e, points=0, scorers=[]) if e["type"] == "farm-scored" else e
             for e in events]
    bad = Transition(ENGINE.observe(s), action, ENGINE.observe(after), wrong)
    assert isinstance(next(o for o in ORACLES if o.rule == "CARC-FARM-SCORE").check(
        bad, prof), Violation)


def test_the_bot_protocol_names_it_enclosed_field() -> None:
    s = placed_to17()
    text = frame(json.dumps({"event_type": "move_place_meeple", "player_id": 0,
                             "tile": {"tile_type": "TO17", "pos": [87, 84], "rotation": 0},
                             "placed_on": "enclosed_field"}))
    assert ENGINE.action_to_json(s, referee(ENGINE, s, text)) == {"type": "claim",
                                                                  "on": "field"}


def test_a_farmer_on_the_enclosed_field_loads_and_round_trips() -> None:
    s = placed_to17()
    after, _ = ENGINE.apply(s, ENGINE.action_from_json(s, {"type": "claim", "on": "field"}))
    mid = crafted([*BOARD, (2, -1, "TO17", 0)], pid=TOWER, meeples=[(2, -1, "field", 2)],
                  hands=[["U"], [], [], []])
    assert ENGINE.observe(load(mid))["meeples"] == [{"at": [2, -1], "on": "field",
                                                     "player": 2}]
    assert ENGINE.observe(ENGINE.load(profile(TOWER), ENGINE.observe(after))) == \
        ENGINE.observe(after)
