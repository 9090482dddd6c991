"""Shared test set-up: Hypothesis profiles (ci when CI is set) and engine helpers."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from examples.engines import load, module_of
from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.search import profiles
from gamecert.reference_engine.contract import Session

PROFILE = profiles.load()


def pytest_report_header() -> str:
    return f"hypothesis profile: {PROFILE}"


def mutant_engine(game: str, name: str, mode: str) -> Engine:
    """A mutant from examples/engines/<game>/<area>/<name>.py, in-process or as a subprocess."""

    module = load(game, name)
    if mode == "inproc":
        return InProcessEngine(Session(module.ENGINE(), name=name))
    engine = SubprocessEngine([sys.executable, "-m", module_of(game, name)])
    engine.start()
    return engine


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory,
              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own cache folder: a campaign without a report folder keeps its example
    database in the user's cache, and a test must not start from what the developer's
    earlier runs, or the tests before it, saved there (the same seed would play otherwise)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def engines() -> Iterator[list[Any]]:
    """Engines opened by a test, closed after it whatever happens."""
    opened: list[Any] = []
    yield opened
    for engine in opened:
        engine.close()
