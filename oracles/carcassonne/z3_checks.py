"""z3 models for three Carcassonne questions an engine answers.

* Placement (CARC-PLACE-ADJACENT, CARC-PLACE-MATCH, CARC-HAND-NOFIT): the placements of a
  hand are the models of an edge-matching formula over open cells x rotations x hand tiles.
  When an engine offers only discards, the formula must be unsatisfiable; when it lists
  placements, the list must equal the set of models.
* River (CARC-RIVER-CONTIGUOUS, CARC-RIVER-NO-UTURN): in the river phase the formula also
  fixes the cell and encodes the chosen no-U-turn reading; an accepted river placement
  must be one of its models.
* Ties (CARC-SCORE-MAJORITY): the majority rule as a z3 model; points on a scored feature
  must be the model's; `prove_majority` runs the engine's own award function on z3 terms
  (the engine object is passed in, so this module never imports it); `tie_distributions`
  and `tie_positions` make meeple distributions with exact ties and loadable states where
  one placement scores them.

Everything here reads canonical JSON and the tile catalogue file only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from gamecert.oracles.base import NA, Verdict, Violation, expect
from gamecert.oracles.carcassonne.board import (
    STEP,
    Board,
    Cell,
    catalogue,
    deck_sets,
    in_game,
    river_sides,
    tower_start,
)
from gamecert.spec import Profile

JSON = Any
KINDS = ("field", "road", "city", "river")
Placement = tuple[str, Cell, int]


def z3_max(a: Any, b: Any) -> Any:
    return z3.If(a >= b, a, b)


def _select(index: Any, values: list[Any], default: Any) -> Any:
    """values[index] as a z3 term (an If chain), `default` outside the range."""
    out = default
    for i in reversed(range(len(values))):
        out = z3.If(index == i, values[i], out)
    return out


# --- placement ---------------------------------------------------------------------------------
@dataclass
class PlacementModel:
    solver: z3.Solver
    tile: Any  # index into `tiles`
    cell: Any  # index into `cells`
    rot: Any
    tiles: list[str]
    cells: list[Cell]


def placement_model(state: JSON, profile: Profile) -> PlacementModel:
    """The placements open to the player to move, as a z3 formula (river rules included)."""
    bd = Board(state)
    tiles = sorted(set(state["hands"][state["to_move"] - 1]))
    river_phase = state["phase"] == "river"
    course = bd.course() if river_phase else None
    if course is not None:
        cells = [course.open_cell] if course.open_cell is not None else []
    else:
        cells = sorted(bd.open_cells())
    t, c, r = z3.Ints("tile cell rot")
    s = z3.Solver()
    s.add(t >= 0, t < len(tiles), c >= 0, c < len(cells), r >= 0, r < 4)
    for side in range(4):
        # what the neighbour across `side` asks for, per cell; -1 when there is none
        need = []
        for cell in cells:
            there = bd.edge_at(bd.neighbour(cell, side), (side + 2) % 4)
            need.append(-1 if there is None else KINDS.index(there))
        # the tile's edge on board side `side` is its unrotated side (side - rot) mod 4
        mine = _select(t, [_select((side - r) % 4, [KINDS.index(e) for e in
                                                    catalogue()[tile].edges], -2)
                           for tile in tiles], -2)
        wanted = _select(c, need, -1)
        s.add(z3.Or(wanted == -1, wanted == mine))
    if course is not None and cells:
        _river_constraints(s, bd, course, tiles, t, r, profile)
    return PlacementModel(s, t, c, r, tiles, cells)


def _river_constraints(s: z3.Solver, bd: Board, course: Any, tiles: list[str], t: Any, r: Any,
                       profile: Profile) -> None:
    """CARC-RIVER-CONTIGUOUS and CARC-RIVER-NO-UTURN for the tile at the river's open end."""
    variant = profile.variant("CARC-RIVER-NO-UTURN")
    flow = course.flow
    entry = (flow + 2) % 4
    last = course.turns[-1] if course.turns else 0
    curves = [x for x in course.turns if x]
    last_curve = curves[-1] if curves else 0
    exits = []
    for tile in tiles:
        sides = river_sides(tile, 0)
        if len(sides) == 1:  # the lake: it only has to meet the river
            exits.append((sides[0], sides[0]))
        else:
            exits.append((sides[0], sides[1]))
    a = _select(t, [(x + r) % 4 for x, _ in exits], -1)
    b = _select(t, [(y + r) % 4 for _, y in exits], -1)
    s.add(z3.Or(a == entry, b == entry))
    out = z3.If(a == entry, b, a)
    lake = a == b
    turn = (out - flow) % 4
    if variant == "alternate":
        s.add(z3.Or(lake, turn == 0, turn != last_curve))
    else:
        s.add(z3.Or(lake, turn == 0, turn != last))
    if variant == "lookahead" and course.open_cell is not None:
        x, y = course.open_cell
        ahead = [(x + dx, y + dy) for dx, dy in STEP]
        occupied = [i for i, cell in enumerate(ahead) if cell in bd.cells]
        if occupied:  # the river may not leave towards an occupied cell
            s.add(z3.Or(lake, z3.And(*[out != i for i in occupied])))


def placements(state: JSON, profile: Profile, limit: int = 5000) -> set[Placement]:
    """Every model of `placement_model`, by blocking each one found."""
    m = placement_model(state, profile)
    found: set[Placement] = set()
    while len(found) < limit and m.solver.check() == z3.sat:
        model = m.solver.model()
        ti, ci, ri = (model.eval(v, model_completion=True).as_long() for v in (m.tile, m.cell,
                                                                                m.rot))
        found.add((m.tiles[ti], m.cells[ci], ri))
        m.solver.add(z3.Or(m.tile != ti, m.cell != ci, m.rot != ri))
    return found


def check_legal_placements(state: JSON, legal: list[JSON], profile: Profile) -> Verdict:
    """An engine's legal list in a place step against the z3 models (both directions)."""
    if state["step"] != "place" or state["to_move"] is None:
        return NA
    listed = {(a["tile"], (a["at"][0], a["at"][1]), a["rotation"]) for a in legal
              if a.get("type") == "place"}
    discards = [a for a in legal if a.get("type") == "discard"]
    models = placements(state, profile)
    if discards and not listed:
        return expect(not models, f"the engine offers only discards, but "
                                  f"{sorted(models)[:3]} fit (CARC-HAND-NOFIT)")
    missing, extra = models - listed, listed - models
    if missing or extra:
        return Violation(f"legal placements differ from the z3 models: missing "
                         f"{sorted(missing)[:3]}, not allowed {sorted(extra)[:3]}")
    return expect(not discards, "discards are offered although a tile fits")


def check_accepted_placement(state: JSON, action: JSON, profile: Profile) -> Verdict:
    """An accepted place action must be a model (river rules included in the river phase)."""
    if not isinstance(action, dict) or action.get("type") != "place" or state["step"] != "place":
        return NA
    m = placement_model(state, profile)
    key = (action["at"][0], action["at"][1])
    if action["tile"] not in m.tiles or key not in m.cells:
        return Violation(f"{action['tile']} at {action['at']} is not a hand tile on an open "
                         f"cell{' at the river' if state['phase'] == 'river' else ''}")
    m.solver.add(m.tile == m.tiles.index(action["tile"]), m.cell == m.cells.index(key),
                 m.rot == action["rotation"])
    return expect(m.solver.check() == z3.sat,
                  f"{action['tile']} at {action['at']} rotation {action['rotation']} breaks "
                  f"edge matching{' or the river rules' if state['phase'] == 'river' else ''}")


def check_river(state: JSON, action: JSON, profile: Profile) -> Verdict:
    """River check: no accepted river placement breaks the chosen no-U-turn reading."""
    if state["phase"] != "river":
        return NA
    return check_accepted_placement(state, action, profile)


# --- ties --------------------------------------------------------------------------------------
def majority_award(counts: list[Any], points: Any) -> list[Any]:
    """CARC-SCORE-MAJORITY in z3, worded as the catalogue words it (not the engine's code)."""
    out = []
    for i, c in enumerate(counts):
        top = z3.And(c > 0, *[c >= d for j, d in enumerate(counts) if j != i])
        out.append(z3.If(top, points, 0))
    return out


def check_award(event: JSON) -> Verdict:
    """Points on one scored feature event equal the majority model's."""
    if event.get("type") not in ("feature-completed", "feature-final"):
        return NA
    counts = [z3.IntVal(c) for c in event["meeples"]]
    model = majority_award(counts, z3.IntVal(event["points"]))
    got = [event["points"] if i + 1 in event["scorers"] else 0 for i in range(len(counts))]
    s = z3.Solver()
    s.add(z3.Or(*[m != g for m, g in zip(model, got, strict=True)]))
    return expect(s.check() == z3.unsat, f"meeples {event['meeples']}, {event['points']} "
                                         f"points: scorers {event['scorers']} disagree with "
                                         f"the majority rule")


@dataclass(frozen=True)
class ProofResult:
    proved: bool
    message: str
    counterexample: dict[str, int] | None = None


def prove_majority(engine: Any, profile: Profile, timeout_ms: int = 30_000,
                   hook: str = "award_points") -> ProofResult:
    """Does the engine's `award_points` equal the majority rule for every meeple count? With
    `hook="farm_award"` the same proof covers CARC-FARM-MAJORITY (farmers on a field)."""
    n = int(profile.param("CARC-PLAYERS", "players"))
    meeples = int(profile.param("CARC-MEEPLE-SUPPLY", "meeples"))
    counts = [z3.Int(f"c{i + 1}") for i in range(n)]
    points = z3.Int("points")
    theirs = getattr(engine, hook)(counts, points, max2=z3_max, ite=z3.If)
    ours = majority_award(counts, points)
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(points >= 0, *[z3.And(c >= 0, c <= meeples) for c in counts])
    s.add(z3.Or(*[a != b for a, b in zip(theirs, ours, strict=True)]))
    verdict = s.check()
    if verdict == z3.unsat:
        return ProofResult(True, f"the engine's award equals the majority rule for {n} players "
                                 f"with 0-{meeples} meeples each and any points")
    if verdict == z3.unknown:
        return ProofResult(False, f"z3 gave no answer: {s.reason_unknown()}")
    model = s.model()
    values = {str(v): model.eval(v, model_completion=True).as_long() for v in [*counts, points]}
    return ProofResult(False, f"counterexample: {values}", values)


def tie_distributions(players: int, slots: int, per_player: int,
                      limit: int = 50) -> list[list[int]]:
    """Meeple counts on one feature where two or more players tie for the most (at least 1
    each), using at most `slots` meeples in all and at most `per_player` per player."""
    # a context of its own: z3's models in the shared one depend on every query the process
    # made before, and the tie starts built from them must not (a seed replays a run)
    ctx = z3.Context()
    counts = [z3.Int(f"c{i}", ctx) for i in range(players)]
    s = z3.Solver(ctx=ctx)
    s.add(*[z3.And(c >= 0, c <= per_player) for c in counts], z3.Sum(*counts) <= slots)
    top = z3.Int("top", ctx)
    s.add(top >= 1, *[c <= top for c in counts])
    s.add(z3.Sum(*[z3.If(c == top, 1, 0) for c in counts]) >= 2)
    out: list[list[int]] = []
    while len(out) < limit and s.check() == z3.sat:
        m = s.model()
        values = [m.eval(c, model_completion=True).as_long() for c in counts]
        out.append(values)
        s.add(z3.Or(*[c != v for c, v in zip(counts, values, strict=True)]))
    return out


def tie_position(profile: Profile, counts: list[int]) -> JSON:
    """A loadable state: a road from a junction (W) through straight tiles (U), holding
    `counts[i]` meeples of player i + 1 (one per tile), open at its far end; player 1 holds a
    W that closes it, so one placement scores an exact tie."""
    n = int(profile.param("CARC-PLAYERS", "players"))
    owners = [p + 1 for p, c in enumerate(counts) for _ in range(c)]
    length = len(owners)  # tiles on the road: the W and length - 1 Us
    if not 1 <= length <= 1 + catalogue()["U"].count:
        raise ValueError(f"{length} meeples do not fit on one W + U road")
    board = [((0, 0), "RS", 0), ((0, -1), "RE", 0), ((1, -1), "W", 3)]
    board += [((2 + i, -1), "U", 1) for i in range(length - 1)]
    meeples = [{"at": [1 + i, -1], "on": "right", "player": p} for i, p in enumerate(owners)]
    supply = [int(profile.param("CARC-MEEPLE-SUPPLY", "meeples")) - c for c in counts]
    used = {"RS": 1, "RE": 1, "W": 2, "U": length - 1}  # the board and player 1's W
    deck = {tid: in_game(profile, tid) - used.get(tid, 0) for tid, info in catalogue().items()
            if info.set in deck_sets(profile) and in_game(profile, tid) - used.get(tid, 0) > 0}
    discarded = sorted(tid for tid, info in catalogue().items() if info.set == "river"
                       for _ in range(info.count - used.get(tid, 0)))
    return {
        "game": "carcassonne", "profile": profile.id, "players": n, "phase": "land",
        "step": "place", "to_move": 1, "pending": [], "after_draws": "place",
        "board": sorted(({"at": list(c), "tile": t, "rotation": r} for c, t, r in board),
                        key=lambda b: b["at"]),
        "placed": None, "claim_blocked": [], "meeples": meeples, "supply": supply,
        "scores": [0] * n, "hands": [["W"]] + [[] for _ in range(n - 1)], "deck": deck,
        "river_pile": {}, "discarded": discarded, "result": None, **tower_start(profile),
    }


def tie_positions(profile: Profile, limit: int = 20) -> list[tuple[str, JSON]]:
    """(label, state) pairs for the fuzzer: one W placement at the road's end scores a tie."""
    n = int(profile.param("CARC-PLAYERS", "players"))
    per = int(profile.param("CARC-MEEPLE-SUPPLY", "meeples"))
    slots = 1 + catalogue()["U"].count
    out = []
    for counts in tie_distributions(n, slots, per, limit):
        out.append((f"tie {counts}", tie_position(profile, counts)))
    return out


__all__ = ["check_accepted_placement", "check_award", "check_legal_placements",
           "check_river", "placements", "prove_majority", "tie_distributions", "tie_position",
           "tie_positions"]
