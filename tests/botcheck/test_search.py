"""Hypothesis chooses the games: rare positions are found early (crafted starts, shrinking),
each failure keeps the shortest game prefix found for it, and its trace replays."""

from __future__ import annotations

import json
from pathlib import Path

from gamecert.fuzz.botcheck.codecs import codec_for
from gamecert.fuzz.botcheck.runner import RunOptions
from gamecert.fuzz.botcheck.search import run_search
from gamecert.spec import load_catalogue
from tests.botcheck.helpers import bot_command, check, gamecert


def search(game: str, name: str, examples: int = 15, budget: float = 30.0):
    options = RunOptions(game, load_catalogue(game).profile(), {1: bot_command(game, name)},
                         1, budget=None, time_scale=4)
    return run_search(codec_for(game), options, examples, budget)


def test_search_finds_the_rare_flit_move_far_sooner_than_random_play() -> None:
    result = search("flit", "no_wrap.py")
    (f,) = result.findings.failures
    assert f.rule == "FLIT-MOVE-VALID" and f.trace and f.trace["shrunk"]
    random_play = check("flit", "no_wrap.py", max_queries=700, time_scale=4)
    (slow,) = random_play.findings.failures
    assert f.query < slow.query  # random play needed hundreds of moves


def test_search_uses_crafted_starts_for_bot_wars() -> None:
    result = search("botwars", "onto_energy.py")
    (f,) = result.findings.failures
    assert f.rule == "BOTWARS-MOVE-ENERGY" and f.trace
    assert f.query < 10  # random play met it only after 58 turns


def test_correct_bots_stay_clean_under_search() -> None:
    for game in ("flit", "botwars", "carcassonne"):
        result = search(game, "good.py", examples=5)
        assert result.status == "clean", (game, [x.message for x in result.findings.items])


def test_a_shrunk_trace_replays_on_the_bot_and_not_on_the_fixed_one(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = gamecert("bot-check", "carcassonne", "--bot-cmd",
                   bot_command("carcassonne", "uturn.py"), "--games", "3", "--time-scale", "4",
                   "--report", str(out), "-q")
    assert run.returncode == 1, run.stdout + run.stderr
    doc = json.loads((out / "report.json").read_text())
    (f,) = [x for x in doc["findings"] if x["rule"] == "CARC-RIVER-NO-UTURN"]
    trace = json.loads((out / f["trace"]).read_text())
    # the shorter of the random game's prefix and the search's shrunk one
    assert trace["format"] == "gamecert-bot-trace/1" and len(trace["choices"]) <= 11
    again = gamecert("replay", str(out / f["trace"]), "--bot-cmd",
                     bot_command("carcassonne", "uturn.py"))
    assert again.returncode == 1 and "reproduced" in again.stdout, again.stdout + again.stderr
    fixed = gamecert("replay", str(out / f["trace"]), "--bot-cmd",
                     bot_command("carcassonne", "good.py"))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_search_trace_with_a_start_position_replays(tmp_path: Path) -> None:
    result = search("botwars", "onto_energy.py")
    (f,) = result.findings.failures
    assert f.trace is not None and f.trace["start"] is not None
    path = tmp_path / "t.json"
    path.write_text(json.dumps(f.trace))
    again = gamecert("replay", str(path), "--bot-cmd", bot_command("botwars", "onto_energy.py"))
    assert again.returncode == 1 and "reproduced" in again.stdout, again.stdout + again.stderr


def test_random_play_failures_shrink_to_a_shorter_prefix_that_still_fails() -> None:
    from gamecert.fuzz.botcheck.shrink import attempt, shrink_finding

    result = check("flit", "no_wrap.py", max_queries=700, time_scale=4)
    (f,) = result.findings.failures
    assert f.trace is not None
    before = len(f.trace["choices"])
    options = RunOptions("flit", load_catalogue("flit").profile(),
                         {1: bot_command("flit", "no_wrap.py")}, 1, budget=None,
                         time_scale=4)
    assert shrink_finding(codec_for("flit"), options, f, budget=8.0)
    after = f.trace["choices"]
    assert len(after) < before and f.trace["shrunk"]
    # the shorter game still makes the bot fail the same way, the bot run afresh
    again = attempt(codec_for("flit"), options, after, None, ("FLIT-MOVE-VALID",
                                                             "illegal-move"))
    assert again is not None and len(again) <= len(after)
