"""`gamecert prove carcassonne`: z3's checks on the engine's own code where it runs in this
process, and z3's tie positions, U-turns and crafted positions played on the engine beside
the reference.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from gamecert.fuzz.games.carcassonne.play import _uturns
from gamecert.fuzz.games.carcassonne.starts import pools
from gamecert.oracles.carcassonne.board import deck_sets
from gamecert.oracles.carcassonne.z3_checks import tie_positions
from gamecert.reference_engine.carcassonne.engine import Carcassonne
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines.engine import Engine


GAME = Carcassonne()
JSON = Any


@cache
def proof_positions(profile: Profile) -> list[tuple[str, JSON]]:
    """A few place steps for the placement-set check: river and land, crafted and played."""
    kinds = pools(profile).by_kind
    out: list[tuple[str, JSON]] = []
    for kind, count in (("near-uturn", 2), ("river", 1), ("closing", 2), ("late", 1),
                        ("loop", 1)):
        states = [s for s in kinds.get(kind, []) if s["step"] == "place"]
        if kind == "near-uturn":  # the ones where a U-turn is in reach
            states = [s for s in states if _uturns(GAME.load(profile, s))]
        out += [(f"{kind} {i + 1}", s) for i, s in enumerate(states[:count])]
    return out


def prove_carcassonne(engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
    """CARC-SCORE-MAJORITY proved on the engine's own award code (in-process), then the z3
    placement and river checks on the engine's legal lists, and the z3 tie positions played
    beside the reference."""
    from gamecert.fuzz.engines.engine import EngineFault, Refused
    from gamecert.fuzz.games.proving import disagreements, engine_code
    from gamecert.oracles import Violation
    from gamecert.oracles.carcassonne.z3_checks import (
        check_legal_placements,
        check_river,
        prove_majority,
    )

    ok, lines = True, []
    code = engine_code(engine)
    if code is None:
        ok = False
        lines.append("CARC-SCORE-MAJORITY symbolic proof: NOT RUN: the engine runs in another "
                     "process; give it in-process (--engine package.module:attr) to prove it")
    elif not callable(getattr(code, "award_points", None)):
        ok = False
        lines.append("CARC-SCORE-MAJORITY symbolic proof: NOT POSSIBLE: the engine has no "
                     "award_points(counts, points, max2, ite) written with operators only")
    else:
        try:
            result = prove_majority(code, profile)
        except Exception as exc:  # the engine's award code is not symbolic
            ok = False
            lines.append(f"CARC-SCORE-MAJORITY symbolic proof: NOT POSSIBLE: "
                         f"{type(exc).__name__}: {exc}")
        else:
            ok &= result.proved
            lines.append(f"CARC-SCORE-MAJORITY symbolic proof: "
                         f"{'PROVED' if result.proved else 'FAILED'}: {result.message}")
        if profile.param("CARC-FARM-FIELDS", "enabled"):
            try:
                farm = prove_majority(code, profile, hook="farm_award")
            except Exception as exc:  # no symbolic farm_award
                ok = False
                lines.append(f"CARC-FARM-MAJORITY symbolic proof: NOT POSSIBLE: "
                             f"{type(exc).__name__}: {exc}")
            else:
                ok &= farm.proved
                lines.append(f"CARC-FARM-MAJORITY symbolic proof: "
                             f"{'PROVED' if farm.proved else 'FAILED'}: {farm.message}")
        if "tower" in deck_sets(profile):
            from gamecert.oracles.carcassonne.tower_z3 import prove_tower
            try:
                proofs = prove_tower(code, profile)
            except Exception as exc:  # the engine's step code is not symbolic
                ok = False
                lines.append(f"The Tower conservation proofs: NOT POSSIBLE: "
                             f"{type(exc).__name__}: {exc}")
            else:
                for proof in proofs:
                    ok &= proof.proved
                    lines.append(f"{proof.rule} conservation proof: "
                                 f"{'PROVED' if proof.proved else 'FAILED'}: {proof.message}")
    bad: list[str] = []
    positions = proof_positions(profile)
    river_checked = 0
    for label, state in positions:
        try:
            engine.new_game(profile, None)  # the engine learns a season's rules before a load
            engine.load_state(state)
            legal = engine.legal()
        except (Refused, EngineFault) as exc:
            bad.append(f"  {label}: the engine cannot list its moves: {exc}")
            continue
        actions = legal.get("actions") if isinstance(legal, dict) else None
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            bad.append(f"  {label}: the legal reply has no list of actions")
            continue
        verdict = check_legal_placements(state, actions, profile)
        if isinstance(verdict, Violation):
            bad.append(f"  {label}: CARC-PLACE-MATCH / CARC-HAND-NOFIT: {verdict}")
        if state["phase"] == "river":
            for action in actions:
                river_checked += 1
                verdict = check_river(state, action, profile)
                if isinstance(verdict, Violation):
                    bad.append(f"  {label}: CARC-RIVER-NO-UTURN: {verdict}")
    ok &= not bad
    lines.append(f"placement sets against z3 (CARC-PLACE-ADJACENT, CARC-PLACE-MATCH, "
                 f"CARC-HAND-NOFIT): {len(positions)} positions; river placements against the "
                 f"z3 river model (CARC-RIVER-NO-UTURN {profile.variant('CARC-RIVER-NO-UTURN')}"
                 f"): {river_checked}; {len(bad)} disagree")
    lines.extend(bad[:10])
    ties = tie_positions(profile, limit=8)
    # each tie position is one road short of closing: the placement that closes it
    wrong = disagreements("carcassonne", engine, profile, ties, lambda state: [
        {"type": "place", "tile": "W", "at": [len(state["meeples"]) + 1, -1], "rotation": 1}])
    ok &= not wrong
    lines.append(f"CARC-SCORE-MAJORITY tie positions from z3 (exact ties on one road): "
                 f"{len(ties)} played, {len(wrong)} disagree with the rule")
    lines.extend(wrong[:10])
    return ok, lines
