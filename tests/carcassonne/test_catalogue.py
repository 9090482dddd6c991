"""The Carcassonne rule catalogue, and that the engine takes its rules from it."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import pytest

from gamecert import spec
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.carcassonne import CarcConfig
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import CatalogueError, Profile, parse_catalogue

from .helpers import CATALOGUE, ENGINE

REQUIRED = [
    "CARC-TILES", "CARC-PLAYERS", "CARC-TURN-ORDER", "CARC-PLACE-ADJACENT", "CARC-PLACE-MATCH",
    "CARC-HAND-SIZE", "CARC-HAND-DEAL", "CARC-HAND-NOFIT", "CARC-DECK-DRAW", "CARC-CLAIM-ONE",
    "CARC-CLAIM-PLACED-TILE", "CARC-CLAIM-UNCLAIMED", "CARC-MEEPLE-SUPPLY", "CARC-MEEPLE-RETURN",
    "CARC-ROAD-COMPLETE", "CARC-TOWN-COMPLETE", "CARC-MONASTERY-COMPLETE", "CARC-SCORE-MAJORITY",
    "CARC-SCORE-INCOMPLETE", "CARC-END-POINTS", "CARC-END-TILES", "CARC-WINNER",
    "CARC-RIVER-CONTIGUOUS", "CARC-RIVER-MEETS-RIVER", "CARC-RIVER-NO-UTURN",
    "CARC-RIVER-LAKE-ENDS", "CARC-PROTO-FRAME", "CARC-PROTO-REPLY",
    "CARC-FARM-FIELDS", "CARC-FARM-CLAIM", "CARC-FARM-STAYS", "CARC-FARM-SCORE",
    "CARC-FARM-MAJORITY",
]


def test_catalogue_has_the_rules_and_their_parameters() -> None:
    assert set(REQUIRED) <= set(CATALOGUE.rule_ids)
    p = CATALOGUE.profile()
    assert p.id == "syncs-2025-base" == CATALOGUE.default_profile
    assert p.param("CARC-PLAYERS", "players") == 4
    assert p.param("CARC-MEEPLE-SUPPLY", "meeples") == 7
    assert p.param("CARC-HAND-SIZE", "hand_max") == 3
    assert p.param("CARC-HAND-DEAL", "opening_deal") == 2
    assert p.param("CARC-END-POINTS", "points") == 50
    assert p.param("CARC-TOWN-COMPLETE", "points_per_banner") == 2
    assert p.param("CARC-MONASTERY-COMPLETE", "points") == 9


def test_open_rules_name_their_variants() -> None:
    uturn = CATALOGUE.rule("CARC-RIVER-NO-UTURN").interpretation
    assert uturn is not None and uturn.chosen == "immediate"
    assert set(uturn.variants) == {"immediate", "alternate", "lookahead"}
    winner = CATALOGUE.rule("CARC-WINNER").interpretation
    assert winner is not None and set(winner.variants) == {"shared", "none"}
    open_rules = {r.id for r in CATALOGUE.rules if r.interpretation}
    assert {"CARC-RIVER-NO-UTURN", "CARC-RIVER-LAKE-ENDS", "CARC-SCORE-TIMING",
            "CARC-HAND-NOFIT", "CARC-TURN-ORDER", "CARC-WINNER"} <= open_rules
    # every variant is played by some profile, so the engine's support is exercised
    used = {(rid, p.variant(rid)) for p in CATALOGUE.profiles.values() for rid in open_rules}
    assert used == {(r.id, v) for r in CATALOGUE.rules if r.interpretation
                    for v in r.interpretation.variants}


def test_every_rule_cites_a_seed_or_the_rules_notes() -> None:
    for r in CATALOGUE.rules:
        assert r.source_doc in CATALOGUE.sources
        assert r.text and r.title


def test_catalogue_is_listed_and_the_tile_file_is_not_a_game() -> None:
    assert "carcassonne" in spec.games()
    assert all("tiles" not in g for g in spec.games())


def _profile_with(**overrides: Any) -> Profile:
    text = resources.files("gamecert.spec").joinpath("carcassonne.json").read_text("utf-8")
    doc = json.loads(text)
    doc["profiles"].append({"id": "test", "title": "test", "parameters": overrides})
    return parse_catalogue(json.dumps(doc), "test.json").profile("test")


def _play(prof: Profile, seed: int = 0) -> Any:
    rng = random.Random(seed)
    state = ENGINE.initial(prof)
    while (who := ENGINE.current(state)) != TERMINAL:
        action = (ENGINE.random_chance(state, rng) if who == CHANCE
                  else ENGINE.random_action(state, rng))
        state = ENGINE.apply(state, action)[0]
    return state


def test_parameters_drive_the_engine() -> None:
    short = _play(_profile_with(**{"CARC-END-POINTS.points": 3}))
    assert short.result["reason"] == "points-limit" and len(short.board) < 60
    one = _profile_with(**{"CARC-MEEPLE-SUPPLY.meeples": 1, "CARC-PLAYERS.players": 3})
    state = ENGINE.initial(one)
    assert state.supply == (1, 1, 1)
    big = _profile_with(**{"CARC-HAND-SIZE.hand_max": 5, "CARC-HAND-DEAL.opening_deal": 4})
    s = ENGINE.initial(big)
    while s.phase == 0 or s.step != 1:
        who = ENGINE.current(s)
        s = ENGINE.apply(s, ENGINE.random_chance(s, random.Random(1)) if who == CHANCE
                         else ENGINE.legal(s)[0])[0]
    assert len(s.hands[s.to_move - 1]) == 5


def test_player_count_outside_two_to_five_is_refused() -> None:
    # the catalogue's parameter schema bounds it (2 to 5), and says where
    with pytest.raises(CatalogueError, match=r"CARC-PLAYERS\.players: 6 is greater than the "
                                             r"maximum of 5"):
        CarcConfig.of(_profile_with(**{"CARC-PLAYERS.players": 6}))


def test_reference_session_speaks_the_wire_operations() -> None:
    session = reference_session("carcassonne")
    assert "syncs-2025-base" in session.hello()["profiles"]
    state = session.new_game("syncs-2025-base-2p")
    assert state["players"] == 2 and state["step"] == "draw"
    legal = session.legal()
    assert legal["to_move"] == "chance"
    assert sum(int(o["p"].split("/")[0]) / int(o["p"].split("/")[1])
               for o in legal["outcomes"]) == pytest.approx(1)
    after, events = session.apply(legal["outcomes"][0]["action"])
    assert after["step"] == "place" and events[0]["type"] == "tile-drawn"
    assert session.load_state(after) == after
