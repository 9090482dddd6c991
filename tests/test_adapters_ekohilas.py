"""The ekohilas/kingdomino adapter without its engine: it must say what to set, never crash
with a traceback (the engine itself is third-party code, tested only on purpose by
examples/adapters/ekohilas_kingdomino/test_adapter.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamecert.fuzz.engines import EngineSpecError, object_recipe

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
