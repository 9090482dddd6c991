"""Kingdomino's library of one-rule departures: how an engine can break each rule, one at a
time, as small subclasses of the reference engine (`placement`, `turns`, `scoring`,
`protocol`).

`MODELS` lists them for blame (`fuzz.step.blame`): `(rule, kind, text, factory)`, where
`factory()` makes the model's game. A model whose state after a step equals an engine's names
the rule that engine broke and how. The public mutants of examples/engines/kingdomino are
these classes (each example module imports its class from here). Left out of `MODELS`: the
classes that are a catalogue reading or a parameter moved by one (blame makes those models
itself: `reading-fiddleatwork`, `reading-discard`, `parameter-size-6`,
`parameter-kings-2p-1`), those that change no transition (the deal's weights, the
referee's reading of raw text), which could never explain a step, and the first order
reversed, whose rule's judge names it wherever it shows (refused, taken or listed): a model
there would name one departure a second way, a finding of its own. (KD-PLACE-ROTATION's
judge names its misread in the model's own words, `model-rotations-1-3-swapped`, for the
same reason.)

Models only: this package must not judge, fuzz or report.
"""

from __future__ import annotations

from collections.abc import Callable

from gamecert.reference_engine.kingdomino.departures.placement import (
    AnyNeighbourConnects,
    CastleOffCentre,
    DiscardWhenFits,
    ExtentSixBySix,
    NeverDiscard,
    NoConnection,
    NoExtentLimit,
    OtherTileList,
    OverlapAllowed,
    RotationMirrored,
)
from gamecert.reference_engine.kingdomino.departures.protocol import (
    EmptyCellsUnderscored,
    InvalidPutDiscards,
    LenientOutput,
    StopSkipsTurn,
    TimeoutSkipsTurn,
)
from gamecert.reference_engine.kingdomino.departures.scoring import (
    CastleJoinsZones,
    CrownsPerSquare,
    DiagonalZones,
    NoTiePoints,
    TieBreakCrownsFirst,
)
from gamecert.reference_engine.kingdomino.departures.turns import (
    DealDrawnTile,
    DealWeights,
    FirstOrderReversed,
    FirstTurnPutIgnored,
    HighestIdFirst,
    OneKingTwoPlayers,
    OneTurnShort,
    PickOnLastTurn,
    PickTakenTile,
    SeatOrderEveryTurn,
    ThreePlayerLineOfFour,
    ThreeSeats,
)
from gamecert.reference_engine.kingdomino.engine import Kingdomino

Model = tuple[str, str, str, Callable[[], Kingdomino]]

MODELS: list[Model] = [
    ("KD-PLAYERS", "three-seats", "KD-PLAYERS: a 4-player game set up with 3 seats",
     ThreeSeats),
    ("KD-TILES-IN-PLAY", "line-of-4-with-3-players",
     "KD-TILES-IN-PLAY: lines of 4 tiles with 3 players", ThreePlayerLineOfFour),
    ("KD-DEAL", "drawn-tile-drawn-again", "KD-DEAL: a tile already drawn drawn again",
     DealDrawnTile),
    ("KD-ORDER", "seat-order-every-turn", "KD-ORDER: the kings act in seat order every turn",
     SeatOrderEveryTurn),
    ("KD-ORDER", "highest-id-first", "KD-ORDER: the highest picked id acts first",
     HighestIdFirst),
    ("KD-FIRST-TURN-NO-PUT", "put-ignored", "KD-FIRST-TURN-NO-PUT: a PUT on the first turn "
     "accepted and ignored", FirstTurnPutIgnored),
    ("KD-PICK", "taken-tile-picked", "KD-PICK: a tile already picked picked again",
     PickTakenTile),
    ("KD-LAST-TURN-NO-PICK", "pick-accepted", "KD-LAST-TURN-NO-PICK: a PICK on the last "
     "turn accepted and ignored", PickOnLastTurn),
    ("KD-GAME-LENGTH", "one-turn-short", "KD-GAME-LENGTH: the game one turn short",
     OneTurnShort),
    ("KD-GRID", "castle-off-centre", "KD-GRID: the castle on (3, 4)", CastleOffCentre),
    ("KD-PLACE-ROTATION", "rotations-1-3-swapped",
     "KD-PLACE-ROTATION: rotations 1 and 3 swapped", RotationMirrored),
    ("KD-PLACE-NO-OVERLAP", "overlap-allowed", "KD-PLACE-NO-OVERLAP: a PUT over another "
     "tile's squares accepted", OverlapAllowed),
    ("KD-PLACE-EXTENT", "no-limit", "KD-PLACE-EXTENT: no limit on the territory's extent",
     NoExtentLimit),
    ("KD-PLACE-CONNECT", "no-connection", "KD-PLACE-CONNECT: no connection needed",
     NoConnection),
    ("KD-PLACE-CONNECT", "any-neighbour", "KD-PLACE-CONNECT: touching any square of the "
     "territory connects", AnyNeighbourConnects),
    ("KD-DISCARD", "discard-when-fits", "KD-DISCARD: a tile discarded though it fits",
     DiscardWhenFits),
    ("KD-DISCARD", "never-discard", "KD-DISCARD: a tile that fits nowhere never discarded",
     NeverDiscard),
    ("KD-SCORE-ZONES", "crowns-per-square", "KD-SCORE-ZONES: crowns counted per square, not "
     "times the zone's size", CrownsPerSquare),
    ("KD-SCORE-ZONES", "diagonal-zones", "KD-SCORE-ZONES: zones joined diagonally",
     DiagonalZones),
    ("KD-SCORE-ZONES", "castle-joins-zones", "KD-SCORE-ZONES: the castle joins the zones "
     "around it", CastleJoinsZones),
    ("KD-TIE-BREAK", "crowns-first", "KD-TIE-BREAK: crowns first, then territory",
     TieBreakCrownsFirst),
    ("KD-TIE-BREAK", "no-tie-points", "KD-TIE-BREAK: no tie-break points", NoTiePoints),
    ("KD-STOP", "stop-skips-turn", "KD-STOP: a stop only skips the king's turn",
     StopSkipsTurn),
    ("KD-PROTO-INPUT", "empty-cells-underscored", "KD-PROTO-INPUT: empty cells written '__'",
     EmptyCellsUnderscored),
    ("KD-PROTO-LIMITS", "timeout-skips-turn", "KD-PROTO-LIMITS: a late reply only skips the "
     "king's turn", TimeoutSkipsTurn),
]

# the public mutants' classes that are not models (see the module's docstring)
NOT_MODELS = (ExtentSixBySix, OneKingTwoPlayers, OtherTileList, InvalidPutDiscards,
              DealWeights, LenientOutput, FirstOrderReversed)

__all__ = [
    "MODELS", "NOT_MODELS", "AnyNeighbourConnects", "CastleJoinsZones", "CastleOffCentre",
    "CrownsPerSquare", "DealDrawnTile", "DealWeights", "DiagonalZones", "DiscardWhenFits",
    "EmptyCellsUnderscored", "ExtentSixBySix", "FirstOrderReversed", "FirstTurnPutIgnored",
    "HighestIdFirst", "InvalidPutDiscards", "LenientOutput", "NeverDiscard", "NoConnection",
    "NoExtentLimit", "NoTiePoints", "OneKingTwoPlayers", "OneTurnShort", "OtherTileList",
    "OverlapAllowed", "PickOnLastTurn", "PickTakenTile", "RotationMirrored",
    "SeatOrderEveryTurn", "StopSkipsTurn", "ThreePlayerLineOfFour", "ThreeSeats",
    "TieBreakCrownsFirst", "TimeoutSkipsTurn",
]
