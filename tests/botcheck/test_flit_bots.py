"""bot-check on Flit: the correct bots (Python and JavaScript) pass, each faulty bot gets
the verdict and rule id its docstring promises, and the command's exit codes, reports and
replays work."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gamecert.fuzz.botcheck.findings import FAIL
from tests.botcheck.helpers import bot_command, check, gamecert

NODE = shutil.which("node")


def fails(result):  # (rule, kind, verdict) of each failure
    return {(f.rule, f.kind, f.verdict) for f in result.findings.failures}


@pytest.mark.parametrize("name", ["good.py", "good.js"])
def test_correct_bots_pass(name: str) -> None:
    if name.endswith(".js") and NODE is None:
        pytest.fail("node is needed for the JavaScript bot")
    # limits x4: this shared test machine is busy; the bot's speed is not what is tested
    result = check("flit", name, max_queries=300, time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]
    t = result.timings[1].to_json()
    assert t["queries"] == 300 and 0 < t["p50_ms"] <= t["p99_ms"] <= t["max_ms"] < 200


def test_correct_bot_in_every_seat_with_the_argument_variant() -> None:
    result = check("flit", "good.py", seat=3, variant="argument", others=["good.py"],
                   max_queries=100, time_scale=4)
    assert result.status == "clean"
    assert set(result.timings) == {3, 1}  # the second bot took the first free seat


@pytest.mark.parametrize(("name", "rule", "kind", "verdict", "query"), [
    ("slow_once.py", "FLIT-TIME-LIMIT", "late", "lost turn", 3),
    ("slow_late.py", "FLIT-FREEZE", "frozen", "frozen", 44),
    ("short_frame.py", "FLIT-PROTO-REPLY", "not-a-move", "lost turn", 5),
    ("debug_print.py", "FLIT-PROTO-REPLY", "not-a-move", "lost turn", 7),
    ("crash.py", "BOT-ALIVE", "crash", "frozen", 10),
    # when its extra lines arrive depends on the scheduler: within the first few requests
    ("chatty.py", "FLIT-PROTO-REPLY", "unasked-output", "lost turn", None),
])
def test_faulty_bots(name: str, rule: str, kind: str, verdict: str, query: int | None) -> None:
    # limits x2 (100 ms): the slow bots take 150 ms and more; a busy test machine's
    # ordinary replies stay well inside
    result = check("flit", name, time_scale=2)
    found = [f for f in result.findings.failures if (f.rule, f.kind) == (rule, kind)]
    assert found, fails(result)
    assert found[0].verdict == verdict
    assert found[0].query == query if query is not None else found[0].query <= 5
    assert found[0].exchange, "a finding shows the bytes exchanged"
    assert result.status == "findings"


def test_slow_late_bot_times_out_five_times_then_freezes() -> None:
    result = check("flit", "slow_late.py", time_scale=2)
    late = [f for f in result.findings.items if f.kind == "late"]
    assert late[0].query == 40 and late[0].repeats == 5
    assert result.games[0].ended == "stopped" and result.games[0].queries == 44
    assert result.timings[1].to_json()["max_ms"] > 100


def test_rare_illegal_move_found_only_deep_in_the_game() -> None:
    result = check("flit", "no_wrap.py", max_queries=700, time_scale=4)
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict) == ("FLIT-MOVE-VALID", "illegal-move", "lost turn")
    assert f.query > 100  # rare: the correct moves before it were all accepted
    assert "32" in f.message or "-1" in f.message
    assert check("flit", "no_wrap.py", max_queries=100, time_scale=4).status == "clean"


def test_crash_shows_exit_and_stderr() -> None:
    (f,) = check("flit", "crash.py", time_scale=4).findings.failures
    assert "exited with code 1" in f.message and "index out of range" in f.message
    assert f.exchange[-1]["dir"] == "to bot" and f.exchange[-1]["text"].endswith("M\\n")


def test_command_exit_codes_report_and_replay(tmp_path: Path) -> None:
    good = gamecert("bot-check", "flit", "--bot-cmd", bot_command("flit", "good.py"),
                    "--games", "1", "--max-queries", "50", "--time-scale", "4", "-q",
                    "--no-search")
    assert good.returncode == 0, good.stderr
    assert "CLEAN" in good.stdout and "seed 0" in good.stdout and "p99" in good.stdout
    out = tmp_path / "out"
    bad = gamecert("bot-check", "flit", "--bot-cmd", bot_command("flit", "short_frame.py"),
                   "--games", "1", "--max-queries", "20", "--report", str(out), "-q",
                   "--no-search")
    assert bad.returncode == 1, bad.stderr
    assert "[FLIT-PROTO-REPLY] not-a-move, verdict: lost turn" in bad.stdout
    doc = json.loads((out / "report.json").read_text())
    (finding,) = [f for f in doc["findings"] if f["severity"] == FAIL]
    assert finding["rule"] == "FLIT-PROTO-REPLY" and finding["trace"]
    assert "<failure" in (out / "report.xml").read_text()
    trace = out / finding["trace"]
    again = gamecert("replay", str(trace), "--bot-cmd", bot_command("flit", "short_frame.py"))
    assert again.returncode == 1 and "reproduced" in again.stdout, again.stdout + again.stderr
    fixed = gamecert("replay", str(trace), "--bot-cmd", bot_command("flit", "good.py"))
    assert fixed.returncode == 0 and "clean" in fixed.stdout


def test_command_bad_usage_and_unusable_bot() -> None:
    assert gamecert("bot-check", "chess", "--bot-cmd", "x").returncode == 2
    assert gamecert("bot-check", "flit", "--bot-cmd", "x", "--seat", "7").returncode == 2
    assert gamecert("bot-check", "flit", "--bot-cmd", "x", "--variant", "nope").returncode == 2
    missing = gamecert("bot-check", "flit", "--bot-cmd", "no-such-bot-program", "--games", "1")
    assert missing.returncode == 3 and "not found" in missing.stdout


def test_replay_refuses_what_is_not_a_bot_trace(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gamecert-bot-trace/1", "game": "flit"}')
    out = gamecert("replay", str(bad), "--bot-cmd", "x")
    assert out.returncode == 2 and "not a bot-check trace" in out.stderr
    assert "Traceback" not in out.stderr
    missing = gamecert("replay", str(tmp_path / "none.json"), "--bot-cmd", "x")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
