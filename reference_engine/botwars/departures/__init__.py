"""Bot Wars' library of one-rule departures (fuzz.step.blame's departure models).

`MODELS` lists `(rule_id, kind, text, factory)`: `factory()` is a `Game` that follows the
reference in everything but one rule, broken in the named way. fuzz.step.blame replays a step
an engine got wrong under each of them (and under every other reading and every nearby
parameter of the catalogue, which it makes itself: none of those is repeated here), and
the model that gives the engine's state names the rule broken and the kind of departure.

The public mutants of examples/engines/botwars/ live in `mutants` (the examples import them
from there); those that are a reading or a parameter move of the catalogue are left out of
`MODELS`. `moves` and `later` hold the departures real engines are known to make.

This package must not import the harness or the oracles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamecert.reference_engine.botwars.departures import later, moves, mutants

Model = tuple[str, str, str, Callable[[], Any]]

MODELS: list[Model] = [
    ("BOTWARS-MOVE", "later-entry-counts", "of a botlet's entries, the last one stands",
     moves.LaterEntryCounts),
    ("BOTWARS-MOVE", "diagonal-steps", "a step to a diagonal neighbour is a move",
     moves.DiagonalSteps),
    ("BOTWARS-MOVE-OCCUPIED", "onto-enemy", "a move onto an enemy botlet is carried out",
     moves.OntoEnemy),
    ("BOTWARS-MOVE-OCCUPIED", "merge-own", "a move onto an own botlet that stays is carried "
     "out, the two merging", mutants.MoveOntoOwn),
    ("BOTWARS-MOVE-COLLIDE", "p1-enters", "where both bots move onto one square, p1's "
     "botlet enters and p2's stays", moves.P1EntersFirst),
    ("BOTWARS-MOVE-INVALID", "stop-at-invalid", "a list is carried out up to its first "
     "invalid entry", moves.StopAtInvalid),
    ("BOTWARS-BATTLE", "pairwise", "battles fought one pair at a time",
     mutants.PairwiseBattles),
    ("BOTWARS-BATTLE", "diagonal", "botlets fight their eight neighbours",
     later.DiagonalBattles),
    ("BOTWARS-DEAD-MARKERS", "none", "the dead leave no marker", later.NoMarkers),
    ("BOTWARS-DEAD-MARKERS", "kept", "last turn's markers are not cleared",
     later.MarkersKept),
    ("BOTWARS-RAZE", "before-battle", "razing looks at the field before the battles",
     mutants.RazeBeforeBattle),
    ("BOTWARS-SPAWN", "when-razed", "a razed spawn still produces botlets",
     mutants.SpawnWhenRazed),
    ("BOTWARS-SPAWN", "on-anything", "a botlet is spawned whatever stands on the spawn "
     "point", later.SpawnOnAnything),
    ("BOTWARS-TURN-ORDER", "collect-before-spawn", "energy is collected before the spawns",
     later.CollectBeforeSpawn),
    ("BOTWARS-ENERGY-COLLECT", "per-botlet", "energy earns one per botlet touching it",
     later.CollectPerBotlet),
    ("BOTWARS-ENERGY-CONTESTED", "to-p1", "energy touched by both bots goes to p1",
     mutants.ContestedToP1),
    ("BOTWARS-ENERGY-CONTESTED", "to-both", "energy touched by both bots earns each one",
     later.ContestedToBoth),
    ("BOTWARS-ENERGY-SPAWN", "over-botlets", "energy may be placed over botlets and markers",
     later.EnergyOverBotlets),
    ("BOTWARS-END-ELIMINATION", "ignored", "a bot without botlets stays in the game",
     later.EliminationIgnored),
    ("BOTWARS-END-ELIMINATION", "before-spawn", "elimination judged before the spawns",
     later.EliminationBeforeSpawn),
    ("BOTWARS-WINNER", "by-energy", "at the turn limit more energy wins",
     mutants.WinnerByEnergy),
    ("BOTWARS-WINNER", "tie-to-p1", "at the turn limit a tie goes to p1", later.TieToP1),
]

# The public mutants that are a catalogue reading or parameter move under the default
# profile (fuzz.step.blame's own models), or that no step shows (bot text, listed weights):
# in the library for the examples, not in MODELS.
NOT_MODELS = (mutants.InvalidDropsMove, mutants.CollectDiagonal, mutants.EnergyEvery2,
              mutants.EnergyOnSpawn, mutants.TurnLimitLate, mutants.LateLosesGame,
              mutants.StartWithoutBotlets, mutants.WrapEdges, mutants.LenientFormat,
              mutants.EnergyWeights)

__all__ = ["MODELS", "NOT_MODELS", "Model"]
