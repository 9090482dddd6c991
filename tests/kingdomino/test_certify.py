"""The reference certifies clean under every league profile, and a clean run exercises every
rule."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.reference_engine import reference_session
from gamecert.spec import load_catalogue


def test_reference_in_process_certifies_clean_and_exercises_every_rule() -> None:
    result = run_campaign("kingdomino", InProcessEngine(reference_session("kingdomino")),
                          rounds=6, seed=3)
    assert result.status == "certified", [str(f) for f in result.findings]
    applied = result.coverage.applied
    missing = [r for r in load_catalogue("kingdomino").rule_ids if applied[r] == 0]
    assert missing == []
    assert applied["ENGINE-LOAD-STATE"] > 0 and applied["ENGINE-STATE-ROUNDTRIP"] > 0


def test_reference_over_the_wire_certifies_clean(engines: list[Any]) -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "kingdomino"])
    engine.start()
    engines.append(engine)
    result = run_campaign("kingdomino", engine, rounds=2, seed=5)
    assert not result.departures and result.status in ("certified", "incomplete"), \
        [str(f) for f in result.findings]
    assert result.coverage.steps > 20


@pytest.mark.parametrize("profile", list(load_catalogue("kingdomino").profiles))
def test_every_profile_certifies_the_reference(profile: str) -> None:
    """Under each profile a short campaign certifies the reference: no finding and every
    applicable rule exercised (the 30 s `gamecert certify` figures are in the report), with
    one-rule probes tried on the placement rules."""
    # four rounds of 30 examples (a few seconds): most examples hold a seeded run to a
    # game's end, where stops and the one-rule probes are rarer per example than in
    # one-step play; a territory wide enough for an extent probe comes late in a game, and
    # under board-game-start a 2-player game ends with its first stopped king
    result = run_campaign("kingdomino", InProcessEngine(reference_session("kingdomino")),
                          profile_id=profile, rounds=4, seed=1, examples_per_round=30)
    assert result.status == "certified", (profile, result.unexercised,
                                          [str(f) for f in result.findings])
    probes = result.coverage.probes
    assert probes["KD-PLACE-EXTENT"] > 0 and probes["KD-PLACE-CONNECT"] > 0, dict(probes)
