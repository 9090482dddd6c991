"""The departure library of Carcassonne: one-rule changes of the reference engine.

`MODELS` is a sequence of `(rule_id, kind, text, factory)`: `factory()` returns a game that
breaks `rule_id` alone, in the way `kind` names (`fuzz.step.blame` replays a departing step under
each, and the one that gives the engine's state names the rule and the cause); `text` is the
class's docstring. The public one-rule mutants (examples/engines/carcassonne) are classes of
this package; `known` adds what real engines are known to do. The catalogue's other
readings and the parameters moved to a neighbouring value are models already
(`fuzz.step.blame`), so none of them is here.

Left out of `MODELS` (their classes are here for the mutants, `NOT_STATE`): the ones that
change no state, only how bot text is read (CARC-PROTO-FRAME, CARC-PROTO-REPLY), an event's
wording (CARC-BOARD-COORDS) or a draw's weights (CARC-DECK-DRAW): a step's state cannot tell
them from the reference.

This package must not import the harness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamecert.reference_engine.carcassonne.departures.claims import (
    BannersLostInJoin,
    ClaimJoinedOpponent,
    ClaimOnField,
    ClaimStaysOpen,
    ClaimWithoutMeeple,
    DiagonalOk,
    EventWireCoords,
    FieldMeetsRoad,
    FrameLengthUnchecked,
    MeeplesKept,
    PlayerIdUnchecked,
)
from gamecert.reference_engine.carcassonne.departures.farms import (
    FarmClaimJoined,
    FarmersGoHome,
    FarmIncompleteTowns,
    FarmTieOne,
    FieldCrossesRoad,
)
from gamecert.reference_engine.carcassonne.departures.known import (
    FarmTieScoresNobody,
    LakeLaidAtPlacement,
    LakeLaidAtTurnEnd,
    NoBannerBonus,
    TiePointsSplit,
    TieScoresNobody,
    TurnJudgedBackwards,
)
from gamecert.reference_engine.carcassonne.departures.river import (
    LakeAnyTime,
    LandTileInRiver,
    RiverAnywhere,
    RiverMeetsField,
    SpringTurned,
    UturnAllowed,
)
from gamecert.reference_engine.carcassonne.departures.scoring import (
    BannersIgnoredAtEnd,
    IncompleteMonastery9,
    Monastery8,
    RoadLoopOpen,
    ScoreBeforeClaim,
    TieLowestId,
    TownIncompleteRate,
)
from gamecert.reference_engine.carcassonne.departures.tower import (
    CapFromNowhere,
    CapturedSentHome,
    CapturedStays,
    FloorOnCapped,
    FloorsUnlimited,
    NoExchange,
    RansomPays2,
    RansomWith2Points,
    ReachDiagonal,
    ReachStopsAtGap,
    TowerTilesMissing,
    TwoRansoms,
)
from gamecert.reference_engine.carcassonne.departures.turns import (
    DealOne,
    DealToMover,
    DeckBiased,
    DiscardWhenFits,
    DrawByKind,
    EndWhenDeckEmpty,
    ExtraPlayer,
    HandOfTwo,
    NoStopAt50,
    TilesShort,
    TurnOrderReversed,
    WinnerBeforeFinal,
)

Model = tuple[str, str, str, Callable[[], Any]]

NOT_STATE = (DrawByKind, DeckBiased, EventWireCoords, FrameLengthUnchecked, PlayerIdUnchecked)


def _text(cls: type) -> str:
    """The class's docstring on one line."""
    return " ".join((cls.__doc__ or cls.__name__).split())


_RULES: list[tuple[str, str, type]] = [
    ("CARC-RIVER-SPRING", "spring-turned", SpringTurned),
    ("CARC-RIVER-DRAW", "land-tile-in-river", LandTileInRiver),
    ("CARC-RIVER-CONTIGUOUS", "river-anywhere", RiverAnywhere),
    ("CARC-RIVER-MEETS-RIVER", "river-meets-field", RiverMeetsField),
    ("CARC-RIVER-NO-UTURN", "uturn-allowed", UturnAllowed),
    ("CARC-RIVER-LAKE-ENDS", "lake-any-time", LakeAnyTime),
    ("CARC-TILES", "tiles-short", TilesShort),
    ("CARC-PLAYERS", "extra-player", ExtraPlayer),
    ("CARC-TURN-ORDER", "turn-order-reversed", TurnOrderReversed),
    ("CARC-DECK-DRAW", "deal-to-mover", DealToMover),
    ("CARC-HAND-DEAL", "deal-one", DealOne),
    ("CARC-HAND-SIZE", "hand-of-two", HandOfTwo),
    ("CARC-HAND-NOFIT", "discard-when-fits", DiscardWhenFits),
    ("CARC-END-TILES", "end-when-deck-empty", EndWhenDeckEmpty),
    ("CARC-END-POINTS", "no-stop-at-50", NoStopAt50),
    ("CARC-WINNER", "winner-before-final", WinnerBeforeFinal),
    ("CARC-PLACE-ADJACENT", "diagonal-ok", DiagonalOk),
    ("CARC-PLACE-MATCH", "field-meets-road", FieldMeetsRoad),
    ("CARC-FEATURE-JOIN", "banners-lost-in-join", BannersLostInJoin),
    ("CARC-CLAIM-UNCLAIMED", "claim-joined-opponent", ClaimJoinedOpponent),
    ("CARC-CLAIM-PLACED-TILE", "claim-on-field", ClaimOnField),
    ("CARC-CLAIM-ONE", "claim-stays-open", ClaimStaysOpen),
    ("CARC-MEEPLE-SUPPLY", "claim-without-meeple", ClaimWithoutMeeple),
    ("CARC-MEEPLE-RETURN", "meeples-kept", MeeplesKept),
    ("CARC-SCORE-MAJORITY", "tie-lowest-id", TieLowestId),
    ("CARC-SCORE-INCOMPLETE", "banners-ignored-at-end", BannersIgnoredAtEnd),
    ("CARC-SCORE-INCOMPLETE", "incomplete-monastery-9", IncompleteMonastery9),
    ("CARC-ROAD-COMPLETE", "road-loop-open", RoadLoopOpen),
    ("CARC-TOWN-COMPLETE", "town-incomplete-rate", TownIncompleteRate),
    ("CARC-MONASTERY-COMPLETE", "monastery-8", Monastery8),
    ("CARC-SCORE-TIMING", "score-before-claim", ScoreBeforeClaim),
    ("CARC-FARM-STAYS", "farmers-go-home", FarmersGoHome),
    ("CARC-FARM-FIELDS", "field-crosses-road", FieldCrossesRoad),
    ("CARC-FARM-CLAIM", "farm-claim-joined", FarmClaimJoined),
    ("CARC-FARM-SCORE", "farm-incomplete-towns", FarmIncompleteTowns),
    ("CARC-FARM-MAJORITY", "farm-tie-one", FarmTieOne),
    ("CARC-TOWER-TILES", "tower-tiles-missing", TowerTilesMissing),
    ("CARC-TOWER-FLOORS", "floors-unlimited", FloorsUnlimited),
    ("CARC-TOWER-ACTION", "floor-on-capped", FloorOnCapped),
    ("CARC-TOWER-REACH", "reach-diagonal", ReachDiagonal),
    ("CARC-TOWER-REACH", "reach-stops-at-gap", ReachStopsAtGap),
    ("CARC-TOWER-CAPTURE", "captured-stays", CapturedStays),
    ("CARC-TOWER-CAPTURE", "captured-sent-home", CapturedSentHome),
    ("CARC-TOWER-EXCHANGE", "no-exchange", NoExchange),
    ("CARC-TOWER-RANSOM", "ransom-with-2-points", RansomWith2Points),
    ("CARC-TOWER-RANSOM", "two-ransoms", TwoRansoms),
    ("CARC-TOWER-RANSOM", "ransom-pays-2", RansomPays2),
    ("CARC-TOWER-MEEPLES", "cap-from-nowhere", CapFromNowhere),
    # what real engines are known to do (the issues, the case studies)
    ("CARC-RIVER-DRAW", "lake-laid-at-placement", LakeLaidAtPlacement),
    ("CARC-RIVER-DRAW", "lake-laid-at-turn-end", LakeLaidAtTurnEnd),
    ("CARC-RIVER-NO-UTURN", "turn-judged-backwards", TurnJudgedBackwards),
    ("CARC-TOWN-COMPLETE", "no-banner-bonus", NoBannerBonus),
    ("CARC-SCORE-MAJORITY", "tie-scores-nobody", TieScoresNobody),
    ("CARC-SCORE-MAJORITY", "tie-points-split", TiePointsSplit),
    ("CARC-FARM-MAJORITY", "farm-tie-scores-nobody", FarmTieScoresNobody),
]

MODELS: list[Model] = [(rule, kind, _text(cls), cls) for rule, kind, cls in _RULES]
