"""The Bot Wars catalogue loads, every rule has an oracle, every reading is played by some
profile, and the engine's JSON matches the schemas."""

from __future__ import annotations

import random

import pytest

from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.botwars import BotWars
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue

CAT = load_catalogue("botwars")


def test_catalogue_loads_with_its_rules() -> None:
    ids = CAT.rule_ids
    assert CAT.game == "botwars" and CAT.default_profile == "standard"
    for needed in ("BOTWARS-GRID", "BOTWARS-SPAWN-POINTS", "BOTWARS-FIRST-BOTLETS",
                   "BOTWARS-MOVE", "BOTWARS-BATTLE", "BOTWARS-RAZE", "BOTWARS-SPAWN",
                   "BOTWARS-ENERGY-COLLECT", "BOTWARS-ENERGY-CONTESTED", "BOTWARS-ENERGY-SPAWN",
                   "BOTWARS-FORMAT-DQ", "BOTWARS-MOVE-INVALID", "BOTWARS-TURN-ORDER",
                   "BOTWARS-END-ELIMINATION", "BOTWARS-END-TURNLIMIT", "BOTWARS-WINNER"):
        assert needed in ids
    assert CAT.rule("BOTWARS-END-TURNLIMIT").parameters["max_turns"] == 200
    assert CAT.rule("BOTWARS-ENERGY-SPAWN").parameters["interval"] == 3


def test_every_rule_has_exactly_one_oracle_with_a_hook() -> None:
    oracles = oracles_for("botwars")
    assert sorted(o.rule for o in oracles) == sorted(CAT.rule_ids)
    for o in oracles:
        assert o.check or o.judge or o.referee, o.rule


def test_every_variant_is_played_by_some_profile() -> None:
    for rule in CAT.rules:
        if rule.interpretation is None:
            continue
        played = {p.variant(rule.id) for p in CAT.profiles.values()}
        assert played == set(rule.interpretation.variants), rule.id
        assert CAT.profile().variant(rule.id) == rule.interpretation.chosen


def test_both_readings_of_invalid_moves_are_open_points() -> None:
    interp = CAT.rule("BOTWARS-MOVE-INVALID").interpretation
    assert interp is not None
    assert set(interp.variants) == {"lose-turn", "drop-move"}


@pytest.mark.parametrize("profile", sorted(CAT.profiles))
def test_states_actions_events_match_the_schemas(profile: str) -> None:
    game = reference_game("botwars")
    assert isinstance(game, BotWars)
    prof = CAT.profile(profile)
    rng = random.Random(7)
    state = game.initial(prof)
    kinds = set()
    for _ in range(300):
        if game.current(state) < 0:
            break
        assert first_error("botwars-state", game.observe(state)) is None
        if game.current(state) == 0:
            action = game.random_chance(state, rng)
        else:
            action = game.random_action(state, rng, odd=0.5, toward=0.5)
        assert first_error("botwars-action", game.action_to_json(state, action)) is None
        state, events = game.apply(state, action)
        for e in events:
            assert first_error("botwars-event", e) is None, e
            assert e["rule"] in CAT.rule_ids
            kinds.add(e["type"])
    assert {"moved", "energy-spawned", "spawned"} <= kinds


def test_session_speaks_json() -> None:
    session = reference_session("botwars")
    hello = session.hello()
    assert hello["game"] == "botwars" and "standard" in hello["profiles"]
    start = session.new_game("lenient")
    assert start["phase"] == "p1" and start["profile"] == "lenient"
    legal = session.legal()
    assert legal["to_move"] == 1 and {"type": "moves", "moves": []} in legal["actions"]
    after, events = session.apply({"type": "moves", "moves": []})
    assert after["phase"] == "p2" and after["pending"] == [] and events == []
    assert session.bot_output("[]") == {"type": "moves", "moves": []}
    assert session.bot_output("[{]") == {"type": "bad-format"}
