"""Stage 1's checks of the equipment and the turn: the tile set conserved, per-player lists
and the turn order, board coordinates, the spring, the deck's draws, the opening deal and
hand sizes, and discards only when nothing fits (CARC-TILES, CARC-PLAYERS, CARC-TURN-ORDER,
CARC-BOARD-COORDS, CARC-RIVER-SPRING, CARC-DECK-DRAW, CARC-HAND-*).

On canonical JSON and the tile catalogue only, never the reference engine. Binds no rule
id to a check: `checks/__init__.py` does.
"""

from __future__ import annotations

from functools import cache
from operator import itemgetter

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, expect
from gamecert.oracles.carcassonne.board import catalogue, hand_fits, tile_totals, tower_ids
from gamecert.oracles.carcassonne.checks.common import JSON, _action_of, _events, _is, _n, board
from gamecert.oracles.carcassonne.checks.river import uturn_verdict
from gamecert.spec import Profile


# --- equipment, players, board ---------------------------------------------------------------
def tiles_conserved(s: JSON, p: Profile) -> Verdict:
    """The land and River tiles are all somewhere (the Tower tiles: CARC-TOWER-TILES)."""
    want = _land_counts()
    totals = tile_totals(s)
    if dict.__eq__(totals, want) is True:  # the common case, compared in C: no diff, no extra
        return OK
    # a Tower tile is never in `want`: its count here is CARC-TOWER-TILES's
    diff = {k: totals.get(k, 0) - n for k, n in want.items() if totals.get(k, 0) != n}
    extra: list[str] = []
    if (totals.keys() - want.keys()) - tower_ids():  # rare: as first written
        cat = catalogue()
        got = {k: n for k, n in totals.items() if k not in cat or cat[k].set != "tower"}
        extra = sorted(set(got) - set(want))
    return expect(not diff and not extra, f"tile counts off by {diff} {extra or ''} (board + "
                                           f"hands + piles + discards must hold the set)")


@cache
def _land_counts() -> dict[str, int]:
    """The land and River tiles of the catalogue, with their counts (read only)."""
    return {tid: info.count for tid, info in catalogue().items() if info.set != "tower"}


def players_sized(a: JSON, p: Profile) -> Verdict:
    n = _n(p)
    sizes = {len(a["scores"]), len(a["supply"]), len(a["hands"]), a["players"]}
    if sizes != {n}:
        return Violation(f"per-player lists have sizes {sorted(sizes)}, the profile has {n}")
    return expect(a["to_move"] is None or 1 <= a["to_move"] <= n,
                  f"to_move {a['to_move']} is not a player 1-{n}")


def turn_order(t: Transition, p: Profile) -> Verdict:
    b, a = t.before, t.after
    if a["to_move"] is None or b["to_move"] is None or a["to_move"] == b["to_move"]:
        return NA
    n = _n(p)
    if _events(t, "river-phase-ended") and p.variant("CARC-TURN-ORDER") == "restart":
        want = 1
    else:
        skips = len(_events(t, "turn-skipped"))
        want = (b["to_move"] + skips) % n + 1
    return expect(a["to_move"] == want, f"player {a['to_move']} moves after player "
                                        f"{b['to_move']}; the turn order gives {want}")


def coords(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    act = t.action
    entry = {"at": act["at"], "tile": act["tile"], "rotation": act["rotation"]}
    if entry not in t.after["board"]:
        return Violation(f"the board lacks the placed {entry}")
    placed = _events(t, "tile-placed")
    cells = list(map(tuple, map(_AT, t.after["board"])))  # tuple(b["at"]) of each, in order
    if len(set(cells)) != len(cells):
        return Violation("two tiles share a cell")
    return expect(len(placed) == 1 and placed[0]["at"] == act["at"]
                  and placed[0]["rotation"] == act["rotation"],
                  f"tile-placed event {placed} does not match the action {act}")


_AT = itemgetter("at")


def spring(s: JSON, p: Profile) -> Verdict:
    ok = {"at": [0, 0], "tile": "RS", "rotation": 0} in s["board"]
    return expect(ok, "the spring is not at [0, 0] with rotation 0")


# --- tiles and hands -------------------------------------------------------------------------
def deck_draw(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "draw"):
        return NA
    b, a, tile = t.before, t.after, t.action["tile"]
    pile = "river_pile" if b["phase"] == "river" else "deck"
    had = b[pile].get(tile, 0)
    if had <= 0:
        return Violation(f"{tile} was drawn but the {pile} held none")
    now = a[pile].get(tile, 0)
    if now != had - 1:
        return Violation(f"the {pile} held {had} {tile}, after the draw {now}")
    who = b["pending"][0]
    return expect(a["hands"][who - 1].count(tile) == b["hands"][who - 1].count(tile) + 1,
                  f"player {who} did not receive the drawn {tile}")


def _turn_draws(p: Profile, hand: int, deck: int) -> int:
    """CARC-HAND-SIZE: tiles drawn at the start of a land turn with `hand` tiles in hand."""
    cap = int(p.param("CARC-HAND-SIZE", "hand_max"))
    return max(0, min(int(p.param("CARC-HAND-SIZE", "draw_per_turn")), cap - hand, deck))


def opening_deal(t: Transition, p: Profile) -> Verdict:
    """The deal in player order, then the first land turn's own draws (checked here, not by
    CARC-HAND-SIZE, so a wrong deal is reported once)."""
    if not _events(t, "river-phase-ended"):
        return NA
    a = t.after
    if a["to_move"] is None:
        return NA
    deal = p.param("CARC-HAND-DEAL", "opening_deal")
    cap = p.param("CARC-HAND-SIZE", "hand_max")
    left = sum(a["deck"].values())
    sizes = [len(h) for h in a["hands"]]
    want: list[int] = []
    for player in range(1, _n(p) + 1):
        k = max(0, min(deal, cap - sizes[player - 1], left))
        want += [player] * k
        sizes[player - 1] += k
        left -= k
    first = a["to_move"]
    want += [first] * _turn_draws(p, sizes[first - 1], left)
    return expect(a["pending"] == want,
                  f"opening deal and first draws pending {a['pending']}, expected {want}")


def hand_bound(a: JSON, p: Profile) -> Verdict:
    cap = p.param("CARC-HAND-SIZE", "hand_max")
    sizes = [len(h) for h in a["hands"]]
    return expect(max(sizes) <= cap, f"hand sizes {sizes} exceed {cap}")


def hand_size(t: Transition, p: Profile) -> Verdict:
    """At the start of each land turn the player draws exactly what the rule allows."""
    a, b = t.after, t.before
    if (a["phase"] != "land" or a["to_move"] is None or a["to_move"] == b["to_move"]
            or _events(t, "river-phase-ended") or a["step"] not in ("draw", "place")):
        return NA
    player = a["to_move"]
    hand = len(a["hands"][player - 1])
    n = _turn_draws(p, hand, sum(a["deck"].values()))
    if a["step"] == "place":
        return expect(n == 0 and hand > 0,
                      f"player {player} starts the turn with {hand} tiles and draws nothing; "
                      f"the rule draws {n}")
    return expect(a["pending"] == [player] * n,
                  f"player {player} starts the turn with {hand} tiles and draws "
                  f"{len(a['pending'])} (pending {a['pending']}); the rule draws {n}")


def _nothing_fits(state: JSON, p: Profile) -> bool:
    hand = state["hands"][state["to_move"] - 1]
    bd = board(state)
    if state["phase"] != "river":
        return next(hand_fits(bd, hand), None) is None
    cell = bd.course().open_cell
    if cell is None:
        return True
    variant = p.variant("CARC-RIVER-NO-UTURN")
    return not any(bd.mismatch(tile, cell, r) is None
                   and not isinstance(uturn_verdict(state, tile, cell, r, variant), Violation)
                   for tile in set(hand) for r in range(4))


def nofit(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "discard"):
        return NA
    if not _nothing_fits(t.before, p):
        return Violation("a tile was discarded although a tile of the hand fits")
    tile = t.action["tile"]
    return expect(t.after["discarded"].count(tile) == t.before["discarded"].count(tile) + 1,
                  f"the discarded {tile} is not among the discarded tiles")


def nofit_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not _action_of(action, "discard"):
        return NA
    if state["step"] != "place" or action.get("tile") not in state["hands"][state["to_move"] - 1]:
        return NA
    allowed = _nothing_fits(state, p)
    if accepted and not allowed:
        return Violation("the engine accepted a discard while a tile of the hand fits")
    return expect(accepted or not allowed, "the engine refused the discard although no tile of "
                                           "the hand fits anywhere")
