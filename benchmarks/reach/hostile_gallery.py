"""The hostile gallery, counted: every case run as a user runs it, and five figures.

    python benchmarks/reach/hostile_gallery.py [--only engines,inputs,traces,baselines,folders,
                                          signals,disk,busy] [--verbose]

Each case is one `gamecert` command in a process of its own (a user's shell, not the test
suite's process), with a mark of its own in its environment. For each, it checks:

* the verdict: the exit code the case must give (and, for engines, the words it must say);
* the report: where the case gives `--report DIR`, a `report.json` that matches its schema,
  a report.html and report.xml, and no half-written file (a hidden `.tmp`, an empty file);
* processes left: anything still running with the case's mark, a second after it ended;
* tracebacks: "Traceback" anywhere in what it printed.

It prints one line per case (with --verbose) and the totals, the figures
docs/reliability.md shows: cases tried, verdicts right, reports written (of those asked
for), processes left, tracebacks shown. The cases are the hostile tests' own lists
(tests/hostile), so the gallery and the tests cannot drift apart.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the tests' lists of cases

MARK = "GALLERY_CASE_MARK"


@dataclass
class Case:
    group: str
    name: str
    argv: list[str]  # gamecert's arguments
    codes: tuple[int, ...]  # the exit codes that are right
    says: list[str] = field(default_factory=list)  # words the output must hold
    report: bool = False  # --report DIR is given: a whole report must be there
    env: dict[str, str] = field(default_factory=dict)
    run: Callable[[Case, Path, dict[str, str]], tuple[int, str]] | None = None  # own driver


@dataclass
class Outcome:
    case: Case
    code: int
    verdict_right: bool
    report_written: bool | None  # None: no report asked for
    left: int
    tracebacks: int
    note: str = ""


def _marked(mark: str) -> list[int]:
    """Living processes carrying the case's mark."""
    found = []
    needle = f"{MARK}={mark}".encode()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                env = f.read().split(b"\0")
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        if needle in env and stat[stat.rfind(b")") + 2:].split()[0] != b"Z":
            found.append(int(entry.name))
    return found


def _gamecert(argv: list[str], env: dict[str, str], cwd: Path,
              timeout: float = 600) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "gamecert", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout,
                          errors="backslashreplace")
    return done.returncode, done.stdout + done.stderr


def _report_whole(folder: Path) -> tuple[bool, str]:
    from jsonschema import Draft202012Validator

    from gamecert.schemas import load_schema

    if not (folder / "report.json").is_file():
        return False, "no report.json"
    doc = json.loads((folder / "report.json").read_text("utf-8"))
    if list(Draft202012Validator(load_schema("report")).iter_errors(doc)):
        return False, "report.json does not match its schema"
    for name in ("report.xml", "report.html"):
        if not (folder / name).is_file() or not (folder / name).stat().st_size:
            return False, f"no {name}"
    half = [p.name for p in folder.rglob("*") if p.is_file() and (
        p.name.endswith(".tmp") or (p.stat().st_size == 0 and ".hypothesis" not in p.parts))]
    return (not half, f"half-written: {half}" if half else "")


def run_case(case: Case, work: Path) -> Outcome:
    mark = uuid.uuid4().hex
    folder = work / "case"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    env = {**os.environ, MARK: mark, "XDG_CACHE_HOME": str(work / "cache"), **case.env}
    argv = [a.replace("{DIR}", str(folder)) for a in case.argv]
    if case.run is not None:
        code, out = case.run(case, folder, env)
    else:
        code, out = _gamecert(argv, env, folder)
    missing = [w for w in case.says if w not in out]
    verdict = code in case.codes and not missing
    report: bool | None = None
    note = "" if verdict else f"exit {code}, expected {case.codes}; missing {missing}"
    if case.report:
        report, why = _report_whole(folder / "out")
        note = "; ".join(n for n in (note, why) if n)
    time.sleep(0.2)
    left = _marked(mark)
    for _ in range(10):
        if not left:
            break
        time.sleep(0.1)
        left = _marked(mark)
    for pid in left:  # not ours to leave: stop them, after counting them
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return Outcome(case, code, verdict, report, len(left), out.count("Traceback"), note)


def hostile(name: str, *args: str) -> str:
    from examples.engines import path_of

    return shlex.join([sys.executable, str(path_of("hostile", name)), "flit", *args])


def engine_cases() -> list[Case]:
    from examples.engines import path_of
    from tests.hostile.test_engines import GALLERY, codes

    cases = [Case("engines", name, ["certify", "flit", "--engine-cmd", hostile(name, *args),
                                    "--timeout", "1", "--rounds", "1", "--quiet",
                                    "--report", "{DIR}/out"], codes(code), says, report=True)
             for name, args, code, says in GALLERY]
    more = [("crash_nth_request", (), "2", (1,), ["[ENGINE-ALIVE] crash"]),
            ("lying_stateless", (), "2", (1,), ["[ENGINE-ALIVE] crash"]),
            ("nondeterministic", (), "3", (1,), []),
            ("flip_flop", ("1",), "2", (0, 1, 4), []),
            ("many_bugs", (), "10", (1,), [])]
    cases += [Case("engines", name, ["certify", "flit", "--engine-cmd", hostile(name, *args),
                                     "--rounds", rounds, "--quiet", "--report", "{DIR}/out"],
                   codes, says, report=True) for name, args, rounds, codes, says in more]
    raises = path_of("hostile", "raises")
    cases.append(Case("engines", "raises (in process)",
                      ["certify", "flit", "--engine", f"{raises}:ENGINE", "--rounds", "1",
                       "--quiet", "--report", "{DIR}/out"], (1,),
                      ["engine error: ZeroDivisionError"], report=True))
    cases.append(Case("engines", "raises (subprocess)",
                      ["certify", "flit", "--engine-cmd", f"{sys.executable} {raises}",
                       "--rounds", "1", "--quiet", "--report", "{DIR}/out"], (1,),
                      ["engine error: ZeroDivisionError"], report=True))
    cases += [Case("engines", f"deep_reply --jobs {j}",
                   ["certify", "flit", "--engine-cmd", hostile("deep_reply"), "--timeout", "1",
                    "--rounds", "1", "--jobs", j, "--quiet", "--report", "{DIR}/out"], (1,),
                   ["[ENGINE-ALIVE] garbage"], report=True) for j in ("1", "2")]
    return cases


def input_cases() -> list[Case]:
    from tests.hostile.test_bad_inputs import OPTIONS

    return [Case("command lines", " ".join(argv[2:]) or argv[0], list(argv), (code,), [says])
            for argv, code, says in OPTIONS]


def trace_cases() -> list[Case]:
    from tests.hostile.test_bad_inputs import TRACES

    def runner(make: Callable[[Path], str]) -> Callable[[Case, Path, dict[str, str]],
                                                        tuple[int, str]]:
        def run(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, str]:
            return _gamecert(["replay", make(folder), "--engine", "reference"], env, folder)
        return run

    return [Case("traces", name, [], (2,), [says], run=runner(make))
            for name, make, says in TRACES]


def baseline_cases() -> list[Case]:
    from tests.hostile.test_bad_inputs import BASELINES

    def runner(doc: dict[str, Any]) -> Callable[[Case, Path, dict[str, str]], tuple[int, str]]:
        def run(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, str]:
            path = folder / "accepted.json"
            path.write_text(json.dumps({"format": "gamecert-baseline/1", **doc}))
            return _gamecert(["certify", "flit", "--rounds", "1", "--quiet", "--engine",
                              "reference", "--baseline", str(path)], env, folder)
        return run

    return [Case("baselines", name, [], (2,), [says], run=runner(doc))
            for name, doc, says in BASELINES]


def folder_cases() -> list[Case]:
    def stale(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, str]:
        first = ["certify", "flit", "--engine-cmd", hostile("crash_mid_game"), "--timeout", "1",
                 "--rounds", "1", "--quiet", "--report", str(folder / "out")]
        _gamecert(first, env, folder)
        code, out = _gamecert(["certify", "flit", "--engine", "reference", "--rounds", "1",
                               "--quiet", "--report", str(folder / "out")], env, folder)
        if (folder / "out" / "traces").exists():
            out += "\nSTALE TRACES LEFT"
        return code, out

    def busy(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, str]:
        argv = [sys.executable, "-m", "gamecert", "certify", "flit", "--engine", "reference",
                "--budget", "60", "--quiet", "--report", str(folder / "out")]
        first = subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            for _ in range(600):
                if (folder / "out" / ".gamecert.lock").exists():
                    break
                time.sleep(0.1)
            return _gamecert(["certify", "flit", "--rounds", "1", "--quiet", "--report",
                              str(folder / "out")], env, folder)
        finally:
            os.killpg(first.pid, signal.SIGTERM)
            first.wait(timeout=60)

    return [Case("folders", "stale report folder", [], (0, 4),
                 ["held an earlier campaign's files; removed"], run=stale),
            Case("folders", "a folder in use", [], (2,),
                 ["being written by another gamecert campaign"], run=busy),
            Case("folders", "report under a file", ["certify", "flit", "--rounds", "1",
                                                     "--report", "/dev/null/out"], (2,),
                 ["cannot create the folder"])]


def signal_cases() -> list[Case]:
    def stop(how: int) -> Callable[[Case, Path, dict[str, str]], tuple[int, str]]:
        def run(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, str]:
            proc = subprocess.Popen(
                [sys.executable, "-m", "gamecert", "certify", "flit", "--budget", "120",
                 "--jobs", "2", "--quiet", "--report", str(folder / "out")], cwd=folder,
                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                start_new_session=True,
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not (folder / "out/checkpoint.json").exists():
                time.sleep(0.2)
            proc.send_signal(how)
            out, err = proc.communicate(timeout=120)
            code = proc.returncode
            if how == signal.SIGKILL:  # then resume it to the end
                rounds = json.loads((folder / "out/checkpoint.json").read_text())["rounds"]
                code, more = _gamecert(["certify", "flit", "--resume", str(folder / "out"),
                                        "--rounds", str(rounds + 1), "--quiet"], env, folder)
                out += more
            return code, out + err
        return run

    return [Case("signals", "Ctrl-C mid-run", [], (130,), ["INTERRUPTED"], report=True,
                 run=stop(signal.SIGINT)),
            Case("signals", "SIGTERM mid-run", [], (128 + signal.SIGTERM,), [],
                 run=stop(signal.SIGTERM)),
            Case("signals", "SIGKILL, then --resume", [], (0, 4), ["resuming after round"],
                 report=True, run=stop(signal.SIGKILL))]


def disk_cases() -> list[Case]:
    def full(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, str]:
        script = (f"mount -t tmpfs -o size=16k tmpfs {folder} && "
                  f"{shlex.join([sys.executable, '-m', 'gamecert'])} certify flit "
                  f"--engine-cmd {shlex.quote(hostile('crash_mid_game'))} --timeout 1 "
                  f"--rounds 2 --jobs 1 --quiet --db none --report {folder}/out; "
                  f"code=$?; find {folder} -name '*.tmp' | sed 's/^/LEFTOVER /'; exit $code")
        done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                              text=True, timeout=600, cwd=ROOT, env=env)
        out = done.stdout + done.stderr
        return (done.returncode if "LEFTOVER" not in out else -1), out

    if shutil.which("unshare") is None:
        return []
    return [Case("disk", "full disk (16 kB tmpfs)", [], (2,), ["No space left on device",
                                                                "RULES VIOLATED"], run=full)]


def busy_cases() -> list[Case]:
    def hogged(case: Case, folder: Path, env: dict[str, str]) -> tuple[int, str]:
        hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], env=env)
                for _ in range(3 * (os.cpu_count() or 1))]
        try:
            return _gamecert(["certify", "flit", "--budget", "20", "--quiet", "--report",
                              str(folder / "out")], env, folder)
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()

    return [Case("busy machine", "certify beside 3 CPU hogs a core", [], (0, 4),
                 ["busy machine:", "times slower than the engine allows"], report=True,
                 run=hogged)]


GROUPS = {"engines": engine_cases, "inputs": input_cases, "traces": trace_cases,
          "baselines": baseline_cases, "folders": folder_cases, "signals": signal_cases,
          "disk": disk_cases, "busy": busy_cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated groups: " + ", ".join(GROUPS))
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args()
    groups = args.only.split(",") if args.only else list(GROUPS)
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="gamecert-gallery-") as tmp:
        for group in groups:
            for case in GROUPS[group]():
                started = time.monotonic()
                got = run_case(case, Path(tmp))
                outcomes.append(got)
                if args.verbose or not got.verdict_right or got.left or got.tracebacks \
                        or got.report_written is False:
                    print(f"  [{case.group}] {case.name}: exit {got.code}"
                          f"{'' if got.verdict_right else ' WRONG'}"
                          f"{'' if got.report_written is not False else ' NO REPORT'}"
                          f"{f', {got.left} left running' if got.left else ''}"
                          f"{f', {got.tracebacks} tracebacks' if got.tracebacks else ''}"
                          f" ({time.monotonic() - started:.1f} s) {got.note}", flush=True)
    asked = [o for o in outcomes if o.report_written is not None]
    print(f"cases tried: {len(outcomes)} ("
          + ", ".join(f"{g}: {sum(o.case.group == c.group for o in outcomes)}"
                      for g, c in {o.case.group: o.case for o in outcomes}.items()) + ")")
    print(f"verdicts right: {sum(o.verdict_right for o in outcomes)} of {len(outcomes)}")
    print(f"reports written: {sum(bool(o.report_written) for o in asked)} of {len(asked)}")
    print(f"processes left: {sum(o.left for o in outcomes)}")
    print(f"tracebacks shown: {sum(o.tracebacks for o in outcomes)}")


if __name__ == "__main__":
    main()
