"""bot-check on Kingdomino as Coders of the Realm (CodinGame) runs it: stdin/stdout lines, two
output lines a turn, 1000 ms for the first reply and 50 ms after, a deactivated bot for a
time-out or an invalid output, league profiles for an invalid PUT."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from gamecert.fuzz.botcheck.codecs.kingdomino import CODEC, two_lines
from gamecert.fuzz.botcheck.findings import Findings
from gamecert.fuzz.botcheck.runner import RandomChooser, RunOptions, play_game
from gamecert.fuzz.botcheck.search import run_search
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.kingdomino.protocol import game_start, turn_input
from gamecert.spec import load_catalogue
from tests.botcheck.helpers import bot_command, check, gamecert


def fails(result):  # (rule, kind, verdict) of each failure
    return {(f.rule, f.kind, f.verdict) for f in result.findings.failures}


def test_limits_and_seats_come_from_the_catalogue() -> None:
    cat = load_catalogue("kingdomino")
    limits = CODEC.limits(cat.profile("legend"))
    assert (limits.reply_ms, limits.first_reply_ms, limits.reply_rule) == (
        50.0, 1000.0, "KD-PROTO-LIMITS")
    assert limits.for_query(1) == 1000.0 and limits.for_query(2) == 50.0
    assert CODEC.seats(cat.profile("legend")) == (1, 2, 3, 4)
    assert CODEC.seats(cat.profile("legend-2p")) == (1, 2)


def test_reply_is_two_lines() -> None:
    assert two_lines(b"PUT 1 2 0\nPICK 3\n") == 17
    assert two_lines(b"PUT 1 2 0\nPICK 3") is None and two_lines(b"PUT 1 2 0\n") is None
    assert two_lines(b"PUT 1 2 0\nPICK 3\nextra\n") == 17  # the rest opens the next reply


def test_bot_reads_exactly_the_reference_protocol_bytes() -> None:
    # a bot that records its stdin and plays correctly: what it read is game_start then
    # turn_input of every position it was asked about, byte for byte
    game = reference_game("kingdomino")
    prof = load_catalogue("kingdomino").profile("legend-2p")
    cmd = f"sh -c 'tee \"$0\" | {bot_command('kingdomino', 'good.py')}'"
    with tempfile.TemporaryDirectory() as d:
        seen = Path(d) / "stdin"
        options = RunOptions("kingdomino", prof, {1: cmd.replace('"$0"', str(seen))}, 1,
                             time_scale=4)
        asked = []
        record, new = play_game(CODEC, options, 1, RandomChooser("0:1"), Findings(), {},
                                watch=asked.append)
        assert record.ended == "over" and not new, [f.message for f in new]
        want = game_start(asked[0]) + "".join(turn_input(game, s, 1) for s in asked)
        assert seen.read_text() == want
    assert len(asked) == 14  # two kings each: 7 turns x 2


@pytest.mark.parametrize(("name", "profile"), [
    ("good.py", None), ("good.py", "legend-2p"), ("good.py", "wood"),
    ("slow_start.py", None),  # 600 ms on the first turn: inside its own (longer) limit
])
def test_correct_bots_pass(name: str, profile: str | None) -> None:
    # limits x4 (200 ms a turn, 4 s the first): this shared test machine is busy; the
    # bot's speed is not what is tested
    result = check("kingdomino", name, max_queries=None, profile=profile, time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]
    assert result.games[0].ended == "over"
    t = result.timings[1].to_json()
    assert t["queries"] == result.games[0].queries >= 13 and t["limit_ms"] == 200


@pytest.mark.parametrize(("name", "rule", "kind", "query"), [
    ("slow_once.py", "KD-PROTO-LIMITS", "late", 3),
    ("extra_line.py", "KD-PROTO-OUTPUT", "not-a-command", 5),
    ("debug_print.py", "KD-PROTO-OUTPUT", "not-a-command", 6),
    ("crash.py", "BOT-ALIVE", "crash", 7),
    ("on_castle.py", "KD-PUT-INVALID", "invalid-put", 2),
    ("bad_pick.py", "KD-PICK", "invalid-pick", 3),
    ("no_last_pick.py", "KD-PROTO-OUTPUT", "one-line", 13),  # 13 turns with 4 players
])
def test_faulty_bots_are_deactivated(name: str, rule: str, kind: str, query: int) -> None:
    # limits x2 (100 ms): the slow bot takes 250 ms; ordinary replies stay well inside
    result = check("kingdomino", name, max_queries=None, time_scale=2)
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict, f.query) == (rule, kind, "deactivated", query), \
        fails(result)
    assert f.exchange, "a finding shows the bytes exchanged"
    assert "KD-STOP" in f.next_step
    assert result.status == "findings" and result.games[0].ended == "stopped"
    assert result.games[0].queries == query  # never asked again


def test_extra_line_is_read_as_the_start_of_the_next_reply() -> None:
    result = check("kingdomino", "extra_line.py", max_queries=None, time_scale=2)
    (warn,) = [f for f in result.findings.items if f.kind == "unasked-output"]
    assert warn.severity == "warn" and warn.query == 5
    (f,) = result.findings.failures
    assert "''" in f.message  # the empty third line of turn 4 stood where PUT was due


def test_invalid_put_discards_the_tile_in_wood_and_the_game_goes_on() -> None:
    result = check("kingdomino", "on_castle.py", max_queries=None, time_scale=2,
                   profile="wood")
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict, f.query) == (
        "KD-PUT-INVALID", "invalid-put", "tile discarded", 2)
    assert "overlaps the castle" in f.message
    assert result.games[0].ended == "over" and result.games[0].queries == 13


def test_rare_bad_put_found_only_when_the_tile_fits_nowhere() -> None:
    result = check("kingdomino", "no_place.py", max_queries=None, time_scale=4, games=3)
    f = result.findings.failures[0]
    assert (f.rule, f.kind, f.verdict) == ("KD-PROTO-OUTPUT", "not-a-command", "deactivated")
    assert f.query > 5 and "PUT none" in f.message  # the replies before it were accepted
    assert check("kingdomino", "no_place.py", max_queries=5, time_scale=4).status == "clean"


def test_command_exit_codes_and_report_line() -> None:
    good = gamecert("bot-check", "kingdomino", "--bot-cmd",
                    bot_command("kingdomino", "good.py"), "--games", "1", "--time-scale", "4",
                    "-q", "--no-search")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "CLEAN" in good.stdout and "profile legend" in good.stdout
    bad = gamecert("bot-check", "kingdomino", "--bot-cmd",
                   bot_command("kingdomino", "slow_once.py"), "--games", "1",
                   "--time-scale", "2", "-q", "--no-search")
    assert bad.returncode == 1, bad.stderr
    assert "[KD-PROTO-LIMITS] late, verdict: deactivated" in bad.stdout


def test_search_keeps_the_correct_bot_clean_and_finds_the_rare_bad_put() -> None:
    def search(name: str):
        options = RunOptions("kingdomino", load_catalogue("kingdomino").profile(),
                             {1: bot_command("kingdomino", name)}, 1, budget=None,
                             time_scale=4)
        return run_search(CODEC, options, 10, 30.0)

    good = search("good.py")
    assert good.status == "clean", [x.message for x in good.findings.items]
    bad = search("no_place.py")
    assert ("KD-PROTO-OUTPUT", "not-a-command", "deactivated") in fails(bad)


def test_report_trace_replays_on_the_bot_and_not_on_the_fixed_one(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = gamecert("bot-check", "kingdomino", "--bot-cmd",
                   bot_command("kingdomino", "on_castle.py"), "--profile", "wood",
                   "--games", "1", "--time-scale", "4", "--report", str(out), "-q",
                   "--no-search")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "[KD-PUT-INVALID] invalid-put, verdict: tile discarded" in run.stdout
    doc = json.loads((out / "report.json").read_text())  # written: it matches the schema
    (f,) = [x for x in doc["findings"] if x["severity"] == "fail"]
    assert (f["rule"], f["verdict"]) == ("KD-PUT-INVALID", "tile discarded")
    again = gamecert("replay", str(out / f["trace"]), "--bot-cmd",
                     bot_command("kingdomino", "on_castle.py"))
    assert again.returncode == 1 and "reproduced" in again.stdout, again.stdout + again.stderr
    fixed = gamecert("replay", str(out / f["trace"]), "--bot-cmd",
                     bot_command("kingdomino", "good.py"))
    assert fixed.returncode == 0 and "clean" in fixed.stdout, fixed.stdout + fixed.stderr
