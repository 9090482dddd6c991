"""Bots are untrusted programs: a hang, a flood, an early exit, a child process left behind
become findings or a clean stop, never a hang or a crash of bot-check, and nothing of the
bot outlives the run."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time

from gamecert.fuzz.botcheck.codecs import codec_for
from gamecert.fuzz.botcheck.runner import RunOptions, RunResult, run
from gamecert.spec import load_catalogue
from tests.botcheck.helpers import BOTS

PY = shlex.quote(sys.executable)


def run_command(game: str, command: str, **kw: object) -> RunResult:
    options = RunOptions(game, load_catalogue(game).profile(), {1: command}, 1, games=1,
                         budget=None, **kw)  # type: ignore[arg-type]
    return run(codec_for(game), options)


def test_a_bot_that_never_answers_times_out_then_freezes() -> None:
    hang = f"{PY} -c 'import sys, time; sys.stdin.readline(); time.sleep(600)'"
    t0 = time.monotonic()
    result = run_command("flit", hang)
    assert time.monotonic() - t0 < 30
    kinds = {(f.rule, f.kind, f.verdict) for f in result.findings.failures}
    assert ("FLIT-TIME-LIMIT", "no-reply", "lost turn") in kinds
    assert ("FLIT-FREEZE", "frozen", "frozen") in kinds
    assert result.games[0].queries == 5 and result.games[0].ended == "stopped"


def test_a_flood_without_newline_is_a_finding() -> None:
    flood = f"{PY} -c 'import sys; sys.stdout.write(\"7\" * 3000000); sys.stdout.flush()'"
    result = run_command("flit", flood)
    (f,) = result.findings.failures
    assert (f.rule, f.kind) == ("BOT-ALIVE", "flood")
    assert "more bytes" in f.exchange[-1]["text"]  # the transcript keeps a bounded excerpt


def test_an_early_exit_is_a_crash_finding_with_its_exit_code() -> None:
    result = run_command("botwars", f"{PY} -c 'import sys; sys.exit(5)'")
    (f,) = result.findings.failures
    assert f.rule == "BOT-ALIVE" and "exited with code 5" in f.message


def test_a_bot_that_leaves_a_child_behind_is_cleaned_up() -> None:
    marker = "317.25"  # an unusual duration names the child we look for
    command = (f"sh -c 'sleep {marker} & exec {PY} {BOTS / 'flit' / 'good.py'}'")
    result = run_command("flit", command, max_queries=20, time_scale=4)
    assert result.status == "clean"
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, text=True)
    assert left.stdout.strip() == "", "the bot's child outlived the run"


def test_carcassonne_bot_that_never_opens_its_pipes_is_banned_within_the_open_limit() -> None:
    t0 = time.monotonic()
    result = run_command("carcassonne", f"{PY} -c 'import time; time.sleep(600)'")
    assert time.monotonic() - t0 < 10
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict) == ("CARC-PROTO-LIMITS", "pipes", "ban")
