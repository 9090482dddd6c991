"""Loading a canonical Carcassonne state, with a clear `BadState` for anything unreachable.

A fuzzer starts from crafted boards through here, so every invariant the engine relies on is
checked: tile conservation, matching edges, a connected board, one river from the spring,
meeple counts, and the phase/step bookkeeping. Built on `state.py` alone (the engine calls it;
it never calls the engine).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from gamecert.reference_engine.carcassonne.rules import is_winner
from gamecert.reference_engine.carcassonne.state import (
    AROUND,
    CLAIM,
    DELTA,
    DONE,
    DRAW,
    FIELD,
    LIMIT,
    MONASTERY,
    OVER,
    PHASE_NAMES,
    PLACE,
    RIVER_PHASE,
    SPOTS,
    STEP_NAMES,
    STRAIGHT,
    CarcConfig,
    CarcState,
    Feat,
    River,
    Tables,
    lay,
    pack,
    river_step,
    spot_of,
    unpack,
)
from gamecert.reference_engine.carcassonne.tiles import EDGE_KINDS, FIELD_SPOTS
from gamecert.reference_engine.contract import BadState
from gamecert.schemas import first_error
from gamecert.spec import Profile


def _where(pos: int) -> str:
    x, y = unpack(pos)
    return f"[{x}, {y}]"


def _kind(t: Tables, tile_id: str, where: str) -> int:
    if tile_id not in t.index:
        raise BadState(f"{where}: no tile {tile_id!r} in the tile catalogue")
    return t.index[tile_id]


def _trace_river(cfg: CarcConfig, board: dict[int, tuple[int, int]], strict: bool = True
                 ) -> tuple[River, int]:
    """Follow the river from the spring; return its state and how many tiles it crosses
    (`strict`: a curve the rules forbid is refused)."""
    t = cfg.t
    origin = pack(0, 0)
    # the spring's own rotation: 0 in any game the rules reach, another in an engine's
    flow = t.rot[t.spring][board[origin][1]].river[0]
    river = River(origin + DELTA[flow], flow, STRAIGHT, STRAIGHT)
    length = 1
    while river.open_pos >= 0 and river.open_pos in board:
        pos = river.open_pos
        k, r = board[pos]
        if k not in t.river:
            if not strict:
                break  # the engine's river ends here, against a land tile
            raise BadState(f"the river flows into the land tile {t.ids[k]} at {_where(pos)}")
        before = river
        river, turn = river_step(t, river, k, r, pos)
        length += 1
        if turn != STRAIGHT and strict:
            if cfg.uturn == "alternate" and turn == before.last_curve:
                raise BadState(f"the river curves the same way twice at {_where(pos)} "
                               f"(CARC-RIVER-NO-UTURN alternate)")
            if cfg.uturn != "alternate" and turn == before.last_turn:
                raise BadState(f"the river makes a U-turn at {_where(pos)} "
                               f"(CARC-RIVER-NO-UTURN {cfg.uturn})")
    return river, length


_TILE = re.compile(r"[A-Z][A-Z0-9]{0,3}")
_SPOTS = frozenset(SPOTS) | frozenset(FIELD_SPOTS)
_KEYS = frozenset(("game", "profile", "players", "phase", "step", "to_move", "pending",
                   "after_draws", "board", "placed", "claim_blocked", "meeples", "supply",
                   "scores", "hands", "deck", "river_pile", "discarded", "result"))


def _int(v: Any, low: int | None = None, high: int | None = None) -> bool:
    # type() rather than isinstance(): a bool is not an integer in JSON
    return (type(v) is int and (low is None or v >= low)
            and (high is None or v <= high))


def _cell_ok(v: Any) -> bool:
    return type(v) is list and len(v) == 2 and _int(v[0]) and _int(v[1])


def _tile_ok(v: Any) -> bool:
    return type(v) is str and _TILE.fullmatch(v) is not None


def _per_player_ok(v: Any) -> bool:
    return type(v) is list and 2 <= len(v) <= 5 and all(_int(x, 0) for x in v)


def _counts_ok(v: Any) -> bool:
    return type(v) is dict and all(_tile_ok(k) and _int(c, 1) for k, c in v.items())


_TOWER_KEYS = frozenset(("towers", "floors", "prisoners", "ransom_paid"))


def _towers_ok(o: Any) -> bool:
    """The tower stage's keys, when present (strict reading of the schema)."""
    if o.keys() == _KEYS:
        return True
    return (o.keys() == _KEYS | _TOWER_KEYS and type(o["towers"]) is list
            and all(type(w) is dict and w.keys() == {"at", "height", "cap"} and _cell_ok(w["at"])
                    and _int(w["height"], 1) and (w["cap"] is None or _int(w["cap"], 1, 5))
                    for w in o["towers"])
            and _per_player_ok(o["floors"]) and type(o["prisoners"]) is list
            and 2 <= len(o["prisoners"]) <= 5 and all(_per_player_ok(r) for r in o["prisoners"])
            and type(o["ransom_paid"]) is bool)


def shape_ok(o: Any) -> bool:
    """A fast, strict reading of `schemas/carcassonne-state.schema.json`: True only for
    documents the schema accepts. Loading runs it first because the generic validator costs
    about 20 ms per state and the fuzzer loads states constantly; anything it does not accept
    goes to the validator, which words the error."""
    if type(o) is not dict or not _towers_ok(o):
        return False
    r = o["result"]
    return (o["game"] == "carcassonne" and type(o["profile"]) is str
            and _int(o["players"], 2, 5) and o["phase"] in PHASE_NAMES
            and o["step"] in STEP_NAMES and (o["to_move"] is None or _int(o["to_move"], 1, 5))
            and type(o["pending"]) is list and all(_int(p, 1, 5) for p in o["pending"])
            and o["after_draws"] in ("place", "next-turn")
            and type(o["board"]) is list
            and all(type(b) is dict and b.keys() == {"at", "tile", "rotation"}
                    and _cell_ok(b["at"]) and _tile_ok(b["tile"]) and _int(b["rotation"], 0, 3)
                    for b in o["board"])
            and (o["placed"] is None or _cell_ok(o["placed"]))
            and type(o["claim_blocked"]) is list
            and all(type(x) is str and x in _SPOTS for x in o["claim_blocked"])
            and type(o["meeples"]) is list
            and all(type(m) is dict and m.keys() == {"at", "on", "player"}
                    and _cell_ok(m["at"]) and type(m["on"]) is str and m["on"] in _SPOTS
                    and _int(m["player"], 1, 5) for m in o["meeples"])
            and _per_player_ok(o["supply"]) and _per_player_ok(o["scores"])
            and type(o["hands"]) is list and 2 <= len(o["hands"]) <= 5
            and all(type(h) is list and all(_tile_ok(x) for x in h) for h in o["hands"])
            and _counts_ok(o["deck"]) and _counts_ok(o["river_pile"])
            and type(o["discarded"]) is list and all(_tile_ok(x) for x in o["discarded"])
            and (r is None or (type(r) is dict and r.keys() == {"reason", "scores", "winners"}
                               and r["reason"] in ("points-limit", "tiles-exhausted")
                               and _per_player_ok(r["scores"]) and type(r["winners"]) is list
                               and all(_int(w, 1, 5) for w in r["winners"]))))


def load_state(profile: Profile, o: Any, strict: bool = True) -> CarcState:
    """A canonical state as the engine's; `strict`: refused unless a game under the profile
    could reach it (off: any well-formed state the engine can go on from, for adoption)."""
    if isinstance(o, dict) and "view" in o:
        raise BadState("this is a player's view (hands and piles hidden); only a full "
                       "canonical state can be loaded")
    problem = None if shape_ok(o) else first_error("carcassonne-state", o)
    if problem:
        raise BadState(f"not a Carcassonne state: {problem}")
    cfg = CarcConfig.of(profile)
    t, n = cfg.t, cfg.players
    if o["players"] != n:
        raise BadState(f"the state has {o['players']} players, profile {profile.id!r} "
                       f"plays with {n}")
    for key in ("supply", "scores", "hands"):
        if len(o[key]) != n:
            raise BadState(f"{key} lists {len(o[key])} players, expected {n}")
    phase, step = PHASE_NAMES.index(o["phase"]), STEP_NAMES.index(o["step"])
    if (phase == OVER) != (step == DONE):
        raise BadState("phase and step must both be 'over' or neither")
    if (phase == OVER) != (o["to_move"] is None):
        raise BadState("to_move must be null exactly when the game is over")
    if (phase == OVER) != (o["result"] is not None):
        raise BadState("result must be set exactly when the game is over")
    to_move = o["to_move"] or 0
    if phase != OVER and not 1 <= to_move <= n:
        raise BadState(f"to_move {to_move} is not a player 1-{n}")
    pending = tuple(o["pending"])
    if (step == DRAW) != bool(pending):
        raise BadState("pending draws must be listed exactly when the step is 'draw'")
    if any(not 1 <= p <= n for p in pending):
        raise BadState(f"pending lists a player outside 1-{n}")
    then_next = o["after_draws"] == "next-turn"
    if then_next and step != DRAW:
        raise BadState("after_draws 'next-turn' only makes sense while draws are pending")

    # tiles: conservation over board, hands, piles and discards
    used: Counter[int] = Counter()
    board_items: dict[int, tuple[int, int]] = {}
    for i, b in enumerate(o["board"]):
        x, y = b["at"]
        if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
            raise BadState(f"board[{i}]: [{x}, {y}] is farther than 84 tiles could reach")
        pos = pack(x, y)
        if pos in board_items:
            raise BadState(f"board[{i}]: two tiles at [{x}, {y}]")
        k = _kind(t, b["tile"], f"board[{i}]")
        board_items[pos] = (k, b["rotation"])
        used[k] += 1
    hands = []
    for p, hand in enumerate(o["hands"], start=1):
        ks = [_kind(t, tid, f"hands[{p - 1}]") for tid in hand]
        if sorted(hand) != list(hand):
            raise BadState(f"player {p}'s hand must be sorted by tile id")
        hands.append(tuple(ks))
        used.update(ks)
    deck = [0] * len(t.ids)
    for tid, c in o["deck"].items():
        k = _kind(t, tid, "deck")
        if k not in t.land:
            raise BadState(f"deck: {tid} is not a land tile")
        deck[k] = c
        used[k] += c
    pile = [0] * len(t.ids)
    for tid, c in o["river_pile"].items():
        k = _kind(t, tid, "river_pile")
        if k not in t.river or k == t.spring:
            raise BadState(f"river_pile: {tid} is not a river tile that can be drawn")
        pile[k] = c
        used[k] += c
    discarded = [_kind(t, tid, "discarded") for tid in o["discarded"]]
    if sorted(o["discarded"]) != list(o["discarded"]):
        raise BadState("discarded must be sorted by tile id")
    used.update(discarded)
    for k, tid in enumerate(t.ids):
        if strict and used[k] != t.counts[k]:
            raise BadState(f"tile {tid}: {used[k]} found on the board, in hands, piles and "
                           f"discards, but the game has {t.counts[k]}")

    # the board, laid out from the spring so it must be connected and matching
    origin = pack(0, 0)
    if board_items.get(origin) != (t.spring, 0) and (strict or origin not in board_items):
        raise BadState("the spring must lie at [0, 0] with rotation 0 (CARC-RIVER-SPRING)")
    board: dict[int, tuple[int, int]] = {}
    cells: dict[int, tuple[int, int]] = {}
    owner: dict[int, int] = {}
    feats: dict[int, Feat] = {}
    queue = [origin]
    seen = {origin}
    while queue:
        pos = queue.pop()
        k, r = board_items[pos]
        rt = t.rot[k][r]
        for s in range(4):
            there = board.get(pos + DELTA[s])
            if there is not None:
                theirs = t.rot[there[0]][there[1]].edges[(s + 2) % 4]
                if theirs != rt.edges[s]:
                    raise BadState(
                        f"{t.ids[k]} at {_where(pos)}: its {('top', 'right', 'bottom', 'left')[s]}"
                        f" edge ({EDGE_KINDS[rt.edges[s]]}) faces a {EDGE_KINDS[theirs]} edge")
        lay(t, board, cells, owner, feats, pos, k, r, n, fields=cfg.farms,
            river_joins=cfg.river_joins)
        for d in DELTA:
            if pos + d in board_items and pos + d not in seen:
                seen.add(pos + d)
                queue.append(pos + d)
    if len(board) != len(board_items):
        stray = min(set(board_items) - set(board))
        raise BadState(f"the tile at {_where(stray)} is not connected to the spring")

    river, length = _trace_river(cfg, board, strict)
    river_on_board = sum(1 for k, _ in board.values() if k in t.river)
    if strict and river_on_board != length:
        raise BadState(f"{river_on_board - length} river tile(s) lie off the river's course "
                       f"(CARC-RIVER-CONTIGUOUS)")

    # phase bookkeeping
    land_total = sum(t.counts[k] for k in t.land)
    if not strict:
        pass
    elif phase == RIVER_PHASE:
        if sum(deck) != land_total:
            raise BadState("no land tile leaves the deck during the river phase")
        for p, hand in enumerate(hands, start=1):
            if hand and (p != to_move or step != PLACE or len(hand) != 1):
                raise BadState("in the river phase only the player placing holds a tile: "
                               "the one river tile just drawn")
        if step == PLACE and not hands[to_move - 1]:
            raise BadState(f"player {to_move} must place but holds no tile")
        if step == DRAW and pending != (to_move,):
            raise BadState("a river turn draws exactly one tile, for the player to move")
        if river.open_pos < 0 and step != CLAIM:
            raise BadState("the lake is placed: the river phase is over once its claim step is")
    else:
        if sum(pile):
            raise BadState("the river pile must be empty after the river phase")
        for p, hand in enumerate(hands, start=1):
            if any(k not in t.land for k in hand):
                raise BadState(f"player {p} holds a river tile after the river phase")
            if len(hand) + pending.count(p) > cfg.hand_max:
                raise BadState(f"player {p} would hold more than {cfg.hand_max} tiles "
                               f"(CARC-HAND-SIZE)")
        if len(pending) > sum(deck):
            raise BadState(f"{len(pending)} draws pending but the deck holds {sum(deck)}")
        if step == PLACE and not hands[to_move - 1]:
            raise BadState(f"player {to_move} must place but holds no tile")

    # the tile just placed, and what cannot be claimed on it
    placed = -1
    blocked: set[int] = set()
    if (step == CLAIM) != (o["placed"] is not None):
        raise BadState("placed must be set exactly in the claim step")
    if o["placed"] is not None:
        placed = pack(*o["placed"])
        if placed not in board:
            raise BadState(f"placed names the empty cell {o['placed']}")
        k, r = board[placed]
        segs = t.rot[k][r].segs
        for spot in o["claim_blocked"]:
            match = [i for i, s in enumerate(segs) if SPOTS[s.spot] == spot]
            if not match:
                raise BadState(f"claim_blocked: the placed tile has no feature on {spot!r}")
            fid = owner[placed * 8 + match[0]]
            if feats[fid].open != 0:
                raise BadState(f"claim_blocked: the feature on {spot!r} is not complete")
            blocked.add(match[0])
        if blocked and not cfg.score_at_placement:
            raise BadState("claim_blocked is only used when scoring happens at placement")
    elif o["claim_blocked"]:
        raise BadState("claim_blocked must be empty outside the claim step")

    # meeples
    meeples: dict[int, int] = {}
    on_board = [0] * n
    for i, m in enumerate(o["meeples"]):
        pos = pack(*m["at"])
        if pos not in board:
            raise BadState(f"meeples[{i}]: no tile at {m['at']}")
        k, r = board[pos]
        rt = t.rot[k][r]
        parts = len(rt.segs) + (len(rt.fields) if cfg.farms else 0)
        match = [j for j in range(parts) if spot_of(rt, j) == m["on"]]
        if not match:
            what = "road, town, monastery or field" if cfg.farms else "road, town or monastery"
            raise BadState(f"meeples[{i}]: the {t.ids[k]} at {m['at']} has no {what} named "
                           f"{m['on']!r} (a feature is named by its first side clockwise from "
                           f"the top{', a field by its first half-edge' if cfg.farms else ''})")
        node = pos * 8 + match[0]
        if node in meeples:
            raise BadState(f"meeples[{i}]: two meeples on the same part of {m['at']}")
        if not 1 <= m["player"] <= n:
            raise BadState(f"meeples[{i}]: player {m['player']} is not a player 1-{n}")
        meeples[node] = m["player"]
        on_board[m["player"] - 1] += 1
        fid = owner[node]
        f = feats[fid]
        feats[fid] = f._replace(meeples=tuple(c + (j == m["player"] - 1)
                                              for j, c in enumerate(f.meeples)))
    towers, floors, prisoners, ransomed = _load_towers(cfg, board, o, strict)
    for p in range(1, n + 1):
        held = sum(row[p - 1] for row in prisoners) if prisoners else 0
        caps = sum(1 for _, cap in towers.values() if cap == p)
        total = on_board[p - 1] + o["supply"][p - 1] + held + caps
        if strict and total != cfg.meeples:
            where = f", {held} imprisoned, {caps} on towers" if cfg.tower else ""
            raise BadState(f"player {p} has {total} meeples ({on_board[p - 1]} on the board, "
                           f"{o['supply'][p - 1]} in the supply{where}); CARC-MEEPLE-SUPPLY "
                           f"gives {cfg.meeples}")
    completed_now: set[int] = set()
    if placed >= 0:
        completed_now = {owner[placed * 8 + i] for i in range(len(t.rot[board[placed][0]][
            board[placed][1]].segs))}
        for d in AROUND:
            there = board.get(placed + d)
            if there is not None and t.rot[there[0]][there[1]].monastery >= 0:
                completed_now.add(owner[(placed + d) * 8 + t.rot[there[0]][there[1]].monastery])
    for fid, f in feats.items():
        waiting = fid in completed_now and not cfg.score_at_placement  # scored after the claim
        if strict and any(f.meeples) and f.open == 0 and not waiting and f.kind != FIELD:
            where = _where(min(f.tiles))
            name = "monastery" if f.kind == MONASTERY else ("road" if f.kind == 1 else "town")
            raise BadState(f"a completed {name} at {where} still holds meeples: they would "
                           f"have returned (CARC-MEEPLE-RETURN)")
        if strict and fid in {owner[placed * 8 + i] for i in blocked} and any(f.meeples):
            raise BadState("a feature scored at placement cannot hold meeples again")

    # scores and the result
    scores = tuple(o["scores"])
    if strict and phase != OVER and any(s >= cfg.end_points for s in scores):
        raise BadState(f"a score of {max(scores)} reaches {cfg.end_points}: the game would be "
                       f"over (CARC-END-POINTS)")
    result = o["result"]
    if result is not None:
        if meeples:
            raise BadState("meeples stay on the board after the final scoring")
        if list(result["scores"]) != list(scores):
            raise BadState("result scores differ from the scores")
        winners = [i + 1 for i in range(n) if is_winner(scores, i)]
        if not cfg.shared_win and len(winners) > 1:
            winners = []
        if strict and list(result["winners"]) != winners:
            raise BadState(f"result winners {result['winners']} but the scores give {winners} "
                           f"(CARC-WINNER)")
    return CarcState(cfg, phase, step, to_move, pending, then_next, board, cells, owner, feats,
                     meeples, tuple(o["supply"]), scores,
                     tuple(tuple(sorted(h, key=t.sort_key.__getitem__)) for h in hands),
                     tuple(deck), tuple(pile), tuple(sorted(discarded,
                                                            key=t.sort_key.__getitem__)),
                     placed, frozenset(blocked), river, result, towers, floors, prisoners,
                     ransomed)


def _load_towers(cfg: CarcConfig, board: dict[int, tuple[int, int]], o: Any,
                 strict: bool = True) -> tuple[dict[int, tuple[int, int]], tuple[int, ...],
                            tuple[tuple[int, ...], ...], bool]:
    """The tower stage's part of a state: towers on foundations, floors, prisoners."""
    n, t = cfg.players, cfg.t
    if not cfg.tower:
        if "towers" in o:
            raise BadState("towers, floors, prisoners and ransom_paid belong to the tower stage "
                           "only (CARC-TOWER-TILES)")
        return {}, (), (), False
    if "towers" not in o:
        raise BadState("a tower-stage state lists towers, floors, prisoners and ransom_paid")
    towers: dict[int, tuple[int, int]] = {}
    for i, w in enumerate(o["towers"]):
        pos = pack(*w["at"])
        if pos not in board or not t.rot[board[pos][0]][board[pos][1]].tower:
            raise BadState(f"towers[{i}]: no tower foundation at {w['at']}")
        if pos in towers:
            raise BadState(f"towers[{i}]: two towers at {w['at']}")
        if w["cap"] is not None and not 1 <= w["cap"] <= n:
            raise BadState(f"towers[{i}]: cap {w['cap']} is not a player 1-{n}")
        towers[pos] = (w["height"], w["cap"] or 0)
    if len(o["floors"]) != n or (strict and any(f > cfg.floors for f in o["floors"])):
        raise BadState(f"floors must list {n} players with at most {cfg.floors} each "
                       f"(CARC-TOWER-FLOORS)")
    used = sum(h for h, _ in towers.values())
    if strict and used != n * cfg.floors - sum(o["floors"]):
        raise BadState(f"the towers hold {used} floors but the players have used "
                       f"{n * cfg.floors - sum(o['floors'])} (CARC-TOWER-FLOORS)")
    rows = o["prisoners"]
    if len(rows) != n or any(len(r) != n for r in rows):
        raise BadState(f"prisoners must be a {n} x {n} table (captor, owner)")
    for a in range(n):
        if rows[a][a]:
            raise BadState(f"player {a + 1} holds their own meeple as a prisoner")
        for b in range(a + 1, n):
            if strict and rows[a][b] and rows[b][a] and cfg.exchange_now:
                raise BadState(f"players {a + 1} and {b + 1} hold each other's meeples: they "
                               f"would have been exchanged (CARC-TOWER-EXCHANGE)")
    return (towers, tuple(o["floors"]), tuple(tuple(r) for r in rows),
            bool(o["ransom_paid"]))

