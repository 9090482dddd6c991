"""Stage 1's checks of the game's end: it ends when a score reaches the limit
(CARC-END-POINTS) or the tiles run out (CARC-END-TILES), and the winners are the top
scores as the profile reads ties (CARC-WINNER).

On canonical JSON and the step's events, never the reference engine. Binds no rule id to a
check: `checks/__init__.py` does.
"""

from __future__ import annotations

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, expect
from gamecert.oracles.carcassonne.checks.common import JSON, _events
from gamecert.oracles.carcassonne.checks.scores import _pre_final
from gamecert.spec import Profile


def points_open(a: JSON, p: Profile) -> Verdict:
    limit = p.param("CARC-END-POINTS", "points")
    if a["result"] is not None:
        return NA
    return expect(max(a["scores"]) < limit,
                  f"a score of {max(a['scores'])} reached {limit} but the game goes on")


def end_points(t: Transition, p: Profile) -> Verdict:
    limit = p.param("CARC-END-POINTS", "points")
    a = t.after
    if not _events(t, "game-ended"):
        return NA
    reached = max(_pre_final(t)) >= limit
    reason = a["result"]["reason"]
    return expect(reached == (reason == "points-limit"),
                  f"the game ended for {reason!r} with scores {_pre_final(t)} before the final "
                  f"scoring")


def tiles_left(a: JSON, p: Profile) -> Verdict:
    empty = not a["deck"] and not any(a["hands"])
    if a["result"] is None:
        if a["phase"] != "land" or a["step"] == "claim":  # the last tile's claim step
            return NA
        return expect(not empty, "the deck and every hand are empty but the game goes on")
    if a["result"]["reason"] == "tiles-exhausted":
        return expect(empty, "the game ended for tiles-exhausted with tiles left")
    return NA


def end_tiles(t: Transition, p: Profile) -> Verdict:
    a = t.after
    skipped = _events(t, "turn-skipped")
    if not skipped:
        return NA
    for e in skipped:
        if a["deck"] or a["hands"][e["player"] - 1]:
            return Violation(f"player {e['player']} was skipped while holding or able to draw "
                             f"a tile")
    return OK


def winner(s: JSON, p: Profile) -> Verdict:
    r = s["result"]
    if r is None:
        return NA
    top = max(r["scores"])
    tied = [i + 1 for i, s in enumerate(r["scores"]) if s == top]
    want = tied if len(tied) == 1 or p.variant("CARC-WINNER") == "shared" else []
    return expect(r["winners"] == want, f"winners {r['winners']}, the scores "
                                        f"{r['scores']} give {want}")
