"""bot-check on Bot Wars, over stdio and over HTTP POST to a bot that is a local web server:
the correct bots (Python over stdio, JavaScript over HTTP) pass, each faulty bot gets the
verdict and rule id its docstring promises."""

from __future__ import annotations

import shutil

import pytest

from tests.botcheck.helpers import bot_command, check, gamecert


def require_node() -> None:
    if shutil.which("node") is None:
        pytest.fail("node is needed for the JavaScript bot")


def test_correct_stdio_bot_passes_in_both_seats() -> None:
    for seat in (1, 2):
        result = check("botwars", "good.py", seat=seat, max_queries=None, time_scale=4)
        assert result.status == "clean", [f.message for f in result.findings.items]
        assert result.games[0].ended == "over" and result.games[0].queries > 20


def test_correct_http_bot_passes() -> None:
    require_node()
    result = check("botwars", "good_http.js", variant="http", max_queries=None, time_scale=4,
                   games=2)
    assert result.status == "clean", [f.message for f in result.findings.items]
    assert all(g.ended == "over" for g in result.games)
    # the POST bodies and the HTTP replies are in the transcript of a finding-free run too
    assert result.timings[1].to_json()["queries"] == sum(g.queries for g in result.games)


def test_two_bots_play_each_other() -> None:
    result = check("botwars", "good.py", others=["good.py"], max_queries=None, time_scale=4)
    assert result.status == "clean" and set(result.timings) == {1, 2}


@pytest.mark.parametrize(("name", "seat", "variant", "rule", "verdict", "query"), [
    ("slow_once.py", 1, None, "BOTWARS-TIME-LIMIT", "disqualified", 5),
    ("pretty.py", 1, None, "BOTWARS-FORMAT-DQ", "disqualified", 2),
    ("debug_print.py", 1, None, "BOTWARS-FORMAT-DQ", "disqualified", 4),
    ("onto_energy.py", 1, None, "BOTWARS-MOVE-ENERGY", "lost turn", None),
    ("crash.py", 1, None, "BOT-ALIVE", "disqualified", 8),
    ("wrong_player.py", 2, None, "BOTWARS-MOVE-INVALID", "lost turn", 2),
    ("http_error.py", 1, "http", "BOTWARS-FORMAT-DQ", "disqualified", 3),
])
def test_faulty_bots(name: str, seat: int, variant: str | None, rule: str, verdict: str,
                     query: int | None) -> None:
    result = check("botwars", name, seat=seat, variant=variant, max_queries=None)
    found = [f for f in result.findings.failures if f.rule == rule]
    assert found, [(f.rule, f.kind) for f in result.findings.items]
    assert found[0].verdict == verdict
    if query is not None:
        assert found[0].query == query
    else:  # a rare position: many good turns first
        assert found[0].query > 10
    assert found[0].exchange and result.status == "findings"


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
