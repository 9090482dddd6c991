"""Capabilities are honoured: hello's list plans the campaign; follow mode keeps an engine that
draws for itself in lockstep; the certificate names what could not be checked."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.engines.capabilities import (
    FULL,
    MINIMUM,
    NEEDS_CHANCE,
    capabilities_of,
    checked_in_part,
    not_checkable,
)
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.minimal import MinimalSession
from gamecert.fuzz.engines.recipes import command_recipe, object_recipe
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.findings.trace import load_trace, replay
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.reports.certificate import NOT_CHECKABLE, rule_rows, write_report
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")


@pytest.mark.parametrize(("hello", "caps"), [
    ({"game": "flit"}, MINIMUM),
    ({"game": "flit", "capabilities": "legal"}, MINIMUM),
    (None, MINIMUM),
    ({"game": "flit", "capabilities": ["legal", 3, "chance"]}, frozenset({"legal", "chance"})),
])
def test_missing_or_malformed_capabilities_mean_the_minimum(hello: Any, caps: Any) -> None:
    assert capabilities_of(hello) == caps


@pytest.mark.parametrize("game", GAMES)
def test_our_engines_declare_everything_and_keep_todays_plan(game: str) -> None:
    hello = reference_session(game).hello()
    assert capabilities_of(hello) == FULL
    assert not_checkable(FULL, oracles_for(game), game) == {}


def test_the_flit_js_engine_declares_chance() -> None:
    with open("examples/engines/flit-js/flit.js", encoding="utf-8") as f:
        assert "'bot_output', 'chance'" in f.read()


def test_without_capabilities_the_rules_they_check_are_named() -> None:
    missing = not_checkable(MINIMUM, oracles_for("carcassonne"), "carcassonne")
    assert missing["CARC-PROTO-REPLY"] == "bot_output"
    assert missing["ENGINE-LOAD-STATE"] == "load_state"
    assert missing["ENGINE-STATE-ROUNDTRIP"] == "load_state"
    assert missing["CARC-RIVER-DRAW"] == "chance"
    # a rule with a check of its own stays checkable
    assert "CARC-PLACE-MATCH" not in missing
    legal_only = not_checkable(MINIMUM, oracles_for("botwars"), "botwars")
    assert "BOTWARS-MOVE" not in legal_only  # it has a transition check too


def test_rules_checked_only_in_part_name_the_capability_the_rest_needs() -> None:
    flit = checked_in_part(MINIMUM, oracles_for("flit"), "flit")
    # which outcomes an engine accepts needs chance; the probabilities it lists need legal
    assert flit["FLIT-NEUTRAL-ADD"] == "chance and legal"
    assert flit["FLIT-SETUP-AVAILABLE"] == "chance and legal"
    no_legal = checked_in_part(FULL - {"legal"}, oracles_for("carcassonne"), "carcassonne")
    assert no_legal["CARC-DECK-DRAW"] == "legal"
    botwars = checked_in_part(FULL - {"bot_output"}, oracles_for("botwars"), "botwars")
    assert botwars["BOTWARS-FORMAT-DQ"] == "bot_output"
    assert checked_in_part(FULL, oracles_for("botwars"), "botwars") == {}
    unchecked = not_checkable(MINIMUM, oracles_for("carcassonne"), "carcassonne")
    both = checked_in_part(MINIMUM, oracles_for("carcassonne"), "carcassonne", unchecked)
    assert not set(both) & set(unchecked)
    # what the engine accepts, without legal sets, is seen only through probes
    no_legal_kd = checked_in_part(FULL - {"legal"}, oracles_for("kingdomino"), "kingdomino")
    assert no_legal_kd["KD-LAST-TURN-NO-PICK"] == "legal"
    assert "KD-SCORE-ZONES" not in no_legal_kd  # no judge: nothing of it needs a listing


def test_rules_the_crafted_starts_are_for_are_checked_in_part_without_load_state() -> None:
    crafted = plugin_for("flit").crafted_for  # type: ignore[attr-defined]
    no_load = checked_in_part(FULL - {"load_state"}, oracles_for("flit"), "flit",
                              crafted=crafted)
    assert no_load["FLIT-END-CATCHUP"] == "load_state"
    assert no_load["FLIT-END-TURNCAP"] == "load_state"
    assert "FLIT-BOARD-SIZE" not in no_load
    assert checked_in_part(FULL, oracles_for("flit"), "flit", crafted=crafted) == {}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_says_what_its_crafted_starts_are_for(game: str) -> None:
    crafted = getattr(plugin_for(game), "crafted_for", None)
    assert crafted, f"{game}: its plugin says nothing of what its crafted starts are for"
    rules = {o.rule for o in oracles_for(game)}
    for kind, targets in crafted.items():
        assert kind and targets, kind
        assert set(targets) <= rules, (kind, set(targets) - rules)


def test_a_full_engine_campaign_has_no_follow_mode() -> None:
    result = run_campaign("flit", InProcessEngine(reference_session("flit")), rounds=1, seed=0,
                          examples_per_round=3, steps_per_example=5)
    assert result.capabilities == FULL and result.not_checkable == {} and result.in_part == {}
    assert result.chance_tests == []


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_behind_the_minimum_wrapper_certifies_with_no_departure(game: str) -> None:
    result = run_campaign(game, object_recipe(game, "minimal:reference"), rounds=2, seed=0,
                          examples_per_round=10, steps_per_example=20)
    assert result.capabilities == MINIMUM
    assert result.coverage.steps > 20
    assert result.departures == [], [d.message for d in result.departures]
    # the rules it cannot check are named, and not counted as passed or as missing
    assert set(NEEDS_CHANCE[game]) <= set(result.not_checkable)
    assert not set(result.not_checkable) & set(result.unexercised)
    rows = {r.rule: r for r in rule_rows(result)}
    assert rows["ENGINE-LOAD-STATE"].verdict == NOT_CHECKABLE


class _NoReport(MinimalSession[Any, Any]):
    """Draws, but never says so."""

    def _draw(self) -> list[Any]:
        return [e for e in super()._draw() if "chance" not in e]


class _Impossible(MinimalSession[Any, Any]):
    """Reports a draw no rule allows (a tile that does not exist) after its real one."""

    def _draw(self) -> list[Any]:
        out = super()._draw()
        return [{"chance": {"type": "draw", "tile": "ZZ9"}} if "chance" in e else e
                for e in out]


class _Extra(MinimalSession[Any, Any]):
    """Reports one draw too many after a move."""

    def apply(self, action: Any) -> tuple[Any, list[Any]]:
        state, events = super().apply(action)
        return state, [*events, {"chance": {"type": "draw", "tile": "R1"}}]


def _lockstep(session: Any, game: str = "carcassonne") -> Lockstep:
    profile = load_catalogue(game).profile()
    return Lockstep(reference_game(game), InProcessEngine(session), profile, oracles_for(game),
                    coverage=Coverage(), caps=MINIMUM)


def test_follow_mode_applies_the_engines_draws_to_the_reference() -> None:
    ls = _lockstep(MinimalSession(reference_game("carcassonne")))
    ls.start({"kind": "new_game", "seed": 7})
    assert ls.ref_json == ls.engine.observe()
    assert ls.draws >= 1  # the first river tile, drawn inside new_game
    action = reference_game("carcassonne").action_to_json(
        ls.ref, reference_game("carcassonne").legal(ls.ref)[0])
    events = ls.step(action)
    assert ls.ref_json == ls.engine.observe()
    assert isinstance(events, list)


def test_a_draw_not_reported_is_a_finding_that_says_so() -> None:
    ls = _lockstep(_NoReport(reference_game("carcassonne")))
    with pytest.raises(Finding) as caught:
        ls.start({"kind": "new_game", "seed": 1})
    assert caught.value.rules == ["ENGINE-AGREES"]
    assert "the engine reported none" in caught.value.message


def test_a_draw_the_reference_does_not_list_is_a_finding_under_the_chance_rule() -> None:
    ls = _lockstep(_Impossible(reference_game("carcassonne")))
    with pytest.raises(Finding) as caught:
        ls.start({"kind": "new_game", "seed": 1})
    assert caught.value.rules == ["CARC-DECK-DRAW"]
    assert "does not list" in caught.value.message


def test_a_draw_the_rules_do_not_call_for_is_a_finding() -> None:
    game = reference_game("carcassonne")
    ls = _lockstep(_Extra(game))
    ls.start({"kind": "new_game", "seed": 1})
    with pytest.raises(Finding) as caught:
        ls.step(game.action_to_json(ls.ref, game.legal(ls.ref)[0]))
    assert "events differ" in caught.value.message or caught.value.kind == "violation"


def test_a_minimum_engine_is_never_sent_what_it_did_not_declare() -> None:
    asked: list[str] = []

    class Spy(MinimalSession[Any, Any]):
        def load_state(self, state: Any, profile: str | None = None) -> Any:
            asked.append("load_state")
            return super().load_state(state, profile)

        def legal(self) -> Any:
            asked.append("legal")
            return super().legal()

        def bot_output(self, text: str) -> Any:
            asked.append("bot_output")
            return super().bot_output(text)

    result = run_campaign("flit", InProcessEngine(Spy(reference_game("flit"))), rounds=2,
                          seed=0, examples_per_round=10, steps_per_example=15)
    assert result.coverage.steps > 10 and asked == []


def test_a_subprocess_engine_reports_its_set_up_draws_in_new_game() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "flit", "--engine",
                               "minimal:reference"])
    engine.start()
    try:
        assert capabilities_of(engine.hello()) == MINIMUM
        engine.new_game(None, 3)
        draws = [e["chance"] for e in engine.start_events if "chance" in e]
        assert len(draws) >= 4 and {d["type"] for d in draws} == {"setup"}
        assert "chance" in engine.start_events[0]  # each report before what it caused
    finally:
        engine.close()


def test_a_subprocess_minimum_engine_certifies(tmp_path: Any) -> None:
    recipe = command_recipe("flit", [sys.executable, "-m", "gamecert", "serve", "flit",
                                     "--engine", "minimal:reference"])
    result = run_campaign("flit", recipe, rounds=1, seed=0, examples_per_round=4,
                          steps_per_example=10)
    assert result.departures == [] and result.coverage.steps > 5


def test_the_certificate_lists_the_unchecked_rules_and_validates(tmp_path: Any) -> None:
    result = run_campaign("kingdomino", object_recipe("kingdomino", "minimal:reference"),
                          rounds=2, seed=0, examples_per_round=10, steps_per_example=20)
    path = write_report(result, tmp_path)
    doc = json.loads(path.read_text())
    assert first_error("report", doc) is None
    assert doc["capabilities"] == []
    needs = {e["rule"]: e["needs"] for e in doc["not_checkable"]}
    assert needs["KD-PROTO-OUTPUT"] == "bot_output"
    verdicts = {r["id"]: r["verdict"] for r in doc["rules"]}
    assert verdicts["KD-PROTO-OUTPUT"] == "not checkable"
    stats = doc["chance_statistics"]
    assert stats["alpha"] == 0.001 and stats["tests"]
    assert {t["rule"] for t in stats["tests"]} <= {"KD-DEAL", "KD-ORDER-FIRST"}
    # the chance rules are still checked (draws followed and tested) but not whole
    part = {e["rule"]: e["needs"] for e in doc["checked_in_part"]}
    assert part["KD-DEAL"] == "chance and legal" and "KD-DEAL" not in needs


def test_a_finding_behind_the_wrapper_replays_from_its_trace(tmp_path: Any) -> None:
    spec = engine_spec("carcassonne", "turn_order_reversed", "minimal")
    result = run_campaign("carcassonne", object_recipe("carcassonne", spec), rounds=4, seed=0)
    assert result.departures
    dep = result.departures[0]
    path = write_report(result, tmp_path)
    doc = json.loads(path.read_text())
    trace = load_trace(tmp_path / doc["findings"][0]["trace"])
    assert trace["capabilities"] == [] and "seed" in trace["start"]
    again = replay(trace, object_recipe("carcassonne", spec).open())
    assert again.reproduced, (dep.message, again.finding)


def test_the_html_certificate_names_the_capabilities_and_the_draws(tmp_path: Any) -> None:
    result = run_campaign("kingdomino", object_recipe("kingdomino", "minimal:reference"),
                          rounds=1, seed=0, examples_per_round=10, steps_per_example=30)
    write_report(result, tmp_path)
    page = (tmp_path / "report.html").read_text()
    assert "not checkable (a capability the engine lacks)" in page
    assert "<dt>capabilities</dt><dd>the minimum</dd>" in page
    assert "draws KD-DEAL" in page
