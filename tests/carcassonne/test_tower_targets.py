"""The fuzz plugin's targets for The Tower (fuzz/games/carcassonne/targets.py): tall towers,
captures, prisoners held both ways, a prisoner's owner on exactly the ransom; reported only
for examples that did not start crafted, and first, so a round's optimiser reaches them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from gamecert.fuzz.games.carcassonne import PLUGIN
from gamecert.fuzz.games.carcassonne.starts import pools
from gamecert.fuzz.games.carcassonne.targets import _tower_targets

from .helpers import load, profile
from .test_tower import TOWER, position, ransom_state

PLAYED = {"kind": "new_game"}


def played(state: Any, ops: list[Any] | None = None) -> Any:
    return SimpleNamespace(start_spec=PLAYED, ref=state, ops=ops or [])


def test_tower_targets_measure_height_captures_and_prisoners() -> None:
    s = load(position())
    assert _tower_targets(s, []) == {"tallest tower": 1.0}
    floor = {"op": "apply", "action": {"type": "tower", "at": [1, -1],
                                       "capture": {"at": [3, -1], "on": "monastery"}}}
    bare = {"op": "apply", "action": {"type": "tower", "at": [1, -1]}}
    assert _tower_targets(s, [floor, bare, floor])["captures in one example"] == 2.0
    at_three = _tower_targets(ransom_state(3), [])
    assert at_three == {"captor-owner pairs holding prisoners": 1.0,
                        "prisoners held both ways": 0.0,
                        "a prisoner's owner on the ransom exactly": 0.0}
    assert _tower_targets(ransom_state(1), [])["a prisoner's owner on the ransom exactly"] \
        == -2.0
    mutual = ransom_state(3)._replace(prisoners=((0, 1, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0),
                                                 (0, 0, 0, 0)))
    assert _tower_targets(mutual, [])["prisoners held both ways"] == 2.0


def test_the_plugin_reports_tower_labels_first_and_never_for_crafted_starts() -> None:
    s = load(position())
    labels = list(PLUGIN.targets(played(s)))
    assert labels[0] == "tallest tower"
    start = pools(profile(TOWER)).by_kind["mutual"][0]
    crafted = SimpleNamespace(start_spec={"kind": "state", "state": start}, ref=load(start),
                              ops=[])
    assert PLUGIN.targets(crafted) == {}  # the start holds the case already


def test_tower_stage_bot_texts_include_the_extension_replies() -> None:
    """The certify probes of the referee (bot_output) send the extension's replies too, the
    on-request exchange and the enclosed field among them."""
    seen: set[str] = set()

    @settings(max_examples=600, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(PLUGIN.bot_texts(profile("syncs-2025-tower-placed")))
    def collect(text: str) -> None:
        for kind in ("move_exchange_prisoners", "move_pay_ransom", "move_tower_floor",
                     "move_tower_cap", "enclosed_field"):
            if kind in text:
                seen.add(kind)

    collect()
    assert seen == {"move_exchange_prisoners", "move_pay_ransom", "move_tower_floor",
                    "move_tower_cap", "enclosed_field"}


def test_reach_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """A smoke run of benchmarks/reach/carcassonne_tower_reach.py (one round; no figure asserted
    beyond the table's shape); the step counter it installs is removed afterwards."""
    import importlib.util
    from pathlib import Path

    from gamecert.fuzz.step.lockstep import Lockstep

    step = Lockstep.step
    path = (Path(__file__).resolve().parents[2] / "benchmarks" / "reach"
            / "carcassonne_tower_reach.py")
    spec = importlib.util.spec_from_file_location("carcassonne_tower_reach", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["--rounds", "1", "--seed", "0"])
    out = capsys.readouterr().out
    assert "--rounds 1 --seed 0: 1 rounds" in out
    for case in ("capture", "exchange", "ransom at exactly 3", "tower 3+ high", "farm tie"):
        assert case in out
    assert Lockstep.step is step
