"""bot-check on Bot Wars, over stdio and over HTTP as the original server posts (a form field
`data`, players r and b): the correct bots (Python over stdio, Python and JavaScript over
HTTP) pass in both seats, each faulty bot gets the verdict and rule id its docstring promises
in both seats."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.botcheck.helpers import bot_command, check, gamecert


def require_node() -> None:
    if shutil.which("node") is None:
        pytest.fail("node is needed for the JavaScript bot")


@pytest.mark.parametrize("seat", (1, 2))
@pytest.mark.parametrize(("name", "variant"), [("good.py", None), ("good_http.py", "http"),
                                               ("good_http.js", "http")])
def test_correct_bots_pass_in_both_seats(name: str, variant: str | None, seat: int) -> None:
    if name.endswith(".js"):
        require_node()
    result = check("botwars", name, seat=seat, variant=variant, max_queries=None,
                   time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]
    assert result.games[0].ended == "over" and result.games[0].queries > 20
    assert result.timings[seat].to_json()["queries"] == result.games[0].queries


def test_two_bots_play_each_other() -> None:
    result = check("botwars", "good.py", others=["good.py"], max_queries=None, time_scale=4)
    assert result.status == "clean" and set(result.timings) == {1, 2}


@pytest.mark.parametrize("seat", (1, 2))
@pytest.mark.parametrize(("name", "variant", "scale", "rule", "kind", "verdict", "query"), [
    ("slow_once.py", None, 1, "BOTWARS-TIME-LIMIT", "late", "disqualified", 5),
    ("pretty.py", None, 4, "BOTWARS-FORMAT-DQ", "bad-format", "disqualified", None),
    ("debug_print.py", None, 4, "BOTWARS-FORMAT-DQ", "bad-format", "disqualified", 4),
    ("crash.py", None, 4, "BOT-ALIVE", "crash", "disqualified", 8),
    ("diagonal.py", None, 4, "BOTWARS-MOVE-INVALID", "invalid-move:not-adjacent", "lost turn",
     3),
    ("http_error.py", "http", 4, "BOTWARS-FORMAT-DQ", "not-json", "lost turn", 3),
    ("http_faulty.py slow 0.8", "http", 0.1, "BOTWARS-TIME-LIMIT", "late", "disqualified", 3),
    ("http_faulty.py crash", "http", 4, "BOT-ALIVE", "crash", "disqualified", 3),
    ("http_faulty.py print", "http", 4, "BOTWARS-FORMAT-DQ", "not-json", "lost turn", 3),
    ("http_faulty.py null", "http", 4, "BOTWARS-FORMAT-DQ", "falsy-reply", "game stalls", 3),
    ("http_faulty.py diagonal", "http", 4, "BOTWARS-MOVE-INVALID",
     "invalid-move:not-adjacent", "lost turn", 3),
])
def test_faulty_bots_get_their_own_rule_and_verdict_in_both_seats(
        name: str, variant: str | None, scale: float, rule: str, kind: str, verdict: str,
        query: int | None, seat: int) -> None:
    result = check("botwars", name, seat=seat, variant=variant, max_queries=None,
                   time_scale=scale)
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict) == (rule, kind, verdict), f.message
    if query is not None:
        assert f.query == query
    assert f.exchange and result.status == "findings"


@pytest.mark.parametrize(("name", "seat", "rule", "verdict"), [
    ("onto_energy.py", 1, "BOTWARS-MOVE-ENERGY", "lost turn"),
    ("wrong_player.py", 2, "BOTWARS-MOVE-INVALID", "lost turn"),
])
def test_bots_wrong_only_in_some_positions(name: str, seat: int, rule: str,
                                           verdict: str) -> None:
    result = check("botwars", name, seat=seat, max_queries=None)
    found = [f for f in result.findings.failures if f.rule == rule]
    assert found, [(f.rule, f.kind) for f in result.findings.items]
    assert found[0].verdict == verdict


def test_disqualification_ends_the_game() -> None:
    result = check("botwars", "pretty.py", max_queries=None)
    assert result.games[0].queries == 2 and result.games[0].ended == "over"
    f = result.findings.failures[0]
    assert "other bot wins" in f.next_step
    # the bytes as they came: the whole pretty-printed list, of which '[' was the reply
    assert f.exchange[-1]["dir"] == "from bot"
    assert f.exchange[-1]["text"].startswith("[\\n {\\n  \"from\": 21")
    assert "the reply '['" in f.message


def test_lenient_profile_turns_a_time_out_into_an_empty_turn() -> None:
    result = check("botwars", "crash.py", profile="lenient", max_queries=None)
    (f,) = result.findings.failures
    assert (f.rule, f.verdict) == ("BOT-ALIVE", "lost turn")


def test_the_http_request_is_the_original_servers_form() -> None:
    """start_game.js posts form {data: JSON.stringify({player, state, gameId}) + "\\n"}, the
    state as utils.buildGameState orders it, GameId added from the second turn on."""
    from urllib.parse import parse_qs

    from gamecert.fuzz.botcheck.codecs.botwars import form_body, form_document, js_parse
    from gamecert.reference_engine import reference_game
    from gamecert.spec import load_catalogue

    game = reference_game("botwars")
    state = game.observe(game.initial(load_catalogue("botwars").profile()))
    state["grid"] = "1X2x*" + state["grid"][5:]
    first = form_document(state, 2, 17, 1)
    assert first.endswith("\n") and first.startswith('{"player":"b","state":{"rows":20,')
    doc = json.loads(first)
    assert list(doc) == ["player", "state", "gameId"] and doc["gameId"] == 17
    assert list(doc["state"]) == ["rows", "cols", "maxTurns", "turnsElapsed", "grid", "p1",
                                  "p2", "winner"]
    assert doc["state"]["grid"].startswith("rxbx*")
    assert list(json.loads(form_document(state, 1, 17, 2))["state"])[-1] == "GameId"
    body = form_body(first)
    assert body.startswith(b"data=%7B%22player%22%3A%22b%22") and b"%0A" in body
    assert parse_qs(body.decode())["data"] == [first]
    # the reply: JSON.parse, numbers by value; what it refuses is no moves at all
    assert js_parse(b'[{"from": 1e2, "to": 101.0}]') == [{"from": 100, "to": 101}]
    assert js_parse(b"NaN") is js_parse(b"<html>") is js_parse(b"\xff")


def test_http_bot_with_a_url_that_does_not_listen_is_unusable() -> None:
    out = gamecert("bot-check", "botwars", "--variant", "http", "--bot-url",
                   "http://127.0.0.1:9/", "--bot-cmd", bot_command("botwars", "good.py"),
                   "--games", "1")
    assert out.returncode == 3 and "nothing listens" in out.stdout


def test_requests_and_replies_match_the_protocol_schema() -> None:
    import random

    from gamecert.reference_engine import reference_game
    from gamecert.reference_engine.contract import CHANCE, TERMINAL
    from gamecert.schemas import first_error
    from gamecert.spec import load_catalogue

    game = reference_game("botwars")
    state = game.initial(load_catalogue("botwars").profile())
    rng = random.Random(3)
    seen = 0
    while game.current(state) != TERMINAL:
        who = game.current(state)
        if who != CHANCE:
            view = game.bot_view(state, "p1" if who == 1 else "p2", "g")
            assert first_error("botwars-bot", view) is None
            seen += 1
        chance = who == CHANCE
        action = game.random_chance(state, rng) if chance else game.random_action(state, rng)
        state, _ = game.apply(state, action)
    assert seen > 50
    assert first_error("botwars-bot", [{"from": 21, "to": 22}]) is None
    assert first_error("botwars-bot", []) is None
    assert first_error("botwars-bot", {"moves": []}) is not None
    assert first_error("botwars-bot", [{"from": 21}]) is not None
