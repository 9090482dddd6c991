"""A process that runs campaign after campaign (the pytest plugin, a Dask worker, a test
session) does not keep what an ended campaign or round used: its players, engines and
locksteps with their traces. Hypothesis keeps every state machine class it has run for the
life of the process, so a class that reached a round's objects kept them all."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest

from gamecert.fuzz.engines.recipes import engine_recipe
from gamecert.fuzz.search import rounds
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.step.lockstep import Lockstep


def _watch(monkeypatch: pytest.MonkeyPatch, cls: type, made: weakref.WeakSet[Any]) -> None:
    """Every instance of `cls` made from now on goes into `made` (weakly)."""
    init = cls.__init__

    def spy(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.add(self)

    monkeypatch.setattr(cls, "__init__", spy)


def test_an_ended_campaign_leaves_nothing_of_its_rounds_alive(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    players: weakref.WeakSet[Any] = weakref.WeakSet()
    locksteps: weakref.WeakSet[Any] = weakref.WeakSet()
    _watch(monkeypatch, rounds.RoundPlayer, players)
    _watch(monkeypatch, Lockstep, locksteps)
    for _ in range(2):
        result = run_campaign("flit", engine_recipe("flit", engine="reference"), rounds=2,
                              seed=0, examples_per_round=3, storage=tmp_path / "h")
        assert result.coverage.steps > 0
    del result
    gc.collect()
    assert len(players) == 0, "a round player outlived its campaign"
    assert len(locksteps) == 0, "a lockstep (and its trace) outlived its campaign"


def test_one_machine_class_serves_all_of_a_players_rounds(tmp_path: Path) -> None:
    """What Hypothesis keeps per class grows by one class a campaign, not one a round."""
    made: list[type] = []
    real = rounds.machine_class

    def counting(*args: Any, **kwargs: Any) -> type:
        cls = real(*args, **kwargs)
        made.append(cls)
        return cls

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rounds, "machine_class", counting)
        run_campaign("flit", engine_recipe("flit", engine="reference"), rounds=3, seed=0,
                     examples_per_round=2, storage=tmp_path / "h")
    assert len(made) == 1
