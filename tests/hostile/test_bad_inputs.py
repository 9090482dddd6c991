"""Bad inputs: options, engine names, traces, catalogues and report folders that are wrong.
Each is the user's mistake: exit 2 (or 3 where the engine named cannot be started) with a
message that names what is wrong, never an engine verdict, never a traceback."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from gamecert import spec
from gamecert.fuzz.cli.main import main

CERTIFY = ["certify", "flit", "--quiet", "--rounds", "1"]

OPTIONS = [
    (["certify", "flit", "--budget", "0"], 2, "--budget"),
    (["certify", "flit", "--budget", "-5"], 2, "--budget"),
    (["certify", "flit", "--budget", "nan"], 2, "--budget"),
    (["certify", "flit", "--budget", "inf"], 2, "--budget"),
    ([*CERTIFY, "--timeout", "-1"], 2, "--timeout"),
    ([*CERTIFY, "--timeout", "0"], 2, "--timeout"),
    ([*CERTIFY, "--timeout", "soon"], 2, "--timeout"),
    (["certify", "flit", "--rounds", "0"], 2, "--rounds"),
    (["certify", "flit", "--rounds", "2.5"], 2, "--rounds"),
    ([*CERTIFY, "--seed", "-1"], 2, "--seed"),
    ([*CERTIFY, "--seed", "abc"], 2, "--seed"),
    ([*CERTIFY, "--engine-cmd", ""], 2, "--engine-cmd: the engine command is empty"),
    ([*CERTIFY, "--engine-cmd", "   "], 2, "--engine-cmd: the engine command is empty"),
    ([*CERTIFY, "--engine-cmd", "'unterminated"], 2, "cannot parse the engine command"),
    ([*CERTIFY, "--engine", ""], 2, "--engine is empty"),
    (["certify", "chess"], 2, "unknown game 'chess'"),
    ([*CERTIFY, "--profile", "no-such", "--engine", "reference"], 2, "no-such"),
    (["fuzz", "flit"], 2, "invalid choice: 'fuzz'"),
    ([*CERTIFY, "--engine", "no/such/file.py:ENGINE"], 3, "no such Python file"),
    ([*CERTIFY, "--engine-cmd", "no-such-engine-anywhere"], 3, "not found"),
]


@pytest.mark.parametrize("argv, code, says", OPTIONS, ids=[" ".join(o[0][2:]) or o[0][0]
                                                           for o in OPTIONS])
def test_bad_option(argv: list[str], code: int, says: str,
                    capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(argv) == code
    out, err = capsys.readouterr()
    assert says in out + err, out + err
    assert "Traceback" not in out + err
    assert "CERTIFIED" not in out


def _exit(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        return int(exc.code or 0)


def _trace() -> dict[str, object]:
    return {"format": "gamecert-trace/1", "game": "flit", "profile": "standard", "seed": 0,
            "start": {"kind": "new_game"}, "ops": [{"op": "legal"}, {"op": "observe"}]}


def _write(tmp: Path, text: str) -> str:
    path = tmp / "trace.json"
    path.write_text(text)
    return str(path)


TRACES: list[tuple[str, Callable[[Path], str], str]] = [
    ("not JSON", lambda t: _write(t, "{ this is not json"), "not valid JSON"),
    ("truncated", lambda t: _write(t, json.dumps(_trace())[:40]), "not valid JSON"),
    ("empty file", lambda t: _write(t, ""), "not valid JSON"),
    ("a list", lambda t: _write(t, "[1, 2]"), "not a gamecert trace"),
    ("another game", lambda t: _write(t, json.dumps({**_trace(), "game": "chess"})),
     "unknown game 'chess'"),
    ("unknown op", lambda t: _write(t, json.dumps({**_trace(), "ops": [{"op": "jump"}]})),
     "not a gamecert trace"),
    ("missing file", lambda t: str(t / "nowhere.json"), "nowhere.json"),
    ("a folder", lambda t: str(t), "cannot read"),
]


@pytest.mark.parametrize("make, says", [(m, s) for _, m, s in TRACES],
                         ids=[n for n, _, _ in TRACES])
def test_bad_trace(make: Callable[[Path], str], says: str, tmp_path: Path,
                   capsys: pytest.CaptureFixture[str]) -> None:
    path = make(tmp_path)
    assert main(["replay", path, "--engine", "reference"]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_trace_of_another_game_on_this_games_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Bot Wars trace replayed on a Flit engine: the engine is the wrong one (exit 3)."""
    path = _write(tmp_path, json.dumps({**_trace(), "game": "botwars", "ops": []}))
    flit = f"{sys.executable} -m gamecert serve flit"
    assert main(["replay", path, "--engine-cmd", flit]) == 3
    out = capsys.readouterr().out
    assert "plays 'flit', not 'botwars'" in out


def _catalogue(tmp: Path, change: Callable[[dict[str, object]], None]) -> str:
    doc = json.loads(resources.files(spec).joinpath("flit.json").read_text("utf-8"))
    change(doc)
    path = tmp / "flit.json"
    path.write_text(json.dumps(doc))
    return str(path)


CATALOGUES: list[tuple[str, Callable[[dict[str, object]], None]]] = [
    ("no rules", lambda d: d.pop("rules")),
    ("default profile missing", lambda d: d.update(default_profile="nope")),
    ("profile with an unknown variant",
     lambda d: d["profiles"][1]["variants"].update({"FLIT-NEUTRAL-ADD": "nope"})),  # type: ignore[index]
    ("profile for an unknown rule",
     lambda d: d["profiles"][1]["variants"].update({"NO-SUCH-RULE": "x"})),  # type: ignore[index]
    ("rules not a list", lambda d: d.update(rules={"a": 1})),
]


@pytest.mark.parametrize("change", [c for _, c in CATALOGUES], ids=[n for n, _ in CATALOGUES])
def test_broken_catalogue_or_profile(change: Callable[[dict[str, object]], None],
                                     tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _catalogue(tmp_path, change)
    assert main(["rules", "flit", "--catalogue", path]) == 2
    err = capsys.readouterr().err
    assert path in err and "Traceback" not in err


def test_catalogue_that_is_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b"\xff\xfe not text")
    assert main(["rules", "flit", "--catalogue", str(path)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_unwritable_report_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A report folder that cannot be created (its parent is a file: not even root can)."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert main([*CERTIFY, "--engine", "reference", "--report", str(afile / "out")]) == 2
    out, err = capsys.readouterr()
    assert "--report" in err and "cannot create" in err
    assert "Traceback" not in err and "CERTIFIED" not in out


def test_report_folder_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "report"
    afile.write_text("x")
    assert main([*CERTIFY, "--engine", "reference", "--report", str(afile)]) == 2
    assert "is a file" in capsys.readouterr().err


# Baselines that would accept nothing, silently (issue 29, item 6): each names the file and
# the entry, exit 2, before any engine starts.
BASELINES: list[tuple[str, dict[str, object], str]] = [
    ("unknown rule", {"accepted": [{"rule": "FLIT-NO-SUCH-RULE", "reason": "typo"}]},
     "accepted entry 1 (rule 'FLIT-NO-SUCH-RULE'): no such rule in flit's catalogue"),
    ("another game's rule", {"accepted": [{"rule": "BOTWARS-SPAWN", "reason": "wrong file"}]},
     "a botwars rule, not a flit one"),
    ("unknown reading", {"accepted": [{"rule": "FLIT-END-TIMING", "reading": "sometimes",
                                       "reason": "x"}]},
     "'sometimes' is not one of its readings"),
    ("reading of a rule without readings",
     {"accepted": [{"rule": "FLIT-BOARD-TORUS", "reading": "loose", "reason": "x"}]},
     "the rule has no readings"),
    ("another game's baseline", {"game": "botwars", "accepted": []},
     "a baseline for 'botwars', not for this 'flit' run"),
]


@pytest.mark.parametrize("doc, says", [(d, s) for _, d, s in BASELINES],
                         ids=[n for n, _, _ in BASELINES])
def test_baseline_checked_against_the_catalogue(doc: dict[str, object], says: str,
                                                tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from gamecert.spec import load_catalogue

    assert "BOTWARS-SPAWN" in load_catalogue("botwars").rule_ids  # the case tests something
    path = tmp_path / "accepted.json"
    path.write_text(json.dumps({"format": "gamecert-baseline/1", **doc}))
    assert main([*CERTIFY, "--engine", "reference", "--baseline", str(path)]) == 2
    out, err = capsys.readouterr()
    assert str(path) in err and says in err, err
    assert "Traceback" not in err and "CERTIFIED" not in out


def test_a_baseline_of_this_games_rules_and_readings_is_taken(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "accepted.toml"
    path.write_text('game = "flit"\n[[accepted]]\nrule = "FLIT-END-TIMING"\n'
                    'reading = "after-move"\nreason = "our league"\n'
                    '[[accepted]]\nrule = "ENGINE-ALIVE"\nreason = "a known crash"\n')
    assert main([*CERTIFY, "--engine", "reference", "--baseline", str(path)]) in (0, 4)
    assert "baseline" in capsys.readouterr().out
