"""The Node.js adapter kit (the npm package in package/adapters/node) run for real: its own tests,
installed with npm from the path gamecert gives, an adapter written with it around the
JavaScript Flit engine (examples/adapters/node-kit/flit-follow.js), drawing for itself,
played in lockstep with the reference over the wire, looked at with
`gamecert.adapters.check --engine-cmd`, then certified in a short campaign."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.adapters.check import look_at
from gamecert.fuzz.engines.engine import Refused
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "adapters" / "node-kit" / "flit-follow.js"
KIT = ROOT / "package" / "adapters" / "node"


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
         f"{require_node()} {ADAPTER}", "--rounds", "1", "--jobs", "1", "--quiet", "--report",
         str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert "0 violated" in out.stdout, out.stdout[-2000:] + out.stderr[-2000:]
    assert "capabilities: the minimum" in out.stdout
    assert "FLIT-SETUP-AVAILABLE" in out.stdout


def test_the_node_package_passes_its_own_tests() -> None:
    out = subprocess.run([require_node(), "--test", "test/kit.test.cjs", "test/wire.test.mjs"],
                         capture_output=True, text=True, timeout=120, cwd=KIT)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "# fail 0" in out.stdout and "# pass 0" not in out.stdout


def test_npm_installs_the_kit_from_the_path_gamecert_gives(tmp_path: Path) -> None:
    import json

    where = subprocess.run([sys.executable, "-m", "gamecert.adapters.node_path"],
                           capture_output=True, text=True, timeout=60, check=True)
    folder = Path(where.stdout.strip())
    # the kit as installed: the repository's own folder (an editable install) or the copy
    # in site-packages (pip install .), the same files either way
    import gamecert.adapters

    assert folder.samefile(Path(gamecert.adapters.__file__).parent / "node")
    for name in ("package.json", "index.cjs", "index.mjs"):
        assert (folder / name).read_bytes() == (KIT / name).read_bytes(), name
    package = json.loads((folder / "package.json").read_text())
    assert package["name"] == "gamecert-adapter" and package["version"]
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is required to install the Node kit, but `npm` is not on PATH")
    (tmp_path / "package.json").write_text('{"name": "my-adapter", "version": "1.0.0"}')
    subprocess.run([npm, "install", "--offline", "--no-audit", "--no-fund", str(folder)],
                   capture_output=True, text=True, timeout=120, cwd=tmp_path, check=True)
    node = require_node()
    cjs = subprocess.run([node, "-e", "const k = require('gamecert-adapter'); "
                          "console.log(k.VERSION, typeof k.serve, typeof k.Refusal)"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert cjs.stdout.split() == [package["version"], "function", "function"], cjs.stderr
    (tmp_path / "probe.mjs").write_text(
        "import { VERSION, serve, createServer } from 'gamecert-adapter';\n"
        "console.log(VERSION, typeof serve, typeof createServer);\n")
    esm = subprocess.run([node, "probe.mjs"], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path)
    assert esm.stdout.split() == [package["version"], "function", "function"], esm.stderr


def test_check_looks_at_an_engine_command_in_any_language() -> None:
    def check(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "gamecert.adapters.check", *args],
                              capture_output=True, text=True, timeout=120, cwd=ROOT)

    good = check("--engine-cmd", f"{require_node()} {ADAPTER}", "--games", "2", "--steps", "25")
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.startswith("flit: seed 0, 2 games")
    assert good.stdout.count("25 actions") == 2 and "no difference" in good.stdout
    # an adapter whose states are not ours: the first look says where they differ
    toy = KIT / "test" / "fixtures" / "counter-wire.cjs"
    bad = check("--engine-cmd", f"{require_node()} {toy}", "--games", "1")
    assert bad.returncode == 1 and "the states differ" in bad.stdout, bad.stdout + bad.stderr
    wrong = check("--engine-cmd", f"{require_node()} {ADAPTER}", "--game", "kingdomino")
    assert wrong.returncode == 2 and "plays 'flit', not 'kingdomino'" in wrong.stderr
    neither = check("--games", "1")
    assert neither.returncode == 2 and "name one engine" in neither.stderr


def test_a_node_adapter_gets_the_rules_of_the_harness_profile() -> None:
    from gamecert.spec import Profile, load_catalogue

    toy = KIT / "test" / "fixtures" / "counter-wire.mjs"  # its state shows rules.players
    sub = SubprocessEngine([require_node(), str(toy)], timeout=20, game="kingdomino")
    sub.start()
    try:
        assert sub.new_game("legend-3p", 1) == {"total": 1, "players": 3}
        base = load_catalogue("kingdomino").profile("legend-2p")
        season = Profile("kingdomino", "season-2p", "a season", dict(base.variants),
                         {r: dict(p) for r, p in base.parameters.items()}, base.off)
        assert sub.new_game(season, 2) == {"total": 2, "players": 2}
    finally:
        sub.close()
