"""Carcassonne's crafted positions, one tile from a rare case: a U-turn in reach, a tile that
closes one or several features (a monastery, a banner town), a road loop, an empty meeple
supply, a claim on a joined feature, a farm tie, a ransom at its limit, a tower's reach.
Built from the reference's own states; nothing here plays an engine or judges.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from gamecert.oracles.carcassonne.board import deck_sets, in_game, tower_start
from gamecert.oracles.carcassonne.z3_checks import tie_position
from gamecert.reference_engine.carcassonne.engine import (
    AROUND,
    CLAIM,
    DELTA,
    FIELD,
    MONASTERY,
    STRAIGHT,
    Carcassonne,
    CarcState,
    pack,
    spot_of,
    unpack,
)
from gamecert.reference_engine.carcassonne.tiles import load_tiles
from gamecert.reference_engine.contract import IllegalAction
from gamecert.spec import Profile

GAME = Carcassonne()
JSON = Any
# What the crafted starts are for: each kind (starts.CRAFTED), the rules whose rare cases it
# puts one step away. An engine that cannot load them gets those rules checked in part.
CRAFTED_FOR: dict[str, tuple[str, ...]] = {
    "near-uturn": ("CARC-RIVER-NO-UTURN",),
    "near-50": ("CARC-END-POINTS",),
    "closing": ("CARC-ROAD-COMPLETE", "CARC-TOWN-COMPLETE", "CARC-MONASTERY-COMPLETE"),
    "monastery": ("CARC-MONASTERY-COMPLETE",),
    "banner": ("CARC-TOWN-COMPLETE",),
    "multi": ("CARC-SCORE-TIMING",),
    "loop": ("CARC-ROAD-COMPLETE",),
    "starved": ("CARC-MEEPLE-SUPPLY",),
    "joined": ("CARC-CLAIM-UNCLAIMED",),
    "ties": ("CARC-SCORE-MAJORITY",),
    "final-tie": ("CARC-WINNER",),
    "farm-tie": ("CARC-FARM-MAJORITY",),
    "ransom": ("CARC-TOWER-RANSOM", "CARC-TOWER-EXCHANGE"),
    "ransom-short": ("CARC-TOWER-RANSOM",),
    "reach-exact": ("CARC-TOWER-REACH", "CARC-TOWER-FLOORS", "CARC-TOWER-CAPTURE"),
    "reach-gap": ("CARC-TOWER-REACH", "CARC-TOWER-FLOORS", "CARC-TOWER-CAPTURE"),
    "mutual": ("CARC-TOWER-REACH", "CARC-TOWER-EXCHANGE"),
    "exchange": ("CARC-TOWER-EXCHANGE",),
}


def _clear_meeples(o: JSON, profile: Profile) -> JSON:
    """The same position with every meeple back in its supply (in the tower stage, the
    prisoners set free and the towers' caps taken off too, so every meeple is accounted
    for)."""
    out = copy.deepcopy(o)
    out["meeples"] = []
    out["supply"] = [profile.param("CARC-MEEPLE-SUPPLY", "meeples")] * out["players"]
    if "prisoners" in out:
        out["prisoners"] = [[0] * out["players"] for _ in range(out["players"])]
        out["towers"] = [{**w, "cap": None} for w in out["towers"]]
    return out


def _swap_into_hand(o: JSON, *tiles: str, alone: bool = False) -> JSON | None:
    """The position with `tiles` (from the deck) in the mover's hand in place of as many of
    its tiles (or of all of them when `alone`), which go back to the deck (every tile stays
    accounted for)."""
    p = o["to_move"] - 1
    out = copy.deepcopy(o)
    hand = list(out["hands"][p])
    while alone and len(hand) > len(tiles):
        back = hand.pop()
        out["deck"][back] = out["deck"].get(back, 0) + 1
    for tile in tiles:
        if not out["deck"].get(tile):
            return None
        if hand:
            back = hand.pop(0)
            out["deck"][back] = out["deck"].get(back, 0) + 1
        out["deck"][tile] -= 1
        if not out["deck"][tile]:
            del out["deck"][tile]
    out["hands"][p] = sorted([*tiles, *hand])
    return out


def closing_cells(state: CarcState) -> set[int]:
    """Open cells where a tile can close a road or town (every open edge of it faces the cell)
    or fill the last gap around a monastery."""
    t, board, owner, feats = state.cfg.t, state.board, state.owner, state.feats
    out: set[int] = set()
    for pos in state.cells:
        tally: dict[int, int] = {}
        for s in range(4):
            there = board.get(pos + DELTA[s])
            if there is None:
                continue
            seg = t.rot[there[0]][there[1]].side_seg[(s + 2) % 4]
            if seg >= 0:
                fid = owner[(pos + DELTA[s]) * 8 + seg]
                tally[fid] = tally.get(fid, 0) + 1
        if any(feats[f].open == c for f, c in tally.items()):
            out.add(pos)
            continue
        for d in AROUND:
            there = board.get(pos + d)
            if there is not None:
                m = t.rot[there[0]][there[1]].monastery
                if m >= 0 and feats[owner[(pos + d) * 8 + m]].open == 1:
                    out.add(pos)
                    break
    return out


Completed = list[JSON]  # the feature-completed events of one placement and its claim step


def _completions(state: CarcState, k: int, pos: int, rot: int) -> Completed:
    """The features placing (k, pos, rot) completes (scored now or after the claim)."""
    try:
        after, events = GAME.apply(state, ("place", k, pos, rot))
        if after.step == CLAIM:
            events = events + GAME.apply(after, ("pass",))[1]
    except IllegalAction:
        return []
    return [e for e in events if e["type"] == "feature-completed"]


Worth = Callable[[CarcState, int, Completed], float]  # (state, tile kind, completed) -> value


def _features(state: CarcState, k: int, done: Completed) -> float:
    return float(len(done))


def _points(state: CarcState, k: int, done: Completed) -> float:
    """Points scored by someone (the 50-point end needs a scorer)."""
    return float(sum(e["points"] * len(e["scorers"]) for e in done))


def _several(state: CarcState, k: int, done: Completed) -> float:
    return float(len(done) >= 2)


def _monastery(state: CarcState, k: int, done: Completed) -> float:
    return float(any(e["feature"] == "monastery" for e in done))


def _banner_join(state: CarcState, k: int, done: Completed) -> float:
    """A bannered tile closing a town of several tiles: its banner is joined in (better when
    the town is held, so it scores at the placement itself)."""
    bannered = any(seg.banner for seg in state.cfg.t.rot[k][0].segs)
    towns = [e for e in done if e["feature"] == "city" and len(e["tiles"]) > 1]
    if not bannered or not towns:
        return 0.0
    return 2.0 if any(any(e["meeples"]) for e in towns) else 1.0


def _closers(state: CarcState) -> list[tuple[int, Completed]]:
    """Each deck tile kind that completes something at a closing cell, with what it
    completes there (its best rotation and cell by the number of features)."""
    t = state.cfg.t
    best: dict[int, Completed] = {}
    for pos in sorted(closing_cells(state)):
        m, v = state.cells[pos]
        for k, left in enumerate(state.deck):
            if not left:
                continue
            probe = state._replace(hands=tuple((k,) if i == state.to_move - 1 else h
                                               for i, h in enumerate(state.hands)))
            for r in range(4):
                if t.rot[k][r].code & m == v:
                    done = _completions(probe, k, pos, r)
                    if len(done) > len(best.get(k, [])):
                        best[k] = done
    return sorted(best.items())


def _closing_start(state: CarcState, closers: list[tuple[int, Completed]],
                   *worths: Worth, alone: bool = False) -> JSON | None:
    """The position with deck tiles in the mover's hand: for each of `worths` in turn (several
    features, points, a monastery, a banner joined...) the tile worth most by it, when one is
    worth something. Up to a hand's worth of tiles; with `alone`, nothing else in the hand,
    so whatever completes something is that case."""
    chosen: list[int] = []
    for worth in worths:
        scored = [(worth(state, k, done), k) for k, done in closers if k not in chosen]
        value, k = max(scored, default=(0.0, -1))
        if value > 0 and len(chosen) < state.cfg.hand_max:
            chosen.append(k)
    if not chosen:
        return None
    return _swap_into_hand(GAME.observe(state), *(state.cfg.t.ids[k] for k in chosen),
                           alone=alone)


def _monastery_gap(state: CarcState) -> bool:
    """A monastery one tile from complete."""
    return any(f.kind == MONASTERY and f.open == 1 for f in state.feats.values())


def _near_uturn(state: CarcState) -> JSON | None:
    """A river draw after a curve: hand the mover a curve, so one way of laying it is a
    U-turn (and the other, where it fits, is not)."""
    if state.river.last_curve == STRAIGHT:
        return None
    t = state.cfg.t
    # a curve's two river sides are neighbours: their difference is odd
    curves = [k for k, c in enumerate(state.river_pile) if c and len(t.rot[k][0].river) == 2
              and (t.rot[k][0].river[1] - t.rot[k][0].river[0]) % 2]
    if not curves:
        return None
    k = curves[0]
    o = GAME.observe(state)
    o["river_pile"][t.ids[k]] -= 1
    if not o["river_pile"][t.ids[k]]:
        del o["river_pile"][t.ids[k]]
    o["hands"][state.to_move - 1] = [t.ids[k]]
    o["step"], o["pending"] = "place", []
    return o


def _loop_starts(profile: Profile) -> list[JSON]:
    """Three curves of a 2 x 2 road ring on the board and the fourth in hand: one placement
    closes a loop. The ring is held (one player, another, or two tied), so it scores at the
    placement itself."""
    board = [((0, 0), "RS", 0), ((0, -1), "RE", 0), ((1, -2), "V", 3), ((1, -1), "V", 2),
             ((2, -1), "V", 1)]
    out = []
    for meeples in ([((1, -2), "right", 1)], [((1, -2), "right", 1), ((2, -1), "top", 2)],
                    [((1, -1), "top", 2)]):
        for mover in (1, 2):
            out.append(_crafted(profile, board, {mover: ["V"]}, mover, meeples))
    return out


def _crafted(profile: Profile, board: list[tuple[tuple[int, int], str, int]],
             hands: dict[int, list[str]], mover: int,
             meeples: list[tuple[tuple[int, int], str, int]]) -> JSON:
    """A land-phase place step: tiles off the board and out of hands are in the deck (land) or
    discarded (river)."""
    n = profile.param("CARC-PLAYERS", "players")
    used: dict[str, int] = {}
    for _, tile, _ in board:
        used[tile] = used.get(tile, 0) + 1
    for hand in hands.values():
        for tile in hand:
            used[tile] = used.get(tile, 0) + 1
    deck: dict[str, int] = {}
    discarded: list[str] = []
    land = deck_sets(profile)
    for kind in load_tiles():
        left = in_game(profile, kind.id) - used.get(kind.id, 0)
        if kind.set in land and left:
            deck[kind.id] = left
        elif kind.set not in land:
            discarded += [kind.id] * left
    supply = [profile.param("CARC-MEEPLE-SUPPLY", "meeples")] * n
    for *_, p in meeples:
        supply[p - 1] -= 1
    return {
        "game": "carcassonne", "profile": profile.id, "players": n, "phase": "land",
        "step": "place", "to_move": mover, "pending": [], "after_draws": "place",
        "board": sorted(({"at": list(c), "tile": tl, "rotation": r} for c, tl, r in board),
                        key=lambda b: b["at"]),
        "placed": None, "claim_blocked": [],
        "meeples": sorted(({"at": list(c), "on": on, "player": p} for c, on, p in meeples),
                          key=lambda m: (m["at"], m["on"])),
        "supply": supply, "scores": [0] * n,
        "hands": [sorted(hands.get(p, [])) for p in range(1, n + 1)], "deck": deck,
        "river_pile": {}, "discarded": sorted(discarded), "result": None,
        **tower_start(profile),
    }


def _placed(profile: Profile, o: JSON, choose: Callable[[list[Any]], list[Any]]) -> JSON | None:
    """The claim step after the mover plays the first of `choose(legal placements)`."""
    state = GAME.load(profile, o)
    options = choose([a for a in GAME.legal(state) if a[0] == "place"])
    if not options:
        return None
    after = GAME.apply(state, options[0])[0]
    return GAME.observe(after) if after.step == CLAIM else None


def _starved(profile: Profile) -> list[JSON]:
    """A player with every meeple on one long open road, in the claim step of a tile that did
    not close it: the supply is empty, so no claim is legal."""
    per = profile.param("CARC-MEEPLE-SUPPLY", "meeples")
    n = profile.param("CARC-PLAYERS", "players")
    out = []
    for mover in range(1, n + 1):
        counts = [per if p == mover else 0 for p in range(1, n + 1)]
        try:
            o = tie_position(profile, counts)
        except ValueError:
            return []
        o["hands"][0] = []
        o["deck"]["W"] = o["deck"].get("W", 0) + 1
        swapped = _swap_into_hand({**o, "to_move": mover}, "E")
        claim = swapped and _placed(profile, swapped, lambda a: a)
        if claim:
            out.append(claim)
    return out


def _joining(state: CarcState) -> Callable[[list[Any]], list[Any]]:
    def choose(actions: list[Any]) -> list[Any]:
        return [a for a in actions[:30] if _joins_opponent(state, a)]
    return choose


def _joins_opponent(state: CarcState, action: Any) -> bool:
    """The placement joins the mover's tile to a feature held by other players only."""
    after = GAME.apply(state, action)[0]
    if after.step != CLAIM:
        return False
    p = state.to_move - 1
    return any(any(f.meeples) and not f.meeples[p] for f in
               (after.feats[fid] for fid in GAME._tile_features(after, after.placed).values()))


def _monastery_starts(profile: Profile) -> list[JSON]:
    """A monastery (tile B) beside the closed river with seven of its eight neighbours laid,
    held by player 1, and a tile that fills the last one in the mover's hand (player 1, then
    player 2): built tile by tile, each the first deck tile that fits its cell."""
    river = [((0, 0), "RS", 0), ((0, -1), "RE", 0)]
    ring = [(1, 0), (2, 0), (1, -1), (1, 1), (2, -1), (2, 1), (3, -1), (3, 0), (3, 1)]
    board = list(river)
    tiles = [k.id for k in load_tiles() if k.set in deck_sets(profile)]
    for i, at in enumerate(ring):
        state = GAME.adopt(profile, _crafted(profile, board, {}, 1, []))  # no hand yet
        pos = pack(*at)
        if pos not in state.cells:
            return []
        m, v = state.cells[pos]
        kinds = ["B"] if at == (2, 0) else tiles
        fits = [(tl, r) for tl in kinds for r in range(4)
                if state.deck[state.cfg.t.ids.index(tl)]
                and state.cfg.t.rot[state.cfg.t.ids.index(tl)][r].code & m == v]
        if not fits:
            return []
        if i == len(ring) - 1:  # the last gap: its tile goes in the mover's hand
            return [_crafted(profile, board, {mover: [fits[0][0]]}, mover,
                             [((2, 0), "monastery", 1)]) for mover in (1, 2)]
        board.append((at, *fits[0]))
    return []


def _monastery_closer(state: CarcState) -> JSON | None:
    """The position with a deck tile that fits the last gap around a monastery as the
    mover's only tile (None when no monastery lacks one tile or no deck tile fits there)."""
    t = state.cfg.t
    for f in sorted(state.feats.values(), key=lambda f: f.nodes):
        if f.kind != MONASTERY or f.open != 1:
            continue
        gaps = [pos + d for pos in f.tiles for d in AROUND if pos + d not in state.board]
        if len(gaps) != 1 or gaps[0] not in state.cells:
            continue
        m, v = state.cells[gaps[0]]
        for k, left in enumerate(state.deck):
            if left and any(t.rot[k][r].code & m == v for r in range(4)):
                return _swap_into_hand(GAME.observe(state), t.ids[k], alone=True)
    return None


def _reach_starts(profile: Profile, o: JSON) -> list[tuple[str, JSON]]:
    """From a tower-stage action step: towers whose next floor reaches a meeple exactly at
    the edge of its reach (heights and floors from z3, CARC-TOWER-FLOORS kept), labelled
    reach-gap when an empty cell lies between, and mutual when the meeple's owner holds one
    of the mover's (the capture makes an exchange)."""
    from gamecert.oracles.carcassonne.tower_z3 import reach_boundary

    if o["step"] != "claim" or "towers" not in o:
        return []
    state = GAME.load(profile, o)
    n, me = state.cfg.players, state.to_move - 1
    out: list[tuple[str, JSON]] = []
    meeples = {node // 8: p for node, p in state.meeples.items()}
    for site in GAME.tower_sites(state):
        for d in DELTA:
            for k in range(1, 7):
                cell = site + k * d
                owner = meeples.get(cell)
                if owner is None:
                    continue
                others = sum(h for pos, (h, _) in state.towers.items() if pos != site)
                split = reach_boundary(k, state.cfg.floors, n, others, me)
                if split is None:
                    break
                height, floors = split
                start = copy.deepcopy(o)
                start["towers"] = [w for w in start["towers"] if w["at"] != unpack(site)]
                if height:
                    start["towers"].append({"at": unpack(site), "height": height, "cap": None})
                start["towers"].sort(key=lambda w: w["at"])
                start["floors"] = floors
                gap = any(site + j * d not in state.board for j in range(1, k))
                kind = "reach-gap" if gap else "reach-exact"
                if owner - 1 != me and start["supply"][me] and not start["prisoners"][me][
                        owner - 1]:
                    kind = "mutual"
                    start["prisoners"][owner - 1][me] += 1
                    start["supply"][me] -= 1
                out.append((kind, start))
                break
    return out


def _ransom_start(o: JSON, points: int, held: int) -> JSON | None:
    """`o` (a place step) with `held` of the mover's meeples imprisoned by the next player
    and the mover on `points` points; None when the supply or the prisoners do not allow it."""
    if o["step"] != "place" or "prisoners" not in o or o["ransom_paid"]:
        return None
    me = o["to_move"] - 1
    captor = (me + 1) % o["players"]
    if o["supply"][me] < held or o["prisoners"][me][captor]:
        return None
    out = copy.deepcopy(o)
    out["supply"][me] -= held
    out["prisoners"][captor][me] += held
    out["scores"][me] = points
    return out


def _farm_tie(profile: Profile, o: JSON) -> JSON | None:
    """`o` with one more farmer, of another player, on a field held by one player's single
    farmer, so the two tie; None when no field and player allow it."""
    state = GAME.load(profile, o)
    t = state.cfg.t
    for f in sorted(state.feats.values(), key=lambda f: f.nodes):
        if f.kind != FIELD or sorted(f.meeples)[-2:] != [0, 1]:
            continue
        owner = f.meeples.index(1) + 1
        other = next((p for p in range(1, state.cfg.players + 1)
                      if p != owner and state.supply[p - 1] > 0), None)
        free = [node for node in f.nodes if node not in state.meeples]
        if other is None or not free:
            continue
        k, r = state.board[free[0] // 8]
        out = copy.deepcopy(o)
        out["meeples"].append({"at": unpack(free[0] // 8),
                               "on": spot_of(t.rot[k][r], free[0] % 8), "player": other})
        out["meeples"].sort(key=lambda m: (m["at"], m["on"]))
        out["supply"][other - 1] -= 1
        return out
    return None
