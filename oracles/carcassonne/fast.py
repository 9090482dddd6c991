"""Shared looks at a Carcassonne state and step, for the oracles' common case (issue 15).

`state_verdicts(state, profile)` (the game's `STATE_PREJUDGE`) answers for the cheap state
hooks in one call. Each answer is the hook's own verdict on this state, or the verdict it
gave on an earlier state whose parts it reads are the very same objects (`is`): the
lockstep builds its reference's JSON after a step from the JSON before it, sharing the
parts the step left alone (`observe_next`), and JSON shown to the oracles is never changed
afterwards, so a hook that reads only unchanged parts answers as it did. Each remembered
verdict holds the parts it was given (their ids stay theirs) and the profile. A reply that
shares nothing (an engine's own JSON) shares no part: every hook is asked afresh.

`step_verdicts(t, profile)` (the game's `PREJUDGE`) answers, from the step's action kind
and its event types, for the checks that can only answer NA there (no event they judge),
in the order each check reads them, and for the three placement checks (adjacent, edges
that match, river edges) from one look at the cells around the placement.

Either answers OK or NA only, and only where the hook or check itself answers exactly
that; anything else is None ("ask the hook"): every violation, and its message, comes from
the hooks. Whatever they cannot read they raise on as the hooks would, and the lockstep
then asks each hook on its own. `tests/carcassonne/test_fast.py` compares every answer
with the hook's own, on the states and steps of random games of every profile (shared
JSON and fresh), and on corrupted ones.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, Verdict
from gamecert.oracles.carcassonne import checks, tower
from gamecert.spec import Profile

JSON = Any
Answer = Verdict | None

# --- state hooks -----------------------------------------------------------------------------
STATE_RULES = ("CARC-TILES", "CARC-TOWER-TILES", "CARC-PLAYERS", "CARC-RIVER-SPRING",
               "CARC-HAND-SIZE", "CARC-MEEPLE-SUPPLY", "CARC-END-POINTS", "CARC-END-TILES",
               "CARC-WINNER", "CARC-TOWER-EXCHANGE")
_ABSENT = object()  # a part the state does not have

# per rule: (profile, the parts the hook read, its verdict), or None
_memo: list[tuple[Any, ...] | None] = [None] * len(STATE_RULES)


def _remember(i: int, v: Verdict, key: tuple[Any, ...]) -> Answer:
    """`v`, hook i's verdict on the parts `key` (profile first); kept if OK or NA."""
    if v is OK or v is NA:
        _memo[i] = (*key, v)
        return v
    _memo[i] = None
    return None  # a violation: the lockstep asks the hook (its message is the hook's)


def state_verdicts(s: JSON, p: Profile) -> tuple[Answer, ...]:
    """The state hooks' verdicts on `s` (STATE_RULES' order), OK or NA, else None."""
    board, hands, deck = s["board"], s["hands"], s["deck"]
    river, discarded, result = s["river_pile"], s["discarded"], s["result"]
    scores, supply = s["scores"], s["supply"]
    towers, prisoners = s.get("towers", _ABSENT), s.get("prisoners", _ABSENT)
    memo = _memo

    m = memo[0]  # CARC-TILES: the tiles of board, hands, deck, river pile and discards
    if m is not None and m[0] is p and m[1] is board and m[2] is hands and m[3] is deck \
            and m[4] is river and m[5] is discarded:
        tiles: Answer = m[6]
    else:
        tiles = _remember(0, checks.tiles_conserved(s, p), (p, board, hands, deck, river,
                                                            discarded))
    m = memo[1]  # CARC-TOWER-TILES: the same tiles, and whether there are towers
    if m is not None and m[0] is p and m[1] is board and m[2] is hands and m[3] is deck \
            and m[4] is river and m[5] is discarded and m[6] is towers:
        tower_tiles: Answer = m[7]
    else:
        tower_tiles = _remember(1, tower.tower_tiles(s, p), (p, board, hands, deck, river,
                                                             discarded, towers))
    players, to_move = s["players"], s["to_move"]
    m = memo[2]  # CARC-PLAYERS
    if m is not None and m[0] is p and m[1] is scores and m[2] is supply and m[3] is hands \
            and m[4] is players and m[5] is to_move:
        sized: Answer = m[6]
    else:
        sized = _remember(2, checks.players_sized(s, p), (p, scores, supply, hands, players,
                                                          to_move))
    m = memo[3]  # CARC-RIVER-SPRING
    if m is not None and m[0] is p and m[1] is board:
        spring: Answer = m[2]
    else:
        spring = _remember(3, checks.spring(s, p), (p, board))
    m = memo[4]  # CARC-HAND-SIZE
    if m is not None and m[0] is p and m[1] is hands:
        bound: Answer = m[2]
    else:
        bound = _remember(4, checks.hand_bound(s, p), (p, hands))
    meeples = s["meeples"]
    m = memo[5]  # CARC-MEEPLE-SUPPLY
    if m is not None and m[0] is p and m[1] is prisoners and m[2] is meeples \
            and m[3] is supply:
        owned: Answer = m[4]
    else:
        owned = _remember(5, checks.supply_state(s, p), (p, prisoners, meeples, supply))
    m = memo[6]  # CARC-END-POINTS
    if m is not None and m[0] is p and m[1] is result and m[2] is scores:
        points: Answer = m[3]
    else:
        points = _remember(6, checks.points_open(s, p), (p, result, scores))
    phase, step = s["phase"], s["step"]
    m = memo[7]  # CARC-END-TILES
    if m is not None and m[0] is p and m[1] is deck and m[2] is hands and m[3] is result \
            and m[4] is phase and m[5] is step:
        left: Answer = m[6]
    else:
        left = _remember(7, checks.tiles_left(s, p), (p, deck, hands, result, phase, step))
    # CARC-WINNER: no result, nothing to judge (the hook reads nothing else first)
    winner: Answer = NA if result is None else None
    # CARC-TOWER-EXCHANGE: outside the tower stage, NA before anything is read
    exchange: Answer = None if tower.tower_stage(p) else NA
    return (tiles, tower_tiles, sized, spring, bound, owned, points, left, winner, exchange)


STATE_PREJUDGE = (STATE_RULES, state_verdicts)
