"""`gamecert prove flit`: z3's proof of the catch-up rule on the engine's own code (in this
process only), then z3's boundary positions of that rule played on the engine beside the
reference.
"""

from __future__ import annotations

from gamecert.fuzz.engines.engine import Engine
from gamecert.fuzz.games.proving import disagreements, engine_code
from gamecert.spec import Profile


def prove_flit(engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
    from gamecert.oracles.flit.proofs import NotSymbolic, boundary_positions, prove_catchup

    ok, lines = True, []
    code = engine_code(engine)
    if code is None:
        ok = False
        lines.append("FLIT-END-CATCHUP symbolic proof: NOT RUN: the engine runs in another "
                     "process; give it in-process (--engine package.module:attr) to prove it")
    else:
        try:
            result = prove_catchup(code, profile)
        except NotSymbolic as exc:
            ok = False
            lines.append(f"FLIT-END-CATCHUP symbolic proof: NOT POSSIBLE: {exc}")
        else:
            ok &= result.proved
            lines.append(f"FLIT-END-CATCHUP symbolic proof: "
                         f"{'PROVED' if result.proved else 'FAILED'}: {result.message}")
    positions = boundary_positions(profile)
    # one turn that changes no count: a no move, then a neutral step that adds nothing
    bad = disagreements("flit", engine, profile, positions, lambda state: [
        {"type": "pass"}, {"type": "neutral", "at": [0, 0], "hit": False}])
    ok &= not bad
    lines.append(f"FLIT-END-CATCHUP boundary positions from z3 (D = M and D = M + 1 across P): "
                 f"{len(positions)} played, {len(bad)} disagree with the rule")
    lines.extend(bad[:10])
    return ok, lines
