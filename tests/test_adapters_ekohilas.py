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
