"""Bot Wars' play: the move lists the state machine draws, built from the position's own
botlets (walk, attack, bump, collide, head for energy, odd lists), a bot's time-out or
bad format, a raw reply as the referee reads it, and the energy's chance step. Chooses
actions only: it must not drive engines or judge.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.botwars.bot_text import bot_text_strategy
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig, BotWarsState
from gamecert.reference_engine.botwars.engine import BOT, DEAD, EMPTY, ENERGY, Move
from gamecert.reference_engine.contract import CHANCE

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


GAME = BotWars()  # the reference's helpers (botlets, free pairs, random lists); it is pure
JSON = Any


# An engine that loads states plays seeded runs of the machine's rules beside one-step
# play (fuzz.search.play.runs): games to their end at a small part of Hypothesis's cost, and
# this game's public mutants are found as soon or sooner (docs/speed.md)
SEEDED_RUNS = True
# The verdicts that end a game (bad format; a time-out under disqualify): a run of the
# machine's rules (fuzz.search.play.runs) plays them rarely, so that its games get deep
ENDING_ACTIONS = frozenset({"bad-format", "timeout"})


def draw_action(data: st.DataObject, ls: Lockstep) -> JSON:
    state: BotWarsState = ls.ref
    if GAME.current(state) == CHANCE:
        return _chance(data, state)
    kind = data.draw(PLAYER_KINDS, label="kind")
    if kind in ("timeout", "bad-format"):
        return {"type": kind}
    if kind == "text":  # what the referee makes of a raw reply, played
        text = data.draw(bot_text_strategy(ls.profile), label="text")
        return GAME.action_to_json(state, GAME.referee(state, text))
    rng = random.Random(data.draw(SEEDS, label="list seed"))
    return _moves_json(move_list(kind, state, ls.ref_json["pending"], rng))


def _chance(data: st.DataObject, state: BotWarsState) -> JSON:
    pairs = GAME.free_pairs(state)
    if not pairs:
        return {"type": "energy", "at": None}
    cfg = state.cfg
    if data.draw(COIN, label="energy beside botlets"):
        # where it will be collected or contested next turn
        near = [s for s in pairs if any(state.grid[n] in (BOT[1], BOT[2])
                                        for sq in (s, cfg.size - 1 - s) for n in cfg.nbrs[sq])]
        pairs = near or pairs
    s = pairs[data.draw(index(len(pairs)), label="energy pair")]
    return {"type": "energy", "at": [s, cfg.size - 1 - s]}

SEEDS = st.integers(0, 2**32 - 1)


@cache
def index(n: int) -> st.SearchStrategy[int]:
    """An index into a list of n items (shrinks to the first)."""
    return st.integers(0, n - 1)


def _distance(cfg: BotWarsConfig, a: int, b: int) -> int:
    (ra, ca), (rb, cb) = divmod(a, cfg.cols), divmod(b, cfg.cols)
    dr, dc = abs(ra - rb), abs(ca - cb)
    if cfg.wrap:
        dr, dc = min(dr, cfg.rows - dr), min(dc, cfg.cols - dc)
    return dr + dc


def _enterable(cfg: BotWarsConfig, grid: bytes, sq: int) -> bool:
    c = grid[sq]
    return c in (EMPTY, DEAD[1], DEAD[2]) or (cfg.gather and c == ENERGY)


def _head_for(state: BotWarsState, rng: random.Random, goals: Sequence[int],
              keen: float = 0.85) -> list[Move]:
    """Each botlet, most of the time, steps onto the free square nearest to a goal, if that
    is nearer than where it stands: one already beside a goal stays (in contact with an
    enemy, guarding energy)."""
    cfg, grid, side = state.cfg, state.grid, state.side
    mine = GAME.botlets(grid, side)
    rng.shuffle(mine)
    moves: list[Move] = []
    taken: set[int] = set()

    def away(sq: int) -> int:
        return min(_distance(cfg, sq, g) for g in goals)

    for f in mine:
        if not goals or rng.random() >= keen:
            continue
        options = [t for t in cfg.nbrs[f] if t not in taken and _enterable(cfg, grid, t)]
        if not options:
            continue
        rng.shuffle(options)
        t = min(options, key=away)
        if away(t) < away(f):
            moves.append((f, t))
            taken.add(t)
    return moves


def _attack(state: BotWarsState, rng: random.Random) -> list[Move]:
    """Toward enemy botlets and the enemy spawn: battles, collisions, razing. A botlet
    beside the enemy spawn steps onto it (razing it, or dying on it: BOTWARS-RAZE)."""
    cfg, grid, enemy = state.cfg, state.grid, 3 - state.side
    spawn = cfg.spawns[enemy]
    raiders = [f for f in cfg.nbrs[spawn] if grid[f] == BOT[state.side]]
    if raiders and _enterable(cfg, grid, spawn) and rng.random() < 0.9:
        return [(rng.choice(raiders), spawn)]
    goals = GAME.botlets(grid, enemy)
    if not goals or rng.random() < 0.3:
        goals.append(spawn)
    return _head_for(state, rng, goals)


def _to_energy(state: BotWarsState, rng: random.Random) -> list[Move]:
    """Beside energy, or onto it (BOTWARS-MOVE-ENERGY, -COLLECT, -CONTESTED)."""
    cfg, grid = state.cfg, state.grid
    energy = [i for i, c in enumerate(grid) if c == ENERGY]
    moves = _head_for(state, rng, energy, keen=0.9)
    if energy and rng.random() < 0.8:
        onto = [(f, e) for e in energy for f in cfg.nbrs[e] if grid[f] == BOT[state.side]]
        if onto:
            moves.insert(rng.randrange(len(moves) + 1), rng.choice(onto))
    return moves


def _bump(state: BotWarsState, rng: random.Random) -> list[Move]:
    """A plausible list with one or two entries where own botlets get in each other's way:
    onto an own botlet, a swap, two onto one square, a stay, onto an enemy."""
    cfg, grid, side = state.cfg, state.grid, state.side
    own = BOT[side]
    mine = GAME.botlets(grid, side)
    moves = list(GAME.random_action(state, rng, odd=0.0)[1]) if rng.random() < 0.5 else []
    if not mine:
        return moves
    pairs = [(a, b) for a in mine for b in cfg.nbrs[a] if grid[b] == own]
    meets = [(a, b, t) for a in mine for t in cfg.nbrs[a] if grid[t] == EMPTY
             for b in cfg.nbrs[t] if b != a and grid[b] == own]
    foes = [(a, b) for a in mine for b in cfg.nbrs[a] if grid[b] == BOT[3 - side]]
    options: list[list[Move]] = []
    if pairs:
        a, b = rng.choice(pairs)
        options += [[(a, b)], [(a, b), (b, a)]]
    if meets:
        a, b, t = rng.choice(meets)
        options.append([(a, t), (b, t)])
    if foes:
        options.append([rng.choice(foes)])
    f = rng.choice(mine)
    options.append([(f, f)])
    for entries in rng.sample(options, min(len(options), rng.randint(1, 2))):
        at = rng.randrange(len(moves) + 1)
        moves[at:at] = entries
    return moves


def _collide(state: BotWarsState, rng: random.Random, pending: Sequence[JSON]) -> list[Move]:
    """p2 steps onto squares p1's pending moves enter (BOTWARS-MOVE-COLLIDE)."""
    cfg, grid = state.cfg, state.grid
    targets = {m["to"] for m in pending}
    moves: list[Move] = []
    used: set[int] = set()
    for f in GAME.botlets(grid, 2):
        hits = [t for t in cfg.nbrs[f] if t in targets and t not in used]
        if hits and rng.random() < 0.9:
            t = rng.choice(hits)
            moves.append((f, t))
            used.add(t)
    return moves or _attack(state, rng)


def _greedy(state: BotWarsState, rng: random.Random, moves: list[Move]) -> list[Move]:
    """A greedy bot's touches to a list: botlets beside energy, or beside their spawn while
    an enemy is there too, mostly stay (energy contested, a raider met: BOTWARS-ENERGY-*,
    BOTWARS-RAZE); a botlet beside the enemy spawn mostly steps onto it (razing it, or
    dying there), and one beside energy half the time onto that (BOTWARS-MOVE-ENERGY).
    Energy beside a botlet at the start of a turn is there only just after it was placed,
    or in a crafted position: these cases are rare unless a list goes for them."""
    cfg, grid, own = state.cfg, state.grid, BOT[state.side]
    energy = [i for i, c in enumerate(grid) if c == ENERGY]
    home = cfg.spawns[state.side]
    raided = any(grid[n] == BOT[3 - state.side] for n in cfg.nbrs[home])
    guards = {f for sq in energy for f in cfg.nbrs[sq] if grid[f] == own}
    if raided:
        guards |= {f for f in cfg.nbrs[home] if grid[f] == own}
    if guards and rng.random() < 0.7:
        # and stays beside energy to collect it, or beside its spawn against a raider
        moves = [(f, t) for f, t in moves if f not in guards]
    spawn = cfg.spawns[3 - state.side]
    raiders = [f for f in cfg.nbrs[spawn] if grid[f] == own]
    if raiders and _enterable(cfg, grid, spawn) and rng.random() < 0.8:
        moves = _redirect(moves, rng.choice(raiders), spawn)
    for sq in energy:
        takers = [f for f in cfg.nbrs[sq] if grid[f] == own]
        if takers and rng.random() < 0.5:
            moves = _redirect(moves, rng.choice(takers), sq)
            break
    return moves


def _redirect(moves: list[Move], f: int, t: int) -> list[Move]:
    """`moves` with botlet f sent to t instead (and nobody else sent to t)."""
    kept = [(a, b) for a, b in moves if a != f and b != t]
    kept.insert(len(kept) // 2, (f, t))
    return kept


def move_list(kind: str, state: BotWarsState, pending: Sequence[JSON] | None,
              rng: random.Random) -> list[Move]:
    if kind == "walk":
        walk = GAME.random_action(state, rng, odd=0.0, toward=rng.choice((0.0, 0.5)))
        return _greedy(state, rng, list(walk[1]))
    if kind == "odd":  # one unusual entry (BOTWARS-MOVE-INVALID and the open points)
        odd = GAME.random_action(state, rng, odd=1.0, toward=rng.random())
        return _greedy(state, rng, list(odd[1]))
    if kind == "attack":
        return _attack(state, rng)
    if kind == "energy":
        return _to_energy(state, rng)
    if kind == "bump":
        return _bump(state, rng)
    if kind == "collide":
        return _collide(state, rng, pending) if pending else _attack(state, rng)
    return []


def _weighted(*pairs: tuple[str, int]) -> st.SearchStrategy[str]:
    return st.sampled_from([k for k, w in pairs for _ in range(w)])


# the verdicts that end the game (bad-format; timeout under disqualify) stay rare, so that
# games get deep
PLAYER_KINDS = _weighted(("walk", 8), ("attack", 6), ("odd", 5), ("bump", 3), ("energy", 3),
                         ("collide", 3), ("empty", 1), ("text", 1), ("timeout", 1),
                         ("bad-format", 1))


def _moves_json(moves: Sequence[Move]) -> JSON:
    return {"type": "moves", "moves": [{"from": f, "to": t} for f, t in moves]}
COIN = st.booleans()
