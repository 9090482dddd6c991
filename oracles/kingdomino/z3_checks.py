"""z3 over Kingdomino placements, tie-breaks and near-full kingdoms.

* `z3_placement(grid, squares, size)`: z3 searches the 9 x 9 grid for a placement by the
  rules (grid, overlap, extent, connection): a model is a placement, `unsat` proves that the
  tile fits nowhere, which is exactly when KD-DISCARD allows a discard.
* `extent_edge(grid, squares, size)`: placements valid but for the extent, one square too
  wide or tall; every accepted placement must keep the 5 x 5 extent, so an engine must
  refuse these.
* `prove_tie_order()`: for every score tie among up to 4 players and small measures, the
  tie-break applies territory before crowns (z3 finds no counter-example).
* `z3_score(grid)`: KD-SCORE-ZONES as constraints (zones as roots reached by decreasing
  distance); z3 computes the score and proves it the only one the model allows.
* `near_full(seed, squares, size)`: a grid where z3 certifies exactly one spot (pair of
  cells) left for the tile (a tile with two equal squares has two placements on one spot,
  one per direction); the search's starts put them in play (fuzz/games/kingdomino/
  crafted.py), since an oracle never runs the reference engine.
"""

from __future__ import annotations

import random
from typing import Any

import z3

from gamecert.oracles.kingdomino import board as b

JSON = Any


def _cells_where(g: str, pred: Any) -> list[tuple[int, int]]:
    return [(x, y) for y in range(b.N) for x in range(b.N) if pred(x, y)]


def _member(x: Any, y: Any, cells: list[tuple[int, int]]) -> Any:
    return z3.Or([z3.And(x == cx, y == cy) for cx, cy in cells]) if cells else z3.BoolVal(False)


def _placement_constraints(g: str, squares: tuple[str, str], size: int, x: Any, y: Any,
                           r: Any, extent: bool = True) -> list[Any]:
    x2 = x + z3.If(r == 0, 1, z3.If(r == 2, -1, 0))
    y2 = y + z3.If(r == 1, 1, z3.If(r == 3, -1, 0))
    empty = _cells_where(g, lambda cx, cy: b.cell(g, cx, cy)[0] == "_")
    occ = b.occupied(g)
    lo_x, hi_x = min(c[0] for c in occ), max(c[0] for c in occ)
    lo_y, hi_y = min(c[1] for c in occ), max(c[1] for c in occ)

    def near(terrain: str) -> list[tuple[int, int]]:
        return _cells_where(g, lambda cx, cy: b.touches(g, cx, cy, terrain))

    def zmin(*v: Any) -> Any:
        m = v[0]
        for e in v[1:]:
            m = z3.If(e < m, e, m)
        return m

    def zmax(*v: Any) -> Any:
        m = v[0]
        for e in v[1:]:
            m = z3.If(e > m, e, m)
        return m

    cons = [r >= 0, r <= 3, _member(x, y, empty), _member(x2, y2, empty),
            z3.Or(_member(x, y, near(squares[0][0])), _member(x2, y2, near(squares[1][0])))]
    width = zmax(hi_x, x, x2) - zmin(lo_x, x, x2)
    height = zmax(hi_y, y, y2) - zmin(lo_y, y, y2)
    if extent:
        cons += [width < size, height < size]
    else:
        cons += [z3.Or(width == size, height == size), width <= size, height <= size]
    return cons


def z3_placement(g: str, squares: tuple[str, str], size: int) -> list[int] | None:
    """A placement z3 finds by the rules, or None when none exists (the tile is discarded)."""
    x, y, r = z3.Ints("x y r")
    s = z3.Solver()
    s.add(*_placement_constraints(g, squares, size, x, y, r))
    if s.check() != z3.sat:
        return None
    m = s.model()
    return [m.eval(x).as_long(), m.eval(y).as_long(), m.eval(r).as_long()]


def z3_placements(g: str, squares: tuple[str, str], size: int, limit: int = 2) -> list[list[int]]:
    """Up to `limit` placements on distinct spots (pairs of cells): z3 blocks each model's
    spot, both ways round (a tile turned by 180 degrees covers the same two cells)."""
    x, y, r = z3.Ints("x y r")
    s = z3.Solver()
    s.add(*_placement_constraints(g, squares, size, x, y, r))
    out: list[list[int]] = []
    while len(out) < limit and s.check() == z3.sat:
        m = s.model()
        p = [m.eval(x).as_long(), m.eval(y).as_long(), m.eval(r).as_long()]
        out.append(p)
        x2, y2 = b.second(*p)
        s.add(z3.Not(z3.Or(z3.And(x == p[0], y == p[1], r == p[2]),
                           z3.And(x == x2, y == y2, r == (p[2] + 2) % 4))))
    return out


def extent_edge(g: str, squares: tuple[str, str], size: int) -> list[int] | None:
    """A placement that breaks only the extent rule, by exactly one square."""
    x, y, r = z3.Ints("x y r")
    s = z3.Solver()
    s.add(*_placement_constraints(g, squares, size, x, y, r, extent=False))
    if s.check() != z3.sat:
        return None
    m = s.model()
    return [m.eval(x).as_long(), m.eval(y).as_long(), m.eval(r).as_long()]


def prove_tie_order(players: int = 4, bound: int = 6) -> tuple[bool, str]:
    """z3: the oracle's tie-break, written as constraints, gives the larger territory the
    point before crowns are looked at: no two tied players end with the one of smaller
    territory strictly ahead."""
    sc = z3.Ints(" ".join(f"s{i}" for i in range(players)))
    te = z3.Ints(" ".join(f"t{i}" for i in range(players)))
    cr = z3.Ints(" ".join(f"c{i}" for i in range(players)))
    s = z3.Solver()
    for v in (*sc, *te, *cr):
        s.add(v >= 0, v <= bound)

    def step(vals: list[Any], measure: list[Any]) -> list[Any]:
        out = []
        for i in range(players):
            tied = [j for j in range(players) if j != i]
            best = z3.And([z3.Implies(vals[j] == vals[i], measure[j] <= measure[i])
                           for j in tied])
            has_tie = z3.Or([vals[j] == vals[i] for j in tied])
            out.append(vals[i] + z3.If(z3.And(has_tie, best), 1, 0))
        return out

    final = step(step(list(sc), list(te)), list(cr))
    # counter-example: players 0 and 1 tied on score, 0 has the largest territory of the
    # players tied with it and 1 a smaller one, yet 1 ends strictly ahead of 0
    s.add(sc[0] == sc[1], te[0] > te[1], final[1] > final[0])
    s.add(*[z3.Implies(sc[j] == sc[0], te[j] <= te[0]) for j in range(players)])
    if s.check() == z3.sat:
        return False, f"counter-example: {s.model()}"
    return True, f"no counter-example among {players} players with measures 0-{bound}"


def tie_order_witnesses(players: int = 4, bound: int = 4, count: int = 8) -> list[
        tuple[list[int], list[int], list[int]]]:
    """Score ties where z3 finds that territory-first and crowns-first give different final
    scores: the cases that tell the two orders apart (an engine's tie_break is run on them)."""
    from gamecert.oracles.kingdomino import tie_break

    out: list[tuple[list[int], list[int], list[int]]] = []
    sc = z3.Ints(" ".join(f"s{i}" for i in range(players)))
    te = z3.Ints(" ".join(f"t{i}" for i in range(players)))
    cr = z3.Ints(" ".join(f"c{i}" for i in range(players)))
    s = z3.Solver()
    for v in (*sc, *te, *cr):
        s.add(v >= 0, v <= bound)
    # a tie whose territory order and crown order disagree
    s.add(sc[0] == sc[1], te[0] > te[1], cr[1] > cr[0])
    while len(out) < count and s.check() == z3.sat:
        m = s.model()
        a, t, c = ([int(m.eval(v).as_long()) for v in vs] for vs in (sc, te, cr))
        if tie_break(a, t, c) != tie_break(a, t, c, crowns_first=True):
            out.append((a, t, c))
        s.add(z3.Or([v != m.eval(v) for v in (*sc, *te, *cr)]))
    return out


def _count_spots(g: str, squares: tuple[str, str], size: int, stop: int = 2) -> int:
    """Spots (pairs of cells) where the tile can be placed, counted up to `stop`."""
    spots: set[frozenset[tuple[int, int]]] = set()
    for y in range(b.N):
        for x in range(b.N):
            if b.cell(g, x, y)[0] != "_":
                continue
            for r in range(4):
                if not b.placement_faults(g, [x, y, r], squares, size):
                    spots.add(frozenset(((x, y), b.second(x, y, r))))
                    if len(spots) >= stop:
                        return len(spots)
    return len(spots)


def near_full(seed: int, squares: tuple[str, str], size: int) -> str | None:
    """A random kingdom grown cell by cell inside the 5 x 5 window until one spot (pair of
    cells) is left for `squares`; z3 then certifies that exactly one exists (its search
    finds one model and, that spot blocked, no other)."""
    rng = random.Random(seed)
    g = list("_0" * 40 + "*0" + "_0" * 40)
    terrains = "cfglwm"
    for _ in range(24):
        cur = "".join(g)
        if _count_spots(cur, squares, size) == 0:
            return None
        free = [(x, y) for y in range(2, 7) for x in range(2, 7) if b.cell(cur, x, y) == "_0"]
        rng.shuffle(free)
        grow = None
        for x, y in free:  # a fill that leaves exactly one spot ends the growth
            i = 2 * (y * b.N + x)
            trial = g.copy()
            trial[i:i + 2] = f"{rng.choice(terrains)}{rng.choice('0001')}"
            left = _count_spots("".join(trial), squares, size)
            if left == 1:
                done = "".join(trial)
                return done if len(z3_placements(done, squares, size, limit=2)) == 1 else None
            if left >= 2 and grow is None:
                grow = trial
        if grow is None:
            return None
        g = grow
    return None


def z3_score(g: str) -> tuple[int, bool]:
    """KD-SCORE-ZONES as z3 constraints: the score of grid `g` and whether z3 proved it the
    only one the zone model allows.

    Each square names the root of its zone: squares of one terrain that touch orthogonally
    share a root, a root is its own root, and every square reaches its root through touching
    squares of its terrain by strictly decreasing distance (so two zones never share a
    root). The score is then linear: each crowned square's crowns times the number of
    squares with its root. The castle is in no zone.
    """
    cells = [(x, y) for y in range(b.N) for x in range(b.N) if b.cell(g, x, y)[0] not in "_*"]
    index = {c: k for k, c in enumerate(cells)}
    root = [z3.Int(f"root{k}") for k in range(len(cells))]
    dist = [z3.Int(f"dist{k}") for k in range(len(cells))]
    s = z3.Solver()
    for k, (x, y) in enumerate(cells):
        t = b.cell(g, x, y)[0]
        same = [index[n] for n in b.around(x, y) if n in index and b.cell(g, *n)[0] == t]
        kin = [m for m, c in enumerate(cells) if b.cell(g, *c)[0] == t]
        s.add(z3.Or([root[k] == m for m in kin]), dist[k] >= 0)
        s.add((root[k] == k) == (dist[k] == 0))
        s.add(*[z3.Implies(root[k] == m, root[m] == m) for m in kin])
        s.add(*[root[k] == root[n] for n in same])
        s.add(z3.Or(dist[k] == 0, *[dist[n] < dist[k] for n in same]))
    score = z3.Int("score")
    terms = []
    for k, (x, y) in enumerate(cells):
        crowns = int(b.cell(g, x, y)[1])
        if crowns:
            terms.append(crowns * z3.Sum([z3.If(root[m] == root[k], 1, 0)
                                          for m in range(len(cells))]))
    s.add(score == (z3.Sum(terms) if terms else 0))
    if s.check() != z3.sat:
        raise ValueError("the zone model has no solution for this grid")
    value = s.model().eval(score).as_long()
    s.add(score != value)
    return int(value), s.check() == z3.unsat
