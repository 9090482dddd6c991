"""Stage 1's checks of the river phase: river draws, the river laid contiguously, river
edges meeting river edges, no U-turn (as the profile reads it), and the lake ending the
phase (CARC-RIVER-*, but the spring's: `equipment`).

On canonical JSON and the oracles' own board (`board.Board.course`), never the reference
engine. Binds no rule id to a check: `checks/__init__.py` does.
"""

from __future__ import annotations

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause, expect
from gamecert.oracles.carcassonne.board import Cell, catalogue, river_sides
from gamecert.oracles.carcassonne.checks.common import JSON, _action_of, _cell, _events, _is, board
from gamecert.oracles.carcassonne.checks.placement import _edge_problem
from gamecert.spec import Profile


def river_draw(t: Transition, p: Profile) -> Verdict:
    """A river turn draws one river tile for the player to move, and lays it: no other tile
    goes on the board in any step of the river phase (the lake laid inside another player's
    turn, by the engine, is not a turn of its own)."""
    b = t.before
    if b["phase"] != "river":
        return NA
    extra = len(t.after["board"]) - len(b["board"]) - _is(t, "place")
    if extra > 0:
        added = [e for e in t.after["board"] if e not in b["board"]
                 and not (_is(t, "place") and e["at"] == t.action["at"])]
        laid = ", ".join(f"{e['tile']} at {e['at']}" for e in added)
        return cause("tile-laid-without-turn",
                     f"after a {t.action.get('type')}, {laid or f'{extra} more tiles'} went "
                     f"on the board in the same step: a river turn draws one tile and lays it")
    if not _is(t, "draw"):
        return NA
    tile = t.action["tile"]
    if catalogue()[tile].set != "river":
        return Violation(f"{tile} drawn in the river phase is not a river tile")
    if b["pending"] != [b["to_move"]]:
        return Violation(f"a river turn draws one tile for the player to move, pending "
                         f"{b['pending']}")
    return expect(t.after["hands"][b["to_move"] - 1] == [tile],
                  f"player {b['to_move']} should hold just the drawn {tile}")


def river_draw_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    """A draw of a land tile accepted while the river phase lasts (land tiles are not dealt
    yet)."""
    if (not accepted or not _action_of(action, "draw") or state["phase"] != "river"
            or state["step"] != "draw" or action["tile"] not in catalogue()):
        return NA
    tile = action["tile"]
    return OK if catalogue()[tile].set == "river" else cause(
        "land-tile-in-river-phase", f"the engine drew the land tile {tile} while the river "
                                    f"phase lasts")


def _river_place(t: Transition) -> bool:
    return _is(t, "place") and t.before["phase"] == "river"


def river_contiguous(t: Transition, p: Profile) -> Verdict:
    if not _river_place(t):
        return NA
    course = board(t.before).course()
    return expect(course.open_cell is not None and _cell(t.action["at"]) == course.open_cell,
                  f"river tile at {t.action['at']}, but the river continues at "
                  f"{course.open_cell}")


def river_meets_river(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    return _edge_problem(t.before, t.action, river=True) or OK


def uturn_verdict(before: JSON, tile: str, cell: Cell, rotation: int, variant: str) -> Verdict:
    """CARC-RIVER-NO-UTURN for one river placement at the river's open end."""
    bd = board(before)
    course = bd.course()
    sides = river_sides(tile, rotation)
    entry = (course.flow + 2) % 4
    if len(sides) != 2 or entry not in sides:
        return NA
    out = sides[0] if sides[1] == entry else sides[1]
    turn = (out - course.flow) % 4
    last = course.turns[-1] if course.turns else 0
    curves = [x for x in course.turns if x]
    last_curve = curves[-1] if curves else 0
    if turn and variant == "alternate" and turn == last_curve:
        return Violation(f"{tile} at {list(cell)} turns the same way as the previous curve")
    if turn and variant != "alternate" and turn == last:
        return Violation(f"{tile} at {list(cell)} turns the same way as the tile before: U-turn")
    ahead = bd.neighbour(cell, out)
    if variant == "lookahead" and ahead in bd.cells:
        return Violation(f"{tile} at {list(cell)} sends the river into the tile at {ahead}")
    return OK


def river_no_uturn(t: Transition, p: Profile) -> Verdict:
    if not _river_place(t):
        return NA
    act = t.action
    return uturn_verdict(t.before, act["tile"], _cell(act["at"]), act["rotation"],
                         p.variant("CARC-RIVER-NO-UTURN"))


def lake_ends(t: Transition, p: Profile) -> Verdict:
    b, a = t.before, t.after
    lake_last = p.variant("CARC-RIVER-LAKE-ENDS") == "lake-last"
    if b["phase"] == "river" and _is(t, "draw") and t.action["tile"] == "RE":
        others = sum(n for k, n in b["river_pile"].items() if k != "RE")
        return expect(not lake_last or others == 0,
                      f"the lake was drawn with {others} other river tiles left (lake-last)")
    if a["phase"] == "river" and board(a).course().open_cell is None:
        return expect(a["step"] == "claim", "the lake is placed but the river phase goes on")
    if b["phase"] != "river" or a["phase"] == "river":
        return NA
    ended = _events(t, "river-phase-ended")
    if len(ended) != 1:
        return Violation("the river phase ended without a river-phase-ended event")
    closed = board(a).course().open_cell is None
    # no river tile left to play: the pile is empty and none is held (the last one drawn may
    # have been discarded because it fit nowhere)
    river_held = any(catalogue()[k].set == "river" for h in a["hands"] for k in h)
    pile_empty = not b["river_pile"] and not river_held
    if not (closed or pile_empty):
        return Violation("the river phase ended with the river open and river tiles left")
    left = sorted(k for k, n in b["river_pile"].items() for _ in range(n))
    return expect(ended[0]["removed"] == left,
                  f"river tiles removed {ended[0]['removed']}, the pile held {left}")


def lake_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    """Under lake-last, a draw of the lake is allowed only once it is the last river tile."""
    if (not _action_of(action, "draw") or action["tile"] != "RE" or state["phase"] != "river"
            or state["step"] != "draw" or not state["river_pile"].get("RE")):
        return NA
    others = sum(n for k, n in state["river_pile"].items() if k != "RE")
    allowed = p.variant("CARC-RIVER-LAKE-ENDS") != "lake-last" or others == 0
    return expect(allowed or not accepted,
                  f"the engine let the lake be drawn with {others} other river tiles left "
                  f"(lake-last)")


def _river_cell_problem(state: JSON, action: JSON, p: Profile) -> Verdict | None:
    if state["phase"] != "river":
        return None
    open_cell = board(state).course().open_cell
    if _cell(action["at"]) != open_cell:
        return Violation(f"accepted a river tile at {action['at']}; the river continues at "
                         f"{open_cell}")
    return None


def _uturn_problem(state: JSON, action: JSON, p: Profile) -> Verdict | None:
    if state["phase"] != "river" or _cell(action["at"]) != board(state).course().open_cell:
        return None
    v = uturn_verdict(state, action["tile"], _cell(action["at"]), action["rotation"],
                      p.variant("CARC-RIVER-NO-UTURN"))
    return v if isinstance(v, Violation) else None
