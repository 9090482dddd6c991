"""Issue 29, trust round 3: what a hostile engine, a full disk and a busy machine broke.

Each test names its item; docs/reliability.md lists the cases. The engines are in
examples/engines/hostile/ (deep_reply, surrogate_state, crash_holding_stdout,
crash_before_hello, raises); tests/hostile/conftest.py checks nothing is left running."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from examples.engines import path_of
from gamecert.fuzz import atomic_write
from gamecert.fuzz.cli.main import main
from gamecert.fuzz.engines.engine import MAX_REPLY_DEPTH, EngineFault, nests_deeper
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from tests.hostile.conftest import hostile

ROOT = Path(__file__).resolve().parents[2]
CERTIFY = ["certify", "flit", "--timeout", "1", "--quiet"]


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _leftovers(folder: Path) -> list[str]:
    """Half-written files: temporary names, or empty files."""
    return [p for p in _files(folder) if p.endswith(".tmp") or
            (not p.startswith(".hypothesis/") and (folder / p).stat().st_size == 0)]


# --- item 1: a reply nested 200,000 deep ---------------------------------------------------

def test_nesting_is_measured_without_recursion() -> None:
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    assert nests_deeper(deep) and nests_deeper({"a": [{"b": deep}]})
    shallow: Any = {"state": [[1, 2], {"k": [3]}], "events": []}
    assert not nests_deeper(shallow) and not nests_deeper(3)
    exact: Any = []
    for _ in range(MAX_REPLY_DEPTH - 1):
        exact = [exact]
    assert not nests_deeper(exact) and nests_deeper([exact])


def test_a_deep_reply_is_garbage_not_a_recursion_error() -> None:
    engine = SubprocessEngine([sys.executable, str(path_of("hostile", "deep_reply")), "flit", "0"],
                              timeout=5)
    engine.start()
    try:
        engine.hello()
        engine.new_game("standard", 0)
        legal = engine.legal()
        action = (legal.get("actions") or [o["action"] for o in legal["outcomes"]])[0]
        with pytest.raises(EngineFault) as fault:
            engine.apply(action)
        assert fault.value.kind == "garbage" and "nests deeper" in fault.value.message
        assert not engine.alive()  # closed: it is not asked anything more
    finally:
        engine.close()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_deep_reply_gets_a_report_with_any_jobs(jobs: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out"
    code = main([*CERTIFY, "--engine-cmd", hostile("deep_reply"), "--rounds", "1",
                 "--jobs", jobs, "--report", str(report)])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert "[ENGINE-ALIVE] garbage" in out and "Traceback" not in out + err
    doc = json.loads((report / "report.json").read_text())
    assert [f["primary"] for f in doc["findings"]] == ["ENGINE-ALIVE"]
    assert (report / "report.html").stat().st_size > 0 and not _leftovers(report)


# --- item 2: surrogates and bidirectional controls ----------------------------------------

def test_surrogates_and_bidi_controls_are_shown_escaped(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out"
    engine = hostile("surrogate_state")
    assert main([*CERTIFY, "--engine-cmd", engine, "--rounds", "1", "--jobs", "1",
                 "--report", str(report)]) == 1
    out, err = capsys.readouterr()
    assert "ENGINE-AGREES" in out and "Traceback" not in out + err
    assert not _leftovers(report), _files(report)
    page = (report / "report.html").read_text("utf-8")  # UTF-8 throughout: it decodes
    assert "\u202e" not in page and "note\\u202egnp.exe" in page and "\\ud800" in page
    ET.parse(report / "report.xml")  # well-formed XML: no control character, no surrogate
    # the report document keeps the engine's text exactly (JSON escapes it)
    doc = json.loads((report / "report.json").read_text("utf-8"))
    assert "\ud800" in json.dumps(doc["findings"][0]["picture"]["engine"], ensure_ascii=False)
    # `gamecert report DIR` writes the page again from it
    (report / "report.html").unlink()
    assert main(["report", str(report)]) == 0
    assert "\u202e" not in (report / "report.html").read_text("utf-8")
    capsys.readouterr()
    # `replay` prints the engine's key escaped, never the override itself
    trace = report / doc["findings"][0]["trace"]
    assert main(["replay", str(trace), "--engine-cmd", engine]) == 1
    out, err = capsys.readouterr()
    assert "note\\u202egnp.exe" in out and "\u202e" not in out + err and "\ud800" not in out


def test_the_command_line_prints_what_a_terminal_cannot_take_escaped() -> None:
    """Run as a user runs it (a UTF-8 terminal, here a pipe): no UnicodeEncodeError."""
    done = subprocess.run([sys.executable, "-m", "gamecert", *CERTIFY, "--engine-cmd",
                           hostile("surrogate_state"), "--rounds", "1", "--jobs", "1"],
                          capture_output=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 1, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr and b"\xe2\x80\xae" not in done.stdout


# --- item 3: bot-check writes nothing in the current folder --------------------------------

def test_bot_check_writes_nothing_in_the_current_folder(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "gamecert", "bot-check", "flit", "--bot-cmd",
                           f"{sys.executable} {ROOT / 'examples/bots/flit/good.py'}",
                           "--budget", "3"], cwd=here, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stdout.decode()[-2000:] + done.stderr.decode()[-2000:]
    assert list(here.iterdir()) == [], "bot-check wrote into the current folder"
    # what Hypothesis keeps (a unicode table, constants of local modules: an editable
    # install has some, an installed package none) went to the user's cache if anywhere
    written = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert all("gamecert" in p.relative_to(tmp_path / "cache").parts for p in written), written


# --- item 4: a fresh report folder does not rebuild Hypothesis's unicode tables ------------

def test_a_fresh_report_folder_reuses_the_cached_unicode_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))

    def certify(folder: str) -> None:
        done = subprocess.run([sys.executable, "-m", "gamecert", "certify", "flit", "--engine",
                               "reference", "--rounds", "1", "--jobs", "1", "--quiet",
                               "--report", str(tmp_path / folder)],
                              cwd=tmp_path, capture_output=True, timeout=300)
        assert done.returncode in (0, 4), done.stderr.decode()[-2000:]

    certify("first")
    tables = sorted((cache / "gamecert" / "hypothesis").rglob("charmap*"))
    assert tables, "Hypothesis's unicode table is kept in the user's cache folder"
    built = {p: p.stat().st_mtime_ns for p in tables}
    certify("second")
    assert {p: p.stat().st_mtime_ns for p in tables} == built  # read, not built again
    for folder in ("first", "second"):
        assert not (tmp_path / folder / ".hypothesis" / "unicode_data").exists()
        assert (tmp_path / folder / ".hypothesis" / "examples").is_dir()  # the database stays


# --- item 5: a full disk --------------------------------------------------------------------

def test_a_failed_write_leaves_the_old_file_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.json"
    atomic_write.write_text(target, "old\n")

    def full(fd: int, data: bytes) -> None:
        os.write(fd, data[:3])  # a part gets to the disk, then it is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic_write, "_write_all", full)
    with pytest.raises(atomic_write.WriteError) as failed:
        atomic_write.write_text(target, "new\n")
    assert str(failed.value) == f"{target}: cannot write: No space left on device"
    assert target.read_text() == "old\n" and _files(tmp_path) == ["report.json"]


def test_text_an_engine_sent_is_written_even_where_utf8_cannot_hold_it(tmp_path: Path) -> None:
    atomic_write.write_text(tmp_path / "a.txt", "bad \ud800 end")
    assert (tmp_path / "a.txt").read_text("utf-8") == "bad \\ud800 end"


def test_a_full_disk_mid_campaign_is_said_and_leaves_no_half_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every write under the report folder fails with ENOSPC once the campaign has started
    (the snapshot of the example database, written before, got through)."""
    report = tmp_path / "out"
    real = atomic_write._write_all
    started = {"on": False}

    def write(fd: int, data: bytes) -> None:
        if started["on"]:
            os.write(fd, data[:100])  # a part gets to the disk, then it is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    from gamecert.fuzz.search import campaign

    run = campaign.run_campaign

    def run_then_fill(*args: Any, **kwargs: Any) -> Any:
        started["on"] = True
        return run(*args, **kwargs)

    monkeypatch.setattr(atomic_write, "_write_all", write)
    monkeypatch.setattr(campaign, "run_campaign", run_then_fill)
    code = main([*CERTIFY, "--engine-cmd", hostile("crash_mid_game"), "--rounds", "2",
                 "--jobs", "1", "--report", str(report)])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert "No space left on device" in err and "the report was not written" in err
    assert err.count("warning:") == 1  # said once, not once a round
    assert "RULES VIOLATED" in out  # the verdict is printed all the same
    assert "internal error" not in err and "Traceback" not in out + err
    assert not [p for p in _files(report) if p.endswith(".tmp")], _files(report)


def _can_mount_tmpfs() -> bool:
    if shutil.which("unshare") is None:
        return False
    done = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs "
                           "/tmp && touch /tmp/x"], capture_output=True, timeout=30)
    return done.returncode == 0


@pytest.mark.skipif(not _can_mount_tmpfs(), reason="no user namespace to mount a tmpfs in "
                    "(the injected ENOSPC above covers the same path)")
def test_a_real_full_disk_on_a_small_tmpfs(tmp_path: Path) -> None:
    """The report folder on a 16 kB tmpfs (mounted in a user namespace of its own): the
    kernel's own ENOSPC, exit 2 with the message, no half-written file."""
    folder = tmp_path / "small"
    folder.mkdir()
    script = (f"mount -t tmpfs -o size=16k tmpfs {folder} && "
              f"{sys.executable} -m gamecert certify flit --engine-cmd "
              f"'{hostile('crash_mid_game')}' --timeout 1 --rounds 2 --jobs 1 --quiet "
              f"--db none --report {folder}/out; code=$?; ls -A {folder}/out "
              f"{folder}/out/traces 2>/dev/null; exit $code")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 2, done.stdout[-3000:] + done.stderr[-3000:]
    assert "No space left on device" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "RULES VIOLATED" in done.stdout  # the verdict, whatever the disk
    assert ".tmp" not in done.stdout.split("RULES VIOLATED")[-1]  # the listing: no leftovers


# --- item 8: a report folder is one campaign's ---------------------------------------------

def test_a_reused_report_folder_holds_only_the_new_campaign(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out"
    assert main([*CERTIFY, "--engine-cmd", hostile("crash_mid_game"), "--rounds", "1",
                 "--jobs", "1", "--report", str(report)]) == 1
    assert list((report / "traces").glob("*.json"))
    (report / "notes.txt").write_text("mine")  # not gamecert's: it stays
    capsys.readouterr()
    assert main([*CERTIFY, "--engine", "reference", "--rounds", "1", "--jobs", "1",
                 "--report", str(report)]) in (0, 4)
    out = capsys.readouterr().out
    assert "held an earlier campaign's files; removed" in out
    assert not (report / "traces").exists() and not (report / "checkpoint").exists()
    assert (report / "notes.txt").read_text() == "mine"
    doc = json.loads((report / "report.json").read_text())
    assert doc["findings"] == [] and doc["engine_spec"]["object"] == "reference"


def test_two_campaigns_cannot_write_one_folder_at_once(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out"
    first = subprocess.Popen([sys.executable, "-m", "gamecert", *CERTIFY, "--engine",
                              "reference", "--budget", "60", "--jobs", "1", "--report",
                              str(report)], cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (report / ".gamecert.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert main([*CERTIFY, "--engine", "reference", "--rounds", "1",
                     "--report", str(report)]) == 2
        err = capsys.readouterr().err
        assert "being written by another gamecert campaign" in err and f"pid {first.pid}" in err
    finally:
        os.killpg(first.pid, signal.SIGTERM)
        first.communicate(timeout=60)
    # once it is gone, the folder is free again
    assert main([*CERTIFY, "--engine", "reference", "--rounds", "1", "--jobs", "1",
                 "--report", str(report)]) in (0, 4)
    assert not (report / ".gamecert.lock").exists()


# --- item 9: the no-orphan checks count this test's processes only -------------------------

def test_the_no_orphan_check_ignores_another_campaigns_processes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process of another campaign (its own worker token, another test's mark) is alive
    through this test's campaign: the checks that count this campaign's processes do not
    see it (they counted any process with the variable set)."""
    from gamecert.fuzz.engines.recipes import engine_recipe
    from gamecert.fuzz.search.campaign import run_campaign
    from gamecert.fuzz.search.parallel import WORKER_TAG, ProcessRunner
    from tests.hostile.conftest import MARK, running_hostile
    from tests.processes import carrying, settled

    other = subprocess.Popen(["sleep", "60"], env={**os.environ, WORKER_TAG: "another",
                                                   MARK: "another-test"})
    tokens: set[str] = set()
    start = ProcessRunner.__init__

    def noted(self: ProcessRunner, *args: Any, **kwargs: Any) -> None:
        start(self, *args, **kwargs)
        tokens.add(self.tag)

    monkeypatch.setattr(ProcessRunner, "__init__", noted)
    try:
        recipe = engine_recipe("flit", command=[sys.executable, "-m", "gamecert", "serve",
                                                "flit"])
        assert run_campaign("flit", recipe, rounds=2, seed=1, jobs=2).coverage.steps > 0
        assert tokens and settled(lambda: carrying(WORKER_TAG, tokens)) == []
        assert running_hostile() == []  # this test's mark: nothing
        assert carrying(WORKER_TAG, {"another"}) == [other.pid]  # it is there all along
    finally:
        other.kill()
        other.wait()


# --- item 12: wording ----------------------------------------------------------------------

def test_one_crash_has_one_cause_id_in_process_and_as_a_subprocess(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = path_of("hostile", "raises")
    ids = []
    for how in (["--engine", f"{path}:ENGINE"], ["--engine-cmd", f"{sys.executable} {path}"]):
        assert main([*CERTIFY, *how, "--rounds", "1", "--jobs", "1"]) == 1
        out = capsys.readouterr().out
        line = next(x for x in out.splitlines() if x.startswith("finding 1 "))
        assert "[ENGINE-ALIVE] crash" in line
        ids.append(line.rsplit("cause ", 1)[1])
        assert "engine error: ZeroDivisionError" in out
    assert ids[0] == ids[1]


def test_a_crash_holding_stdout_kills_the_grandchild(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    pids = tmp_path / "pids"
    monkeypatch.setenv("HOSTILE_PID_FILE", str(pids))
    started = time.monotonic()
    assert main([*CERTIFY, "--engine-cmd", hostile("crash_holding_stdout"), "--rounds", "1",
                 "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "[ENGINE-ALIVE] crash" in out and "[ENGINE-ALIVE] hang" not in out
    assert time.monotonic() - started < 120
    for pid in (int(p) for p in pids.read_text().split()):
        with pytest.raises(OSError):
            for _ in range(40):  # a zombie or gone
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                    raise OSError
                time.sleep(0.05)


def test_a_flaky_engine_is_said_in_our_words() -> None:
    from hypothesis.errors import FlakyStrategyDefinition

    from gamecert.fuzz.search.rounds import _run_round

    def test() -> None:
        raise FlakyStrategyDefinition(
            "Inconsistent data generation! Data generation behaved differently between "
            "different runs. The second run stopped drawing earlier than the first run.")

    [finding] = _run_round(test, [])
    assert finding.kind == "flaky" and finding.rules == ["ENGINE-AGREES"]
    assert "Inconsistent data generation" not in finding.message
    assert "did not behave the same" in finding.message and "ended sooner" in finding.message


def test_a_reading_none_explains_is_a_sentence() -> None:
    from gamecert.fuzz.findings.triage import Reading
    from gamecert.fuzz.reports.certificate import reading_text

    assert reading_text(Reading("FLIT-END-TIMING", None)) == \
        "the engine follows none of the known readings of FLIT-END-TIMING"
    assert reading_text(Reading("FLIT-END-TIMING", "after-move")) == \
        "the engine follows FLIT-END-TIMING=after-move"


def test_the_progress_names_the_rules_found() -> None:
    import io

    from gamecert.fuzz.cli.progress import LiveProgress, PlainProgress
    from gamecert.fuzz.search.campaign import Progress

    p = Progress(3.0, 20.0, 2, 40, 300, 3, ("FLIT-FREEZE",),
                 ("ENGINE-ALIVE", "FLIT-WINNER", "FLIT-WINNER"))
    plain = io.StringIO()
    show = PlainProgress(plain, every=0)
    show(p)
    show.ticker.close()
    assert "findings 3 (ENGINE-ALIVE, FLIT-WINNER x2)" in plain.getvalue()
    live = io.StringIO()
    panel = LiveProgress(live)
    panel(p)
    panel.close()
    assert "findings so far: 3: ENGINE-ALIVE, FLIT-WINNER x2" in live.getvalue()


# --- item 14: a busy machine ---------------------------------------------------------------

def test_load_figures() -> None:
    from gamecert.fuzz.search.load_meter import Load

    idle, busy = Load(10.0, 0.5), Load(5.0, 15.0)
    assert not idle.notable and idle.slowdown == pytest.approx(1.05)
    assert busy.notable and busy.share == 0.75 and busy.slowdown == pytest.approx(4.0)
    assert busy.as_json() == {"cpu_s": 5.0, "wait_s": 15.0, "share": 0.75, "slowdown": 4.0}


def test_a_busy_machine_is_said_in_the_verdict() -> None:
    """Three CPU hogs a core beside a campaign: the certificate says the rounds ran slower
    than the engine allows, and by how much; an INCOMPLETE verdict names the budget that
    gives the rounds an idle machine's time."""
    from dataclasses import replace

    from gamecert.fuzz.engines.recipes import object_recipe
    from gamecert.fuzz.reports.certificate import render_load, rule_rows, summary
    from gamecert.fuzz.search.campaign import run_campaign
    from gamecert.fuzz.search.parallel import default_jobs

    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(3 * default_jobs())]
    try:
        result = run_campaign("flit", object_recipe("flit", "reference"), budget=4, jobs=1)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    load = result.load
    assert load is not None and load.cpu_s > 0
    assert load.share > 0.4, load  # one runnable campaign among 3 x cores hogs: about 3/4
    said = render_load(result)
    assert f"ran {load.slowdown:.1f} times slower than the engine allows" in said
    assert "of the 4 s budget went to the machine's other work" in said
    incomplete = replace(result, min_exercised=10**6)
    assert incomplete.status == "incomplete"
    assert f"--budget {int(-(-4 * load.slowdown // 1))}" in summary(incomplete,
                                                                  rule_rows(incomplete))
