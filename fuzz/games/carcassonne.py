"""Carcassonne fuzzing: positions from random play at every stage of a game, z3 tie
positions, crafted boards one tile from a U-turn, a road loop or several completions, and
probes for every way a move can be illegal.

Everything expensive (random games, the z3 ties, the search for closing tiles) is done once
per profile and cached; each example then only samples a ready position, so it stays cheap.
Hypothesis strategies are built once too (module level or `functools.cache`).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.oracles.carcassonne.board import deck_sets, in_game, tower_start
from gamecert.oracles.carcassonne.z3_checks import tie_position, tie_positions
from gamecert.reference_engine.carcassonne.engine import (
    AROUND,
    CLAIM,
    DELTA,
    DRAW,
    FIELD,
    LAND_PHASE,
    MONASTERY,
    PLACE,
    RIVER_PHASE,
    STRAIGHT,
    Carcassonne,
    CarcState,
    pack,
    spot_of,
    unpack,
)
from gamecert.reference_engine.carcassonne.protocol import FIELD_WIRE, SPOT_WIRE
from gamecert.reference_engine.carcassonne.tiles import FIELD_SPOTS, SIDES, load_tiles
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines import Engine
    from gamecert.fuzz.lockstep import Lockstep

JSON = Any
GAME = Carcassonne()
POOL_GAMES = 8  # random games per profile behind the start positions
MONASTERY_STARTS = 4  # monasteries one tile from complete, at least, where play has them


# --- strategies built once ------------------------------------------------------------------
@cache
def index(n: int) -> st.SearchStrategy[int]:
    """An index into a list of n items (shrinks towards the first)."""
    return st.integers(0, max(n - 1, 0))


PLAY_MODES = st.sampled_from(["any", "best", "best"])
# a crafted start is one tile from its rare case: play towards it more often
CRAFTED_PLAY_MODES = st.sampled_from(["any", "best", "best", "best", "best", "best"])
MALFORMED: st.SearchStrategy[JSON] = st.sampled_from([
    {"type": "place", "tile": "U", "at": [0, -1]}, {"type": "claim", "on": "north"},
    {"type": "fly"}, {"type": "place", "tile": "ZZ9", "at": [1, 1], "rotation": 0},
    {"type": "place", "tile": "U", "at": [10**6, 0], "rotation": 0}, {"type": "draw"},
    {"type": "discard", "tile": 7}, {"type": "pass", "extra": 1}, {}, {"type": None},
    {"type": "claim", "on": ["top"]}])  # objects only: a trace records actions as objects
SPOT_NAMES = st.sampled_from([*SIDES, "monastery", *FIELD_SPOTS])  # fields (farms stage)


# --- start positions ------------------------------------------------------------------------
@dataclass
class Pools:
    """Start positions by kind, for one profile."""

    by_kind: dict[str, list[JSON]] = field(default_factory=dict)

    def add(self, kind: str, state: JSON) -> None:
        self.by_kind.setdefault(kind, []).append(state)


def _policy(rng: random.Random, claim_bias: float) -> Callable[[CarcState], Any]:
    """Random play; with `claim_bias` the player claims whenever a claim is open, so meeples
    crowd the board (ties, empty supplies, final scoring)."""
    def choose(state: CarcState) -> Any:
        if state.step == CLAIM and rng.random() < claim_bias:
            claims = GAME.claims(state)
            if claims:
                return rng.choice(claims)
        return GAME.random_action(state, rng)
    return choose


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


@cache
def pools(profile: Profile) -> Pools:
    """Every start position kind for `profile`, built once."""
    rng = random.Random(f"gamecert-carcassonne-{profile.id}")
    out = Pools()
    n = profile.param("CARC-PLAYERS", "players")
    limit = profile.param("CARC-END-POINTS", "points")
    land: list[CarcState] = []
    gaps: list[CarcState] = []
    for g in range(POOL_GAMES):
        choose = _policy(rng, claim_bias=0.3 if g % 2 else 0.9)
        state = GAME.initial(profile)
        while (who := GAME.current(state)) != TERMINAL:
            if state.phase == RIVER_PHASE and state.step in (DRAW, PLACE):
                left = sum(state.river_pile)
                if state.step == DRAW and left <= 3:
                    out.add("lake" if left == 1 else "river-end", GAME.observe(state))
                elif state.step == PLACE and not left:
                    # the last river tile in hand: one placement ends the river phase and
                    # deals the land phase's opening hands
                    out.add("lake", GAME.observe(state))
                elif left >= 4 and rng.random() < 0.3:
                    out.add("river", GAME.observe(state))
                if state.step == DRAW:
                    near = _near_uturn(state)
                    if near is not None:
                        out.add("near-uturn", near)
            elif state.phase == LAND_PHASE and state.step in (PLACE, CLAIM):
                deck = sum(state.deck)
                if deck == 0 and sum(map(len, state.hands)) <= 2:
                    out.add("final", GAME.observe(state))
                elif deck <= 6:
                    out.add("late", GAME.observe(state))
                elif rng.random() < 0.06:
                    out.add("land", GAME.observe(state))
                if state.step == PLACE and rng.random() < 0.08:
                    land.append(state)
                if (state.step == PLACE and len(gaps) < 12 and rng.random() < 0.25
                        and _monastery_gap(state)):
                    gaps.append(state)
            action = GAME.random_chance(state, rng) if who == CHANCE else choose(state)
            state = GAME.apply(state, action)[0]
    for state in land + gaps:
        closers = _closers(state)
        closing = _closing_start(state, closers, _monastery, _banner_join, _features)
        if closing is not None:
            out.add("closing", closing)
        # one tile from the 50-point end: a closing tile that scores, everyone a little short
        scoring = _closing_start(state, closers, _points, alone=True)
        if scoring is not None:
            scoring["scores"] = [limit - rng.randint(1, 2) for _ in range(n)]
            out.add("near-50", scoring)
        # single-tile hands: whatever completes something is the rare case itself
        for kind, worth in (("monastery", _monastery), ("banner", _banner_join),
                            ("multi", _several)):
            crafted = _closing_start(state, closers, worth, alone=True)
            if crafted is not None:
                out.add(kind, crafted)
    if len(out.by_kind.get("monastery", [])) < MONASTERY_STARTS:
        # the random games above left few monasteries one gap from complete (some river
        # readings lay the land out so): look for them in every played land position
        _more_monasteries(profile, out)
        for o in _monastery_starts(profile)[:MONASTERY_STARTS - len(out.by_kind.get(
                "monastery", []))]:
            out.add("monastery", o)
    for o in out.by_kind.get("final", []):
        # the claim step of the last tile, everyone level and nothing on the board: a pass
        # ends the game in a tie for first
        if o["step"] == "place" and sum(map(len, o["hands"])) == 1:
            last = _placed(profile, o, lambda a: a)
            if last is not None:
                even = _clear_meeples(last, profile)
                even["scores"] = [max(last["scores"])] * n
                out.add("final-tie", even)
    if profile.param("CARC-FARM-FIELDS", "enabled"):
        # the last tiles with farmers on the board: the final farm scoring is a step away;
        # and the same with a field whose farmers tie (CARC-FARM-MAJORITY)
        for o in out.by_kind.get("final", []):
            if any(m["on"] in FIELD_SPOTS for m in o["meeples"]):
                out.add("farm-final", o)
                tie = _farm_tie(profile, o)
                if tie is not None:
                    out.add("farm-tie", tie)
    if "tower" in deck_sets(profile):
        # the place step of a player with imprisoned meeples and exactly the ransom (or one
        # point short, or two ransoms' worth): CARC-TOWER-RANSOM at its limits
        cost = int(profile.param("CARC-TOWER-RANSOM", "points"))
        for i, o in enumerate(out.by_kind.get("land", []) + out.by_kind.get("late", [])[::4]):
            ransom = _ransom_start(o, (cost, 2 * cost)[i % 2], 1 + i % 3 // 2)
            if ransom is not None:
                out.add("ransom", ransom)
            short = _ransom_start(o, cost - 1, 1)
            if short is not None and i % 2:
                out.add("ransom-short", short)
            if profile.variant("CARC-TOWER-EXCHANGE") == "on-request" and ransom is not None:
                # the captor also holds one of the mover's: an exchange may be asked for
                me, captor = ransom["to_move"] - 1, ransom["to_move"] % ransom["players"]
                if ransom["supply"][captor]:
                    swap = copy.deepcopy(ransom)
                    swap["prisoners"][me][captor] += 1
                    swap["supply"][captor] -= 1
                    out.add("exchange", swap)
        for o in (out.by_kind.get("land", []) + out.by_kind.get("late", [])[::3])[:60]:
            for kind, start in _reach_starts(profile, o)[:2]:
                out.add(kind, start)
    for o in out.by_kind.get("late", [])[::8]:
        near = copy.deepcopy(o)  # played late positions, everyone a few points short
        near["scores"] = [limit - rng.randint(1, 8) for _ in range(n)]
        out.add("late-50", near)
    out.by_kind["loop"] = _loop_starts(profile)
    out.by_kind["starved"] = _starved(profile)
    for o in (out.by_kind.get("land", []) + out.by_kind.get("late", [])[::6])[::2]:
        # the claim step of a tile that joins an opponent's road or town: claiming it is not
        # allowed (CARC-CLAIM-UNCLAIMED), though the tile's other features may be free
        if o["step"] == "place" and o["meeples"]:
            joined = _placed(profile, o, _joining(GAME.load(profile, o)))
            if joined:
                out.add("joined", joined)
    out.by_kind["ties"] = [s for _, s in tie_positions(profile, limit=12)]
    _built.append(out)
    crafted_ids.cache_clear()
    return out


def _more_monasteries(profile: Profile, out: Pools) -> None:
    """Single-tile hands that complete a monastery, from the played land and late positions
    with a monastery one gap from complete, until there are MONASTERY_STARTS of them."""
    played = out.by_kind.get("land", []) + out.by_kind.get("late", [])
    for o in played:
        if len(out.by_kind.get("monastery", [])) >= MONASTERY_STARTS:
            return
        if o["step"] != "place":
            continue
        crafted = _monastery_closer(GAME.load(profile, o))
        if crafted is not None:
            out.add("monastery", crafted)


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


CRAFTED = ("near-uturn", "near-50", "closing", "monastery", "banner", "multi", "loop",
           "starved", "joined", "ties", "final-tie", "farm-tie", "ransom", "ransom-short",
           "reach-exact", "reach-gap", "mutual", "exchange")


@cache
def crafted_ids() -> frozenset[int]:
    """Identities of every crafted start position (of any profile built so far)."""
    return frozenset(id(s) for p in _built for kind in CRAFTED
                     for s in p.by_kind.get(kind, []))


_built: list[Pools] = []


# how often each kind starts an example (the first is what shrinking aims for)
START_WEIGHTS = (("new", 1), ("river", 1), ("river-end", 1), ("lake", 2), ("near-uturn", 4),
                 ("land", 2), ("late", 1), ("late-50", 1), ("final", 2), ("final-tie", 2),
                 ("near-50", 3), ("closing", 2), ("monastery", 5), ("banner", 4), ("multi", 2),
                 ("loop", 3), ("starved", 1), ("joined", 4), ("ties", 2), ("farm-final", 4),
                 ("farm-tie", 3), ("ransom", 4), ("ransom-short", 3), ("reach-exact", 2),
                 ("reach-gap", 2), ("mutual", 2), ("exchange", 3))
# The tower stage's many kinds of its own thin out the river's: its lake comes twice as
# often, so the land phase's opening deal (CARC-HAND-DEAL, at the lake) is met in every
# campaign. (The other stages keep their weights, so their seeded runs stay as they are.)
START_WEIGHTS_TOWER = tuple((kind, {"lake": 4, "river-end": 2}.get(kind, weight))
                            for kind, weight in START_WEIGHTS)


@cache
def start_strategy(profile: Profile) -> st.SearchStrategy[JSON]:
    """A start: the kind drawn by weight, then a position of that kind. (`one_of` would
    weigh the kinds by how many distinct positions each has, not by these weights.)"""
    kinds = pools(profile).by_kind
    weights = START_WEIGHTS_TOWER if "tower" in deck_sets(profile) else START_WEIGHTS
    choices = [kind for kind, weight in weights
               if kind == "new" or kinds.get(kind) for _ in range(weight)]
    which = st.sampled_from(choices)
    of_kind = {kind: st.sampled_from(states) for kind, states in kinds.items() if states}

    @st.composite
    def start(draw: st.DrawFn) -> JSON:
        kind = draw(which, label="start kind")
        if kind == "new":
            return {"kind": "new_game"}
        return {"kind": "state", "state": draw(of_kind[kind], label=kind)}

    return start()


# --- moves ----------------------------------------------------------------------------------
def _pick(data: st.DataObject, items: list[Any], label: str) -> Any:
    return items[data.draw(index(len(items)), label=label)]


def _crafted_start(ls: Lockstep) -> bool:
    start = ls.start_spec or {}
    return start.get("kind") == "state" and id(start.get("state")) in crafted_ids()


def _ref(ls: Lockstep) -> CarcState:
    state: CarcState = ls.ref
    return state


def _hand(state: CarcState) -> list[int]:
    return list(state.hands[state.to_move - 1]) if state.to_move else []


def _place_json(state: CarcState, k: int, pos: int, rot: int) -> JSON:
    return {"type": "place", "tile": state.cfg.t.ids[k], "at": unpack(pos), "rotation": rot}


def _at_river_end(state: CarcState) -> list[tuple[int, int]]:
    """(tile, rotation) of the hand at the river's open end whose land edges fit."""
    river = state.river
    if state.phase != RIVER_PHASE or river.open_pos < 0 or river.open_pos not in state.cells:
        return []
    m, v = state.cells[river.open_pos]
    return [(k, r) for k in sorted(set(_hand(state))) for r in range(4)
            if state.cfg.t.rot[k][r].code & m == v]


def _uturns(state: CarcState) -> list[JSON]:
    """River placements at the open end whose edges fit but which turn back."""
    pos = state.river.open_pos
    return [_place_json(state, k, pos, r) for k, r in _at_river_end(state)
            if GAME.river_problem(state, k, r, pos)]


def _completed_now(state: CarcState) -> int:
    """Features the tile just placed has completed (read in its claim step)."""
    if state.step != CLAIM:
        return 0
    t, pos = state.cfg.t, state.placed
    k, r = state.board[pos]
    done = {state.owner[pos * 8 + i] for i in range(len(t.rot[k][r].segs))}
    for d in AROUND:
        there = state.board.get(pos + d)
        if there is not None and t.rot[there[0]][there[1]].monastery >= 0:
            done.add(state.owner[(pos + d) * 8 + t.rot[there[0]][there[1]].monastery])
    return sum(1 for fid in done if state.feats[fid].open == 0)


def _best_placement(state: CarcState, actions: list[Any]) -> list[Any]:
    """The placements that complete something (those at closing cells, tried out); those
    that complete a monastery, the rarest completion, where there are any."""
    cells = closing_cells(state)
    closing = [a for a in actions if a[0] == "place" and a[2] in cells]
    tried = [(a, _completions(state, a[1], a[2], a[3])) for a in closing[:60]]
    done = [a for a, completed in tried if completed]
    monastery = [a for a, completed in tried
                 if any(e["feature"] == "monastery" for e in completed)]
    return monastery or done or closing


# the probes worth making in each kind of step; repeats weigh them
PROBES = {
    "draw": st.sampled_from(["lake-early", "lake-early", "draw-missing", "wrong-step",
                             "malformed"]),
    "river": st.sampled_from(["uturn"] * 3 + ["meets-river"] * 3 + ["river-elsewhere"] * 3
                             + ["rotation-7", "foreign-tile", "discard", "off-cell",
                                "wrong-step", "malformed"]),
    "land": st.sampled_from(["mismatch", "mismatch", "mismatch", "diagonal", "diagonal",
                             "off-cell", "foreign-tile", "rotation-7", "discard", "discard",
                             "wrong-step", "malformed"]),
    "claim": st.sampled_from(["claim-no-edge", "claim-no-edge", "claim-claimed",
                              "claim-claimed", "claim-claimed", "claim-any", "wrong-step",
                              "malformed"]),
}
# the tower stage adds ransoms nobody may pay, floors and caps where none may go, captures
# out of reach (the other stages keep their own lists, so their seeded runs stay as they are)
PROBES_TOWER = {
    **PROBES,
    "land": st.sampled_from(["mismatch", "mismatch", "diagonal", "off-cell", "foreign-tile",
                             "rotation-7", "discard", "wrong-step", "ransom-any", "ransom-any",
                             "ransom-any"]),
    "claim": st.sampled_from(["claim-no-edge", "claim-claimed", "claim-claimed", "claim-any",
                              "wrong-step", "malformed", "tower-any", "tower-any", "tower-any",
                              "cap-any", "ransom-any"]),
}


# What the crafted starts are for: each kind (CRAFTED), the rules whose rare cases it puts
# one step away. An engine that cannot load them gets those rules checked in part.
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


class CarcassonnePlugin:
    crafted_for = CRAFTED_FOR
    game = GAME

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        return start_strategy(profile)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        state = _ref(ls)
        if GAME.current(state) == CHANCE:
            outcomes = GAME.chance(state)
            kind = _pick(data, outcomes, "draw").action[1]
            return {"type": "draw", "tile": state.cfg.t.ids[kind]}
        actions = GAME.legal(state)
        modes = CRAFTED_PLAY_MODES if _crafted_start(ls) else PLAY_MODES
        mode = data.draw(modes, label="mode")
        rare = [a for a in actions if a[0] in ("ransom", "tower", "cap", "exchange")]
        if mode == "best" and rare:
            # The Tower's moves are a few among many placements or claims: take them often
            actions = rare
        elif mode == "best" and state.step == PLACE:
            # what random play seldom does: close features, several at once
            actions = _best_placement(state, actions) or actions
        elif mode == "best" and state.step == CLAIM and len(actions) > 1:
            actions = actions[1:]  # claim rather than pass: meeples crowd the board
        return GAME.action_to_json(state, _pick(data, actions, "legal index"))

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        state = _ref(ls)
        if state.step == PLACE:
            step = "river" if state.phase == RIVER_PHASE else "land"
        else:
            step = "claim" if state.step == CLAIM else "draw"
        kind = data.draw((PROBES_TOWER if state.cfg.tower else PROBES)[step], label="probe")
        maker = getattr(self, "_probe_" + kind.replace("-", "_"))
        probe: JSON = maker(data, state)
        return probe

    # each probe is usually illegal in the state it is made for; Lockstep.probe drops the
    # ones the reference accepts
    def _probe_foreign_tile(self, data: st.DataObject, state: CarcState) -> JSON:
        """A tile that is not in the hand."""
        t = state.cfg.t
        k = data.draw(index(len(t.ids)), label="tile")
        pos = _pick(data, sorted(state.cells), "cell")
        return _place_json(state, k, pos, data.draw(index(4), label="rotation"))

    def _probe_off_cell(self, data: st.DataObject, state: CarcState) -> JSON:
        """A hand tile on a cell that is taken or touches nothing."""
        hand = _hand(state) or [0]
        base = _pick(data, sorted(state.board), "next to")
        offset = _pick(data, [0, -512, 2, 3 + 3 * 256, -1 - 256, 1 + 256], "offset")
        return _place_json(state, _pick(data, hand, "tile"), base + offset,
                           data.draw(index(4), label="rotation"))

    def _probe_diagonal(self, data: st.DataObject, state: CarcState) -> JSON:
        """A hand tile on an empty cell that touches the board only at a corner."""
        corners = sorted({pos + d for pos in state.board for d in AROUND}
                         - set(state.board) - set(state.cells))
        if not corners:
            return self._probe_off_cell(data, state)
        hand = _hand(state) or [0]
        return _place_json(state, _pick(data, hand, "tile"), _pick(data, corners, "corner"),
                           data.draw(index(4), label="rotation"))

    def _probe_rotation_7(self, data: st.DataObject, state: CarcState) -> JSON:
        hand = _hand(state) or [0]
        probe = _place_json(state, _pick(data, hand, "tile"),
                            _pick(data, sorted(state.cells), "cell"), 0)
        probe["rotation"] = _pick(data, [7, 4, -1], "rotation")
        return probe

    def _probe_mismatch(self, data: st.DataObject, state: CarcState) -> JSON:
        """A hand tile on an open cell, turned at random: its edges seldom all match."""
        hand = _hand(state) or [0]
        return _place_json(state, _pick(data, hand, "tile"),
                           _pick(data, sorted(state.cells), "cell"),
                           data.draw(index(4), label="rotation"))

    def _probe_uturn(self, data: st.DataObject, state: CarcState) -> JSON:
        turns = _uturns(state)
        return _pick(data, turns, "u-turn") if turns else self._probe_meets_river(data, state)

    def _probe_meets_river(self, data: st.DataObject, state: CarcState) -> JSON:
        """A river tile at the open end, turned so that a river edge faces another edge."""
        pos = state.river.open_pos
        hand = _hand(state)
        if pos < 0 or not hand:
            return self._probe_mismatch(data, state)
        fits = set(_at_river_end(state))
        wrong = [(k, r) for k in sorted(set(hand)) for r in range(4) if (k, r) not in fits]
        if not wrong:
            return self._probe_mismatch(data, state)
        k, r = _pick(data, wrong, "turned")
        return _place_json(state, k, pos, r)

    def _probe_river_elsewhere(self, data: st.DataObject, state: CarcState) -> JSON:
        """A river tile on an open cell other than the river's end, where its edges fit."""
        t = state.cfg.t
        fits = [(k, pos, r) for k in sorted(set(_hand(state))) for pos, (m, v)
                in sorted(state.cells.items()) if pos != state.river.open_pos
                for r in range(4) if t.rot[k][r].code & m == v]
        if not fits:
            return self._probe_mismatch(data, state)
        return _place_json(state, *_pick(data, fits, "elsewhere"))

    def _probe_discard(self, data: st.DataObject, state: CarcState) -> JSON:
        hand = _hand(state) or [0]
        return {"type": "discard", "tile": state.cfg.t.ids[_pick(data, hand, "tile")]}

    def _probe_lake_early(self, data: st.DataObject, state: CarcState) -> JSON:
        return {"type": "draw", "tile": "RE"}

    def _probe_draw_missing(self, data: st.DataObject, state: CarcState) -> JSON:
        """A draw of a tile kind the pile does not hold."""
        t = state.cfg.t
        pile = GAME._drawable(state)
        gone = [k for k in range(len(t.ids)) if not pile[k]]
        return {"type": "draw", "tile": t.ids[_pick(data, gone, "tile") if gone else 0]}

    def _probe_claim_no_edge(self, data: st.DataObject, state: CarcState) -> JSON:
        """A claim on a side of the placed tile with no road or town (or a missing
        monastery)."""
        k, r = state.board[state.placed]
        rt = state.cfg.t.rot[k][r]
        spots = [SIDES[s] for s in range(4) if rt.side_seg[s] < 0]
        spots += [] if rt.monastery >= 0 else ["monastery"]
        return {"type": "claim", "on": _pick(data, spots, "spot") if spots else "monastery"}

    def _probe_claim_claimed(self, data: st.DataObject, state: CarcState) -> JSON:
        """A claim on a feature that holds meeples already or was scored at placement."""
        k, r = state.board[state.placed]
        rt = state.cfg.t.rot[k][r]
        taken = [SIDES[seg.spot] if seg.kind != MONASTERY else "monastery"
                 for i, seg in enumerate(rt.segs)
                 if any(state.feats[state.owner[state.placed * 8 + i]].meeples)
                 or i in state.blocked]
        return {"type": "claim", "on": _pick(data, taken, "spot") if taken else "top"}

    def _probe_claim_any(self, data: st.DataObject, state: CarcState) -> JSON:
        """A claim on any spot (refused, for one, when the supply is empty)."""
        return {"type": "claim", "on": data.draw(SPOT_NAMES, label="spot")}

    def _probe_ransom_any(self, data: st.DataObject, state: CarcState) -> JSON:
        """A ransom to any player, most often to one holding the mover's meeples (refused
        without the points, or twice in a turn)."""
        me = state.to_move - 1
        holders = [c + 1 for c, row in enumerate(state.prisoners) if row[me]]
        return {"type": "ransom",
                "captor": _pick(data, [*holders, *holders, *range(1, state.cfg.players + 1)],
                                "captor")}

    def _probe_tower_any(self, data: st.DataObject, state: CarcState) -> JSON:
        """A floor on any tile with a capture of any meeple or capping one on the board."""
        at = unpack(_pick(data, sorted(state.board), "tower cell"))
        victims = [{"at": m["at"], "on": m["on"]} for m in GAME.observe(state)["meeples"]]
        victims += [{"at": unpack(pos), "on": "tower"} for pos, (_, cap) in
                    sorted(state.towers.items()) if cap]
        if not victims:
            return {"type": "tower", "at": at}
        return {"type": "tower", "at": at, "capture": _pick(data, victims, "victim")}

    def _probe_cap_any(self, data: st.DataObject, state: CarcState) -> JSON:
        return {"type": "cap", "at": unpack(_pick(data, sorted(state.board), "cap cell"))}

    def _probe_wrong_step(self, data: st.DataObject, state: CarcState) -> JSON:
        options: list[JSON] = [{"type": "pass"}, {"type": "claim", "on": "top"},
                               {"type": "draw", "tile": "U"}, {"type": "discard", "tile": "U"},
                               {"type": "place", "tile": "U", "at": [0, 1], "rotation": 0}]
        return _pick(data, options, "action")

    def _probe_malformed(self, data: st.DataObject, state: CarcState) -> JSON:
        return data.draw(MALFORMED, label="malformed")

    def rule_probes(self, ls: Lockstep) -> list[tuple[str, JSON]]:
        """Actions that each break one judged rule and no other here (carcassonne_probes)."""
        from gamecert.fuzz.games.carcassonne_probes import rule_probes

        return rule_probes(ls)

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        return bot_text_strategy(profile)

    def targets(self, ls: Lockstep) -> dict[str, float]:
        """The rare cases, reported once play has reached them: a tie on a feature, a tile
        closing several features, a score in reach of the end, a U-turn in reach.

        Only for examples that started from a new game or a randomly played position: the
        crafted starts hold these cases already, and Hypothesis hill-climbs every label it
        sees by re-running variants of the best example (a whole pass of them, even after a
        finding), which would spend the round on what the start gave for free."""
        if _crafted_start(ls):
            return {}
        state = _ref(ls)
        # Hypothesis optimises the labels in the order it first met them, and a round's few
        # examples reach only the first: in the tower stage its labels come first
        out: dict[str, float] = _tower_targets(state, ls.ops) if state.cfg.tower else {}
        seen: set[int] = set()
        tie = 0
        for node in state.meeples:
            fid = state.owner[node]
            if fid not in seen:
                seen.add(fid)
                counts = state.feats[fid].meeples
                tie = max(tie, counts.count(max(counts)))
        if tie >= 2:
            out["players tied on a feature"] = float(min(tie, 3))
        short = state.cfg.end_points - max(state.scores)
        if short <= 3:
            out["points short of the end"] = float(-max(short, 0))
        closed = _completed_now(state)
        if closed >= 2:
            out["features closed by one tile"] = float(min(closed, 3))
        if state.phase == RIVER_PHASE and state.step == PLACE and _uturns(state):
            out["a U-turn in reach"] = 1.0
        if state.cfg.farms:
            out.update(_farm_targets(state))
        return out

    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        return prove_carcassonne(engine, profile)


def _tower_targets(state: CarcState, ops: list[JSON]) -> dict[str, float]:
    """Tower stage: tall towers (CARC-TOWER-REACH), captures (CARC-TOWER-CAPTURE), prisoners
    held both ways or by several captors (CARC-TOWER-EXCHANGE: a capture back makes the
    exchange, or under on-request the mover may ask), and a prisoner's owner on exactly the
    ransom (CARC-TOWER-RANSOM at its limit)."""
    out: dict[str, float] = {}
    if state.towers:
        out["tallest tower"] = float(max(h for h, _ in state.towers.values()))
    captures = sum(1 for op in ops if op.get("op") == "apply"
                   and op["action"].get("type") == "tower" and "capture" in op["action"])
    if captures:
        out["captures in one example"] = float(min(captures, 8))
    held = state.prisoners
    n = state.cfg.players
    pairs = [(a, b) for a in range(n) for b in range(n) if held[a][b]]
    if pairs:
        out["captor-owner pairs holding prisoners"] = float(len(pairs))
        out["prisoners held both ways"] = float(sum(1 for a, b in pairs if held[b][a]))
        ransom = state.cfg.ransom
        owners = {b for _, b in pairs}
        out["a prisoner's owner on the ransom exactly"] = -float(min(
            abs(state.scores[b] - ransom) for b in owners))
    return out


def _farm_targets(state: CarcState) -> dict[str, float]:
    """Farms stage: tied farmers on a field, and farmers on the board close to the final farm
    scoring (fewer tiles left is better), so long games reach CARC-FARM-SCORE."""
    out: dict[str, float] = {}
    fields = [f for f in state.feats.values() if f.kind == FIELD and any(f.meeples)]
    if not fields:
        return out
    tie = max(f.meeples.count(max(f.meeples)) for f in fields)
    if tie >= 2:
        out["players tied on a field"] = float(min(tie, 3))
    left = sum(state.deck) + sum(len(h) for h in state.hands)
    out["tiles left before the farm scoring"] = -float(left)
    return out


# --- bot replies (SYNCS 2025 protocol) ------------------------------------------------------
# A pass is the one reply that is good whatever the tile and the board (in a claim step,
# from the mover): it comes most often, well framed, so the referee's accepted replies
# (CARC-PROTO-REPLY) are met in every campaign, not only its refusals.
REPLY_KINDS = st.sampled_from(["pass"] * 14 + ["place", "place", "claim", "claim", "discard",
                                              "fly", "garbage", "text"])
FRAMINGS = st.sampled_from(["ok"] * 8 + ["short", "long", "bytes", "oversize", "newline",
                                         "bare", "spaced", "unicode"])
GARBAGE = st.sampled_from(["", "\n", "0,", "2,{}", "5,{}", "3,{x}", "2,[]", "x,{}", "-2,{}",
                           "9999999,{}", "4097," + "x" * 4097])
NOISE = st.text(max_size=20)


def framed(body: str, how: str) -> str:
    """`body` in a frame, well counted or broken in one way."""
    if how in ("bytes", "unicode"):
        body = body[:-1] + ',"note":"caf\u00e9"}'  # one character, two UTF-8 bytes
    if how == "oversize":  # a valid reply padded past the limit
        body = body[:-1] + ',"pad":"' + "x" * 4100 + '"}'
    count = {"short": len(body) - 1, "long": len(body) + 1,
             "bytes": len(body.encode())}.get(how, len(body))
    if how == "bare":
        return body
    text = f"{count}, {body}" if how == "spaced" else f"{count},{body}"
    return text + "\n" if how == "newline" else text


@cache
def bot_text_strategy(profile: Profile) -> st.SearchStrategy[str]:
    """Framed replies: mostly passes (legal whenever the player_id is the mover's, which makes
    one in n of them good in a claim step), placements, claims and discards near the
    spring, each well framed or broken in one way, and plain garbage."""
    centre = profile.param("CARC-PROTO-REPLY", "centre")
    n = profile.param("CARC-PLAYERS", "players")
    ids = st.sampled_from([k.id for k in load_tiles()])
    player = st.one_of(st.integers(0, n - 1), st.sampled_from([-1, n, "0", None, True]))
    mover = st.integers(0, n - 1)
    near = st.integers(centre - 3, centre + 3)
    pos = st.one_of(st.tuples(near, near).map(list), st.sampled_from([[centre], "85,85"]))
    rotation = st.one_of(st.integers(0, 3), st.sampled_from([7, -1, "1"]))
    spot = st.sampled_from([*SPOT_WIRE.values(), "north_edge", "monastery"])
    # the protocol extension's replies, in the stages that play them
    farms = bool(profile.param("CARC-FARM-FIELDS", "enabled"))
    tower = bool(profile.param("CARC-TOWER-TILES", "enabled"))
    kinds = REPLY_KINDS
    if farms or tower:
        extra = (["farmer", "farmer"] if farms else []) + (
            ["floor", "floor", "floor", "cap", "ransom", "ransom", "exchange"] if tower else [])
        kinds = st.sampled_from(["pass"] * (14 + len(extra)) + [
            "place", "place", "claim", "claim", "discard", "fly", "garbage", "text", *extra])
    field_spot = st.sampled_from([*FIELD_WIRE.values(), "TOWER"])
    victim_spot = st.sampled_from([*SPOT_WIRE.values(), *FIELD_WIRE.values(), "TOWER"])
    capture = st.one_of(st.none(), st.fixed_dictionaries({"pos": pos, "placed_on": victim_spot}))

    @st.composite
    def reply(draw: st.DrawFn) -> str:
        kind = draw(kinds, label="reply kind")
        if kind == "garbage":
            return draw(GARBAGE, label="garbage")
        if kind == "text":
            return draw(NOISE, label="noise")
        if kind == "pass":
            body: dict[str, Any] = {"event_type": "move_place_meeple_pass",
                                    "player_id": draw(mover, label="player_id")}
        elif kind == "place":
            body = {"event_type": "move_place_tile", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile"), "pos": draw(pos, label="pos"),
                             "rotation": draw(rotation, label="rotation")},
                    "player_tile_index": draw(index(4), label="index")}
        elif kind == "claim":
            body = {"event_type": "move_place_meeple", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile"), "pos": draw(pos, label="pos"),
                             "rotation": 0},
                    "placed_on": draw(spot, label="placed_on")}
        elif kind == "discard":
            body = {"event_type": "move_discard_tile", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile")},
                    "player_tile_index": draw(index(3), label="index")}
        elif kind == "farmer":
            body = {"event_type": "move_place_meeple", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile"), "pos": draw(pos, label="pos"),
                             "rotation": 0},
                    "placed_on": draw(field_spot, label="placed_on")}
        elif kind == "floor":
            body = {"event_type": "move_tower_floor", "player_id": draw(mover, label="player"),
                    "tower_pos": draw(pos, label="tower_pos"),
                    "capture": draw(capture, label="capture")}
        elif kind == "cap":
            body = {"event_type": "move_tower_cap", "player_id": draw(mover, label="player"),
                    "tower_pos": draw(pos, label="tower_pos")}
        elif kind == "ransom":
            body = {"event_type": "move_pay_ransom", "player_id": draw(mover, label="player"),
                    "captor_id": draw(player, label="captor")}
        elif kind == "exchange":  # CARC-TOWER-EXCHANGE on-request (refused when immediate)
            body = {"event_type": "move_exchange_prisoners",
                    "player_id": draw(mover, label="player"),
                    "other_id": draw(player, label="other")}
        else:
            body = {"event_type": "move_fly", "player_id": draw(player, label="player")}
        return framed(json.dumps(body, separators=(",", ":")), draw(FRAMINGS, label="frame"))

    return reply()


# --- gamecert prove carcassonne -------------------------------------------------------------
@cache
def proof_positions(profile: Profile) -> list[tuple[str, JSON]]:
    """A few place steps for the placement-set check: river and land, crafted and played."""
    kinds = pools(profile).by_kind
    out: list[tuple[str, JSON]] = []
    for kind, count in (("near-uturn", 2), ("river", 1), ("closing", 2), ("late", 1),
                        ("loop", 1)):
        states = [s for s in kinds.get(kind, []) if s["step"] == "place"]
        if kind == "near-uturn":  # the ones where a U-turn is in reach
            states = [s for s in states if _uturns(GAME.load(profile, s))]
        out += [(f"{kind} {i + 1}", s) for i, s in enumerate(states[:count])]
    return out


def prove_carcassonne(engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
    """CARC-SCORE-MAJORITY proved on the engine's own award code (in-process), then the z3
    placement and river checks on the engine's legal lists, and the z3 tie positions played
    beside the reference."""
    from gamecert.fuzz.engines import EngineFault, Refused
    from gamecert.fuzz.prove import disagreements, engine_code
    from gamecert.oracles import Violation
    from gamecert.oracles.carcassonne.z3_checks import (
        check_legal_placements,
        check_river,
        prove_majority,
    )

    ok, lines = True, []
    code = engine_code(engine)
    if code is None:
        ok = False
        lines.append("CARC-SCORE-MAJORITY symbolic proof: NOT RUN: the engine runs in another "
                     "process; give it in-process (--engine package.module:attr) to prove it")
    elif not callable(getattr(code, "award_points", None)):
        ok = False
        lines.append("CARC-SCORE-MAJORITY symbolic proof: NOT POSSIBLE: the engine has no "
                     "award_points(counts, points, max2, ite) written with operators only")
    else:
        try:
            result = prove_majority(code, profile)
        except Exception as exc:  # the engine's award code is not symbolic
            ok = False
            lines.append(f"CARC-SCORE-MAJORITY symbolic proof: NOT POSSIBLE: "
                         f"{type(exc).__name__}: {exc}")
        else:
            ok &= result.proved
            lines.append(f"CARC-SCORE-MAJORITY symbolic proof: "
                         f"{'PROVED' if result.proved else 'FAILED'}: {result.message}")
        if profile.param("CARC-FARM-FIELDS", "enabled"):
            try:
                farm = prove_majority(code, profile, hook="farm_award")
            except Exception as exc:  # no symbolic farm_award
                ok = False
                lines.append(f"CARC-FARM-MAJORITY symbolic proof: NOT POSSIBLE: "
                             f"{type(exc).__name__}: {exc}")
            else:
                ok &= farm.proved
                lines.append(f"CARC-FARM-MAJORITY symbolic proof: "
                             f"{'PROVED' if farm.proved else 'FAILED'}: {farm.message}")
        if "tower" in deck_sets(profile):
            from gamecert.oracles.carcassonne.tower_z3 import prove_tower
            try:
                proofs = prove_tower(code, profile)
            except Exception as exc:  # the engine's step code is not symbolic
                ok = False
                lines.append(f"The Tower conservation proofs: NOT POSSIBLE: "
                             f"{type(exc).__name__}: {exc}")
            else:
                for proof in proofs:
                    ok &= proof.proved
                    lines.append(f"{proof.rule} conservation proof: "
                                 f"{'PROVED' if proof.proved else 'FAILED'}: {proof.message}")
    bad: list[str] = []
    positions = proof_positions(profile)
    river_checked = 0
    for label, state in positions:
        try:
            engine.new_game(profile, None)  # the engine learns a season's rules before a load
            engine.load_state(state)
            legal = engine.legal()
        except (Refused, EngineFault) as exc:
            bad.append(f"  {label}: the engine cannot list its moves: {exc}")
            continue
        actions = legal.get("actions") if isinstance(legal, dict) else None
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            bad.append(f"  {label}: the legal reply has no list of actions")
            continue
        verdict = check_legal_placements(state, actions, profile)
        if isinstance(verdict, Violation):
            bad.append(f"  {label}: CARC-PLACE-MATCH / CARC-HAND-NOFIT: {verdict}")
        if state["phase"] == "river":
            for action in actions:
                river_checked += 1
                verdict = check_river(state, action, profile)
                if isinstance(verdict, Violation):
                    bad.append(f"  {label}: CARC-RIVER-NO-UTURN: {verdict}")
    ok &= not bad
    lines.append(f"placement sets against z3 (CARC-PLACE-ADJACENT, CARC-PLACE-MATCH, "
                 f"CARC-HAND-NOFIT): {len(positions)} positions; river placements against the "
                 f"z3 river model (CARC-RIVER-NO-UTURN {profile.variant('CARC-RIVER-NO-UTURN')}"
                 f"): {river_checked}; {len(bad)} disagree")
    lines.extend(bad[:10])
    ties = tie_positions(profile, limit=8)
    # each tie position is one road short of closing: the placement that closes it
    wrong = disagreements("carcassonne", engine, profile, ties, lambda state: [
        {"type": "place", "tile": "W", "at": [len(state["meeples"]) + 1, -1], "rotation": 1}])
    ok &= not wrong
    lines.append(f"CARC-SCORE-MAJORITY tie positions from z3 (exact ties on one road): "
                 f"{len(ties)} played, {len(wrong)} disagree with the rule")
    lines.extend(wrong[:10])
    return ok, lines


PLUGIN = CarcassonnePlugin()
