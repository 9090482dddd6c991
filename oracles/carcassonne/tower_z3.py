"""z3 proofs of The Tower's conservation laws, run on the engine's own step code.

The engine moves counts with small operator-only functions (`rules.floor_step`,
`rules.ransom_scores`, `rules.capture_tallies`, its `exchange` hook with an `ite`) and takes
its ransom amounts from its `ransom_points` hook. Here those run on z3 integers, for every
player count of the profile and every pair of players, and z3 looks for a state that keeps
the laws before the step and breaks one after it:

* CARC-TOWER-FLOORS: floors used + floors left = floors given;
* CARC-TOWER-RANSOM: a ransom changes exactly two scores, by -points and +points, keeps
  their sum, and leaves no score negative when the payer had the points;
* CARC-TOWER-MEEPLES (with CARC-TOWER-CAPTURE and CARC-TOWER-EXCHANGE): after a capture and
  the exchange, supply + board + imprisoned + on towers is unchanged per player, the captured
  meeple is off the board, nobody holds their own meeple and no two players hold each other's.

The engine object is passed in (this module never imports it); the step functions are the
engine's module `rules`, reached through the engine's class.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import z3

from gamecert.spec import Profile


@dataclass(frozen=True)
class TowerProof:
    rule: str
    proved: bool
    message: str


def _rules_of(engine: Any) -> Any:
    """The `rules` module the engine's class uses (operator-only step functions)."""
    module = sys.modules[type(engine).__module__]
    found = getattr(module, "rules", None)
    if found is None:
        for base in type(engine).__mro__:
            found = getattr(sys.modules[base.__module__], "rules", None)
            if found is not None:
                break
    if found is None:
        raise TypeError("the engine's module has no operator-only `rules`")
    return found


def _check(s: z3.Solver, rule: str, law: str) -> TowerProof:
    verdict = s.check()
    if verdict == z3.unsat:
        return TowerProof(rule, True, law)
    if verdict == z3.unknown:
        return TowerProof(rule, False, f"z3 gave no answer: {s.reason_unknown()}")
    model = s.model()
    shown = {str(d): model[d] for d in model.decls()}
    return TowerProof(rule, False, f"counterexample: {dict(sorted(shown.items()))}")


def prove_floors(engine: Any, profile: Profile) -> TowerProof:
    rules = _rules_of(engine)
    given, left, used, height = z3.Ints("given left used height")
    left2, height2 = rules.floor_step(left, height)
    s = z3.Solver()
    s.add(left >= 1, used >= height, height >= 0, left + used == given)
    s.add(left2 + (used - height + height2) != given)
    return _check(s, "CARC-TOWER-FLOORS", "a floor keeps floors used + floors left = floors "
                                          "given")


def prove_ransom(engine: Any, profile: Profile) -> TowerProof:
    rules = _rules_of(engine)
    n = int(profile.param("CARC-PLAYERS", "players"))
    cost = int(profile.param("CARC-TOWER-RANSOM", "points"))
    state = engine.initial(profile)
    paid, got = engine.ransom_points(state._replace(scores=(cost,) * n, to_move=1))
    for payer in range(n):
        for captor in range(n):
            if payer == captor:
                continue
            scores = [z3.Int(f"s{i + 1}") for i in range(n)]
            after = rules.ransom_scores(scores, payer, captor, paid, got)
            s = z3.Solver()
            s.add(*[x >= 0 for x in scores], scores[payer] >= cost)
            broken = [after[payer] != scores[payer] - cost,
                      after[captor] != scores[captor] + cost,
                      z3.Sum(after) != z3.Sum(scores),
                      *[after[i] != scores[i] for i in range(n) if i not in (payer, captor)],
                      *[x < 0 for x in after]]
            s.add(z3.Or(*broken))
            proof = _check(s, "CARC-TOWER-RANSOM", "")
            if not proof.proved:
                return TowerProof(proof.rule, False, f"payer {payer + 1}, captor {captor + 1}: "
                                                     f"{proof.message}")
    return TowerProof("CARC-TOWER-RANSOM", True,
                      f"a ransom moves exactly {cost} points from payer to captor, keeps the "
                      f"sum and leaves no score negative, for every pair of {n} players")


def prove_capture(engine: Any, profile: Profile) -> TowerProof:
    rules = _rules_of(engine)
    n = int(profile.param("CARC-PLAYERS", "players"))
    total = int(profile.param("CARC-MEEPLE-SUPPLY", "meeples"))
    for captor in range(n):
        for owner in range(n):
            supply = [z3.Int(f"supply{i + 1}") for i in range(n)]
            board = [z3.Int(f"board{i + 1}") for i in range(n)]
            caps = [z3.Int(f"caps{i + 1}") for i in range(n)]
            held = [[z3.Int(f"held{a + 1}_{b + 1}") for b in range(n)] for a in range(n)]
            s = z3.Solver()
            for q in range(n):
                s.add(supply[q] >= 0, board[q] >= 0, caps[q] >= 0, held[q][q] == 0)
                s.add(supply[q] + board[q] + caps[q] + z3.Sum([held[a][q] for a in range(n)])
                      == total)
                for r in range(n):
                    s.add(held[q][r] >= 0)
                    if q < r and profile.variant("CARC-TOWER-EXCHANGE") == "immediate":
                        s.add(z3.Or(held[q][r] == 0, held[r][q] == 0))
            s.add(board[owner] >= 1)
            board2 = list(board)
            board2[owner] = board[owner] - 1
            supply2, held2 = rules.capture_tallies(supply, held, captor, owner)
            immediate = profile.variant("CARC-TOWER-EXCHANGE") == "immediate"
            if owner != captor and immediate:
                engine.exchange(held2, supply2, captor + 1, owner + 1, None, ite=z3.If)
            broken = [board2[owner] != board[owner] - 1]
            for q in range(n):
                broken.append(supply2[q] + board2[q] + caps[q]
                              + z3.Sum([held2[a][q] for a in range(n)]) != total)
                broken.append(held2[q][q] != 0)
                broken += [x < 0 for x in (supply2[q], *held2[q])]
                if immediate:
                    broken += [z3.And(held2[q][r] > 0, held2[r][q] > 0)
                               for r in range(q + 1, n)]
            s.add(z3.Or(*broken))
            proof = _check(s, "CARC-TOWER-MEEPLES", "")
            if not proof.proved:
                return TowerProof(proof.rule, False, f"player {captor + 1} captures a meeple of "
                                                     f"player {owner + 1}: {proof.message}")
    immediate = profile.variant("CARC-TOWER-EXCHANGE") == "immediate"
    return TowerProof("CARC-TOWER-MEEPLES", True,
                      f"a capture{' and the exchange' if immediate else ''} keep supply + board "
                      f"+ imprisoned + on towers = {total} for each of {n} players, take the "
                      f"meeple off the board"
                      f"{' and leave no mutual prisoners' if immediate else ''}, for every "
                      f"captor and owner")


def prove_tower(engine: Any, profile: Profile) -> list[TowerProof]:
    """Every Tower proof on the engine's code (in-process engines only)."""
    return [prove_floors(engine, profile), prove_ransom(engine, profile),
            prove_capture(engine, profile)]


def reach_boundary(distance: int, given: int, players: int, other_floors: int, mover: int
                   ) -> tuple[int, list[int]] | None:
    """z3 picks a tower height whose next floor reaches exactly `distance` cells (a meeple
    right at the edge of the reach) and floors left per player that keep CARC-TOWER-FLOORS
    (floors used = the floors in towers: `other_floors` in the other towers plus this one),
    with the mover (0-based) still holding a floor. None when no such split exists."""
    # a context of its own: z3's answer in the shared one depends on every query the process
    # made before, and the crafted starts built from it must not (a seed replays a run)
    ctx = z3.Context()
    height = z3.Int("height", ctx)
    left = [z3.Int(f"left{i + 1}", ctx) for i in range(players)]
    s = z3.Solver(ctx=ctx)
    s.add(height + 1 == distance, height >= 0, left[mover] >= 1)
    s.add(*[z3.And(f >= 0, f <= given) for f in left])
    s.add(z3.Sum([given - f for f in left]) == other_floors + height)
    if s.check() != z3.sat:
        return None
    m = s.model()
    return (m.eval(height, model_completion=True).as_long(),
            [m.eval(f, model_completion=True).as_long() for f in left])
