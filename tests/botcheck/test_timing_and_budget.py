"""Timing bot-check can stand behind, and a time it keeps: a reply is judged on what the bot
did (its wall time, with the time the machine's load kept it and bot-check waiting for a CPU
set aside, its own CPU time reported); a run keeps its promise (budget + one reply limit +
the shrink allowance), a game stopped at the budget says where; the replay line repeats every
option that changes the run."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import pytest

from gamecert.fuzz.botcheck.cli import replay_command, shrink_allowance
from gamecert.fuzz.botcheck.process import own_schedstat
from gamecert.fuzz.botcheck.seat import IN_TIME, JUDGED_LATE, NOT_JUDGED, Load, judge, not_judged
from gamecert.fuzz.cli.args import build_parser
from tests.botcheck.helpers import bot_command, check, gamecert

BUSY = Path(__file__).resolve().parent / "busy_bot.py"


def test_a_reply_late_only_by_the_machines_load_is_not_judged() -> None:
    load = Load(bot_cpu=40.0, bot_wait=3.0, own_wait=12.0)
    assert judge(49.0, 50.0, load) == IN_TIME
    assert judge(55.5, 50.0, load) == NOT_JUDGED  # 5.5 ms late, 15 ms of it the load's
    assert judge(66.0, 50.0, load) == JUDGED_LATE  # 16 ms late: more than the load explains
    assert judge(55.5, 50.0, Load()) == JUDGED_LATE  # nothing measured: wall time decides
    words = not_judged(55.5, 50.0, Load(own_wait=12.0))
    assert words.startswith("late by 5.5 ms (55.5 ms on the 50 ms limit), under a load where")
    assert "our own delay was 12.0 ms" in words and words.endswith(": not judged")


@pytest.mark.skipif(own_schedstat() is None, reason="needs Linux's /proc schedstat")
def test_the_bots_own_cpu_time_tells_computing_from_waiting() -> None:
    slept = check("flit", "slow_once.py", max_queries=4)
    (late,) = [f for f in slept.findings.failures if f.kind == "late"]
    assert "the bot used 0." in late.message  # 250 ms asleep: almost no CPU
    cmd = shlex.join([sys.executable, str(BUSY), "200"])
    from gamecert.fuzz.botcheck.codecs import codec_for
    from gamecert.fuzz.botcheck.runner import RunOptions, run
    from gamecert.spec import load_catalogue

    busy = run(codec_for("flit"), RunOptions("flit", load_catalogue("flit").profile(),
                                             {1: cmd}, 1, games=1, budget=None,
                                             max_queries=4))
    (late,) = [f for f in busy.findings.failures if f.kind == "late"]
    cpu = float(late.message.split("the bot used ")[1].split(" ms")[0])
    assert cpu >= 150, late.message


def test_a_long_game_stops_at_the_budget_and_says_where(tmp_path: Path) -> None:
    out = tmp_path / "out"
    t0 = time.monotonic()
    run = gamecert("bot-check", "flit", "--bot-cmd", bot_command("flit", "good.py"),
                   "--budget", "3", "--no-search", "--time-scale", "4", "-q",
                   "--report", str(out))
    wall = time.monotonic() - t0
    assert run.returncode == 0, run.stdout + run.stderr
    doc = json.loads((out / "report.json").read_text())
    (game,) = doc["games"]
    assert game["ended"] == "budget" and "stopped at the time budget after" in game["note"]
    assert doc["duration_s"] <= doc["promise_s"] <= 3 + 0.2 + 0.01
    assert "at most 3.2 s in all" in run.stdout and "ended early (budget)" in run.stdout
    assert wall < doc["promise_s"] + 10  # the interpreter's start and the imports aside


@pytest.mark.slow
def test_with_the_search_the_run_keeps_its_promise(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = gamecert("bot-check", "flit", "--bot-cmd", bot_command("flit", "short_frame.py"),
                   "--budget", "4", "--time-scale", "4", "-q", "--report", str(out))
    assert run.returncode == 1, run.stdout + run.stderr
    doc = json.loads((out / "report.json").read_text())
    assert doc["promise_s"] == pytest.approx(4 + 0.2 + shrink_allowance(4))
    assert doc["duration_s"] <= doc["promise_s"]


def test_the_replay_line_repeats_every_option_that_changes_the_run() -> None:
    parser = build_parser()
    argv = ["bot-check", "botwars", "--bot-cmd", "python3 my bot.py", "--bot-cmd", "node b.js",
            "--seat", "2", "--variant", "http", "--bot-url", "http://127.0.0.1:8000/",
            "--max-queries", "30", "--time-scale", "0.5", "--seed", "9", "--budget", "12",
            "--profile", "original"]
    args = parser.parse_args(argv)
    from gamecert.fuzz.botcheck.cli import _options

    options = _options(args, args.game, args.profile, args.bot_cmd, args.seat)
    line = replay_command(args, options, games=3)
    again = parser.parse_args(shlex.split(line)[1:])
    for key in ("game", "bot_cmd", "seat", "variant", "bot_url", "max_queries", "time_scale",
                "seed", "budget", "profile", "no_search"):
        assert getattr(again, key) == getattr(args, key), key
    assert again.games == 3
    args = parser.parse_args(["bot-check", "flit", "--bot-cmd", "x", "--no-search"])
    options = _options(args, args.game, args.profile, args.bot_cmd, args.seat)
    line = replay_command(args, options, games=1)
    assert "--no-search" in line and "--variant" not in line and "--budget" not in line


def test_the_printed_replay_line_keeps_the_http_variant() -> None:
    out = gamecert("bot-check", "botwars", "--variant", "http", "--bot-cmd",
                   bot_command("botwars", "good_http.py"), "--games", "1", "--no-search",
                   "--time-scale", "4", "-q")
    assert out.returncode == 0, out.stdout + out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("replay this run: "))
    words = shlex.split(line.removeprefix("replay this run: "))
    assert words[words.index("--variant") + 1] == "http"
    assert words[words.index("--time-scale") + 1] == "4" and "--no-search" in words
    again = gamecert(*words[1:])
    assert again.returncode == 0, again.stdout + again.stderr
