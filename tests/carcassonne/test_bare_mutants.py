"""Every public one-rule Carcassonne mutant behind `bare:` (minimum capabilities, its own
draws, no events): its findings name its own rule only. A mutant not caught in the short
campaign is fine when the certificate says which capability its rule needs (not checkable,
or checked in part). The table (mutant, rule expected, rules blamed) is printed."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from benchmarks.minimal_mutants import verdict
from examples.engines.carcassonne import MUTANTS
from gamecert.fuzz import campaign
from gamecert.fuzz.campaign import CampaignResult, run_campaign
from gamecert.fuzz.engines import object_recipe

ROUNDS = 1
# Mutants whose departure lies only in what an engine without events never sends: their
# rule's event part cannot be judged behind `bare:` (and the certificate does not yet say
# so: reported to the lead).
EVENTS_ONLY = {"event_wire_coords"}


def _bare(name: str) -> tuple[str, CampaignResult]:
    module = importlib.import_module(f"examples.engines.carcassonne.{name}")
    spec = f"bare:examples.engines.carcassonne.{name}:ENGINE"
    campaign.STOP.clear()
    try:
        result = run_campaign("carcassonne", object_recipe("carcassonne", spec), rounds=ROUNDS,
                              seed=0, profile_id=getattr(module, "PROFILE", None),
                              budget=None)
    finally:
        campaign.STOP.clear()
    return module.RULE, result


def test_every_public_mutant_behind_bare_is_blamed_on_its_own_rule() -> None:
    rows, wrong, silent = [], [], []
    for name in MUTANTS:
        rule, result = _bare(name)
        blamed = sorted({d.primary for d in result.departures})
        what, _ = verdict(result, rule)
        rows.append((name, rule, ", ".join(blamed) or f"- ({what})"))
        if set(blamed) - {rule}:
            wrong.append((name, rule, blamed, [d.message[:160] for d in result.departures]))
        elif not blamed and name not in EVENTS_ONLY and not (
                rule in result.not_checkable or rule in result.in_part):
            silent.append((name, what))  # not caught, and no capability named for it
    width = max(len(r[0]) for r in rows)
    print(f"\n{'mutant':<{width}}  {'rule expected':<24}  rules blamed")
    for name, rule, blamed_text in rows:
        print(f"{name:<{width}}  {rule:<24}  {blamed_text}")
    assert not wrong, wrong
    assert not silent, silent
