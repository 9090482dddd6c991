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
and leaves the rest (every violation among them) to the hooks here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import permutations
from typing import Any

from gamecert.oracles.base import (
    NA,
    OK,
    Oracle,
    Transition,
    Verdict,
    Violation,
    ambiguous,
    cause,
    expect,
)
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.oracles.kingdomino import fast
from gamecert.oracles.weights import uniform
from gamecert.spec import Profile

JSON = Any

# The kinds of step (`action_kind`) and those a player's turn takes: the reference accepts a
# deal only in the deal phase, an order only in the order phase, the rest only in play.
K_PUT, K_PLAY, K_INVALID_PUT, K_STOP, K_DEAL, K_ORDER = (
    "put", "play", "invalid-put", "stop", "deal", "order")
PLAY_PHASE = frozenset({K_PUT, K_PLAY, K_INVALID_PUT, K_STOP})
ON_PUT, ON_DEAL = frozenset({K_PUT}), frozenset({K_DEAL})


def action_kind(action: JSON) -> str:
    """The kind of a step, from its action alone (the oracles' `on` sets name these): a
    play with a PUT (a list) is a "put", any other play a "play"; an unknown type "other"."""
    kind = action.get("type")
    if kind == K_DEAL:  # the commonest (nearly half the steps): what `str(kind)` gives
        return K_DEAL
    if kind == "play":
        return K_PUT if isinstance(action.get("put"), list) else K_PLAY
    return str(kind) if kind in (K_INVALID_PUT, K_STOP, K_DEAL, K_ORDER) else "other"


def _acting(s: JSON) -> tuple[int | None, int]:
    k = s["placing"][s["next"]]
    return k["tile"], k["player"]


def _last(s: JSON, profile: Profile) -> bool:
    return bool(s["turn"] >= f.consts(profile).turns)


def _free_tiles(s: JSON) -> list[int]:
    return [e["tile"] for e in s["line"] if e["player"] is None]


def _pick_ok(s: JSON, pick: Any, profile: Profile) -> bool:
    return pick is None if _last(s, profile) else pick in _free_tiles(s)


def _play(s: JSON, a: JSON) -> bool:
    return bool(s["phase"] == "play" and a.get("type") == "play")


def _placing_put(s: JSON, a: JSON) -> bool:
    """A play that puts a tile (not the first turn, put given, well-shaped)."""
    put = a.get("put")
    # `_play(s, a)` and `_acting(s)[0] is not None`, read in the same order
    if s["phase"] != "play" or a.get("type") != "play":
        return False
    k = s["placing"][s["next"]]
    tile, _ = k["tile"], k["player"]  # what `_acting` reads
    if tile is None:
        return False
    return (isinstance(put, list) and len(put) == 3 and type(put[0]) is int
            and type(put[1]) is int and type(put[2]) is int)


def _faults(s: JSON, a: JSON, profile: Profile) -> list[str]:
    tile, p = _acting(s)
    assert tile is not None
    return b.placement_faults(b.grid(s, p), a["put"], b.tiles(profile)[tile],
                              profile.param("KD-PLACE-EXTENT", "size"))


def _fits(s: JSON, profile: Profile) -> bool:
    tile, p = _acting(s)
    if tile is None:
        return False
    return b.fits_somewhere(b.grid(s, p), b.tiles(profile)[tile],
                            profile.param("KD-PLACE-EXTENT", "size")) is not None


def _put_ok(s: JSON, a: JSON, profile: Profile) -> bool:
    if _acting(s)[0] is None:
        return a.get("put") is None
    if a.get("put") is None:
        return not _fits(s, profile)
    return _placing_put(s, a) and not _faults(s, a, profile)


def _swap_refuses(s: JSON, a: JSON, profile: Profile) -> bool:
    """A refused legal PUT that rotations 1 and 3 swapped would make illegal."""
    x, y, r = a["put"]
    return r in (1, 3) and bool(_faults(s, {**a, "put": [x, y, 4 - r]}, profile))


def _stricter_sizes(profile: Profile) -> list[int]:
    """The smaller territory limit an engine may wrongly play: the value a season raised the
    limit from (an engine left at the shipped value). None for a shipped profile: there a
    refused legal PUT is KD-PLACE-ROTATION's and a discard of a tile that fits KD-DISCARD's,
    as ever."""
    size = profile.param("KD-PLACE-EXTENT", "size")
    was = [c.was for c in profile.changes if (c.kind, c.rule, c.name)
           == ("parameter", "KD-PLACE-EXTENT", "size") and isinstance(c.was, int)]
    return sorted({k for k in was if 2 <= k < size})


def _too_strict(s: JSON, a: JSON, profile: Profile) -> bool:
    """A legal PUT that breaks KD-PLACE-EXTENT under a smaller limit (`_stricter_sizes`):
    what an engine that plays that limit refuses."""
    tile, p = _acting(s)
    if tile is None:
        return False
    g, squares = b.grid(s, p), b.tiles(profile)[tile]
    return any("KD-PLACE-EXTENT" in b.placement_faults(g, a["put"], squares, k)
               for k in _stricter_sizes(profile))


def _fits_when_stricter(s: JSON, profile: Profile) -> bool:
    """The acting tile still fits somewhere under every smaller limit of `_stricter_sizes`
    (so an engine that discards it is not explained by one)."""
    tile, p = _acting(s)
    if tile is None:
        return False
    g, squares = b.grid(s, p), b.tiles(profile)[tile]
    return all(b.fits_somewhere(g, squares, k) is not None for k in _stricter_sizes(profile))


# --- material ----------------------------------------------------------------------------

# The hooks below that run at every step build their message only for a violation (the
# same text `expect` would carry): the condition decides the verdict, as it always did.

def players_state(s: JSON, profile: Profile) -> Verdict:
    n = f.consts(profile).players
    if s["players"] == n and len(s["grids"]) == n and len(s["stopped"]) == n:
        return OK
    return Violation(f"the profile plays {n} players; the state has {s['players']} and "
                     f"{len(s['grids'])} grids")


def kings_state(s: JSON, profile: Profile) -> Verdict:
    c = f.consts(profile)
    k, kings = c.kings, s["kings"]
    # a list of whole numbers: count compares each as `v == k` does (after an identity test
    # that implies it); anything else is read as before
    if (kings.count(k) == len(kings)) if type(kings) is list else all(v == k for v in kings):
        return OK
    return Violation(f"each player has {k} king(s) with {c.players} players; "
                     f"the state says {s['kings']}")


def in_play_state(s: JSON, profile: Profile) -> Verdict:
    c = f.consts(profile)
    drawn = len(c.tiles) - len(s["bag"])
    if len(s["line"]) <= c.line_size and drawn <= c.in_play:
        return OK
    return cause("line-size" if len(s["line"]) > c.line_size else "tiles-in-play",
                 f"{drawn} tiles drawn and a line of {len(s['line'])}: at most {c.in_play} "
                 f"come into play, in lines of {c.line_size}")


def in_play_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "deal" or t.before["phase"] != "deal":
        return NA
    size, line = f.consts(profile).line_size, len(t.after["line"])
    if t.after["phase"] == "deal":
        if line < size and t.after["bag"] != []:
            return OK
        return cause("line-size", f"a line of {size} is complete with {line} tiles, yet "
                     "another is drawn")
    if line == size or not t.after["bag"]:
        return OK
    return cause("line-size", f"the line is complete with {line} tiles; the rule says {size}")


def _put_step(t: Transition, profile: Profile) -> f.PutStep | None:
    """`t`'s facts when it puts a tile, else None; shared by the checks of one step."""
    last = f._LAST
    if last[0] is t and last[1] is profile:
        return last[2]
    return f.put_step(t, profile, _placing_put(t.before, t.action))


def _else_plain(quick: Any, plain: Any) -> Any:
    """A check: `quick`'s verdict, or on a reply it cannot read (it raises), the plain
    check's own verdict or exception."""
    def check(t: Transition, profile: Profile) -> Verdict:
        try:
            return quick(t, profile)  # type: ignore[no-any-return]
        except Exception:
            return plain(t, profile)  # type: ignore[no-any-return]
    return check


def _tiles_fast(t: Transition, profile: Profile) -> Verdict:
    """`_tiles_plain` over the shared facts: the same grids compared in the same order."""
    step = _put_step(t, profile)
    if step is None:
        return NA
    tile, p = step.tile, step.player
    c = f.consts(profile)
    diffs = step.read()
    for q in range(1, c.players + 1):
        diff = diffs[q - 1]
        if q != p and diff:
            return cause("other-grid", f"player {q}'s grid changed when player {p} placed "
                         "a tile")
        if q == p and not step.matches:
            return cause("squares", f"tile {tile} is {'/'.join(c.tiles[tile])}; the grid "
                         f"gained {sorted(diff.values())}")
    return OK


def _tiles_plain(t: Transition, profile: Profile) -> Verdict:
    if not _placing_put(t.before, t.action):
        return NA
    tile, p = _acting(t.before)
    assert tile is not None
    for q in range(1, b.players(profile) + 1):
        diff = b.changed_cells(b.grid(t.before, q), b.grid(t.after, q))
        if q != p and diff:
            return cause("other-grid", f"player {q}'s grid changed when player {p} placed "
                         "a tile")
        if q == p and sorted(diff.values()) != sorted(b.tiles(profile)[tile]):
            return cause("squares", f"tile {tile} is {'/'.join(b.tiles(profile)[tile])}; the "
                         f"grid gained {sorted(diff.values())}")
    return OK


tiles_check = _else_plain(_tiles_fast, _tiles_plain)


# --- turns -------------------------------------------------------------------------------

def deal_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "deal" or a.get("type") != "deal":
        return NA
    ok = a.get("tile") in s["bag"]
    return expect(accepted == ok, f"tile {a.get('tile')} is {'' if ok else 'not '}among the "
                  f"tiles not yet drawn, but the engine {'accepted' if accepted else 'refused'} it")


def deal_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "deal":
        return NA
    tile = t.action["tile"]
    bag = t.before["bag"]
    if type(tile) is int and type(bag) is list and bag.count(tile) == 1:
        k = bag.index(tile)  # the one equal to it: the same as leaving out every x == tile
        want_bag = bag[:k] + bag[k + 1:]
    else:
        want_bag = [x for x in bag if x != tile]
    want_line = sorted([e["tile"] for e in t.before["line"]] + [tile])
    got_line = [e["tile"] for e in t.after["line"]]
    if t.after["turn"] != t.before["turn"]:
        return NA
    if t.after["bag"] == want_bag and got_line == want_line:
        return OK
    return Violation(f"drawing tile {tile}: the bag must lose it and the line show it in "
                     f"ascending id; line {got_line}")


def _orders(s: JSON, profile: Profile) -> list[list[int]]:
    k = b.kings(profile)
    seats = [p for _ in range(k) for p in range(1, b.players(profile) + 1)]
    if profile.variant("KD-ORDER-FIRST") == "seat-order":
        return [seats]
    return [list(o) for o in sorted(set(permutations(seats)))]


def order_first_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "order" or a.get("type") != "order":
        return NA
    ok = a.get("order") in _orders(s, profile)
    if accepted and not ok:
        return Violation(f"first-turn order {a.get('order')} accepted; allowed: "
                         f"{_orders(s, profile)[:3]}")
    return OK if accepted or not ok else Violation(
        f"first-turn order {a.get('order')} refused, but the rule allows it")


def order_first_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "order":
        return NA
    want = [{"tile": None, "player": p} for p in t.action["order"]]
    return expect(t.after["placing"] == want and t.after["phase"] == "deal",
                  f"after the order step the kings act in order {t.action['order']} with no "
                  f"tile to place; got {t.after['placing']}")


def _line_after(t: Transition) -> list[JSON]:
    pick = t.action.get("pick")
    if t.action.get("type") in ("play", "invalid-put") and pick is not None:
        p = _acting(t.before)[1]
        return [{"tile": e["tile"], "player": p if e["tile"] == pick else e["player"]}
                for e in t.before["line"]]
    return list(t.before["line"])


def order_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play" or t.after["phase"] == "over" \
            or t.after["turn"] != t.before["turn"] + 1:
        return NA
    stopped = t.after["stopped"]
    want = sorted(({"tile": e["tile"], "player": e["player"]} for e in _line_after(t)
                   if e["player"] is not None and not stopped[e["player"] - 1]),
                  key=lambda e: e["tile"])
    if t.after["placing"] == want:
        return OK
    return Violation(f"turn {t.after['turn']}: kings act by ascending picked id {want}; "
                     f"got {t.after['placing']}")


def first_turn_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _play(s, a) or _acting(s)[0] is not None or a.get("put") is None:
        return NA
    return expect(not accepted, f"PUT {a.get('put')} accepted on the first turn")


def first_turn_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play" or _acting(t.before)[0] is not None:
        return NA
    return expect(t.after["grids"] == t.before["grids"], "a grid changed on the first turn")


def pick_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play" or a.get("type") not in ("play", "invalid-put") \
            or _last(s, profile):
        return NA
    ok = _pick_ok(s, a.get("pick"), profile)
    return expect(ok or not accepted, f"PICK {a.get('pick')} accepted; free tiles "
                                      f"{_free_tiles(s)}")


def pick_check(t: Transition, profile: Profile) -> Verdict:
    # `_last`, `_acting`, `_free_tiles` and `_line_after` written out: the same reads, in
    # the same order, without their calls (it runs at every player's step)
    before, after = t.before, t.after
    if before["phase"] != "play" or t.action.get("type") not in ("play", "invalid-put") \
            or before["turn"] >= f.consts(profile).turns:
        return NA
    pick = t.action.get("pick")
    k = before["placing"][before["next"]]
    _, p = k["tile"], k["player"]
    if after["phase"] == "over":
        return NA  # a game that ends before its last turn is KD-GAME-LENGTH's
    line = before["line"]
    free = [e["tile"] for e in line if e["player"] is None]
    if pick not in free:
        return cause("not-free", f"PICK {pick} applied; free tiles were {free}")
    if after["turn"] != before["turn"]:
        return OK
    if pick is not None:
        marked = [{"tile": e["tile"], "player": p if e["tile"] == pick else e["player"]}
                  for e in line]
    else:
        marked = list(line)
    if after["line"] == marked:
        return OK
    return cause("line-marked", f"player {p} picked tile {pick}: the line should mark it and "
                 f"nothing else; got {t.after['line']}")


def last_turn_state(s: JSON, profile: Profile) -> Verdict:
    if s["turn"] < f.consts(profile).turns or s["phase"] == "over":
        return NA
    if s["phase"] == "play" and s["line"] == []:
        return OK
    return Violation(f"the last turn ({s['turn']}) draws no line; phase {s['phase']}, "
                     f"line {s['line']}")


def last_turn_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play" or a.get("type") not in ("play", "invalid-put") \
            or not _last(s, profile) or a.get("pick") is None:
        return NA
    return expect(not accepted, f"PICK {a.get('pick')} accepted on the last turn")


def length_state(s: JSON, profile: Profile) -> Verdict:
    turns = f.consts(profile).turns
    if s["turn"] <= turns:
        return OK
    return cause("goes-on", f"turn {s['turn']}: the game lasts {turns} turns")


def length_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play":
        return NA
    stopped = t.after["stopped"]
    rest = [k for k in t.before["placing"][t.before["next"] + 1:]
            if not stopped[k["player"] - 1]]
    alone = f.consts(profile).alone
    everyone_out = stopped.count(False) <= alone
    should_end = everyone_out or (not rest and _last(t.before, profile))
    if t.after["phase"] == "over":
        if should_end or (not rest and not _kings_next(t)):
            return OK
        return cause("ends-early", f"the game ended on turn {t.before['turn']} of "
                     f"{f.consts(profile).turns}")
    if not should_end:
        return OK
    return cause("goes-on", f"turn {t.before['turn']} is the last and every king has played, "
                 "but the game goes on")


def _kings_next(t: Transition) -> bool:
    """Whether a king of a player still in holds a tile of the new line once this step's
    PICK is made: without one, no king acts next turn and the game cannot go on (a player
    kept in after a bad command, with no PICK made, is another rule's departure)."""
    stopped = t.after["stopped"]
    return any(e["player"] is not None and not stopped[e["player"] - 1]
               for e in _line_after(t))


def grid_state(s: JSON, profile: Profile) -> Verdict:
    try:
        bad = f.state_grids(s).castle_bad
    except Exception:  # a state it cannot read: the plain check's own verdict or exception
        return _grid_state_plain(s, profile)
    if bad is None:
        return OK
    return Violation(f"player {bad + 1}'s castle must be on (4, 4) and nowhere else")


def _grid_state_plain(s: JSON, profile: Profile) -> Verdict:
    for p in range(1, len(s["grids"]) + 1):
        g = b.grid(s, p)
        if b.cell(g, 4, 4) != "*0" or g.count("*") != 1:
            return Violation(f"player {p}'s castle must be on (4, 4) and nowhere else")
    return OK


def _rotation_confused(s: JSON, a: JSON, profile: Profile) -> bool:
    """An accepted PUT that is off the grid or overlapping with its own rotation but valid
    with another rotation of the same first square: a rotation read wrongly, not a
    placement rule ignored (the extent and connection rules are judged as usual)."""
    faults = _faults(s, a, profile)
    if not faults or faults[0] not in ("KD-GRID", "KD-PLACE-NO-OVERLAP"):
        return False
    x, y, r = a["put"]
    return any(not _faults(s, {**a, "put": [x, y, r2]}, profile) for r2 in range(4) if r2 != r)


def grid_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _placing_put(s, a) or b.on_grid(a["put"]):
        return NA
    if accepted and _rotation_confused(s, a, profile):
        return NA
    return expect(not accepted, f"PUT {a['put']} leaves the 9 x 9 grid but was accepted")


def refused_discard_blame(s: JSON, a: JSON, accepted: bool, profile: Profile
                          ) -> tuple[str, ...]:
    """The rules an engine may break by refusing the discard of a tile that fits nowhere:
    either it found a placement (the rules whose relaxing makes the tile fit), or it never
    discards (KD-DISCARD itself). One step cannot tell the two apart where a relaxing makes
    the tile fit: KD-DISCARD is then the last of the rules named."""
    if accepted or not _play(s, a) or a.get("put") is not None:
        return ()
    tile = _acting(s)[0]
    if tile is None or _fits(s, profile) or not _pick_ok(s, a.get("pick"), profile):
        return ()
    return tuple(dict.fromkeys((*_nofit_blame(s, profile), "KD-DISCARD")))


def _other_squares(s: JSON, profile: Profile) -> list[tuple[str, str]]:
    """The acting king's tile as the catalogue's other tile lists have it, where they
    differ (the disputed tiles of KD-TILES)."""
    tile = _acting(s)[0]
    assert tile is not None
    mine = b.tiles(profile)[tile]
    return [sq for sq in b.other_lists(profile, tile) if sq != mine]


def _nofit_blame(s: JSON, profile: Profile, put: list[int] | None = None
                 ) -> tuple[str, ...]:
    """An engine treats a tile that fits nowhere as if it fitted. When it placed it with
    `put`, the rule that placement breaks is the one it ignores; otherwise the rules whose
    relaxing (a territory one square wider, no connection; else any extent) makes the tile
    fit, else KD-DISCARD itself. Two rules when both relaxings make it fit: one step cannot
    tell them apart, so both oracles name it as ambiguous (`ambiguous`) and the campaign's
    triage charges it to whichever of the two another finding shows broken."""
    tile, p = _acting(s)
    assert tile is not None
    g, squares = b.grid(s, p), b.tiles(profile)[tile]
    size = profile.param("KD-PLACE-EXTENT", "size")
    tiles: tuple[str, ...] = ()
    if any(b.fits_somewhere(g, other, size) is not None for other in _other_squares(s, profile)):
        tiles = ("KD-TILES",)
    if put is not None:
        faults = b.placement_faults(g, put, squares, size)
        if len(faults) == 1:
            return tuple(dict.fromkeys((*tiles, faults[0])))
    # one square wider is the nearer miss, so it comes first
    relaxed = (("KD-PLACE-EXTENT",) if b.fits_somewhere(g, squares, size + 1) is not None
               else ()) + (("KD-PLACE-CONNECT",)
                           if b.fits_somewhere(g, squares, size, connect=False) is not None
                           else ())
    if tiles or relaxed:
        return tiles + relaxed
    if b.fits_somewhere(g, squares, b.N) is not None:
        return ("KD-PLACE-EXTENT",)
    return ("KD-DISCARD",)


def _blamed(rule: str, blamed: tuple[str, ...], text: str) -> Verdict:
    """A violation of `rule` when it is among the `blamed`; marked ambiguous when it is
    not alone there."""
    if rule not in blamed:
        return NA
    return ambiguous(blamed, text) if len(blamed) > 1 else Violation(text)


def _other_list_fits(s: JSON, a: JSON, profile: Profile) -> bool:
    """The PUT breaks a placement rule with this tile list's squares but not with another
    list's: the engine plays another tile list (KD-TILES)."""
    g = b.grid(s, _acting(s)[1])
    size = profile.param("KD-PLACE-EXTENT", "size")
    return any(not b.placement_faults(g, a["put"], other, size)
               for other in _other_squares(s, profile))


def tiles_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    blamed = refused_discard_blame(s, a, accepted, profile)
    if "KD-TILES" in blamed:
        return _blamed("KD-TILES", blamed, f"tile {_acting(s)[0]} fits nowhere, yet its discard "
                       "was refused: the engine plays it with another tile list's squares")
    if not _placing_put(s, a) or not accepted:
        return NA
    faults = _faults(s, a, profile)
    if not faults:
        return NA
    if not _other_list_fits(s, a, profile):
        return OK
    text = (f"PUT {a['put']} accepted: it fits only with another tile list's squares for "
            f"tile {_acting(s)[0]}")
    # one broken placement rule explains it as well: one step cannot tell which
    return ambiguous(("KD-TILES", faults[0]), text) if len(faults) == 1 else Violation(text)


def _extent_too_strict(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict | None:
    """KD-PLACE-EXTENT read with a smaller limit than the profile's: a legal PUT that breaks
    the smaller limit refused, or a tile that fits nowhere within it discarded. None when
    the step is not one of these."""
    size = profile.param("KD-PLACE-EXTENT", "size")
    if not accepted and _placing_put(s, a) and not _faults(s, a, profile) \
            and _pick_ok(s, a.get("pick"), profile) and _too_strict(s, a, profile):
        text = (f"PUT {a['put']} places the tile by every rule but was refused: it keeps "
                f"the territory within {size} x {size}, not within a smaller limit")
        return ambiguous(("KD-PLACE-EXTENT", "KD-PLACE-ROTATION"), text) \
            if _swap_refuses(s, a, profile) else Violation(text)
    if accepted and _play(s, a) and a.get("put") is None and _fits(s, profile) \
            and not _fits_when_stricter(s, profile):
        return ambiguous(("KD-PLACE-EXTENT", "KD-DISCARD"),
                         f"tile {_acting(s)[0]} fits within {size} x {size}, not within a "
                         f"smaller limit, yet its discard was accepted")
    return None


# each placement rule's check as it reads without the shared facts (`_chain_judge`)
PLAIN_CHAIN_CHECKS: dict[str, Any] = {}


def _chain_judge(rule: str) -> Any:
    order = ["KD-GRID", "KD-PLACE-NO-OVERLAP", "KD-PLACE-EXTENT", "KD-PLACE-CONNECT"]

    def judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
        blamed = refused_discard_blame(s, a, accepted, profile)
        if rule in blamed:
            return _blamed(rule, blamed, f"tile {_acting(s)[0]} fits nowhere, yet its discard "
                           f"was refused: the engine places it against {rule}")
        if rule == "KD-PLACE-EXTENT":
            strict = _extent_too_strict(s, a, accepted, profile)
            if strict is not None:
                return strict
        if not _placing_put(s, a):
            return NA
        faults = _faults(s, a, profile)
        if not faults or faults[0] != rule or (accepted and _rotation_confused(s, a, profile)):
            return NA
        if accepted and _other_list_fits(s, a, profile):
            if len(faults) > 1:
                return NA  # KD-TILES's alone
            return ambiguous(("KD-TILES", rule), f"PUT {a['put']} breaks {rule} but was "
                             "accepted; it fits with another tile list's squares")
        return expect(not accepted, f"PUT {a['put']} breaks {rule} but was accepted")

    def check(t: Transition, profile: Profile) -> Verdict:
        try:  # the faults worked out once for the step's several placement checks
            step = _put_step(t, profile)
            faults = None if step is None else step.faults
        except Exception:  # a reply it cannot read: the plain check's verdict or exception
            return plain_check(t, profile)
        if faults is None:
            return NA
        if rule not in faults:
            return OK
        return Violation(f"PUT {t.action['put']} breaks {rule} but was applied")

    def plain_check(t: Transition, profile: Profile) -> Verdict:
        if not _placing_put(t.before, t.action):
            return NA
        faults = _faults(t.before, t.action, profile)
        return expect(rule not in faults, f"PUT {t.action['put']} breaks {rule} but was "
                                          "applied")

    PLAIN_CHAIN_CHECKS[rule] = plain_check  # for the speed-up tests

    assert rule in order
    return judge, check


def rotation_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _placing_put(s, a):
        return NA
    # a misread rotation shows both ways, one departure: a PUT taken that its rotation
    # forbids, a PUT refused that its rotation allows
    if accepted:
        if _rotation_confused(s, a, profile):
            return _misread(s, a, profile, True, f"PUT {a['put']} accepted: with its rotation "
                            "it leaves the grid or overlaps; another rotation would fit")
        return NA
    if _faults(s, a, profile) or not _pick_ok(s, a.get("pick"), profile):
        return NA
    if _too_strict(s, a, profile):  # KD-PLACE-EXTENT's, or both when a swap explains it too
        both = _extent_too_strict(s, a, accepted, profile)
        return both if both is not None and _swap_refuses(s, a, profile) else NA
    return _misread(s, a, profile, False, f"PUT {a['put']} places the tile by every rule "
                    f"(second square {['right', 'below', 'left', 'above'][a['put'][2]]}) but "
                    "was refused")


# The misread whose name blame's departure library gives too (reference_engine/kingdomino/
# departures: blame tags it `model-rotations-1-3-swapped`): the same departure seen by this
# judge (a probe taken, a listing) and by blame (a step, a refusal) is then one cause.
MISREAD_1_3 = "model-rotations-1-3-swapped"


def _misread(s: JSON, a: JSON, profile: Profile, accepted: bool, text: str) -> Verdict:
    """The violation, named as rotations 1 and 3 swapped where that reading explains it (the
    PUT read with 1 and 3 swapped is legal when taken, illegal when refused)."""
    x, y, r = a["put"]
    if r in (1, 3):
        swapped_ok = not _faults(s, {**a, "put": [x, y, 4 - r]}, profile)
        if swapped_ok == accepted:
            return cause(MISREAD_1_3, text)
    return Violation(text)


def _rotation_fast(t: Transition, profile: Profile) -> Verdict:
    """`_rotation_plain` over the shared facts (the grid's change is KD-TILES's too)."""
    step = _put_step(t, profile)
    if step is None or step.cells is None:  # cells: the put is on the grid
        return NA
    if not step.matches:
        return NA  # other squares than the tile's: KD-TILES judges that
    first, second = f.consts(profile).tiles[step.tile]
    g = step.after[step.player - 1].g
    i, j = step.cells  # `cell(g, x, y)` is g[2 * i:2 * i + 2] for i = 9y + x
    if g[2 * i:2 * i + 2] == first and g[2 * j:2 * j + 2] == second:
        return OK
    x, y, r = step.put
    return Violation(f"PUT {x} {y} {r}: the first square goes on ({x}, {y}) and the second "
                     f"on {b.second(x, y, r)}")


def _rotation_plain(t: Transition, profile: Profile) -> Verdict:
    if not _placing_put(t.before, t.action) or not b.on_grid(t.action["put"]):
        return NA
    tile, p = _acting(t.before)
    assert tile is not None
    first, second = b.tiles(profile)[tile]
    x, y, r = t.action["put"]
    g = b.grid(t.after, p)
    diff = b.changed_cells(b.grid(t.before, p), g)
    if sorted(diff.values()) != sorted((first, second)):
        return NA  # other squares than the tile's: KD-TILES judges that
    return expect(b.cell(g, x, y) == first and b.cell(g, *b.second(x, y, r)) == second,
                  f"PUT {x} {y} {r}: the first square goes on ({x}, {y}) and the second on "
                  f"{b.second(x, y, r)}")


rotation_check = _else_plain(_rotation_fast, _rotation_plain)


def discard_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _play(s, a) or _acting(s)[0] is None or a.get("put") is not None:
        return NA
    fits = _fits(s, profile)
    if accepted:
        strict = _extent_too_strict(s, a, accepted, profile)
        if strict is not None:  # or a smaller territory limit: one step cannot tell
            return strict
        return OK if not fits else cause("discarded-though-fits", f"tile {_acting(s)[0]} fits "
                                         "somewhere but a discard was accepted")
    # a refused discard of a tile that fits nowhere means the engine thinks it fits: blamed on
    # the placement rule it must be ignoring, when relaxing one makes the tile fit
    blamed = refused_discard_blame(s, a, accepted, profile)
    if "KD-DISCARD" in blamed:
        text = f"tile {_acting(s)[0]} fits nowhere but its discard was refused"
        if len(blamed) > 1:  # or the engine thinks it fits: one step cannot tell
            return ambiguous(blamed, text)
        return cause("discard-refused", text)
    return NA


def discard_check(t: Transition, profile: Profile) -> Verdict:
    if not _play(t.before, t.action) or _acting(t.before)[0] is None \
            or t.action.get("put") is not None:
        return NA
    tile, p = _acting(t.before)
    return expect(not _fits(t.before, profile) and tile in t.after["discarded"]
                  and b.grid(t.after, p) == b.grid(t.before, p),
                  f"tile {tile} discarded; that is only allowed when it fits nowhere")


# --- scoring -----------------------------------------------------------------------------

def score_check(t: Transition, profile: Profile) -> Verdict:
    res = t.after["result"]
    if t.after["phase"] != "over" or res is None:
        return NA
    want = [b.score(b.grid(t.after, p)) for p in range(1, len(t.after["grids"]) + 1)]
    if res["scores"] == want:
        return OK
    return Violation(f"zone scores are {want}; the result says {res['scores']}")


def tie_break(scores: list[int], territory: list[int], crowns: list[int],
              crowns_first: bool = False) -> list[int]:
    """KD-TIE-BREAK as the oracle reads it (also the z3 model's concrete twin)."""
    final = list(scores)
    for measure in ((crowns, territory) if crowns_first else (territory, crowns)):
        groups: dict[int, list[int]] = {}
        for i, v in enumerate(final):
            groups.setdefault(v, []).append(i)
        for members in groups.values():
            if len(members) > 1:
                best = max(measure[i] for i in members)
                for i in members:
                    final[i] += measure[i] == best
    return final


def tie_state(s: JSON, profile: Profile) -> Verdict:
    """The result's tie-break fields against the grids and the rule. The message names the
    fields that differ, each with what the grids give and what the result says (the final
    scores may agree while a measure does not), and the first of them is the cause: a
    measure read wrongly (`territory`, `crowns`), the points given wrongly (`final`), or
    the winners named wrongly (`winners`)."""
    res = s["result"]
    if res is None:
        return NA
    largest = profile.variant("KD-TIE-BREAK") == "largest-zone"
    n = len(s["grids"])
    terr = [b.territory(b.grid(s, p), largest) for p in range(1, n + 1)]
    crowns = [b.crowns(b.grid(s, p)) for p in range(1, n + 1)]
    final = tie_break(res["scores"], terr, crowns)
    winners = [i + 1 for i, v in enumerate(final) if v == max(final)]
    fields = (("territory", terr), ("crowns", crowns), ("final", final), ("winners", winners))
    wrong = [(name, want) for name, want in fields if res[name] != want]
    if not wrong:
        return OK
    measure = "largest zone" if largest else "total squares"
    said = "; ".join(f"{name}: the rule gives {want}, the result says {res[name]}"
                     for name, want in wrong)
    agree = "" if res["final"] != final else f" (the final scores agree: {final})"
    names = ", ".join(name for name, _ in wrong)
    return cause(wrong[0][0], f"{names} differ{'s' if len(wrong) == 1 else ''}{agree}: "
                 f"{said}; with scores {res['scores']}, territory ({measure}) {terr} and "
                 f"crowns {crowns}")


# --- protocol ----------------------------------------------------------------------------

def stop_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play" or a.get("type") != "stop" or a.get("cause") not in (
            "format", "pick"):
        return NA
    return expect(accepted, f"a stop ({a.get('cause')}) was refused; a bad command always "
                            "ends the player's game")


def stop_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "stop" or t.action.get("cause") == "timeout":
        return NA
    p = _acting(t.before)[1]
    return expect(t.after["stopped"][p - 1] and t.after["grids"] == t.before["grids"]
                  and t.after["to_move"] != p,
                  f"player {p}'s game ends: stopped, grid kept, never to move again")


def stop_state(s: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play":
        return NA
    if not s["stopped"][s["to_move"] - 1]:
        return OK
    return Violation(f"player {s['to_move']} is to move but its game has ended")


def put_invalid_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play":
        return NA
    discard = profile.variant("KD-PUT-INVALID") == "discard"
    if a.get("type") == "invalid-put":
        ok = discard and _fits(s, profile) and _pick_ok(s, a.get("pick"), profile)
    elif a.get("type") == "stop" and a.get("cause") == "put":
        ok = not discard
    else:
        return NA
    # the other league's handling shows both ways, one departure: its action taken, this
    # league's refused
    return expect(accepted == ok, f"{a} {'accepted' if accepted else 'refused'}; in this "
                  f"league an invalid PUT {'discards' if discard else 'ends the game'}")


def put_invalid_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "invalid-put":
        return NA
    tile, p = _acting(t.before)
    return expect(tile in t.after["discarded"] and b.grid(t.after, p) == b.grid(t.before, p),
                  f"an invalid PUT discards tile {tile} and leaves the grid as it was")


ROW = f.ROW  # KD-PROTO-INPUT's row: 9 two-character cells


@lru_cache(maxsize=64)
def _rows_ok(rows: tuple[str, ...]) -> bool:
    """Cached: a grid's rows are the same from step to step until a tile is put on it."""
    return len(rows) == 9 and all(ROW.fullmatch(r) for r in rows)


def input_state(s: JSON, profile: Profile) -> Verdict:
    try:
        if f.state_grids(s).rows_ok:
            return OK
    except Exception:  # a state it cannot read: the plain check's own verdict or exception
        pass
    return _input_state_plain(s, profile)


def _input_state_plain(s: JSON, profile: Profile) -> Verdict:
    ok = all(_rows_ok(tuple(g)) for g in s["grids"])
    return expect(ok, "each grid is 9 lines of 9 two-character cells, as the bots read them")


PUT = re.compile(r"PUT (-?[0-9]{1,9}) (-?[0-9]{1,9}) (-?[0-9]{1,9})")
PICK = re.compile(r"PICK (-?[0-9]{1,9})(?: [^\n]*)?")


def _reply_lines(text: str) -> tuple[Any, Any] | None:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    lines = [ln.removesuffix("\r") for ln in lines]
    if len(lines) != 2:
        return None
    m1, m2 = PUT.fullmatch(lines[0]), PICK.fullmatch(lines[1])
    return None if m1 is None or m2 is None else (m1, m2)


def expected_reply(s: JSON, text: str, profile: Profile, treat: str | None = None,
                   other_league: bool = False, any_pick: bool = False) -> JSON:
    """What the two output lines amount to, by KD-PROTO-OUTPUT, KD-STOP and KD-PUT-INVALID.
    `treat` ("valid" or "invalid") reads the PUT as if it placed the tile or not, "nofit"
    the tile as if it fitted nowhere: what an engine that gets a placement rule wrong would
    make of the same lines."""
    parsed = _reply_lines(text)
    if parsed is None:
        return {"type": "stop", "cause": "format"}
    m1, m2 = parsed
    pick = None if _last(s, profile) else int(m2.group(1))
    put: list[int] | None = [int(m1.group(i)) for i in (1, 2, 3)]
    tile, _ = _acting(s)
    bad_put = False
    if tile is not None and treat == "valid":
        pass
    elif tile is not None and treat == "invalid":
        bad_put = True
    elif treat == "nofit":  # the tile read as fitting nowhere: the PUT ignored
        put = None
    elif tile is not None and _fits(s, profile):
        bad_put = bool(_faults(s, {"put": put, "type": "play"}, profile))
    else:
        put = None
    discard = (profile.variant("KD-PUT-INVALID") == "discard") != other_league
    if bad_put and not discard:
        return {"type": "stop", "cause": "put"}
    if not any_pick and not _pick_ok(s, pick, profile):
        return {"type": "stop", "cause": "pick"}
    if bad_put:
        return {"type": "invalid-put", "pick": pick}
    return {"type": "play", "put": put, "pick": pick}


def placement_referee_blame(s: JSON, text: str, action: JSON, profile: Profile
                            ) -> tuple[str, ...]:
    """The placement rules a referee decision may break (one, or two a single step cannot
    tell apart), when it is the decision the lines would get with the PUT read as valid (or
    invalid) against the rules."""
    parsed = _reply_lines(text)
    if s["phase"] != "play" or parsed is None or _acting(s)[0] is None:
        return ()
    if action == expected_reply(s, text, profile):
        return ()
    put = [int(parsed[0].group(i)) for i in (1, 2, 3)]
    a = {"type": "play", "put": put,
         "pick": action.get("pick") if isinstance(action, dict) else None}
    if not _fits(s, profile):  # the PUT is to be ignored: the engine thinks the tile fits
        if action == expected_reply(s, text, profile, treat="valid"):
            return _nofit_blame(s, profile, put)
        if action == expected_reply(s, text, profile, treat="invalid"):
            return _nofit_blame(s, profile)
        return ()
    faults = _faults(s, a, profile)
    if faults and action == expected_reply(s, text, profile, treat="valid"):
        return ("KD-PLACE-ROTATION",) if _rotation_confused(s, a, profile) else (faults[0],)
    if not faults and action == expected_reply(s, text, profile, treat="invalid"):
        if _too_strict(s, a, profile):  # a smaller limit (or, with it, a swapped rotation)
            return ("KD-PLACE-EXTENT", "KD-PLACE-ROTATION") if _swap_refuses(s, a, profile) \
                else ("KD-PLACE-EXTENT",)
        return ("KD-PLACE-ROTATION",)
    if not _fits_when_stricter(s, profile) and action == expected_reply(s, text, profile,
                                                                     treat="nofit"):
        return ("KD-PLACE-EXTENT", "KD-DISCARD")  # or it fits nowhere within a smaller limit
    return ()


def referee_suspects(s: JSON, text: str, action: JSON, profile: Profile) -> tuple[str, ...]:
    """The rules whose misreading turns the output into the engine's decision: a placement
    rule's (the PUT read as valid or invalid against it), KD-PUT-INVALID's (the other
    league's handling) and KD-PICK's (any tile taken). More than one when the same decision
    follows from each: then one step cannot tell them apart."""
    if s["phase"] != "play" or _reply_lines(text) is None:
        return ()
    if action == expected_reply(s, text, profile):
        return ()
    out = list(placement_referee_blame(s, text, action, profile))
    if _acting(s)[0] is not None and action == expected_reply(s, text, profile,
                                                              other_league=True):
        out.append("KD-PUT-INVALID")
    if not _last(s, profile) and action == expected_reply(s, text, profile, any_pick=True):
        out.append("KD-PICK")
    return tuple(dict.fromkeys(out))


def output_referee(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play":
        return NA
    want = expected_reply(s, text, profile)
    if action != want and referee_suspects(s, text, action, profile):
        return NA  # a placement rule's, KD-PUT-INVALID's or KD-PICK's own hook judges it
    return expect(action == want, f"output {text!r:.80} means {want}; the referee made it "
                                  f"{action}")


def _placement_referee(rule: str) -> Any:
    def hook(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
        if s["phase"] != "play" or _acting(s)[0] is None or _reply_lines(text) is None:
            return NA
        blamed = referee_suspects(s, text, action, profile)
        if rule in blamed:
            return _blamed(rule, blamed, f"output {text!r:.80}: the referee made it {action}, "
                           f"reading the PUT against {rule}")
        return OK
    return hook


def pick_referee(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play" or _reply_lines(text) is None or _last(s, profile):
        return NA
    blamed = referee_suspects(s, text, action, profile)
    if "KD-PICK" in blamed:
        return _blamed("KD-PICK", blamed, f"output {text!r:.80}: the referee made it {action}, "
                       f"taking a PICK of a tile that is not free (free: {_free_tiles(s)})")
    return OK


def put_invalid_referee(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play" or _acting(s)[0] is None or _reply_lines(text) is None:
        return NA
    blamed = referee_suspects(s, text, action, profile)
    if "KD-PUT-INVALID" in blamed:
        want = expected_reply(s, text, profile)
        return _blamed("KD-PUT-INVALID", blamed, f"output {text!r:.80}: the referee made it "
                       f"{action}, the other league's handling of an invalid PUT; this "
                       f"league's is {want}")
    return OK


def limits_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "stop" or t.action.get("cause") != "timeout":
        return NA
    p = _acting(t.before)[1]
    return expect(t.after["stopped"][p - 1], f"player {p} answered late: its game ends")


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
