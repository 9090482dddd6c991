"""One API suite every game passes (in the manner of OpenSpiel's generic game tests)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from jsonschema import Draft202012Validator

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction, legal_json
from gamecert.schemas import load_schema
from gamecert.spec import games, load_catalogue

GAMES = games()


def test_every_game_has_its_parts() -> None:
    assert {"flit", "botwars", "carcassonne"} <= set(GAMES)
    for game in GAMES:
        catalogue = load_catalogue(game)
        assert {o.rule for o in oracles_for(game)} >= set(catalogue.rule_ids) - {
            r for r in catalogue.rule_ids if r.endswith("PROTO-LIMITS")}
        load_schema(f"{game}-state")
        load_schema(f"{game}-action")
        load_schema(f"{game}-event")


@pytest.mark.parametrize("game", GAMES)
def test_random_simulation_keeps_the_contract(game: str) -> None:
    g = reference_game(game)
    state_v = Draft202012Validator(load_schema(f"{game}-state"))
    rng = random.Random(game)
    for profile in load_catalogue(game).profiles.values():
        s = g.initial(profile)
        for _ in range(120):
            who = g.current(s)
            if who == TERMINAL:
                assert g.legal(s) == [] or list(g.legal(s)) == []
                break
            if who == CHANCE:
                outcomes = g.chance(s)
                assert outcomes and sum(o.probability for o in outcomes) == Fraction(1)
                action = rng.choice(outcomes).action
            else:
                actions = list(g.legal(s))
                assert actions, f"{game}: a player to move has no legal action"
                action = rng.choice(actions)
            js = g.action_to_json(s, action)
            assert g.action_to_json(s, g.action_from_json(s, js)) == js
            s, events = g.apply(s, action)
            assert all(isinstance(e, dict) and "rule" in e for e in events)
            observed = g.observe(s)
            assert not list(state_v.iter_errors(observed)), (game, profile.id)
            assert g.observe(g.load(profile, observed)) == observed


@pytest.mark.parametrize("game", GAMES)
def test_sessions_refuse_garbage_actions_without_crashing(game: str) -> None:
    session = reference_session(game)
    engine = InProcessEngine(session)
    engine.new_game()
    before = engine.observe()
    for junk in ({}, {"type": "teleport"}, {"type": 5}, [], "move", None):
        with pytest.raises(Exception) as err:
            engine.apply(junk)
        assert type(err.value).__name__ == "Refused", (game, junk, err.value)
    assert engine.observe() == before
    assert legal_json(session.game, session.state)["to_move"] is not None
    with pytest.raises(IllegalAction):
        reference_session(game).apply({"type": "pass"})
