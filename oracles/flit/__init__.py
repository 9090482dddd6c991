"""Flit oracles: one or more per rule id of `spec/flit.json`.

Each oracle restates its rule over canonical JSON and owns one aspect of a transition, so an
engine that breaks one rule trips that rule's oracle and no other. Each names the kind of
departure it sees (`cause`: a conversion missed, or in another colour; a move accepted for
each way it is invalid...), with the fields that differ in its words, so two departures
under one rule are two findings.

A bot's step is judged as an engine replies to it: stopping before the neutral step (an
engine that takes chance outcomes as actions) or as a whole turn, the neutral step and any
frozen bots' turns included (an engine that draws for itself: `oracles.flit.turn`). Only
FLIT-PROTO-UPDATES reads the step's events: it is about the updates themselves, so it has
no state-only form, and an engine without events leaves it unchecked.

The checks live by job in this package's modules (`setup`, `moves`, `ending`, `protocol`,
all reading `common`); this face binds each rule id to its checks (`ORACLES`, most behind
`fast`'s shared look) and re-exports `action_kind`. It computes nothing; the modules of
this package import their siblings, never this face.
"""

from __future__ import annotations

from gamecert.oracles.base import Oracle
from gamecert.oracles.flit import chance, fast
from gamecert.oracles.flit.common import MOVE, NEUTRAL, SETUP, action_kind
from gamecert.oracles.flit.ending import (
    _catchup_end,
    _turncap_end,
    end_timing,
    passes_bookkeeping,
    winner,
    winner_tie,
)
from gamecert.oracles.flit.fast import with_fast_path as _fast
from gamecert.oracles.flit.moves import (
    convert_check,
    freeze,
    invalid_check,
    invalid_judge,
    move_valid_check,
    move_valid_judge,
    move_valid_referee,
    nomove_check,
    nomove_judge,
    time_limit,
    torus_check,
    torus_judge,
    torus_referee,
    turn_order,
    turn_order_judge,
)
from gamecert.oracles.flit.protocol import proto_reply, proto_updates
from gamecert.oracles.flit.setup import (
    board_size,
    neutral_check,
    neutral_judge,
    setup_available_check,
    setup_available_judge,
    setup_order,
)

# Each check below is its plain function above, answered from one shared look at the step
# (`fast.verdicts`) where that look shows what the plain function would answer.
ORACLES: list[Oracle] = [
    Oracle("FLIT-BOARD-SIZE", state=board_size),
    Oracle("FLIT-BOARD-TORUS", check=_fast("FLIT-BOARD-TORUS", torus_check), judge=torus_judge,
           referee=torus_referee, on=frozenset({"move"})),
    Oracle("FLIT-SETUP-AVAILABLE", check=setup_available_check, judge=setup_available_judge,
           weights=chance.setup_weights, on=SETUP),
    Oracle("FLIT-SETUP-ORDER", check=setup_order, on=SETUP),
    Oracle("FLIT-TURN-ORDER", check=_fast("FLIT-TURN-ORDER", turn_order), judge=turn_order_judge,
           on=MOVE | NEUTRAL),
    Oracle("FLIT-MOVE-VALID", check=_fast("FLIT-MOVE-VALID", move_valid_check),
           judge=move_valid_judge, referee=move_valid_referee, on=frozenset({"move"})),
    Oracle("FLIT-MOVE-NOMOVE", check=_fast("FLIT-MOVE-NOMOVE", nomove_check), judge=nomove_judge,
           on=frozenset({"pass"})),
    Oracle("FLIT-MOVE-INVALID", check=invalid_check, judge=invalid_judge,
           on=frozenset({"invalid"})),
    Oracle("FLIT-CONVERT", check=_fast("FLIT-CONVERT", convert_check), on=frozenset({"move"})),
    # at a bot's step too: a whole turn (follow mode) holds its neutral step
    Oracle("FLIT-NEUTRAL-ADD", check=_fast("FLIT-NEUTRAL-ADD", neutral_check),
           judge=neutral_judge, weights=chance.neutral_weights, on=NEUTRAL | MOVE),
    Oracle("FLIT-TIME-LIMIT", check=_fast("FLIT-TIME-LIMIT", time_limit), on=MOVE),
    Oracle("FLIT-FREEZE", check=_fast("FLIT-FREEZE", freeze)),
    Oracle("FLIT-END-TURNCAP", check=_fast("FLIT-END-TURNCAP", _turncap_end)),
    Oracle("FLIT-END-ALLPASS", check=_fast("FLIT-END-ALLPASS", passes_bookkeeping)),
    Oracle("FLIT-END-CATCHUP", check=_fast("FLIT-END-CATCHUP", _catchup_end)),
    Oracle("FLIT-END-TIMING", check=_fast("FLIT-END-TIMING", end_timing)),
    Oracle("FLIT-WINNER", check=_fast("FLIT-WINNER", winner)),
    Oracle("FLIT-WINNER-TIE", check=_fast("FLIT-WINNER-TIE", winner_tie)),
    Oracle("FLIT-PROTO-REPLY", referee=proto_reply),
    Oracle("FLIT-PROTO-UPDATES", check=_fast("FLIT-PROTO-UPDATES", proto_updates),
           reads_events=True),
]

# One look at the step for the checks it can answer (the lockstep's shared prejudgement):
# the same answers the wrapped checks give, asked once per step.
PREJUDGE = (fast.RULES, fast.verdicts)

__all__ = ["ORACLES", "PREJUDGE", "action_kind", "chance", "fast"]
