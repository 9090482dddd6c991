"""Traces where the reference was wrongly charged under syncs-2025-tower-placed (found by
`gamecert certify carcassonne --profile syncs-2025-tower-placed --rounds 30 --seed 1`):
they must replay clean on the reference (the mutants of both rules are still caught:
tests/carcassonne/test_mutants_*.py).

- placed-two-fields-same-tiles: the game ends at 50 points with two fields on the same two
  tiles holding the same farmers, one bordering a completed town and one not; the
  CARC-FARM-SCORE oracle must match each farm-scored event to the field it names.
- placed-capture-on-last-step: the last action is a floor capturing the only meeple of a
  monastery; the monastery holds no meeple at the end, so CARC-SCORE-INCOMPLETE must not
  ask for its final scoring.
- season-farmer-captured-on-last-step (a random season of tower-placed, found by
  benchmarks/season_property.py): the game's last action is a floor capturing a farmer;
  CARC-FARM-SCORE must not count that farmer's field among those scored at the end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.findings.trace import replay
from gamecert.reference_engine import reference_session

TRACES = Path(__file__).parent / "traces"


@pytest.mark.parametrize("name", ["placed-two-fields-same-tiles",
                                  "placed-capture-on-last-step"])
def test_the_reference_replays_clean(name: str) -> None:
    doc = json.loads((TRACES / f"{name}.json").read_text())
    assert doc["profile"] == "syncs-2025-tower-placed"
    result = replay(doc, InProcessEngine(reference_session("carcassonne")))
    assert result.finding is None, result.finding
    assert not result.reproduced


def test_a_farmer_captured_on_the_last_step_is_not_scored() -> None:
    doc = json.loads((TRACES / "season-farmer-captured-on-last-step.json").read_text())
    assert doc["profile_doc"]["extends"] == "syncs-2025-tower-placed"
    assert doc["ops"][-1]["action"]["capture"]["on"] == "top1"  # a field's half-edge
    result = replay(doc, InProcessEngine(reference_session("carcassonne")))
    assert result.finding is None, result.finding
    assert not result.reproduced
