"""One oracle per Carcassonne rule id of stage 1 (`spec/carcassonne.json`), on canonical
JSON only: `ORACLES` binds each rule id to its checks, kept by job in this package's
modules (`equipment`, `river`, `placement`, `claims`, `scores`, `ending`, `protocol`, all
reading `common`). `HARNESS_RULES` lists the rules only the harness can see.

This face only binds and re-exports (`fast` and the tests read the names in `__all__` from
here); it computes nothing. The modules of this package import their
siblings, never this face.
"""

from __future__ import annotations

from gamecert.oracles.base import Oracle
from gamecert.oracles.carcassonne import bare, bare_scoring
from gamecert.oracles.carcassonne.checks.claims import (
    _claim_judge,
    _placed_tile_problem,
    _unclaimed_problem,
    claim_one,
    claim_placed_tile,
    claim_unclaimed,
    feature_join,
    meeple_return,
    supply,
    supply_judge,
    supply_state,
)
from gamecert.oracles.carcassonne.checks.common import (
    CLAIM,
    DRAW,
    PLACE,
    _find,
    _is,
    _n,
    action_kind,
    board,
    farms,
)
from gamecert.oracles.carcassonne.checks.ending import (
    end_points,
    end_tiles,
    points_open,
    tiles_left,
    winner,
)
from gamecert.oracles.carcassonne.checks.equipment import (
    _AT,
    coords,
    deck_draw,
    hand_bound,
    hand_size,
    nofit,
    nofit_judge,
    opening_deal,
    players_sized,
    spring,
    tiles_conserved,
    turn_order,
)
from gamecert.oracles.carcassonne.checks.placement import (
    _adjacent_problem,
    _edge_problem,
    _match_problem,
    _place_judge,
    adjacent,
    match,
)
from gamecert.oracles.carcassonne.checks.protocol import proto_frame, proto_reply
from gamecert.oracles.carcassonne.checks.river import (
    _river_cell_problem,
    _uturn_problem,
    lake_ends,
    lake_judge,
    river_contiguous,
    river_draw,
    river_draw_judge,
    river_meets_river,
    river_no_uturn,
)
from gamecert.oracles.carcassonne.checks.scores import (
    COMPLETE_KIND,
    TurnScoring,
    _completion,
    incomplete,
    majority,
    score_timing,
    turn_scoring,
)
from gamecert.oracles.weights import by_copies

ORACLES: list[Oracle] = [
    Oracle("CARC-TILES", state=tiles_conserved),
    Oracle("CARC-PLAYERS", state=players_sized),
    Oracle("CARC-TURN-ORDER", state=bare.first_river_turn, check=turn_order,
           reads_events=True, bare=bare.turn_order),
    Oracle("CARC-BOARD-COORDS", check=coords, on=PLACE, reads_events=True, bare=bare.coords),
    Oracle("CARC-RIVER-SPRING", state=spring),
    # asked at every step of the river phase: a tile laid outside a placement is seen at
    # whatever step it is laid
    Oracle("CARC-RIVER-DRAW", check=river_draw, judge=river_draw_judge,
           weights=by_copies("draw", "tile", lambda s: s["river_pile"] if s["phase"] == "river"
                             else None, "river tiles")),
    Oracle("CARC-RIVER-CONTIGUOUS", check=river_contiguous,
           judge=_place_judge(_river_cell_problem), on=PLACE),
    Oracle("CARC-RIVER-MEETS-RIVER", check=river_meets_river,
           judge=_place_judge(lambda s, a, p: _edge_problem(s, a, river=True)), on=PLACE),
    Oracle("CARC-RIVER-NO-UTURN", check=river_no_uturn, judge=_place_judge(_uturn_problem),
           on=PLACE),
    Oracle("CARC-RIVER-LAKE-ENDS", check=lake_ends, judge=lake_judge, reads_events=True,
           bare=bare.lake_ends),
    Oracle("CARC-DECK-DRAW", check=deck_draw,
           weights=by_copies("draw", "tile", lambda s: s["deck"] if s["phase"] != "river"
                             else None, "land tiles"), on=DRAW),
    Oracle("CARC-HAND-DEAL", check=opening_deal, reads_events=True, bare=bare.hand_deal),
    Oracle("CARC-HAND-SIZE", state=hand_bound, check=hand_size, reads_events=True,
           bare=bare.hand_size),
    Oracle("CARC-HAND-NOFIT", check=nofit, judge=nofit_judge, on=frozenset({"discard"})),
    Oracle("CARC-PLACE-ADJACENT", check=adjacent,
           judge=_place_judge(lambda s, a, p: _adjacent_problem(s, a)), on=PLACE),
    Oracle("CARC-PLACE-MATCH", check=match,
           judge=_place_judge(lambda s, a, p: _match_problem(s, a)), on=PLACE),
    # how features join shows in canonical JSON only through what they score: no state-only
    # form (the departure library's join models explain such steps)
    Oracle("CARC-FEATURE-JOIN", check=feature_join, reads_events=True),
    Oracle("CARC-CLAIM-ONE", check=claim_one, reads_events=True, bare=bare.claim_one),
    Oracle("CARC-CLAIM-PLACED-TILE", check=claim_placed_tile,
           judge=_claim_judge(_placed_tile_problem), on=CLAIM, reads_events=True,
           bare=bare.claim_placed_tile),
    Oracle("CARC-CLAIM-UNCLAIMED", check=claim_unclaimed,
           judge=_claim_judge(_unclaimed_problem), on=CLAIM),
    Oracle("CARC-MEEPLE-SUPPLY", state=supply_state, check=supply, judge=supply_judge,
           on=CLAIM),
    Oracle("CARC-MEEPLE-RETURN", check=meeple_return, reads_events=True,
           bare=bare.meeple_return),
    *(Oracle(rule, check=_completion(kind), reads_events=True,
             bare=bare_scoring.COMPLETION_FORMS[rule]) for rule, kind in COMPLETE_KIND.items()),
    Oracle("CARC-SCORE-MAJORITY", check=majority, reads_events=True, bare=bare_scoring.majority),
    # a turn's scoring is judged at its placement and at the end of its claim step
    Oracle("CARC-SCORE-TIMING", check=score_timing, on=frozenset({"place", "claim", "pass"}),
           reads_events=True, bare=bare.score_timing),
    Oracle("CARC-SCORE-INCOMPLETE", check=incomplete, reads_events=True,
           bare=bare_scoring.incomplete),
    Oracle("CARC-END-POINTS", state=points_open, check=end_points, reads_events=True,
           bare=bare.end_points),
    Oracle("CARC-END-TILES", state=tiles_left, check=end_tiles, reads_events=True,
           bare=bare.end_tiles),
    Oracle("CARC-WINNER", state=winner),
    Oracle("CARC-PROTO-FRAME", referee=proto_frame),
    Oracle("CARC-PROTO-REPLY", referee=proto_reply),
]

HARNESS_RULES = ("CARC-PROTO-LIMITS",)
"""Rules no oracle can see in canonical JSON (time limits, bans): the harness enforces them."""

# the names `fast` and the tests read from here
__all__ = [
    "HARNESS_RULES",
    "ORACLES",
    "_AT",
    "TurnScoring",
    "_find",
    "_is",
    "_n",
    "action_kind",
    "board",
    "farms",
    "hand_bound",
    "players_sized",
    "points_open",
    "proto_reply",
    "spring",
    "supply_state",
    "tiles_conserved",
    "tiles_left",
    "turn_scoring",
]
