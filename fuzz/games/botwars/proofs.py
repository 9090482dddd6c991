"""`gamecert prove botwars`: z3's proof of the engine's own battle predicate (in this
process only), then z3's battle model against the engine on crowded boards and on the
rules' battle pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import z3

from gamecert.fuzz.games.botwars.crafted import (
    PICTURES,
    _cfg,
    crowded,
    picture_dead,
    picture_grid,
    position,
)
from gamecert.fuzz.games.botwars.play import _moves_json
from gamecert.oracles.botwars.battle_z3 import KINDS, dead_set
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig, rules
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines.engine import Engine


JSON = Any


def prove_botwars(engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
    from gamecert.fuzz.engines.engine import EngineFault, Refused
    from gamecert.fuzz.games.proving import engine_code

    ok, lines = True, []
    cfg = _cfg(profile)
    every = profile.variant("BOTWARS-BATTLE") == "lose-every-fight"
    reading = profile.variant("BOTWARS-BATTLE")
    code = engine_code(engine)
    if code is None:
        ok = False
        lines.append("BOTWARS-BATTLE symbolic proof: NOT RUN: the engine runs in another "
                     "process; give it in-process (--engine package.module:attr) to prove "
                     "its battle predicate")
    else:
        pred = battle_predicate(code)
        if isinstance(pred, str):
            ok = False
            lines.append(f"BOTWARS-BATTLE symbolic proof: NOT POSSIBLE: {pred}")
        else:
            try:
                proved, message = prove_battle_predicate(pred, every)
            except (z3.Z3Exception, TypeError) as exc:
                ok = False
                lines.append(f"BOTWARS-BATTLE symbolic proof: NOT POSSIBLE: the predicate "
                             f"does not run on z3 terms: {exc}")
            else:
                ok &= proved
                lines.append(f"BOTWARS-BATTLE symbolic proof ({reading}): "
                             f"{'PROVED' if proved else 'FAILED'}: {message}")
    cases = battle_cases(profile)
    bad: list[str] = []
    for label, state, pictured in cases:
        want, unique = z3_dead(state["grid"], cfg, every)
        if not unique:
            bad.append(f"  {label}: the z3 model allows more than one dead set")
        if pictured is not None and want != pictured:
            bad.append(f"  {label}: the z3 model kills {sorted(want)}, the seed "
                       f"{sorted(pictured)}")
        try:
            engine.new_game(profile, None)  # a season's rules, before loading its state
            engine.load_state(state)
            after, _ = engine.apply(_moves_json([]))
            got = frozenset(i for i, c in enumerate(after["grid"]) if c in "xX")
        except (Refused, EngineFault) as exc:
            bad.append(f"  {label}: the engine failed: {exc}")
            continue
        except (KeyError, TypeError) as exc:
            bad.append(f"  {label}: the engine's state after the turn is unreadable: "
                       f"{exc!r}")
            continue
        if got != want:
            bad.append(f"  {label}: the engine kills {sorted(got)}, the z3 model "
                       f"{sorted(want)}")
    ok &= not bad
    lines.append(f"BOTWARS-BATTLE z3 model ({reading}) against the engine: "
                 f"{len(cases) - len(PICTURES)} crowded boards and the seed's "
                 f"{len(PICTURES)} pictures, {len(bad)} disagreements")
    lines.extend(bad[:10])
    return ok, lines


def z3_dead(grid: str, cfg: BotWarsConfig, every: bool) -> tuple[frozenset[int], bool]:
    """The z3 model's dead set on a post-move field (and whether it is the only one). On a
    wrapping field whose botlets keep off the edges the wrap changes nothing, and the
    bounded model needs only a window around them: far cheaper."""
    edge = cfg.wrap and any(c in "12" and (i // cfg.cols in (0, cfg.rows - 1)
                                            or i % cfg.cols in (0, cfg.cols - 1))
                            for i, c in enumerate(grid))
    return dead_set(grid, cfg.rows, cfg.cols, wrap=edge, every=every)


Predicate = Callable[[Sequence[tuple[Any, Any]], bool], Any]


def battle_predicate(code: Any) -> Predicate | str:
    """The operator-only battle predicate the engine's battle step runs, or why there is
    none to prove: an engine may offer `dies(neighbours, every)` itself; the reference's
    `battle_deaths` calls `reference_engine.botwars.rules.dies`."""
    own = getattr(code, "dies", None)
    if callable(own):
        pred: Predicate = own
        return pred
    if not isinstance(code, BotWars):
        return (f"{type(code).__name__} is not the reference's shape and offers no "
                "dies(neighbours, every)")
    step = type(code).battle_deaths
    if step is not BotWars.battle_deaths:
        return (f"{type(code).__name__}.battle_deaths ({step.__module__}) replaces the "
                "reference's battle step and does not go through an operator-only predicate")
    return rules.dies


def prove_battle_predicate(pred: Predicate, every: bool) -> tuple[bool, str]:
    """Does `pred`, fed z3 terms, equal the catalogue's wording of BOTWARS-BATTLE for every
    neighbourhood a square can have: 1 to 4 neighbours, each an enemy or not, each enemy
    facing 1 to 4 enemies? Raises TypeError or z3.Z3Exception if it is not symbolic."""
    for size in range(1, 5):
        is_enemy = [z3.Int(f"enemy_{i}") for i in range(size)]
        theirs = [z3.Int(f"faces_{i}") for i in range(size)]
        pairs = list(zip(is_enemy, theirs, strict=True))
        domain = [z3.And(s >= 0, s <= 1, c >= 1, c <= 4) for s, c in pairs]
        own = z3.Sum(is_enemy)
        if every:
            spec = z3.And(own >= 1, *[z3.Implies(s == 1, c <= own) for s, c in pairs])
        else:
            spec = z3.Or([z3.And(s == 1, c <= own) for s, c in pairs])
        theirs_rule = pred(pairs, every)
        if not z3.is_bool(theirs_rule):
            raise TypeError("the predicate did not give a z3 Boolean")
        solver = z3.Solver()
        solver.add(*domain, theirs_rule != spec)
        if solver.check() != z3.unsat:
            m = solver.model()
            seen = [(m.eval(s, model_completion=True), m.eval(c, model_completion=True))
                    for s, c in pairs]
            return False, (f"with {size} neighbours (is enemy, enemies it faces) = {seen} the "
                           f"engine says {m.eval(theirs_rule, model_completion=True)}, the "
                           f"rule says {m.eval(spec, model_completion=True)}")
    return True, "equals the rule for every neighbourhood of 1 to 4 squares"


def battle_cases(profile: Profile) -> list[tuple[str, JSON, frozenset[int] | None]]:
    """(label, a p2-to-move state whose empty turn fights the battles, the dead the seed's
    picture shows or None): the z3 crowded boards of every kind, and the four pictures."""
    cfg = _cfg(profile)
    out: list[tuple[str, JSON, frozenset[int] | None]] = []
    for kind in KINDS:
        for seed in range(2):
            out.append((f"crowded {kind} board {seed}",
                        position(profile, crowded(profile, kind, seed), 10 + seed, "p2",
                                 (0, 0), (False, False), None),
                        None))
    for n, (before, after) in enumerate(PICTURES, 1):
        top, left = 8, 7
        out.append((f"seed picture {n}",
                    position(profile, picture_grid(cfg, before, top, left), 10, "p2", (0, 0),
                             (False, False), None),
                    picture_dead(cfg, after, top, left)))
    return out
