"""The ekohilas/kingdomino adapter without its engine: it must say what to set, never crash
with a traceback (the engine itself is third-party code, tested only on purpose by
examples/adapters/ekohilas_kingdomino/test_adapter.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamecert.fuzz.engines.engine import EngineSpecError
from gamecert.fuzz.engines.recipes import object_recipe

ROOT = Path(__file__).resolve().parents[1]
SPEC = f"{ROOT / 'examples/adapters/ekohilas_kingdomino/adapter.py'}:Ekohilas"


def test_the_kingdomino_adapter_without_its_engine_says_what_to_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GAMECERT_EKOHILAS_PATH", raising=False)
    with pytest.raises(EngineSpecError, match="set GAMECERT_EKOHILAS_PATH"):
        object_recipe("kingdomino", SPEC)
    monkeypatch.setenv("GAMECERT_EKOHILAS_PATH", str(ROOT))  # a folder without the engine
    with pytest.raises(EngineSpecError, match="holds no ekohilas/kingdomino checkout"):
        object_recipe("kingdomino", SPEC)


def certify(cls: str, tmp: Path) -> str:
    import subprocess
    import sys
    adapter = ROOT / "examples" / "adapters" / "reference_native" / "adapter.py"
    out = subprocess.run(
        [sys.executable, "-m", "gamecert", "certify", "kingdomino", "--engine",
         f"{adapter}:{cls}", "--rounds", "2", "--quiet", "--report", str(tmp)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    return out.stdout + out.stderr


def test_an_engine_without_a_referee_declares_it_and_is_sent_no_stop(tmp_path: Path) -> None:
    # a console engine refuses the referee's `stop`: a finding, unless it declares no_referee
    console = certify("ConsoleKingdomino", tmp_path / "console")
    assert "RULES VIOLATED" in console and '"type":"stop"' in console, console[-2000:]
    declared = certify("NoRefereeKingdomino", tmp_path / "declared")
    assert "0 violated" in declared and "no_referee" in declared, declared[-2000:]
    import json
    report = json.loads((tmp_path / "declared" / "report.json").read_text())
    # the rules about the referee's own actions are not checkable, not "passed"
    needs = {e["rule"]: e["needs"] for e in report["not_checkable"]}
    assert "no_referee" in needs.get("KD-STOP", "") and "no_referee" in needs.get(
        "KD-PUT-INVALID", ""), needs


def test_longer_examples_are_asked_for_and_part_of_the_replay(tmp_path: Path) -> None:
    # an engine without load_state starts every example from a new game: `--steps` lets its
    # examples run to a game's end; the replay line and report.json carry it
    import json
    import subprocess
    import sys
    out = subprocess.run(
        [sys.executable, "-m", "gamecert", "certify", "kingdomino", "--rounds", "1",
         "--steps", "5", "--quiet", "--report", str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    text = out.stdout + out.stderr
    assert "--seed 0 --rounds 1 --steps 5" in text, text[-2000:]
    # (5 steps may still reach a game's end: one seeded run plays a whole game)
    assert "CERTIFIED" in text or "INCOMPLETE" in text, text[-2000:]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["replay"].endswith("--rounds 1 --steps 5")
    bad = subprocess.run([sys.executable, "-m", "gamecert", "certify", "kingdomino", "--steps",
                          "0"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert bad.returncode == 2 and "must be between 1 and" in bad.stderr
