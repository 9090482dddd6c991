"""Carcassonne's start positions: pools of positions from random games at every stage (river,
lake, land, late, final), with the crafted kinds (crafted.py) added, built once per profile;
`start_strategy` samples them by weight. Builds states only.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from hypothesis import strategies as st

from gamecert.fuzz.games.built_once import built_once
from gamecert.fuzz.games.carcassonne.crafted import (
    _banner_join,
    _clear_meeples,
    _closers,
    _closing_start,
    _farm_tie,
    _features,
    _joining,
    _loop_starts,
    _monastery,
    _monastery_closer,
    _monastery_gap,
    _monastery_starts,
    _near_uturn,
    _placed,
    _points,
    _ransom_start,
    _reach_starts,
    _several,
    _starved,
)
from gamecert.oracles.carcassonne.board import deck_sets
from gamecert.oracles.carcassonne.z3_checks import tie_positions
from gamecert.reference_engine.carcassonne.engine import (
    CLAIM,
    DRAW,
    LAND_PHASE,
    PLACE,
    RIVER_PHASE,
    Carcassonne,
    CarcState,
)
from gamecert.reference_engine.carcassonne.tiles import FIELD_SPOTS
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile

GAME = Carcassonne()
JSON = Any

POOL_GAMES = 8  # random games per profile behind the start positions
MONASTERY_STARTS = 4  # monasteries one tile from complete, at least, where play has them


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


@cache
def pools(profile: Profile) -> Pools:
    """Every start position kind for `profile`, built once (kept on disk: built_once)."""
    out = Pools(built_once("carcassonne", "pools", profile,
                           lambda: _build_pools(profile).by_kind))
    # what the search tells apart by identity (`crafted_ids`): the positions handed out,
    # whether built now or read from the cache
    _built.append(out)
    crafted_ids.cache_clear()
    return out


def _build_pools(profile: Profile) -> Pools:
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
