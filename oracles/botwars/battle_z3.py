"""BOTWARS-BATTLE as a z3 model, and a z3 generator of crowded battle boards.

Squares are z3 integers (0 empty, 1 a p1 botlet, 2 a p2 botlet): fixed to a field's values
the model says which botlets die, and with the dead set solved for and then excluded it
proves the answer is the only one; left free it finds fields with battles of a wanted shape
(chains, rings, several at once, fields where the two battle readings disagree) for the
fuzzer to start from.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

JSON = Any


@dataclass(frozen=True)
class Window:
    """A block of squares of a rows x cols field: the squares the model reasons about.
    Squares outside it are empty."""

    rows: int
    cols: int
    top: int
    left: int
    height: int
    width: int
    wrap: bool = False

    def squares(self) -> list[int]:
        return [(self.top + r) * self.cols + self.left + c
                for r in range(self.height) for c in range(self.width)]

    def adjacent(self, square: int) -> list[int]:
        r, c = divmod(square, self.cols)
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            if self.wrap:
                rr, cc = rr % self.rows, cc % self.cols
            if 0 <= rr < self.rows and 0 <= cc < self.cols and rr * self.cols + cc != square:
                out.append(rr * self.cols + cc)
        return out


class BattleModel:
    """The battle rule over the squares of a window, as z3 terms."""

    def __init__(self, window: Window, every: bool = False, name: str = "",
                 field: str | None = None, ctx: Any = None) -> None:
        """With `field`, the squares are that field's values (z3 then only decides who
        dies); without, they are free z3 integers in 0..2. `ctx` is the z3 context the
        terms live in (default: z3's global one)."""
        self.window = window
        self.every = every
        self.ctx = ctx if ctx is not None else z3.main_ctx()
        ctx = self.ctx
        inside = window.squares()
        self.cell: dict[int, Any] = {
            sq: z3.IntVal(_value(field[sq]), ctx) if field is not None
            else z3.Int(f"{name}cell_{sq}", ctx)
            for sq in inside}
        self.dead = {sq: z3.Bool(f"{name}dead_{sq}", ctx) for sq in inside}
        self.constraints: list[Any] = [] if field is not None else [
            z3.And(v >= 0, v <= 2) for v in self.cell.values()]
        pairs: dict[tuple[int, int], Any] = {}

        def foes(a: int, b: int) -> Any:
            """Both squares hold botlets, of different bots (shared by the pair)."""
            key = (min(a, b), max(a, b))
            if key not in pairs:
                if a not in self.cell or b not in self.cell:
                    pairs[key] = z3.BoolVal(False, ctx)  # outside the window: empty
                elif field is not None:
                    x, y = _value(field[a]), _value(field[b])
                    pairs[key] = z3.BoolVal(x > 0 and y > 0 and x != y, ctx)
                else:
                    x, y = self.cell[a], self.cell[b]
                    pairs[key] = z3.And(x > 0, y > 0, x != y)
            return pairs[key]

        self.enemies = {sq: z3.Sum([z3.If(foes(sq, n), 1, 0) for n in window.adjacent(sq)])
                        for sq in inside}

        def e(sq: int) -> Any:
            return self.enemies.get(sq, z3.IntVal(0, ctx))

        for sq in inside:
            near = window.adjacent(sq)
            if every:
                rule = z3.And(e(sq) >= 1, *[z3.Implies(foes(sq, n), e(n) <= e(sq)) for n in near])
            else:
                rule = z3.Or([z3.And(foes(sq, n), e(n) <= e(sq)) for n in near])
            self.constraints.append(self.dead[sq] == z3.And(self.cell[sq] > 0, rule))



def _value(ch: str) -> int:
    """A square's content for the model: live botlets only."""
    return 1 if ch == "1" else 2 if ch == "2" else 0


def _window_of(grid: str, rows: int, cols: int, wrap: bool) -> Window:
    live = [i for i, c in enumerate(grid) if c in "12"]
    if not live or wrap:
        return Window(rows, cols, 0, 0, rows, cols, wrap)
    rs = [i // cols for i in live]
    cs = [i % cols for i in live]
    top, left = max(min(rs) - 1, 0), max(min(cs) - 1, 0)
    bottom, right = min(max(rs) + 1, rows - 1), min(max(cs) + 1, cols - 1)
    return Window(rows, cols, top, left, bottom - top + 1, right - left + 1)


def dead_set(grid: str, rows: int, cols: int, wrap: bool = False,
             every: bool = False) -> tuple[frozenset[int], bool]:
    """The botlets the battle rule kills on a post-move field, and whether z3 proves that
    no other dead set satisfies the model."""
    model = BattleModel(_window_of(grid, rows, cols, wrap), every, field=grid)
    solver = z3.Solver()
    solver.add(*model.constraints)
    if solver.check() != z3.sat:
        raise AssertionError("the battle model has no solution for this field")
    m = solver.model()
    chosen = {sq: z3.is_true(m.eval(d, model_completion=True)) for sq, d in model.dead.items()}
    solver.add(z3.Or([d != z3.BoolVal(chosen[sq]) for sq, d in model.dead.items()]))
    unique = solver.check() == z3.unsat
    return frozenset(sq for sq, dead in chosen.items() if dead), unique


# --- crowded boards ------------------------------------------------------------------------
KINDS = ("chain", "ring", "multi", "split")


def _count(terms: Iterable[Any]) -> Any:
    return z3.Sum([z3.If(t, 1, 0) for t in terms])


def _shape(kind: str, model: BattleModel, w: Window) -> list[Any]:
    cell = model.cell

    def sq(r: int, c: int) -> int:
        return (w.top + r) * w.cols + w.left + c

    if kind == "chain":  # a straight line of at least 4 alternating botlets
        options = []
        for r in range(w.height):
            for c in range(w.width - 3):
                line = [cell[sq(r, c + k)] for k in range(4)]
                options.append(z3.And(line[0] > 0, *[z3.And(line[k] > 0, line[k] != line[k - 1])
                                                      for k in range(1, 4)]))
        for r in range(w.height - 3):
            for c in range(w.width):
                line = [cell[sq(r + k, c)] for k in range(4)]
                options.append(z3.And(line[0] > 0, *[z3.And(line[k] > 0, line[k] != line[k - 1])
                                                      for k in range(1, 4)]))
        return [z3.Or(options)]
    if kind == "ring":  # eight botlets around an empty square, colours alternating
        loop = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0)]
        options = []
        for r in range(w.height - 2):
            for c in range(w.width - 2):
                vs = [cell[sq(r + a, c + b)] for a, b in loop]
                options.append(z3.And(cell[sq(r + 1, c + 1)] == 0, *[v > 0 for v in vs],
                                      *[vs[k] != vs[(k + 1) % 8] for k in range(8)]))
        return [z3.Or(options)]
    if kind == "split":  # a botlet the two battle readings treat differently
        other = BattleModel(w, not model.every, name="other_", ctx=model.ctx)
        return [*other.constraints, *[other.cell[s] == model.cell[s] for s in model.cell],
                z3.Or([model.dead[s] != other.dead[s] for s in model.cell])]
    return []


def crowded_board(kind: str, seed: int = 0, profile: str = "standard", rows: int = 20,
                  cols: int = 20, every: bool = False, min_botlets: int = 10,
                  min_dead: int = 3) -> JSON:
    """A canonical Bot Wars state (phase p2, no pending moves) whose field is crowded with
    battles of the given kind; an empty list from p2 then fights them exactly as generated.
    Windows stay clear of the spawn points, so the state is one a game can reach."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    rng = random.Random(seed)
    grid = ["."] * (rows * cols)
    if kind == "multi":  # two separate blocks side by side, each with its own battles
        top = rows // 2 - 4 + rng.randrange(2)
        windows = [Window(rows, cols, top, 1 + rng.randrange(2), 6, 7),
                   Window(rows, cols, top, cols // 2 + 1 + rng.randrange(2), 6, 7)]
    else:
        windows = [Window(rows, cols, rows // 2 - 5 + rng.randrange(4),
                          cols // 2 - 6 + rng.randrange(5), 6, 7)]
    # a fresh z3 context per board: in the global one, terms left by earlier calls change
    # what the solver picks, and the same seed would give a different board
    ctx = z3.Context()
    for n, w in enumerate(windows):
        model = BattleModel(w, every, name=f"w{n}_", ctx=ctx)
        solver = z3.Solver(ctx=ctx)
        solver.set("random_seed", rng.randrange(1 << 30))
        solver.add(*model.constraints, *_shape(kind, model, w))
        solver.add(_count(v > 0 for v in model.cell.values()) >= min_botlets // len(windows))
        solver.add(_count(model.dead.values()) >= max(1, min_dead // len(windows)))
        border = [s for s in model.cell if s not in _interior(w)]
        solver.add(*[model.cell[s] == 0 for s in border])  # blocks never touch each other
        hints = rng.sample(sorted(model.cell), k=len(model.cell) // 3)
        picks = [model.cell[s] == rng.randrange(3) for s in hints]
        while solver.check(*picks) != z3.sat:
            if not picks:
                raise ValueError(f"no {kind} board fits {min_botlets} botlets and {min_dead} dead")
            picks = picks[: len(picks) // 2]
        m = solver.model()
        for s, v in model.cell.items():
            val = m.eval(v, model_completion=True).as_long()
            if val:
                grid[s] = str(val)
    return {
        "game": "botwars", "profile": profile, "rows": rows, "cols": cols, "grid": "".join(grid),
        "p1": {"energy": 0, "spawn": cols + 1, "spawnDisabled": False, "disqualified": False},
        "p2": {"energy": 0, "spawn": rows * cols - cols - 2, "spawnDisabled": False,
               "disqualified": False},
        "maxTurns": 200, "turnsElapsed": 10 + seed % 50, "phase": "p2", "pending": [],
        "winner": None, "endReason": None,
    }


def _interior(w: Window) -> set[int]:
    return {(w.top + r) * w.cols + w.left + c
            for r in range(1, w.height - 1) for c in range(1, w.width - 1)}


def generated_boards(kinds: Sequence[str] = KINDS, per_kind: int = 2,
                     profile: str = "standard") -> list[JSON]:
    return [crowded_board(kind, seed, profile) for kind in kinds for seed in range(per_kind)]
