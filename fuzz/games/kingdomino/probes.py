"""Kingdomino's probes: near-miss placements and picks the reference probably refuses
(`draw_probe`), and the one-rule probes: actions that each break one rule and no other in the
position at hand, for every rule with a `judge` hook that a single action can break alone.

`rule_probes(ls)` builds them from the reference's canonical state (`ls.ref_json`), with the
oracles' own grid facts (`oracles.kingdomino.board`), written apart from the engine:

* placements (from the second turn): a PUT that breaks only the extent (one square too wide,
  and far too wide), only the connection, only the overlap, only the grid, only the
  rotation (it leaves the grid or overlaps where the mirrored rotation places the tile); a
  discard of a tile that fits. None for KD-TILES: a PUT that only another list's squares
  make legal breaks the connection with these (the cells, so overlap and extent, are the
  same with either list), and one step cannot tell the two rules apart;
* picks: a tile already picked, a tile not in the new line, any PICK on the last turn; a
  PUT on the first turn;
* an invalid-PUT of the other league (not for an engine without a referee); a deal of a
  tile already drawn; a first-turn order the profile's reading forbids.

"Only that rule" is checked twice: by the oracles' fault list (a placement's faults are
exactly its rule), and where the departure library has the model that relaxes exactly that
rule (`reference_engine.kingdomino.departures`, the catalogue's readings), by that model
accepting the action. Every probe's PUT, PICK and tile is a whole number: no probe's JSON
reads as a legal action once parsed (issue 27 item 4).

Built once per state (the last few states are kept by identity); this module must not drive
engines or judge what they answer: the lockstep does (`Lockstep.probe`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from itertools import permutations
from typing import TYPE_CHECKING, Any, cast

from hypothesis import strategies as st

from gamecert.fuzz.engines.capabilities import NO_REFEREE
from gamecert.fuzz.games.kingdomino.play import index
from gamecert.fuzz.step.blame import Model, models_for
from gamecert.oracles.kingdomino import board as b
from gamecert.reference_engine.contract import BadState, IllegalAction
from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any
Probe = tuple[str, JSON]

# The model that relaxes exactly each rule (blame's kind names: `fuzz.step.blame.tag`); a probe
# of that rule must be legal under it. KD-GRID has none: no model plays off a 9 x 9 grid.
RELAXING = {
    "KD-PLACE-EXTENT": "model-no-limit",
    "KD-PLACE-CONNECT": "model-no-connection",
    "KD-PLACE-NO-OVERLAP": "model-overlap-allowed",
    "KD-PLACE-ROTATION": "model-rotations-1-3-swapped",
    "KD-DISCARD": "model-discard-when-fits",
    "KD-PICK": "model-taken-tile-picked",
    "KD-LAST-TURN-NO-PICK": "model-pick-accepted",
    "KD-FIRST-TURN-NO-PUT": "model-put-ignored",
    "KD-DEAL": "model-drawn-tile-drawn-again",
}
# how many probes of one rule a position offers at most (each rule as likely as another)
PER_RULE = 2
_KEPT = 8  # states whose probes are remembered


def rule_probes(ls: Lockstep) -> list[Probe]:
    """The one-rule probes of the position `ls` stands in (see the module's docstring)."""
    state = ls.ref_json
    no_referee = NO_REFEREE in ls.caps
    for seen, flag, probes in _CACHE:
        if seen is state and flag == no_referee:
            return probes
    probes = build(state, ls.profile, no_referee)
    _CACHE.append((state, no_referee, probes))
    del _CACHE[:-_KEPT]
    return probes


_CACHE: list[tuple[JSON, bool, list[Probe]]] = []


def build(state: JSON, profile: Profile, no_referee: bool = False) -> list[Probe]:
    """The probes of `state` under `profile`, each checked against its relaxing model."""
    phase = state.get("phase")
    found: dict[str, list[JSON]] = {}
    plain: list[Probe] = []  # probes no model relaxes (off the grid, a tile not in the line)
    if phase == "order":
        found = _order_probes(state, profile)
    elif phase == "deal":
        found = _deal_probes(state)
    elif phase == "play":
        found, plain = _play_probes(state, profile, no_referee)
    relaxed = _relaxing(profile)
    out: list[Probe] = []
    for rule, candidates in found.items():
        model = relaxed.get(rule)
        legal = _anything if model is None else _legal_under(model, state)
        kept: list[JSON] = []
        for a in _spread_order(candidates):  # checked until PER_RULE pass
            if legal(a):
                kept.append(a)
                if len(kept) == PER_RULE:
                    break
        out += [(rule, a) for a in kept]
    return out + plain


def _spread_order(items: Sequence[JSON]) -> list[JSON]:
    """`items` to try in turn: the first (the nearest miss, where the list is ordered so),
    the last, then the rest in order."""
    if len(items) <= 2:
        return list(items)
    return [items[0], items[-1], *items[1:-1]]


@lru_cache(maxsize=32)  # per profile (asked at every position; the caller reads it only)
def _relaxing(profile: Profile) -> dict[str, Model]:
    """Rule -> the model that relaxes exactly that rule under `profile`: the library's, the
    catalogue's other reading for KD-ORDER-FIRST, KD-TILES and KD-PUT-INVALID."""
    by_kind = {(m.rule, m.kind): m for m in models_for("kingdomino", profile)}
    out = {rule: by_kind[(rule, kind)] for rule, kind in RELAXING.items()
           if (rule, kind) in by_kind}
    for m in by_kind.values():
        if m.variant is not None and m.rule in ("KD-ORDER-FIRST", "KD-TILES",
                                                 "KD-PUT-INVALID"):
            out.setdefault(m.rule, m)
    return out


def _anything(action: JSON) -> bool:
    return True


def _legal_under(model: Model, state: JSON) -> Callable[[JSON], bool]:
    """Whether an action is legal under `model` in `state` (loaded once)."""
    game = model.game
    try:
        s = game.load(model.profile, state)
    except (BadState, KeyError, TypeError, ValueError, IndexError):
        return lambda a: False

    def legal(action: JSON) -> bool:
        try:
            game.apply(s, game.action_from_json(s, action))
        except (IllegalAction, BadState, KeyError, TypeError, ValueError, IndexError):
            return False
        return True

    return legal


# --- chance steps ------------------------------------------------------------------------


def _order_probes(state: JSON, profile: Profile) -> dict[str, list[JSON]]:
    """An order of the kings the profile's reading forbids (the seat order's other
    permutations); none under the shuffled reading, where every order is allowed."""
    if profile.variant("KD-ORDER-FIRST") != "seat-order":
        return {}
    n, k = b.players(profile), b.kings(profile)
    seats = [p for _ in range(k) for p in range(1, n + 1)]
    others = sorted({o for o in permutations(seats) if list(o) != seats})
    if not others:
        return {}
    return {"KD-ORDER-FIRST": [{"type": "order", "order": list(others[-1])}]}


def _deal_probes(state: JSON) -> dict[str, list[JSON]]:
    """A tile drawn before (placed, discarded or being placed), drawn again."""
    line = {e["tile"] for e in state["line"]}
    gone = [t for t in range(1, 49) if t not in state["bag"] and t not in line]
    return {"KD-DEAL": [{"type": "deal", "tile": t} for t in gone[:1] + gone[-1:]]} \
        if gone else {}


# --- a king's turn -----------------------------------------------------------------------


def _play_probes(state: JSON, profile: Profile, no_referee: bool
                 ) -> tuple[dict[str, list[JSON]], list[Probe]]:
    """(probes to check against their relaxing model, by rule; probes no model relaxes)."""
    king = state["placing"][state["next"]]
    tile, player = king["tile"], king["player"]
    last = state["turn"] >= b.turns(profile)
    free = [e["tile"] for e in state["line"] if e["player"] is None]
    taken = [e["tile"] for e in state["line"] if e["player"] is not None]
    pick: int | None = None if last else (free[0] if free else None)
    if not last and pick is None:
        return {}, []  # no free tile: not a position a king plays in
    out: dict[str, list[JSON]] = {}
    plain: list[Probe] = []

    def play(put: list[int] | None, p: int | None = pick) -> JSON:
        return {"type": "play", "put": put, "pick": p}

    if tile is None:  # the first turn: a PUT that the rules forbid, with a legal PICK
        out["KD-FIRST-TURN-NO-PUT"] = [play([5, 4, 0])]
        legal_put: list[int] | None = None
    else:
        g, squares = b.grid(state, player), b.tiles(profile)[tile]
        size = profile.param("KD-PLACE-EXTENT", "size")
        legal_put = b.fits_somewhere(g, squares, size)
        out.update(_placement_probes(g, tile, squares, size, profile, play))
        # off the grid from the first square (no rotation of that square places the tile)
        plain += [("KD-GRID", play([-1, 4, 0])), ("KD-GRID", play([b.N, 4, 2]))]
        if legal_put is not None:
            out["KD-DISCARD"] = [play(None)]
            if not no_referee:
                out["KD-PUT-INVALID"] = [
                    {"type": "stop", "cause": "put"}
                    if profile.variant("KD-PUT-INVALID") == "discard"
                    else {"type": "invalid-put", "pick": pick}]
    if last:  # any PICK on the last turn, with a legal PUT (or discard, or none)
        ids = sorted({*taken, *(t for t in range(1, 49) if t not in state["bag"])})
        out["KD-LAST-TURN-NO-PICK"] = [play(legal_put, t) for t in ids[:1] + ids[-1:]] \
            if ids else [play(legal_put, 1)]
    else:  # a PICK of a taken tile; of a tile not in the line (no model relaxes that)
        if taken:
            out["KD-PICK"] = [play(legal_put, taken[0])]
        outside = next(t for t in range(1, 49) if t not in free and t not in taken)
        plain.append(("KD-PICK", play(legal_put, outside)))
    return out, plain


def _placement_probes(g: str, tile: int, squares: tuple[str, str], size: int,
                      profile: Profile, play: Callable[..., JSON]) -> dict[str, list[JSON]]:
    """Every PUT of the tile from a square of the grid, sorted by the one rule it breaks;
    the nearest misses first (an extent one square too wide before a wider one). A grid of
    81 cells is read by cell sets (`_placement_probes_masks`, the same probes in the same
    order: a test compares the two); any other grid string square by square."""
    if len(g) == 2 * b.N * b.N:
        return _placement_probes_masks(g, tile, squares, size, profile, play)
    return _placement_probes_plain(g, tile, squares, size, profile, play)


def _placement_probes_plain(g: str, tile: int, squares: tuple[str, str], size: int,
                            profile: Profile, play: Callable[..., JSON]
                            ) -> dict[str, list[JSON]]:
    """`_placement_probes` square by square: every PUT's faults asked of the oracles'
    `placement_faults`."""
    by_rule: dict[str, list[list[int]]] = {}
    wider: list[list[int]] = []  # one square too wide: the rule's parameter moved by one
    others = [sq for sq in b.other_lists(profile, tile) if sq != squares]
    for y in range(b.N):
        for x in range(b.N):
            # each rotation's faults, asked once (the fit of the other rotations is read
            # from them too)
            every = [b.placement_faults(g, [x, y, r], squares, size) for r in range(4)]
            fits = [not faults for faults in every]
            for r in range(4):
                put = [x, y, r]
                faults = every[r]
                if len(faults) != 1 or rule_of_list(g, put, others, size):
                    continue  # two rules broken; or one that another list's squares mend
                    # (KD-TILES or that rule: one step cannot tell, see the docstring)
                _file(by_rule, wider, put, faults[0], fits,
                      partial(b.within, g, put, size + 1))
    return _filed(by_rule, wider, play)


def _file(by_rule: dict[str, list[list[int]]], wider: list[list[int]], put: list[int],
          rule: str, fits: list[bool], wide: Callable[[], bool]) -> None:
    """Keep `put` (x, y, r), whose one fault is `rule`, as a probe of the rule the judges
    read it under, or not at all; `fits[r]` says rotation r of the same first square places
    the tile, `wide()` that it is one square too wide and no more (asked only then)."""
    r = put[2]
    if rule in ("KD-GRID", "KD-PLACE-NO-OVERLAP") and any(fits):
        # another rotation of the same first square places it: the judges read such a PUT
        # as a rotation misread, so it is a rotation probe or none
        if fits[{1: 3, 3: 1}.get(r, r)] and r in (1, 3):
            by_rule.setdefault("KD-PLACE-ROTATION", []).append(put)
        return
    if rule == "KD-GRID":
        return  # the grid's own probes start off the grid (no rotation helps)
    if r in (1, 3) and fits[4 - r]:
        return  # rotations 1 and 3 read the other way round place it: the judges read
        # it as a misread rotation or the rule broken, not one rule
    if rule == "KD-PLACE-EXTENT" and wide():
        wider.append(put)  # one square too wide: the rule's parameter moved by one
        return
    by_rule.setdefault(rule, []).append(put)


def _filed(by_rule: dict[str, list[list[int]]], wider: list[list[int]],
           play: Callable[..., JSON]) -> dict[str, list[JSON]]:
    """The probes kept, as actions, by rule; the nearest extent misses first."""
    if wider:
        by_rule["KD-PLACE-EXTENT"] = wider + by_rule.get("KD-PLACE-EXTENT", [])
    return {rule: [play(put) for put in puts] for rule, puts in by_rule.items()}


# KD-GRID for a first square: the rotations whose second square stays on the grid (bit 9y + x)
_ON_GRID = tuple(b.toward(b.ALL, r) for r in range(4))
_ROTATION_OF = {0: "KD-PLACE-NO-OVERLAP", 1: "KD-PLACE-EXTENT", 2: "KD-PLACE-CONNECT"}


def _within_mask(g: str, r: int, size: int) -> int:
    """The first squares (on the grid with rotation `r`) whose PUT keeps the territory within
    `size` x `size`: `b.within`'s sum, asked per column and per row (it reads x and y apart)."""
    dx, dy = b.STEP[r]
    box = b.extent(g)
    cols = rows = 0
    for k in range(b.N):
        if 0 <= k + dx < b.N:
            lo, hi = (box[0], box[1]) if box is not None else (k, k)
            if max(hi, k, k + dx) - min(lo, k, k + dx) < size:
                cols |= b.COL[k]
        if 0 <= k + dy < b.N:
            lo, hi = (box[2], box[3]) if box is not None else (k, k)
            if max(hi, k, k + dy) - min(lo, k, k + dy) < size:
                rows |= b.ROW[k]
    return cols & rows & _ON_GRID[r]


def _placement_probes_masks(g: str, tile: int, squares: tuple[str, str], size: int,
                            profile: Profile, play: Callable[..., JSON]
                            ) -> dict[str, list[JSON]]:
    """`_placement_probes_plain` for a grid of 81 cells: each rotation's free, within and
    connected first squares as cell sets (bit 9y + x), then the plain walk over the squares
    (row by row, rotation by rotation) where a probe can come from, its branches as they are
    there, each fact read from the sets."""
    masks = b.terrain_masks(g)
    empty, castle = masks.get("_", 0), masks.get("*", 0)
    others = [sq for sq in b.other_lists(profile, tile) if sq != squares]

    def touching(terrain: str) -> int:  # the cells `b.touches` holds for with `terrain`
        return b.beside(castle | masks.get(terrain, 0))

    def connected(sq: tuple[str, str], r: int) -> int:
        return touching(sq[0][0]) | b.toward(touching(sq[1][0]), r)

    fits, one, mended, wide_ok = [0] * 4, [0] * 4, [0] * 4, [0] * 4
    faults: list[tuple[int, int, int]] = []  # per rotation: (overlap, extent, connect) sets
    for r in range(4):
        on = _ON_GRID[r]
        free = on & empty & b.toward(empty, r)
        within = _within_mask(g, r, size)
        conn = on & connected(squares, r)
        bad = (on & ~free, on & ~within, on & ~conn)
        faults.append(bad)
        fits[r] = free & within & conn
        one[r] = (bad[0] ^ bad[1] ^ bad[2]) & ~(bad[0] & bad[1] & bad[2])
        other = 0
        for sq in others:  # `rule_of_list`: another list's squares place it
            other |= connected(sq, r)
        mended[r] = free & within & other
        wide_ok[r] = _within_mask(g, r, size + 1)
    any_fit = fits[0] | fits[1] | fits[2] | fits[3]
    off_grid = b.ALL & ~(_ON_GRID[0] & _ON_GRID[1] & _ON_GRID[2] & _ON_GRID[3])
    # the squares where the plain walk keeps a PUT: one fault that no other list mends, or
    # off the grid beside a rotation that fits (a superset: the walk below decides)
    todo = (one[0] & ~mended[0]) | (one[1] & ~mended[1]) | (one[2] & ~mended[2]) \
        | (one[3] & ~mended[3]) | (any_fit & off_grid)
    by_rule: dict[str, list[list[int]]] = {}
    wider: list[list[int]] = []
    while todo:
        low = todo & -todo
        todo ^= low
        i = low.bit_length() - 1
        x, y = i % b.N, i // b.N
        fit = [bool(fits[r] & low) for r in range(4)]
        for r in range(4):
            put = [x, y, r]
            if not _ON_GRID[r] & low:
                rule = "KD-GRID"
            elif not one[r] & low or mended[r] & low:
                continue
            else:
                rule = next(_ROTATION_OF[k] for k in range(3) if faults[r][k] & low)
            _file(by_rule, wider, put, rule, fit, partial(bool, wide_ok[r] & low))
    return _filed(by_rule, wider, play)


def rule_of_list(g: str, put: list[int], others: list[tuple[str, str]], size: int) -> bool:
    """Whether `put` places the tile with another tile list's squares."""
    return any(not b.placement_faults(g, put, sq, size) for sq in others)


def draw_probe(data: st.DataObject, ls: Lockstep) -> JSON:
    s = ls.ref_json
    if s["phase"] == "deal":
        return {"type": "deal", "tile": data.draw(_TILE_OR_NOT, label="tile")}
    if s["phase"] == "order":
        return {"type": "order", "order": data.draw(_orders(s["players"]), label="order")}
    kind = data.draw(_KINDS, label="probe kind")
    if kind == "bad pick":
        # a PUT the rules allow with a PICK they may not: taken, out of the line, or
        # any PICK on the last turn
        game, state = cast(Kingdomino, ls.game), ls.ref
        legal = game.legal(state)
        act = legal[data.draw(index(len(legal)), label="legal")]
        taken = tuple(e["tile"] for e in s["line"] if e["player"] is not None)
        bad = data.draw(_bad_picks(taken or (0,)), label="bad pick")
        return {**game.action_to_json(state, act), "pick": bad}
    line = tuple(e["tile"] for e in s["line"])
    pick = data.draw(_picks(line or (None,)), label="pick")
    if kind == "other":
        return data.draw(st.sampled_from([
            {"type": "invalid-put", "pick": pick}, {"type": "stop", "cause": "put"},
            {"type": "deal", "tile": 1}, {"type": "order", "order": [1, 2]}]))
    if kind == "discard":
        return {"type": "play", "put": None, "pick": pick}
    if kind == "near":
        # cells at the edge of the territory: where extent, overlap and connection meet
        x = data.draw(_NEAR, label="x")
        y = data.draw(_NEAR, label="y")
    else:
        x = data.draw(_ANY, label="x")
        y = data.draw(_ANY, label="y")
    r = data.draw(_ROTATION, label="rotation")
    return {"type": "play", "put": [x, y, r], "pick": pick}


# `draw_probe`'s strategies, made once (a strategy costs more to make than to draw from;
# the same strategy draws the same values)
_TILE_OR_NOT = st.integers(0, 49)
_KINDS = st.sampled_from(["near", "near", "near", "discard", "any", "other", "bad pick",
                          "bad pick"])
_NEAR, _ANY = st.integers(1, 7), st.integers(-1, 9)
_ROTATION = st.one_of(st.integers(0, 3), st.integers(-1, 4))


@lru_cache(maxsize=16)
def _orders(n: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(1, n), min_size=n - 1, max_size=2 * n)


@lru_cache(maxsize=256)
def _bad_picks(taken: tuple[int, ...]) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from(taken), st.integers(0, 49))


@lru_cache(maxsize=256)
def _picks(line: tuple[int | None, ...]) -> st.SearchStrategy[int | None]:
    return st.one_of(st.sampled_from(line), st.none(), st.integers(1, 48))
