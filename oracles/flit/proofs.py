"""z3 models of Flit's catch-up rule (FLIT-END-CATCHUP).

* `prove_catchup` feeds z3 integers through the engine's own end test
  (`catchup_reached`) and checks it against the spec's formula for every piece count
  (A, B, C, D, N, E) the board allows, or returns a counterexample.
* `boundary_positions` asks z3 for piece counts at the edge of the rule (D = M and
  D = M + 1, across the range of P) and lays them out as loadable states: the fuzzer starts
  from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import z3

from gamecert.spec import Profile

JSON = Any


def z3_max(a: Any, b: Any) -> Any:
    return z3.If(a >= b, a, b)


def z3_any(xs: list[Any]) -> Any:
    return z3.Or(*xs)


def spec_catchup(counts: list[Any], n: Any, e: Any, p_offset: int) -> Any:
    """The rule as the catalogue words it, built directly in z3 (not the engine's code)."""
    p = n + e - p_offset
    ends = []
    for i, d in enumerate(counts):
        others = [c + p for j, c in enumerate(counts) if j != i]
        m = z3_max(z3_max(others[0], others[1]), others[2])
        ends.append(d > m)
    return z3.Or(*ends)


def count_constraints(counts: list[Any], n: Any, e: Any, profile: Profile) -> list[Any]:
    squares = profile.param("FLIT-BOARD-SIZE", "width") * profile.param("FLIT-BOARD-SIZE", "height")
    per_bot = profile.param("FLIT-SETUP-ORDER", "pieces_per_bot")
    # a bot's count never falls below its initial pieces (FLIT-CONVERT: nothing is captured)
    return [*(c >= per_bot for c in counts), n >= 0, e >= 0, z3.Sum(*counts, n, e) == squares]


@dataclass(frozen=True)
class ProofResult:
    proved: bool
    message: str
    counterexample: dict[str, int] | None = None


class NotSymbolic(Exception):
    """The engine's end test cannot run on z3 terms."""


def prove_catchup(engine: Any, profile: Profile, timeout_ms: int = 60_000) -> ProofResult:
    """Does `engine.catchup_reached` equal the spec formula for every possible count?"""
    if not hasattr(engine, "catchup_reached"):
        raise NotSymbolic("the engine has no catchup_reached(cfg, counts, n, e, max2, any_of) "
                          "to evaluate symbolically")
    a, b, c, d, n, e = z3.Ints("A B C D N E")
    counts = [a, b, c, d]
    try:
        theirs = engine.catchup_reached(engine.config(profile), counts, n, e,
                                        max2=z3_max, any_of=z3_any)
    except (z3.Z3Exception, TypeError) as exc:
        raise NotSymbolic(f"the engine's catch-up test does not run on z3 terms: {exc}") from None
    if not z3.is_bool(theirs):
        raise NotSymbolic("the engine's catch-up test did not give a z3 Boolean")
    ours = spec_catchup(counts, n, e, profile.param("FLIT-END-CATCHUP", "p_offset"))
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*count_constraints(counts, n, e, profile))
    solver.add(theirs != ours)
    verdict = solver.check()
    if verdict == z3.unsat:
        w, h = profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")
        return ProofResult(True, f"the engine's catch-up test equals D > max(A+P, B+P, C+P), "
                           f"P = N + E - {profile.param('FLIT-END-CATCHUP', 'p_offset')}, for "
                           f"every piece count on the {w}x{h} board")
    if verdict == z3.unknown:
        return ProofResult(False, f"z3 gave no answer: {solver.reason_unknown()}")
    model = solver.model()
    values = {str(v): model.eval(v, model_completion=True).as_long() for v in (a, b, c, d, n, e)}
    said = z3.is_true(model.eval(theirs, model_completion=True))
    return ProofResult(False, f"counterexample: bot counts {values['A']}, {values['B']}, "
                       f"{values['C']}, {values['D']}, N = {values['N']}, E = {values['E']}: the "
                       f"engine says the game {'ends' if said else 'goes on'}, the rule says "
                       f"it {'goes on' if said else 'ends'}", values)


# --- boundary positions ----------------------------------------------------------------------

P_TARGETS = (-4, -3, -1, 0, 1, 2, 3, 4, 5, 10, 40, 100, 200, 300, 400, 480)


def boundary_counts(profile: Profile,
                    p_targets: tuple[int, ...] = P_TARGETS) -> list[dict[str, int]]:
    """Counts with D = M or D = M + 1 (D the leader, bot 4 here), for each reachable P."""
    w, h = profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")
    off = profile.param("FLIT-END-CATCHUP", "p_offset")
    lattice = (w // 2) * (h // 2)
    out = []
    for p_value in p_targets:
        for delta in (0, 1):
            a, b, c, d, n, e = z3.Ints("A B C D N E")
            s = z3.Solver()
            s.add(*count_constraints([a, b, c, d], n, e, profile))
            p = n + e - off
            s.add(p == p_value, d == z3_max(z3_max(a + p, b + p), c + p) + delta)
            # only D is at the edge: no other bot already satisfies the rule
            for x, y, z, v in ((a, b, c, d), (b, a, c, d), (c, a, b, d)):
                s.add(x <= z3_max(z3_max(y + p, z + p), v + p))
            # every neutral needs its four neighbours empty, on its own lattice site
            s.add(e >= 4 * n, n <= lattice)
            s.add(n >= z3.If(p_value > 8, 1, 0))  # some neutrals, so conversions can happen
            if s.check() != z3.sat:
                continue
            m = s.model()
            out.append({k: m.eval(v, model_completion=True).as_long()
                        for k, v in zip("ABCDNE", (a, b, c, d, n, e), strict=True)}
                       | {"P": p_value, "delta": delta})
    return out


def layout(profile: Profile, counts: dict[str, int], to_move: int = 1) -> JSON:
    """A canonical Flit state with exactly these counts, neutrals isolated as the rules keep
    them, bots' pieces in blocks with the empty squares among them."""
    w, h = profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")
    board = ["?"] * (w * h)
    placed = 0
    for j in range(h // 2):
        for i in range(w // 2):
            if placed == counts["N"]:
                break
            x, y = 2 * i, 2 * j
            board[y * w + x] = "5"
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                board[((y + dy) % h) * w + (x + dx) % w] = "0"
            placed += 1
    free = [k for k, v in enumerate(board) if v == "?"]
    spare_empty = counts["E"] - board.count("0")
    colours = (["1"] * counts["A"] + ["2"] * counts["B"] + ["3"] * counts["C"]
               + ["4"] * counts["D"])
    # spread the spare empties evenly so every bot has room to move
    step = max(1, len(free) // max(1, spare_empty)) if spare_empty else 0
    empties = set(free[::step][:spare_empty]) if spare_empty else set()
    it = iter(colours)
    for k in free:
        board[k] = "0" if k in empties else next(it)
    return {"game": "flit", "profile": profile.id, "width": w, "height": h,
            "board": "".join(board), "phase": "move", "to_move": to_move, "turn": 100,
            "passes": 0, "timeouts": [0, 0, 0, 0], "frozen": [False] * 4, "result": None}


@cache
def boundary_positions(profile: Profile) -> tuple[tuple[str, JSON], ...]:
    """(label, state) pairs at the catch-up boundary, for the fuzzer and for `prove`."""
    out = []
    for counts in boundary_counts(profile):
        label = f"P={counts['P']} D=M{'+1' if counts['delta'] else ''}"
        for to_move in (1, 4):
            out.append((f"{label} bot {to_move} to move", layout(profile, counts, to_move)))
    return tuple(out)
