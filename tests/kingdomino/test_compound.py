"""Kingdomino's compound mutants (examples/engines/kingdomino/compound_*.py): three departures
at once, behind `bare:` (the minimum capabilities, their own draws, no events), as real
engines are. A campaign finds all three, each as its own finding naming its own rule, and
charges nothing to a rule the engine follows; every finding's trace replays alone, on a fresh
engine, to the same finding.

Rounds, not seconds, so the run is the same everywhere; the issue's figure (120 s at two
seeds) is measured with `gamecert certify` (see the report).
"""

from __future__ import annotations

import pytest

from examples.engines import engine_spec, load
from examples.engines.kingdomino import COMPOUNDS
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import run_campaign

ROUNDS = {"compound_rotated_start": 5, "compound_wide_kingdom": 4}


def test_each_compound_names_three_rules_its_module_states() -> None:
    assert len(COMPOUNDS) >= 2
    for name, rules in COMPOUNDS:
        module = load("kingdomino", name)
        assert tuple(module.RULES) == tuple(rules) and len(set(rules)) == 3
        assert all(rule in (module.__doc__ or "") for rule in rules)


@pytest.mark.parametrize(("name", "rules"), COMPOUNDS, ids=[n for n, _ in COMPOUNDS])
def test_a_compound_mutant_has_its_three_departures_found_apart(
        name: str, rules: tuple[str, str, str]) -> None:
    module = load("kingdomino", name)
    recipe = object_recipe("kingdomino", engine_spec("kingdomino", name, "bare"))
    result = run_campaign("kingdomino", recipe, profile_id=module.PROFILE,
                          rounds=ROUNDS[name], seed=0)
    table = [(d.primary, d.key, d.count) for d in result.departures]
    print(f"\n{name}: " + "; ".join(f"{p} ({k}, seen {c})" for p, k, c in table))
    found = {d.primary for d in result.departures}
    assert found == set(rules), table  # all three, and no rule the engine follows
    # each departure its own cause: no cause holds two rules' departures
    keys = {d.key: d.primary for d in result.departures}
    assert len(keys) == len(result.departures)
    for dep in result.departures:
        assert dep.primary in rules and not dep.alternatives, (dep.primary, dep.message)
        doc = trace_document(dep.finding)
        engine = recipe.open()
        try:
            again = replay(doc, engine)
        finally:
            engine.close()
        assert again.reproduced, (dep.primary, again.finding)
