"""Every public Kingdomino mutant behind `bare:` (the minimum capabilities, its own draws, no
events: a real engine's shape) is blamed on its own rule only (issue 27). A mutant not caught
in the short campaign breaks a part of its rule that needs a capability the engine lacks, and
the certificate says so (the rule is not checkable, or checked in part, with the capability
named).

One round each, seed 0: the same run everywhere. The table (mutant, rule expected, rules
blamed) is printed; `pytest -s` shows it.
"""

from __future__ import annotations

from examples.engines import engine_spec, load
from examples.engines.kingdomino import MUTANTS
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.search.campaign import run_campaign

ROUNDS = 1
CAPABILITIES = ("chance", "legal", "bot_output", "load_state")


def test_every_public_mutant_behind_bare_is_blamed_on_its_own_rule_only() -> None:
    rows, wrong = [], []
    for name in MUTANTS:
        module = load("kingdomino", name)
        recipe = object_recipe("kingdomino", engine_spec("kingdomino", name, "bare"))
        result = run_campaign("kingdomino", recipe, profile_id=module.PROFILE, rounds=ROUNDS,
                              seed=0)
        blamed = sorted({d.primary for d in result.departures})
        if module.RULE in blamed:
            note = "caught"
        else:
            need = result.not_checkable.get(module.RULE) or result.in_part.get(module.RULE, "")
            note = f"not caught: needs {need}" if need else "MISSED"
            if not any(cap in need for cap in CAPABILITIES):
                wrong.append(f"{name}: {module.RULE} missed and no capability named")
        rows.append((name, module.RULE, ", ".join(blamed) or "-", note))
        if set(blamed) - {module.RULE}:
            wrong.append(f"{name}: blamed {blamed}: " + "; ".join(
                d.message[:160] for d in result.departures if d.primary != module.RULE))
    print(f"\n{'mutant':26} {'rule expected':22} {'rules blamed':22} verdict")
    for name, rule, blamed_text, note in rows:
        print(f"{name:26} {rule:22} {blamed_text:22} {note}")
    assert not wrong, wrong
    assert sum(note == "caught" for *_, note in rows) >= len(MUTANTS) - 4
