"""The Node.js adapter kit (examples/adapters/node-kit) run for real: an adapter written with
it around the JavaScript Flit engine, drawing for itself, played in lockstep with the
reference over the wire, then certified in a short campaign."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.adapters.check import look_at
from gamecert.fuzz.engines import Refused, SubprocessEngine

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "adapters" / "node-kit" / "flit-follow.js"


def require_node() -> str:
    """The `node` executable; without it the test fails (it is not skipped)."""
    path = shutil.which("node")
    if path is None:
        pytest.fail("Node.js is required for the Node adapter kit tests, but `node` is not "
                    "on PATH")
    return path


def engine() -> SubprocessEngine:
    sub = SubprocessEngine([require_node(), str(ADAPTER)], timeout=20)
    sub.start()
    return sub


def test_the_node_kit_speaks_the_minimum_and_reports_its_draws() -> None:
    eng = engine()
    try:
        assert eng.hello()["capabilities"] == []  # it passes the engine's own events on
        state = eng.new_game(None, 11)
        draws = [e["chance"] for e in eng.start_events if "chance" in e]
        assert len(draws) == 8 and all(d["type"] == "setup" for d in draws)
        assert eng.new_game(None, 11) == state  # seeded: the same set-up again
        with pytest.raises(Refused) as refused:
            eng.legal()
        assert refused.value.kind == "bad-request"
        with pytest.raises(Refused) as refused:
            eng.apply({"type": "move", "from": [0, 0], "to": [31, 31]})
        assert refused.value.kind == "illegal"
        assert eng.observe() == state
    finally:
        eng.close()


def test_the_node_adapter_follows_the_reference() -> None:
    eng = engine()
    try:
        look = look_at(eng, None, seed=2, steps=40, game="flit")
    finally:
        eng.close()
    assert look.departure is None, look.departure
    assert look.steps == 40 and look.draws >= 8


def test_the_node_adapter_certifies_with_the_minimum_capabilities(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gamecert", "certify", "flit", "--engine-cmd",
         f"{require_node()} {ADAPTER}", "--rounds", "2", "--quiet", "--report", str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert "0 violated" in out.stdout, out.stdout[-2000:] + out.stderr[-2000:]
    assert "capabilities: the minimum" in out.stdout
    assert "FLIT-SETUP-AVAILABLE" in out.stdout
