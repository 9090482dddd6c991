"""The state of a Carcassonne game and how tiles are laid into it: constants, compiled tile
tables, a profile's configuration, the immutable state record, feature joining and the river.

This is the bottom layer of the engine: the engine's chain of classes (`hooks.py`, `moves.py`,
`turns.py`, `steps.py`, `engine.py`: the rules of a turn), `load.py` (reading a canonical
state back) and `protocol.py` (the bot referee) build on it. It must not import any of them,
so data flows one way.

Positions are packed ints `(y + OFF) * ROW + (x + OFF)`. A segment is a road, town or
monastery part of one placed tile; its node id is `pos * 8 + seg`. Features (joined
segments) are kept incrementally: each placement joins the new segments to their neighbours'
features (`owner` maps node -> feature id, `feats` holds one record per feature), so nothing
is recomputed from the whole board. States are immutable by convention: dicts inside a
state are copied before any change and never mutated afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from gamecert.reference_engine.carcassonne.tiles import (
    EDGE_KINDS,
    ENCLOSED,
    HALVES,
    TileKind,
    TileSet,
    facing_half,
    load_tiles,
)
from gamecert.spec import CatalogueError, Profile

Action = tuple[Any, ...]
JSON = Any

OFF, ROW = 128, 256
LIMIT = 120  # |x|, |y| bound for loaded positions: 84 tiles never reach it
DELTA = (-ROW, 1, ROW, -1)  # top, right, bottom, left
AROUND = (-ROW - 1, -ROW, -ROW + 1, -1, 1, ROW - 1, ROW, ROW + 1)
ROAD, CITY, MONASTERY, FIELD = 1, 2, 4, 8
FEATURE_NAMES = {ROAD: "road", CITY: "city", MONASTERY: "monastery", FIELD: "field"}
SPOTS = ("top", "right", "bottom", "left", "monastery")
TOWER_CAP = 8  # the "segment" of a meeple capping a tower (spot "tower"; CARC-TOWER-CAPTURE)
RIVER_EDGE = 3
RIVER_PHASE, LAND_PHASE, OVER = 0, 1, 2
DRAW, PLACE, CLAIM, DONE = 0, 1, 2, 3
PHASE_NAMES = ("river", "land", "over")
STEP_NAMES = ("draw", "place", "claim", "over")
STRAIGHT, RIGHT, LEFT = 0, 1, 3
PASS: Action = ("pass",)
INVALID: Action = ("invalid",)  # the referee's verdict on a reply that bans its bot
COMPLETE_RULE = {ROAD: "CARC-ROAD-COMPLETE", CITY: "CARC-TOWN-COMPLETE",
                 MONASTERY: "CARC-MONASTERY-COMPLETE"}


def pack(x: int, y: int) -> int:
    return (y + OFF) * ROW + (x + OFF)


def unpack(pos: int) -> list[int]:
    return [pos % ROW - OFF, pos // ROW - OFF]


# --- compiled tile tables ------------------------------------------------------------------
class Seg(NamedTuple):
    kind: int  # ROAD, CITY or MONASTERY
    sides: tuple[int, ...]  # board sides, after rotation
    banner: bool
    spot: int  # canonical claim spot: lowest side, or 4 for the monastery


class FieldSeg(NamedTuple):
    halves: tuple[int, ...]  # board half-edges, after rotation
    cities: tuple[int, ...]  # segment indices of the towns the field touches on this tile
    spot: str  # canonical claim spot: its first half-edge clockwise from top1


class Rot(NamedTuple):
    code: int  # edge kinds, two bits per side
    edges: tuple[int, int, int, int]
    segs: tuple[Seg, ...]
    side_seg: tuple[int, int, int, int]  # segment on each side, -1 if none
    river: tuple[int, ...]  # river sides
    monastery: int  # segment index of the monastery, -1 if none
    fields: tuple[FieldSeg, ...]  # segment len(segs) + j is field j (CARC-FARM-FIELDS)
    half_field: tuple[int, ...]  # field index on each board half-edge, -1 on a town edge
    tower: bool  # the tile has a tower foundation (CARC-TOWER-TILES)


@dataclass(frozen=True, eq=False)
class Tables:
    tiles: TileSet
    ids: tuple[str, ...]
    index: dict[str, int]
    rot: tuple[tuple[Rot, Rot, Rot, Rot], ...]
    land: tuple[int, ...]
    river: tuple[int, ...]
    spring: int
    lake: int
    counts: tuple[int, ...]
    sort_key: tuple[str, ...]  # hands and discards are listed sorted by tile id


def _rot(kind: TileKind, r: int) -> Rot:
    edges = tuple(EDGE_KINDS.index(kind.edge(s, r)) for s in range(4))
    segs: list[Seg] = []
    side_seg = [-1, -1, -1, -1]
    river: tuple[int, ...] = ()
    monastery = -1
    for f in kind.features:
        sides = tuple(sorted((s + r) % 4 for s in f.sides))
        if f.kind == "river":
            river = sides
            continue
        if f.kind == "tower":
            continue
        code = {"road": ROAD, "city": CITY, "monastery": MONASTERY}[f.kind]
        if code == MONASTERY:
            monastery = len(segs)
        for s in sides:
            side_seg[s] = len(segs)
        segs.append(Seg(code, sides, f.banner, sides[0] if sides else 4))
    code_bits = sum(e << (2 * s) for s, e in enumerate(edges))
    # fields: the tile's features are listed without the river, so field city indices
    # (into the catalogue's features) are mapped to segment indices
    seg_of = {}
    n = 0
    for i, f in enumerate(kind.features):
        if f.kind not in ("river", "tower"):
            seg_of[i] = n
            n += 1
    fields = []
    half_field = [-1] * 8
    for j, fl in enumerate(kind.fields):
        halves = tuple(sorted((h + 2 * r) % 8 for h in fl.halves))
        for h in halves:
            half_field[h] = j
        # an enclosed field (no halves, TO17) is claimed as ENCLOSED and joins no other
        fields.append(FieldSeg(halves, tuple(seg_of[c] for c in fl.cities),
                               HALVES[halves[0]] if halves else ENCLOSED))
    if len(segs) + len(fields) > 8:
        raise CatalogueError(f"tile {kind.id}: more than 8 features and fields do not fit a "
                             f"node id")
    return Rot(code_bits, edges, tuple(segs), tuple(side_seg), river,  # type: ignore[arg-type]
               monastery, tuple(fields), tuple(half_field), kind.tower)


@cache
def tables(tiles: TileSet, tower: bool = False) -> Tables:
    """The compiled tiles of a game; with `tower` (CARC-TOWER-TILES) the Tower tiles are land
    tiles of the deck, without it they are not in the game (count 0)."""
    kinds = tiles.tiles
    rot = tuple(tuple(_rot(k, r) for r in range(4)) for k in kinds)
    spring = next(i for i, k in enumerate(kinds) if k.role == "spring")
    lake = next(i for i, k in enumerate(kinds) if k.role == "lake")
    land_sets = ("land", "tower") if tower else ("land",)
    return Tables(tiles, tuple(k.id for k in kinds), {k.id: i for i, k in enumerate(kinds)},
                  rot, tuple(i for i, k in enumerate(kinds) if k.set in land_sets),  # type: ignore[arg-type]
                  tuple(i for i, k in enumerate(kinds) if k.set == "river"), spring, lake,
                  tuple(k.count if k.set != "tower" or tower else 0 for k in kinds),
                  tuple(k.id for k in kinds))


# --- configuration -------------------------------------------------------------------------
@dataclass(frozen=True)
class CarcConfig:
    """A profile's parameters and chosen variants, resolved once."""

    profile: Profile
    t: Tables
    players: int
    meeples: int
    hand_max: int
    opening_deal: int
    draw_per_turn: int
    end_points: int
    road_pts: int
    town_pts: int
    banner_pts: int
    monastery_pts: int
    inc_road: int
    inc_town: int
    inc_banner: int
    inc_monastery: int
    uturn: str  # CARC-RIVER-NO-UTURN: immediate, alternate, lookahead
    lake_last: bool  # CARC-RIVER-LAKE-ENDS = lake-last
    score_at_placement: bool  # CARC-SCORE-TIMING = at-placement
    nofit_continue: bool  # CARC-HAND-NOFIT = continue
    land_continue: bool  # CARC-TURN-ORDER = continue
    shared_win: bool  # CARC-WINNER = shared
    centre: int
    max_chars: int
    farms: bool  # CARC-FARM-FIELDS.enabled: the farms stage
    river_joins: bool  # CARC-FARM-FIELDS = river-joins: the river does not separate fields
    farm_town_pts: int  # CARC-FARM-SCORE.points_per_town
    tower: bool  # CARC-TOWER-TILES.enabled: the tower stage
    floors: int  # CARC-TOWER-FLOORS for this player count
    tower_anywhere: bool  # CARC-TOWER-ACTION = any-open
    ransom: int  # CARC-TOWER-RANSOM.points
    ransom_before: bool  # CARC-TOWER-RANSOM = before-placing
    exchange_now: bool  # CARC-TOWER-EXCHANGE = immediate

    @staticmethod
    def of(profile: Profile) -> CarcConfig:
        return _config(profile)


@cache
def _config(profile: Profile) -> CarcConfig:
    p, v = profile.param, profile.variant
    players = p("CARC-PLAYERS", "players")
    if not 2 <= players <= 5:
        raise CatalogueError(f"profile {profile.id!r}: CARC-PLAYERS.players must be 2 to 5, "
                             f"not {players}")
    tower = bool(p("CARC-TOWER-TILES", "enabled"))
    return CarcConfig(
        profile, tables(load_tiles(), tower), players, p("CARC-MEEPLE-SUPPLY", "meeples"),
        p("CARC-HAND-SIZE", "hand_max"), p("CARC-HAND-DEAL", "opening_deal"),
        p("CARC-HAND-SIZE", "draw_per_turn"), p("CARC-END-POINTS", "points"),
        p("CARC-ROAD-COMPLETE", "points_per_tile"), p("CARC-TOWN-COMPLETE", "points_per_tile"),
        p("CARC-TOWN-COMPLETE", "points_per_banner"), p("CARC-MONASTERY-COMPLETE", "points"),
        p("CARC-SCORE-INCOMPLETE", "road_per_tile"), p("CARC-SCORE-INCOMPLETE", "town_per_tile"),
        p("CARC-SCORE-INCOMPLETE", "town_per_banner"),
        p("CARC-SCORE-INCOMPLETE", "monastery_per_tile"),
        v("CARC-RIVER-NO-UTURN"), v("CARC-RIVER-LAKE-ENDS") == "lake-last",
        v("CARC-SCORE-TIMING") == "at-placement", v("CARC-HAND-NOFIT") == "continue",
        v("CARC-TURN-ORDER") == "continue", v("CARC-WINNER") == "shared",
        p("CARC-PROTO-REPLY", "centre"), p("CARC-PROTO-FRAME", "max_chars"),
        bool(p("CARC-FARM-FIELDS", "enabled")), v("CARC-FARM-FIELDS") == "river-joins",
        p("CARC-FARM-SCORE", "points_per_town"),
        tower, p("CARC-TOWER-FLOORS", f"floors_{players}p"),
        v("CARC-TOWER-ACTION") == "any-open", p("CARC-TOWER-RANSOM", "points"),
        v("CARC-TOWER-RANSOM") == "before-placing", v("CARC-TOWER-EXCHANGE") == "immediate")


# --- state ---------------------------------------------------------------------------------
class Feat(NamedTuple):
    kind: int
    nodes: tuple[int, ...]
    tiles: frozenset[int]
    open: int  # open edges (roads, towns) or empty cells around (monastery)
    banners: int
    meeples: tuple[int, ...]  # per player, index 0 = player 1


class River(NamedTuple):
    open_pos: int  # the cell the river flows into next; -1 once the lake closed it
    flow: int  # the side through which the river leaves its last tile
    last_turn: int  # STRAIGHT, RIGHT or LEFT for the last river tile (the spring: STRAIGHT)
    last_curve: int  # the turn of the last curve, STRAIGHT if none yet


class CarcState(NamedTuple):
    cfg: CarcConfig
    phase: int
    step: int
    to_move: int  # the player whose turn it is; 0 when over
    pending: tuple[int, ...]  # players receiving the next draws, in order
    then_next: bool  # once `pending` is drawn: next turn (True) or place (False)
    board: dict[int, tuple[int, int]]  # pos -> (kind, rotation)
    cells: dict[int, tuple[int, int]]  # open cell -> (mask, value) edge constraints
    owner: dict[int, int]  # node -> feature id
    feats: dict[int, Feat]
    meeples: dict[int, int]  # node -> player
    supply: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # land tiles left, per kind
    river_pile: tuple[int, ...]  # river tiles left, per kind
    discarded: tuple[int, ...]
    placed: int  # the tile just placed (claim step), -1 otherwise
    blocked: frozenset[int]  # segments of `placed` scored at placement: not claimable
    river: River
    result: dict[str, Any] | None = None
    # the tower stage (empty otherwise)
    towers: dict[int, tuple[int, int]] = {}  # pos -> (height, player capping it or 0)
    floors: tuple[int, ...] = ()  # floors left, per player
    prisoners: tuple[tuple[int, ...], ...] = ()  # [captor - 1][owner - 1] -> count
    ransomed: bool = False  # the player to move paid a ransom this turn

    @property
    def profile(self) -> Profile:
        return self.cfg.profile


def _add(tup: tuple[int, ...], i: int, amount: int) -> tuple[int, ...]:
    out = list(tup)
    out[i] += amount
    return tuple(out)


def _sorted_hand(t: Tables, hand: list[int]) -> tuple[int, ...]:
    return tuple(sorted(hand, key=t.sort_key.__getitem__))


# --- board building (shared by apply and load) ---------------------------------------------
Join = Callable[[dict[int, int], dict[int, Feat], int, int], None]


def lay(t: Tables, board: dict[int, tuple[int, int]], cells: dict[int, tuple[int, int]],
        owner: dict[int, int], feats: dict[int, Feat], pos: int, kind: int, rot: int,
        players: int, join: Join | None = None, fields: bool = False,
        river_joins: bool = False) -> None:
    """Put a tile on the board, joining its segments to the features around (CARC-FEATURE-JOIN)
    and, with `fields` (the farms stage), its fields to the fields around (CARC-FARM-FIELDS).

    Mutates the given dicts, which the caller has copied. Does not check legality. `join`
    replaces `_join` (the engine passes its own, so a subclass can change how features join).
    With `river_joins` (CARC-FARM-FIELDS river-joins) the fields on the two banks of each of
    the tile's river edges are one field.
    """
    join = join or _join
    rt = t.rot[kind][rot]
    board[pos] = (kind, rot)
    cells.pop(pos, None)
    zero = (0,) * players
    base = pos * 8
    for i, seg in enumerate(rt.segs):
        node = base + i
        if seg.kind == MONASTERY:
            filled = sum(1 for d in AROUND if pos + d in board)
            feats[node] = Feat(MONASTERY, (node,), frozenset((pos,)), 8 - filled, 0, zero)
        else:
            feats[node] = Feat(seg.kind, (node,), frozenset((pos,)), len(seg.sides),
                               1 if seg.banner else 0, zero)
        owner[node] = node
    first_field = len(rt.segs)
    if fields:
        for j, fl in enumerate(rt.fields):
            node = base + first_field + j
            feats[node] = Feat(FIELD, (node,), frozenset((pos,)), len(fl.halves), 0, zero)
            owner[node] = node
        if river_joins:
            for s in rt.river:
                a, b = rt.half_field[2 * s], rt.half_field[2 * s + 1]
                if a >= 0 and b >= 0 and owner[base + first_field + a] != owner[
                        base + first_field + b]:
                    join(owner, feats, owner[base + first_field + a],
                         owner[base + first_field + b])
    for s in range(4):
        npos = pos + DELTA[s]
        ns = (s + 2) % 4
        there = board.get(npos)
        if there is None:
            m, v = cells.get(npos, (0, 0))
            cells[npos] = (m | 3 << (2 * ns), v | rt.edges[s] << (2 * ns))
            continue
        nrt = t.rot[there[0]][there[1]]
        mine = rt.side_seg[s]
        if mine >= 0:
            join(owner, feats, owner[base + mine], owner[npos * 8 + nrt.side_seg[ns]])
        if fields:
            for h in (2 * s, 2 * s + 1):
                a, b = rt.half_field[h], nrt.half_field[facing_half(h)]
                if a >= 0 and b >= 0:
                    join(owner, feats, owner[base + first_field + a],
                         owner[npos * 8 + len(nrt.segs) + b])
    for d in AROUND:
        there = board.get(pos + d)
        if there is not None:
            m = t.rot[there[0]][there[1]].monastery
            if m >= 0:
                fid = owner[(pos + d) * 8 + m]
                f = feats[fid]
                feats[fid] = f._replace(open=f.open - 1)


def spot_of(rt: Rot, seg: int) -> str:
    """The canonical claim spot of segment `seg` of a placed tile: a side, "monastery", or for
    a field its first half-edge (top1 ... left2)."""
    if seg >= len(rt.segs):
        return rt.fields[seg - len(rt.segs)].spot
    return SPOTS[rt.segs[seg].spot]


def field_towns(t: Tables, board: dict[int, tuple[int, int]], owner: dict[int, int],
                f: Feat) -> list[int]:
    """CARC-FARM-SCORE: the town feature ids a field borders (touches on any of its tiles)."""
    towns = set()
    for node in f.nodes:
        pos = node // 8
        k, r = board[pos]
        rt = t.rot[k][r]
        for c in rt.fields[node % 8 - len(rt.segs)].cities:
            towns.add(owner[pos * 8 + c])
    return sorted(towns)


def _join(owner: dict[int, int], feats: dict[int, Feat], a: int, b: int) -> None:
    """Join features a and b across one matched edge (a == b: the edge closes a loop)."""
    fa = feats[a]
    if a == b:
        feats[a] = fa._replace(open=fa.open - 2)
        return
    fb = feats[b]
    if len(fa.nodes) < len(fb.nodes):
        a, b, fa, fb = b, a, fb, fa
    for node in fb.nodes:
        owner[node] = a
    feats[a] = Feat(fa.kind, fa.nodes + fb.nodes, fa.tiles | fb.tiles, fa.open + fb.open - 2,
                    fa.banners + fb.banners,
                    tuple(x + y for x, y in zip(fa.meeples, fb.meeples, strict=True)))
    del feats[b]


def river_step(t: Tables, river: River, kind: int, rot: int, pos: int) -> tuple[River, int]:
    """The river after a river tile at the open end; also the turn it makes."""
    rt = t.rot[kind][rot]
    if len(rt.river) == 1:  # the lake closes the river
        return River(-1, river.flow, STRAIGHT, river.last_curve), STRAIGHT
    entry = (river.flow + 2) % 4
    exit_side = rt.river[0] if rt.river[1] == entry else rt.river[1]
    turn = (exit_side - river.flow) % 4
    curve = turn if turn != STRAIGHT else river.last_curve
    return River(pos + DELTA[exit_side], exit_side, turn, curve), turn


def uturn_problem(cfg: CarcConfig, board: dict[int, tuple[int, int]], river: River,
                  kind: int, rot: int, pos: int) -> str | None:
    """CARC-RIVER-NO-UTURN: why this river placement is refused, or None."""
    after, turn = river_step(cfg.t, river, kind, rot, pos)
    if turn == STRAIGHT:
        if cfg.uturn == "lookahead" and after.open_pos >= 0 and after.open_pos in board:
            return "the river would flow into a placed tile (lookahead)"
        return None
    way = "right" if turn == RIGHT else "left"
    if cfg.uturn == "alternate":
        if turn == river.last_curve:
            return f"the river's previous curve also turned {way} (curves must alternate)"
        return None
    if turn == river.last_turn:
        return f"the previous river tile also turned {way}: a U-turn"
    if cfg.uturn == "lookahead" and after.open_pos in board:
        return "the river would flow into a placed tile (lookahead)"
    return None
