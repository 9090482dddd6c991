"""Bot Wars oracles: one per rule of `spec/botwars.json`, on canonical JSON only.

A check that judges only some kinds of step says which (`on`, by `action_kind`): a list
of moves (`SUBMIT`: the list's entries), or the carrying out of a turn, which only p2's
list or a bot's time-out under empty-turn can start (`TURN`); the lockstep asks it about
no other step (tests/test_oracle_on.py shows each answering NA at every other one)."""

from typing import Any

from gamecert.oracles.base import Oracle
from gamecert.oracles.botwars import bare, battle, edges, energy, game, moves, spawning
from gamecert.oracles.botwars.edges import edge_deferred
from gamecert.oracles.weights import uniform

SUBMIT = frozenset({"moves"})
TURN = frozenset({"moves", "timeout"})  # model.is_resolution: p2's list, or a time-out


def action_kind(action: Any) -> str:
    """The kind of a step, from its action alone (the oracles' `on` sets name these)."""
    return str(action.get("type", ""))


ORACLES: list[Oracle] = [
    Oracle("BOTWARS-GRID", state=game.grid_state, check=edges.grid_check,
           listed=edges.grid_listed, reads_events=True, bare=edges.grid_bare),
    Oracle("BOTWARS-SPAWN-POINTS", state=spawning.spawn_points_state,
           check=spawning.spawn_points_check),
    Oracle("BOTWARS-FIRST-BOTLETS", state=spawning.first_botlets_state,
           check=spawning.first_botlets_check),
    Oracle("BOTWARS-TURN-ORDER", check=game.turn_order_check, judge=game.turn_order_judge,
           reads_events=True, bare=bare.turn_order),
    Oracle("BOTWARS-MOVE", check=moves.move_check, on=TURN, listed=moves.listed("BOTWARS-MOVE"),
           reads_events=True, bare=edge_deferred(bare.entries("BOTWARS-MOVE"))),
    Oracle("BOTWARS-MOVE-STAY", check=moves.stay_check, on=SUBMIT,
           listed=moves.listed("BOTWARS-MOVE-STAY"), reads_events=True,
           bare=edge_deferred(bare.entries("BOTWARS-MOVE-STAY"))),
    Oracle("BOTWARS-MOVE-OCCUPIED", check=moves.occupied_check, on=SUBMIT,
           listed=moves.listed("BOTWARS-MOVE-OCCUPIED"), reads_events=True,
           bare=edge_deferred(bare.entries("BOTWARS-MOVE-OCCUPIED"))),
    Oracle("BOTWARS-MOVE-SWAP", check=moves.swap_check, on=SUBMIT, reads_events=True,
           bare=edge_deferred(bare.entries("BOTWARS-MOVE-SWAP"))),
    Oracle("BOTWARS-MOVE-SAME-TARGET", check=moves.same_target_check, on=TURN,
           reads_events=True, bare=edge_deferred(bare.entries("BOTWARS-MOVE-SAME-TARGET"))),
    Oracle("BOTWARS-MOVE-ENERGY", check=moves.energy_check, on=TURN,
           listed=moves.listed("BOTWARS-MOVE-ENERGY"), reads_events=True,
           bare=edge_deferred(bare.energy_moves)),
    Oracle("BOTWARS-MOVE-COLLIDE", check=moves.collide_check, on=TURN, reads_events=True,
           bare=edge_deferred(bare.entries("BOTWARS-MOVE-COLLIDE"))),
    Oracle("BOTWARS-MOVE-INVALID", check=moves.invalid_check, on=SUBMIT,
           judge=moves.invalid_judge, reads_events=True,
           bare=edge_deferred(bare.entries("BOTWARS-MOVE-INVALID"))),
    Oracle("BOTWARS-BATTLE", check=battle.battle_check, on=TURN, reads_events=True,
           bare=edge_deferred(bare.battle_plain)),
    Oracle("BOTWARS-DEAD-MARKERS", check=battle.markers_check, reads_events=True,
           bare=bare.markers),
    Oracle("BOTWARS-RAZE", check=spawning.raze_check, reads_events=True, bare=bare.raze),
    Oracle("BOTWARS-SPAWN", check=spawning.spawn_check, on=TURN, reads_events=True,
           bare=edge_deferred(bare.spawn)),
    Oracle("BOTWARS-ENERGY-COLLECT", check=energy.collect_check, on=TURN, reads_events=True,
           bare=edge_deferred(bare.collection(contested=False))),
    Oracle("BOTWARS-ENERGY-CONTESTED", check=energy.contested_check, on=TURN,
           reads_events=True, bare=edge_deferred(bare.collection(contested=True))),
    Oracle("BOTWARS-ENERGY-SPAWN", check=energy.energy_spawn_check,
           judge=energy.energy_spawn_judge, weights=uniform("energy", "free mirror pairs")),
    Oracle("BOTWARS-ENERGY-SQUARES", check=energy.energy_squares_check,
           on=frozenset({"energy"}) | TURN, judge=energy.energy_squares_judge),
    Oracle("BOTWARS-FORMAT-DQ", check=game.format_check, on=frozenset({"bad-format"}),
           judge=game.format_judge, referee=game.format_referee, reads_events=True,
           bare=bare.disqualified("BOTWARS-FORMAT-DQ")),
    Oracle("BOTWARS-TIME-LIMIT", check=game.time_limit_check, on=frozenset({"timeout"}),
           reads_events=True, bare=bare.disqualified("BOTWARS-TIME-LIMIT")),
    Oracle("BOTWARS-END-ELIMINATION", check=game.elimination_check, on=TURN),
    Oracle("BOTWARS-END-TURNLIMIT", check=game.turn_limit_check),
    Oracle("BOTWARS-WINNER", check=game.winner_check),
]

__all__ = ["ORACLES", "action_kind"]
