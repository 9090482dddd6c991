"""Kingdomino oracles: one or more per rule id of `spec/kingdomino.json`.

Each oracle restates its rule over canonical JSON (with `board`'s independent grid model)
and owns one aspect of a step, so an engine that breaks one rule trips that rule's oracle.
Placement judges are chained (grid, then overlap, then extent, then connection) so an
action that breaks several placement rules is blamed on the first only.

Speed (issue 15): a check that judges only some kinds of step says which (`on`, by
`action_kind`); the checks of one put, and the state hooks of one state, share the facts
`facts` works out once; a check that reads them falls back to its plain reading (kept
beside it) on JSON the fast reading cannot read, so every verdict is what it was. The
lockstep takes one look at each state (`STATE_PREJUDGE`) and at each deal or play
(`PREJUDGE`) from `fast`, which answers OK or NA for a hook only where the hook would,
and leaves the rest (every violation among them) to the hooks.

The checks live by job in this package's modules (`material`, `turns`, `placement`,
`scoring`, `protocol`, all reading `common`); this face binds each rule id to its hooks
(`ORACLES`) and re-exports the names the search and the tests read from here. It computes
nothing; the modules of this package import their siblings, never this face.
"""

from __future__ import annotations

from gamecert.oracles.base import Oracle
from gamecert.oracles.kingdomino import board, facts, fast
from gamecert.oracles.kingdomino.common import (
    K_DEAL,
    K_INVALID_PUT,
    K_ORDER,
    K_PLAY,
    K_PUT,
    K_STOP,
    ON_DEAL,
    ON_PUT,
    PLAY_PHASE,
    _acting,
    _faults,
    _free_tiles,
    _last,
    _put_step,
    action_kind,
)
from gamecert.oracles.kingdomino.material import (
    _tiles_fast,
    _tiles_plain,
    in_play_check,
    in_play_state,
    kings_state,
    players_state,
    tiles_check,
)
from gamecert.oracles.kingdomino.placement import (
    PLAIN_CHAIN_CHECKS,
    _chain_judge,
    _grid_state_plain,
    _rotation_fast,
    _rotation_plain,
    discard_check,
    discard_judge,
    grid_judge,
    grid_state,
    rotation_check,
    rotation_judge,
    tiles_judge,
)
from gamecert.oracles.kingdomino.protocol import (
    _input_state_plain,
    _placement_referee,
    _rows_ok,
    expected_reply,
    input_state,
    limits_check,
    output_referee,
    pick_referee,
    put_invalid_check,
    put_invalid_judge,
    put_invalid_referee,
    stop_check,
    stop_judge,
    stop_state,
)
from gamecert.oracles.kingdomino.scoring import score_check, tie_break, tie_state
from gamecert.oracles.kingdomino.turns import (
    _kings_next,
    _line_after,
    deal_check,
    deal_judge,
    first_turn_check,
    first_turn_judge,
    last_turn_judge,
    last_turn_state,
    length_check,
    length_state,
    order_check,
    order_first_check,
    order_first_judge,
    pick_check,
    pick_judge,
)
from gamecert.oracles.weights import uniform


def _placement_oracles() -> list[Oracle]:
    out = []
    for rule in ("KD-PLACE-NO-OVERLAP", "KD-PLACE-EXTENT", "KD-PLACE-CONNECT"):
        judge, check = _chain_judge(rule)
        out.append(Oracle(rule, judge=judge, check=check, referee=_placement_referee(rule),
                          on=ON_PUT))
    return out


ORACLES = [
    Oracle("KD-TILES", check=tiles_check, judge=tiles_judge,
           referee=_placement_referee("KD-TILES"), on=ON_PUT),
    Oracle("KD-PLAYERS", state=players_state),
    Oracle("KD-TILES-IN-PLAY", state=in_play_state, check=in_play_check, on=ON_DEAL),
    Oracle("KD-KINGS", state=kings_state),
    Oracle("KD-DEAL", judge=deal_judge, check=deal_check,
           weights=uniform("deal", "tiles not yet drawn"), on=ON_DEAL),
    Oracle("KD-ORDER-FIRST", judge=order_first_judge, check=order_first_check,
           weights=uniform("order", "orders of the kings"), on=frozenset({K_ORDER})),
    Oracle("KD-ORDER", check=order_check, on=PLAY_PHASE),
    Oracle("KD-FIRST-TURN-NO-PUT", judge=first_turn_judge, check=first_turn_check,
           on=PLAY_PHASE),
    Oracle("KD-PICK", judge=pick_judge, check=pick_check, referee=pick_referee,
           on=frozenset({K_PUT, K_PLAY, K_INVALID_PUT})),
    Oracle("KD-LAST-TURN-NO-PICK", state=last_turn_state, judge=last_turn_judge),
    Oracle("KD-GAME-LENGTH", state=length_state, check=length_check, on=PLAY_PHASE),
    Oracle("KD-GRID", state=grid_state, judge=grid_judge,
           referee=_placement_referee("KD-GRID")),
    Oracle("KD-PLACE-ROTATION", judge=rotation_judge, check=rotation_check,
           referee=_placement_referee("KD-PLACE-ROTATION"), on=ON_PUT),
    *_placement_oracles(),
    Oracle("KD-DISCARD", judge=discard_judge, check=discard_check,
           referee=_placement_referee("KD-DISCARD"), on=frozenset({K_PLAY})),
    Oracle("KD-SCORE-ZONES", check=score_check),
    Oracle("KD-TIE-BREAK", state=tie_state),
    Oracle("KD-STOP", state=stop_state, judge=stop_judge, check=stop_check,
           on=frozenset({K_STOP})),
    Oracle("KD-PUT-INVALID", judge=put_invalid_judge, check=put_invalid_check,
           referee=put_invalid_referee, on=frozenset({K_INVALID_PUT})),
    Oracle("KD-PROTO-INPUT", state=input_state),
    Oracle("KD-PROTO-OUTPUT", referee=output_referee),
    Oracle("KD-PROTO-LIMITS", check=limits_check, on=frozenset({K_STOP})),
]

# One look at a state for the nine state hooks (`fast`): OK or NA where the hook would say
# exactly that, else None (the hook is asked).
STATE_PREJUDGE = fast.STATE_PREJUDGE

# One look at a step for the checks of a deal and a play (`fast`), likewise.
PREJUDGE = (fast.RULES, fast.verdicts)

# the names the search (fuzz/games/kingdomino) and the tests read from here
__all__ = ["K_DEAL", "K_INVALID_PUT", "K_ORDER", "K_PLAY", "K_PUT", "K_STOP", "ORACLES",
           "PLAIN_CHAIN_CHECKS", "PREJUDGE", "STATE_PREJUDGE", "_acting", "_faults", "_free_tiles",
           "_grid_state_plain", "_input_state_plain", "_kings_next", "_last", "_line_after",
           "_put_step", "_rotation_fast", "_rotation_plain", "_rows_ok", "_tiles_fast",
           "_tiles_plain", "action_kind", "board", "deal_check", "discard_judge", "expected_reply",
           "facts", "fast", "grid_state", "in_play_check", "in_play_state", "input_state",
           "kings_state", "last_turn_state", "length_check", "length_state", "order_check",
           "pick_check", "players_state", "rotation_check", "score_check", "stop_state",
           "tie_break", "tie_state", "tiles_check"]
