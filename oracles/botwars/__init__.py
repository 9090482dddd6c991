"""Bot Wars oracles: one per rule of `spec/botwars.json`, on canonical JSON only."""

from gamecert.oracles.base import Oracle
from gamecert.oracles.botwars import battle, edges, energy, game, moves, spawning
from gamecert.oracles.weights import uniform

ORACLES: list[Oracle] = [
    Oracle("BOTWARS-GRID", state=game.grid_state, check=edges.grid_check,
           listed=edges.grid_listed),
    Oracle("BOTWARS-SPAWN-POINTS", state=spawning.spawn_points_state,
           check=spawning.spawn_points_check),
    Oracle("BOTWARS-FIRST-BOTLETS", state=spawning.first_botlets_state,
           check=spawning.first_botlets_check),
    Oracle("BOTWARS-TURN-ORDER", check=game.turn_order_check, judge=game.turn_order_judge),
    Oracle("BOTWARS-MOVE", check=moves.move_check, listed=moves.listed("BOTWARS-MOVE")),
    Oracle("BOTWARS-MOVE-STAY", check=moves.stay_check,
           listed=moves.listed("BOTWARS-MOVE-STAY")),
    Oracle("BOTWARS-MOVE-OCCUPIED", check=moves.occupied_check,
           listed=moves.listed("BOTWARS-MOVE-OCCUPIED")),
    Oracle("BOTWARS-MOVE-SWAP", check=moves.swap_check),
    Oracle("BOTWARS-MOVE-SAME-TARGET", check=moves.same_target_check),
    Oracle("BOTWARS-MOVE-ENERGY", check=moves.energy_check,
           listed=moves.listed("BOTWARS-MOVE-ENERGY")),
    Oracle("BOTWARS-MOVE-COLLIDE", check=moves.collide_check),
    Oracle("BOTWARS-MOVE-INVALID", check=moves.invalid_check, judge=moves.invalid_judge),
    Oracle("BOTWARS-BATTLE", check=battle.battle_check),
    Oracle("BOTWARS-DEAD-MARKERS", check=battle.markers_check),
    Oracle("BOTWARS-RAZE", check=spawning.raze_check),
    Oracle("BOTWARS-SPAWN", check=spawning.spawn_check),
    Oracle("BOTWARS-ENERGY-COLLECT", check=energy.collect_check),
    Oracle("BOTWARS-ENERGY-CONTESTED", check=energy.contested_check),
    Oracle("BOTWARS-ENERGY-SPAWN", check=energy.energy_spawn_check,
           judge=energy.energy_spawn_judge, weights=uniform("energy", "free mirror pairs")),
    Oracle("BOTWARS-ENERGY-SQUARES", check=energy.energy_squares_check,
           judge=energy.energy_squares_judge),
    Oracle("BOTWARS-FORMAT-DQ", check=game.format_check, judge=game.format_judge,
           referee=game.format_referee),
    Oracle("BOTWARS-TIME-LIMIT", check=game.time_limit_check),
    Oracle("BOTWARS-END-ELIMINATION", check=game.elimination_check),
    Oracle("BOTWARS-END-TURNLIMIT", check=game.turn_limit_check),
    Oracle("BOTWARS-WINNER", check=game.winner_check),
]

__all__ = ["ORACLES"]
