"""Stage 1's placement checks: a tile goes on an empty cell next to a placed one
(CARC-PLACE-ADJACENT), its edges match those it faces (CARC-PLACE-MATCH; river edges are
CARC-RIVER-MEETS-RIVER's, in `river`), and the judge form every placement rule shares for
accepted placements (`_place_judge`).

On canonical JSON and the oracles' own board, never the reference engine. Binds no rule id
to a check: `checks/__init__.py` does.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation
from gamecert.oracles.carcassonne.board import SIDES, catalogue
from gamecert.oracles.carcassonne.checks.common import JSON, _action_of, _cell, _is, board
from gamecert.spec import Profile


def _edge_problem(state: JSON, action: JSON, river: bool) -> Verdict | None:
    """The first edge of a placement that faces a different edge: among the pairs with a river
    edge (CARC-RIVER-MEETS-RIVER) or among the others (CARC-PLACE-MATCH)."""
    bd, cell = board(state), _cell(action["at"])
    if cell in bd.cells:
        return None  # an occupied cell is CARC-PLACE-ADJACENT's finding
    edges = catalogue()[action["tile"]].edges
    for s in range(4):
        theirs = bd.edge_at(bd.neighbour(cell, s), (s + 2) % 4)
        mine = edges[(s - action["rotation"]) % 4]
        if theirs is None or theirs == mine or ("river" in (theirs, mine)) != river:
            continue
        return Violation(f"{action['tile']} at {action['at']} rotation {action['rotation']}: "
                         f"its {SIDES[s]} edge ({mine}) faces a {theirs} edge")
    return None


def adjacent(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    return _adjacent_problem(t.before, t.action) or OK


def _adjacent_problem(state: JSON, action: JSON) -> Verdict | None:
    bd, cell = board(state), _cell(action["at"])
    if cell in bd.cells:
        return Violation(f"{action['at']} already held a tile")
    if not any(bd.neighbour(cell, s) in bd.cells for s in range(4)):
        return Violation(f"{action['at']} touches no placed tile")
    return None


def _match_problem(state: JSON, action: JSON) -> Verdict | None:
    return _edge_problem(state, action, river=False)


def match(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    return _match_problem(t.before, t.action) or OK


def _place_judge(problem: Any) -> Any:
    def judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
        if not accepted or not _action_of(action, "place"):
            return NA
        if state["step"] != "place" or action["tile"] not in catalogue():
            return NA
        return problem(state, action, p) or OK
    return judge
