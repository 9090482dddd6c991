"""Hypothesis fuzzes the command line, the trace loader and the catalogue loader: whatever
it is given, gamecert answers with an exit code from 0 to 4 and a message, and no traceback
ever reaches the user."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gamecert import spec
from gamecert.fuzz.cli.main import main
from gamecert.reference_engine import reference_session

JSON = Any
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse: --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 2


@pytest.fixture
def in_tmp(tmp_path: Path) -> Iterator[Path]:
    """Run in an empty folder: a fuzzed --report must not write into the repository."""
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(here)


# --- the command line --------------------------------------------------------------------
NUMBERS = st.sampled_from(["0", "-1", "1", "2", "nan", "inf", "-inf", "1e309", "0x10", "",
                           "3.5", "9" * 30, "1_000", " 7 "]) | st.text(max_size=6)
SAFE_COMMANDS = ["", "   ", "'unterminated", "no-such-engine-anywhere",
                 f"{sys.executable} -c 'print(1)'", f"{sys.executable} -m gamecert serve flit"]
ENGINES = ["reference", "", "x:y", ":", "no/such/file.py:ENGINE", "gamecert.spec:games",
           "gamecert.reference_engine.flit:Flit"]
TOKEN = st.one_of(
    st.sampled_from(["rules", "certify", "replay", "flit", "botwars", "carcassonne", "chess",
                     "--quiet", "-q", "-v", "--verbose", "--help", "-h", "--version", "--",
                     "-", "--nope"]),
    st.tuples(st.sampled_from(["--budget", "--timeout", "--rounds", "--seed"]), NUMBERS),
    st.tuples(st.just("--engine-cmd"), st.sampled_from(SAFE_COMMANDS)),
    st.tuples(st.just("--engine"), st.sampled_from(ENGINES)),
    st.tuples(st.sampled_from(["--profile", "--report", "--catalogue"]),
              st.text(alphabet="abcdefgh-./", max_size=8)),
    st.text(max_size=8),
)


def _flatten(tokens: list[Any]) -> list[str]:
    out: list[str] = []
    for t in tokens:
        out.extend(t if isinstance(t, tuple) else [t])
    return out


@FUZZ
@given(tokens=st.lists(TOKEN, max_size=7))
def test_command_line_never_shows_a_traceback(
        tokens: list[Any], in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = _flatten(tokens)
    if "certify" in argv:  # keep a run that is valid short: one round
        argv += ["--rounds", "1"]
    code = run(argv)
    event(f"exit {code}")
    out, err = capsys.readouterr()
    assert 0 <= code <= 4, (argv, code, err)
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    if code == 0 and "certify" in argv:
        assert "CERTIFIED" in out and " 0 steps" not in out


# --- traces ------------------------------------------------------------------------------
def _valid_trace() -> dict[str, Any]:
    session = reference_session("flit")
    session.new_game("standard", 0)
    ops: list[JSON] = [{"op": "legal"}]
    for _ in range(6):
        legal = session.legal()
        choices = legal.get("actions") or [o["action"] for o in legal.get("outcomes", [])]
        session.apply(choices[0])
        ops.append({"op": "apply", "action": choices[0]})
    ops += [{"op": "observe"}, {"op": "resync"}, {"op": "reload"},
            {"op": "bot_output", "text": "1 2 3\n"}]
    return {"format": "gamecert-trace/1", "game": "flit", "profile": "standard", "seed": 0,
            "start": {"kind": "new_game"}, "ops": ops, "muted": ["FLIT-BOARD-SIZE"],
            "prelude": [{"start": {"kind": "new_game"}, "ops": ops[:3], "muted": []}],
            "finding": {"rules": ["ENGINE-ALIVE"], "kind": "crash", "message": "x"}}


VALID_TRACE = _valid_trace()
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8)


@st.composite
def mutated(draw: st.DrawFn, doc: JSON) -> JSON:
    """`doc` with one to three of its parts replaced, removed or wrapped."""
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 3))):
        doc = _mutate_once(draw, doc)
    return doc


def _mutate_once(draw: st.DrawFn, node: JSON) -> JSON:
    if isinstance(node, dict) and node and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(node)))
        if draw(st.integers(0, 4)) == 0:
            node.pop(key)
        else:
            node[key] = _mutate_once(draw, node[key])
        return node
    if isinstance(node, list) and node and draw(st.booleans()):
        i = draw(st.integers(0, len(node) - 1))
        node[i] = _mutate_once(draw, node[i])
        return node
    return draw(ANY_JSON)


@FUZZ
@given(doc=mutated(VALID_TRACE))
def test_trace_loader_never_shows_a_traceback(
        doc: JSON, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    code = run(["replay", str(path), "--engine", "reference"])
    event(f"exit {code}")
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (doc, code, err)
    assert "Traceback" not in out + err and "internal error" not in err, (doc, err)


@FUZZ
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_trace_bytes_never_show_a_traceback(
        raw: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_bytes(raw)
    code = run(["replay", str(path), "--engine", "reference"])
    err = capsys.readouterr().err
    assert code in (0, 1, 2) and "Traceback" not in err and "internal error" not in err


def test_the_valid_trace_replays_clean(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The fuzzers' starting point is itself a good trace (resync, muted rules, prelude)."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(VALID_TRACE))
    assert run(["replay", str(path), "--engine", "reference"]) == 0
    assert "clean" in capsys.readouterr().out


# --- catalogues --------------------------------------------------------------------------
FLIT = json.loads(resources.files(spec).joinpath("flit.json").read_text("utf-8"))


@FUZZ
@given(doc=mutated(FLIT))
def test_catalogue_loader_never_shows_a_traceback(
        doc: JSON, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    code = run(["rules", "flit", "--catalogue", str(path), "-v"])
    event(f"exit {code}")
    out, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    assert "Traceback" not in out + err and "internal error" not in err, err
