"""Bot Wars fuzzing: z3 crowded battle boards, played and crafted positions near the rare
cases, and move lists built from the position's own botlets.

Big structures (a field, a list of moves) come from one drawn seed and a few knobs drawn
with their boundary values first, so an example costs a handful of draws. Every move list is
a list of integer pairs, which the reference always accepts in a bot's phase (invalid moves
are ignored, not refused): dropping an operation while minimizing a trace never makes a later
list meaningless.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import z3
from hypothesis import strategies as st

from gamecert.fuzz.games.botwars_probes import MALFORMED, rule_probes
from gamecert.oracles.botwars.battle_z3 import KINDS, crowded_board, dead_set
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig, BotWarsState, rules
from gamecert.reference_engine.botwars.engine import BOT, DEAD, EMPTY, ENERGY, Move
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines import Engine
    from gamecert.fuzz.lockstep import Lockstep

JSON = Any
GAME = BotWars()  # the reference's helpers (botlets, free pairs, random lists); it is pure

SEEDS = st.integers(0, 2**32 - 1)

# Replies a bot may send that are not a JSON list of {from, to} integer objects (all
# BOTWARS-FORMAT-DQ under integer-literal; under integer-value the whole numbers written 22.0
# and 2e1 are squares); includes every reply of tests/botwars/play.py's GARBAGE.
GARBAGE: tuple[str, ...] = (
    "", "nope", '{"from": 1, "to": 2}', "[1, 2]", '[{"from": 1}]', '[{"from": true, "to": 2}]',
    '[{"from": 1.5, "to": 2}]', '[{"from": "3", "to": 2}]', "[[21, 22]]",
    '[{"from": 1, "to": 2}', "null", "{}", "   ", "[", "42", '"[]"', '[{"to": 80}]',
    '[{"from": null, "to": 80}]', '[{"from": 21, "to": 22}, 7]', '[{"from": NaN, "to": 22}]',
    '[{"from": 21, "to": 22.0}]', '[{"from": 2e1, "to": 22}]', "[]]", "[] []",
    "\x00", "[" * 3000 + "]" * 3000,
)

# The four battle pictures of the rules text (spec/botwars.json, source seed-002, "Battle
# examples"): the field after the moves, and the same field after the battles ('x' marks a
# botlet that died).
PICTURES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    ((".....", ".12..", "....."), (".....", ".xx..", ".....")),
    ((".....", ".121.", "....."), (".....", ".1x1.", ".....")),
    (("...12", ".121.", "...2."), ("...xx", ".1xx.", "...2.")),
    (("...12.", ".212..", ".212..", "...12."), ("...x2.", ".2xx..", ".2xx..", "...x2.")),
)


def _cfg(profile: Profile) -> BotWarsConfig:
    return BotWarsConfig.of(profile)


@cache
def index(n: int) -> st.SearchStrategy[int]:
    """An index into a list of n items (shrinks to the first)."""
    return st.integers(0, n - 1)


# --- positions -------------------------------------------------------------------------------
def turn_edges(profile: Profile) -> list[int]:
    """The turnsElapsed values where rules change: the turn limit's last two turns, and
    the first and last turns after which energy is due next (BOTWARS-END-TURNLIMIT,
    BOTWARS-ENERGY-SPAWN)."""
    cfg = _cfg(profile)
    last = cfg.max_turns - 1
    due_next = [t for t in range(1, last) if GAME.energy_due(cfg, t + 1)]
    return sorted({last, last - 1, *due_next[:1], *due_next[-1:]}, reverse=True)


@cache
def turns_strategy(profile: Profile) -> st.SearchStrategy[int]:
    """turnsElapsed of a position: the edges first, then any turn of a game going on."""
    return st.one_of(st.sampled_from(turn_edges(profile)),
                     st.integers(1, _cfg(profile).max_turns - 1))


@cache
def energy_strategy(profile: Profile) -> st.SearchStrategy[int]:
    cost = _cfg(profile).spawn_cost
    return st.one_of(st.sampled_from(sorted({0, cost})), st.integers(0, 9))


# p2 to move most often: one play carries out a turn. Never phase energy: a start there
# tests the engine's load_state reading of the energy schedule before anything else, and an
# engine that misreads BOTWARS-ENERGY-SPAWN would refuse the state (ENGINE-LOAD-STATE) before
# any oracle could name the rule; play reaches the phase from the turns before it is due.
PHASES = st.sampled_from(["p2", "p1", "p2"])
RAZED = st.integers(0, 3).map(lambda n: n == 3)  # a razed spawn one time in four
BOARD_KINDS = st.sampled_from(KINDS)
BOARD_SEEDS = st.integers(0, 3)  # four boards of each kind: solved once, then cached
BOT_PHASES = st.sampled_from(["p2", "p1"])
PICTURE = st.sampled_from(PICTURES)


def _place(grid: bytearray, cfg: BotWarsConfig, sq: int, char: int,
           spawn_ok: bool = False) -> bool:
    if grid[sq] != EMPTY or (not spawn_ok and sq in cfg.spawns[1:]):
        return False
    grid[sq] = char
    return True


def _cluster(grid: bytearray, cfg: BotWarsConfig, rng: random.Random, side: int,
             centre: int, n: int) -> None:
    """A random walk of n own botlets: adjacent and diagonal own pairs, where lists clash
    with themselves (BOTWARS-MOVE-OCCUPIED, -SWAP, -SAME-TARGET)."""
    sq, placed = centre, 0
    for _ in range(4 * n):
        if placed == n:
            return
        placed += _place(grid, cfg, sq, BOT[side])
        sq = rng.choice(cfg.nbrs[sq])


def layout(cfg: BotWarsConfig, rng: random.Random) -> bytearray:
    """A mid-game field with some of the rare cases in it: botlets beside (or on) the
    enemy spawn with defenders around it, enemies in contact and one square apart, energy
    between both bots, beside one, or diagonal to one, dead markers, a spawn blocked."""
    grid = bytearray(EMPTY for _ in range(cfg.size))
    rand = rng.random
    for side in (1, 2):
        for _ in range(rng.randint(1, 2)):
            centre = rng.choice((rng.randrange(cfg.size),
                                 rng.choice(cfg.nbrs[cfg.spawns[side]]),
                                 rng.choice(cfg.nbrs[cfg.spawns[3 - side]])))
            _cluster(grid, cfg, rng, side, centre, rng.randint(1, 6))
    if rand() < 0.9:  # a raid: an attacker beside the enemy spawn, defenders around it
        for side in rng.choice(((1,), (2,), (1, 2))):
            spawn = cfg.spawns[3 - side]
            near = list(cfg.nbrs[spawn])
            rng.shuffle(near)
            _place(grid, cfg, near[0], BOT[side])
            for sq in near[1:1 + rng.choice((1, 1, 2, 2, 3))]:
                _place(grid, cfg, sq, BOT[3 - side])
            if rand() < 0.25:  # already standing on it (the spawn is then razed)
                _place(grid, cfg, spawn, BOT[side], spawn_ok=True)
    for _ in range(rng.randint(0, 3)):  # enemies in contact, or one square apart
        a = rng.randrange(cfg.size)
        b = rng.choice(cfg.nbrs[a])
        if rand() < 0.5:
            b = rng.choice(cfg.nbrs[b])
        if a != b and _place(grid, cfg, a, BOT[1]):
            _place(grid, cfg, b, BOT[2])
    for _ in range(rng.randint(1, 3) if rand() < 0.8 else 0):
        own = [i for i, c in enumerate(grid) if c in (BOT[1], BOT[2])]
        if not own:
            break
        a = rng.choice(own)
        kind = rng.choice((0, 0, 1, 2))
        if kind == 0:  # between both bots: a line 1 * 2 (BOTWARS-ENERGY-CONTESTED)
            e = rng.choice(cfg.nbrs[a])
            if _place(grid, cfg, e, ENERGY):
                other = BOT[2] if grid[a] == BOT[1] else BOT[1]
                _place(grid, cfg, rng.choice(cfg.nbrs[e]), other)
        elif kind == 1:  # beside one bot only
            _place(grid, cfg, rng.choice(cfg.nbrs[a]), ENERGY)
        else:  # diagonal to a botlet (BOTWARS-ENERGY-COLLECT's adjacency question)
            diagonal = [d for d in cfg.nbrs8[a] if d not in cfg.nbrs[a]]
            if diagonal:
                _place(grid, cfg, rng.choice(diagonal), ENERGY)
    if rand() < 0.3:  # dead markers of the last turn, sometimes on a spawn (it waits)
        for _ in range(rng.randint(1, 3)):
            side = rng.choice((1, 2))
            sq = cfg.spawns[side] if rand() < 0.3 else rng.randrange(cfg.size)
            _place(grid, cfg, sq, DEAD[side], spawn_ok=True)
    if rand() < 0.2:  # an own botlet on its spawn: no room to spawn (BOTWARS-SPAWN)
        side = rng.choice((1, 2))
        _place(grid, cfg, cfg.spawns[side], BOT[side], spawn_ok=True)
    # energy on a spawn point, where BOTWARS-ENERGY-SQUARES lets it be (the draw only under
    # that reading, so the other profiles' layouts stay as they were)
    if cfg.energy_on_spawn and rand() < 0.3:
        side = rng.choice((1, 2))
        if _place(grid, cfg, cfg.spawns[side], ENERGY, spawn_ok=True):
            _place(grid, cfg, cfg.spawns[3 - side], ENERGY, spawn_ok=True)
    return grid


def position(profile: Profile, grid: bytes, turns: int, phase: str,
             energy: tuple[int, int], razed: tuple[bool, bool],
             rng: random.Random | None) -> JSON:
    """A canonical state the reference loads: the phase made consistent with the turn
    (energy only when due), a razed spawn wherever an enemy stands on it, and in phase p2
    p1's pending moves drawn from valid ones (none without `rng`)."""
    cfg = _cfg(profile)
    razed = (razed[0] or grid[cfg.spawns[1]] == BOT[2], razed[1] or grid[cfg.spawns[2]] == BOT[1])
    if phase == "energy" and not GAME.energy_due(cfg, turns):
        phase = "p2"
    state = BotWarsState(cfg, grid, "p1", turns, energy, razed, (False, False), (), 0, None)
    pending: list[Move] = []
    if phase == "p2" and rng is not None and rng.random() < 0.7:
        # p1 has played: one play of p2 carries out a turn with p1's raids and attacks in it
        listed = move_list(rng.choice(("walk", "attack", "bump", "energy")), state, None, rng)
        pending = list(GAME.check_moves(state, 1, tuple(listed)).valid)
    return GAME.observe(state._replace(phase=phase)) | {
        "pending": [{"from": f, "to": t} for f, t in pending] if phase == "p2" else None}


@st.composite
def crafted_state(draw: st.DrawFn, profile: Profile) -> JSON:
    """A mid-game position with rare cases on the field (see `layout`); the layout comes
    from one seed, the counters are drawn with their boundary values first."""
    rng = random.Random(draw(SEEDS, label="layout seed"))
    grid = bytes(layout(_cfg(profile), rng))
    return position(profile, grid, draw(turns_strategy(profile), label="turns"),
                    draw(PHASES, label="phase"),
                    (draw(energy_strategy(profile), label="p1 energy"),
                     draw(energy_strategy(profile), label="p2 energy")),
                    (draw(RAZED, label="p1 razed"), draw(RAZED, label="p2 razed")), rng)


def crowded(profile: Profile, kind: str, seed: int) -> bytes:
    """A z3 board crowded with battles of one kind, for this profile's battle reading."""
    cfg = _cfg(profile)
    return _crowded(cfg.rows, cfg.cols, profile.variant("BOTWARS-BATTLE") == "lose-every-fight",
                    kind, seed)


@cache
def _crowded(rows: int, cols: int, every: bool, kind: str, seed: int) -> bytes:
    # solved once per process (a tenth of a second or so each), shared by the profiles
    board = crowded_board(kind, seed, rows=rows, cols=cols, every=every)
    return str(board["grid"]).encode("ascii")


@st.composite
def crowded_state(draw: st.DrawFn, profile: Profile) -> JSON:
    grid = crowded(profile, draw(BOARD_KINDS, label="board kind"),
                   draw(BOARD_SEEDS, label="board seed"))
    rng = random.Random(draw(SEEDS, label="pending seed"))
    return position(profile, grid, draw(turns_strategy(profile), label="turns"),
                    draw(BOT_PHASES, label="phase"),
                    (draw(energy_strategy(profile), label="p1 energy"),
                     draw(energy_strategy(profile), label="p2 energy")), (False, False), rng)


def picture_grid(cfg: BotWarsConfig, rows: Sequence[str], top: int, left: int) -> bytes:
    grid = bytearray(EMPTY for _ in range(cfg.size))
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch != ".":
                grid[(top + r) * cfg.cols + left + c] = ord(ch)
    return bytes(grid)


def picture_dead(cfg: BotWarsConfig, after: Sequence[str], top: int, left: int) -> frozenset[int]:
    return frozenset((top + r) * cfg.cols + left + c for r, line in enumerate(after)
                     for c, ch in enumerate(line) if ch == "x")


@st.composite
def picture_state(draw: st.DrawFn, profile: Profile) -> JSON:
    """One of the seed's battle pictures somewhere in the middle, p2 to move."""
    cfg = _cfg(profile)
    before, _ = draw(PICTURE, label="picture")
    # clear of the edges and the spawns, which are one square in from the corners
    top = 3 + draw(index(cfg.rows - 5 - len(before)), label="top")
    left = 3 + draw(index(cfg.cols - 5 - len(before[0])), label="left")
    return position(profile, picture_grid(cfg, before, top, left),
                    draw(turns_strategy(profile), label="turns"), "p2", (0, 0), (False, False),
                    None)


@lru_cache(maxsize=256)
def played_state(profile: Profile, seed: int, turns: int, toward: float) -> JSON:
    """Where random play by the reference stands after `turns` turns (or just before its
    end), p1 to move; `toward` is how keen the botlets are to head for the enemy spawn.
    (Never in phase energy: see PHASES.)"""
    rng = random.Random(seed)
    state = GAME.initial(profile)
    while state.turns < turns or GAME.current(state) == CHANCE:
        who = GAME.current(state)
        action = (GAME.random_chance(state, rng) if who == CHANCE
                  else GAME.random_action(state, rng, odd=1 / 16, toward=toward))
        nxt, _ = GAME.apply(state, action)
        if GAME.current(nxt) == TERMINAL:
            break
        state = nxt
    return GAME.observe(state)


def _new_game(_: Any) -> JSON:
    return {"kind": "new_game"}


def _as_start(state: JSON) -> JSON:
    return {"kind": "state", "state": state}


# --- move lists ------------------------------------------------------------------------------
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


# --- probes ----------------------------------------------------------------------------------
MALFORMED_ACTIONS = st.sampled_from(MALFORMED)
BOT_ACTIONS = st.sampled_from([_moves_json([]), {"type": "timeout"}, {"type": "bad-format"}])
COIN = st.booleans()
# the other square of an energy outcome that is no mirror pair: the same square, one past
# or before the mirror, the next square
OTHER_END: st.SearchStrategy[Callable[[int, int], int]] = st.sampled_from([
    lambda a, size: a, lambda a, size: size - a, lambda a, size: size - 2 - a,
    lambda a, size: a + 1])
PROBE_KINDS = _weighted(("wrong-phase", 3), ("energy-taken", 3), ("energy-none", 2),
                        ("energy-unpaired", 2), ("malformed", 1))


@cache
def _texts(profile: Profile) -> st.SearchStrategy[str]:
    cfg = _cfg(profile)
    near = sorted({s for side in (1, 2) for s in (cfg.spawns[side], *cfg.nbrs[cfg.spawns[side]])})
    square = st.one_of(st.sampled_from(near), st.integers(-2, cfg.size + 1),
                       st.sampled_from([2**63, -(2**63), 10**20]))
    entry = st.fixed_dictionaries({"from": square, "to": square},
                                  optional={"note": st.sampled_from(["", "north", 1])})
    lists = st.builds(lambda items, indent: json.dumps(items, indent=indent),
                      st.lists(entry, max_size=4), st.sampled_from([None, None, 1]))
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers(-3, cfg.size) | st.floats(allow_nan=False)
        | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
            st.sampled_from(["from", "to", "x"]), inner, max_size=3),
        max_leaves=6)
    return st.one_of(lists, st.sampled_from(GARBAGE), json_values.map(json.dumps),
                     st.builds(lambda t, pad: t + pad, lists, st.sampled_from([" ", "\n", "x"])),
                     st.text(max_size=16))


# --- the z3 battle model against the engine ------------------------------------------------
def z3_dead(grid: str, cfg: BotWarsConfig, every: bool) -> tuple[frozenset[int], bool]:
    """The z3 model's dead set on a post-move field (and whether it is the only one). On a
    wrapping field whose botlets keep off the edges the wrap changes nothing, and the
    bounded model needs only a window around them: far cheaper."""
    edge = cfg.wrap and any(c in "12" and (i // cfg.cols in (0, cfg.rows - 1)
                                            or i % cfg.cols in (0, cfg.cols - 1))
                            for i, c in enumerate(grid))
    return dead_set(grid, cfg.rows, cfg.cols, wrap=edge, every=every)


Predicate = Callable[[Sequence[tuple[Any, Any]], bool], Any]


def battle_predicate(code: Any) -> Predicate | str:
    """The operator-only battle predicate the engine's battle step runs, or why there is
    none to prove: an engine may offer `dies(neighbours, every)` itself; the reference's
    `battle_deaths` calls `reference_engine.botwars.rules.dies`."""
    own = getattr(code, "dies", None)
    if callable(own):
        pred: Predicate = own
        return pred
    if not isinstance(code, BotWars):
        return (f"{type(code).__name__} is not the reference's shape and offers no "
                "dies(neighbours, every)")
    step = type(code).battle_deaths
    if step is not BotWars.battle_deaths:
        return (f"{type(code).__name__}.battle_deaths ({step.__module__}) replaces the "
                "reference's battle step and does not go through an operator-only predicate")
    return rules.dies


def prove_battle_predicate(pred: Predicate, every: bool) -> tuple[bool, str]:
    """Does `pred`, fed z3 terms, equal the catalogue's wording of BOTWARS-BATTLE for every
    neighbourhood a square can have: 1 to 4 neighbours, each an enemy or not, each enemy
    facing 1 to 4 enemies? Raises TypeError or z3.Z3Exception if it is not symbolic."""
    for size in range(1, 5):
        is_enemy = [z3.Int(f"enemy_{i}") for i in range(size)]
        theirs = [z3.Int(f"faces_{i}") for i in range(size)]
        pairs = list(zip(is_enemy, theirs, strict=True))
        domain = [z3.And(s >= 0, s <= 1, c >= 1, c <= 4) for s, c in pairs]
        own = z3.Sum(is_enemy)
        if every:
            spec = z3.And(own >= 1, *[z3.Implies(s == 1, c <= own) for s, c in pairs])
        else:
            spec = z3.Or([z3.And(s == 1, c <= own) for s, c in pairs])
        theirs_rule = pred(pairs, every)
        if not z3.is_bool(theirs_rule):
            raise TypeError("the predicate did not give a z3 Boolean")
        solver = z3.Solver()
        solver.add(*domain, theirs_rule != spec)
        if solver.check() != z3.unsat:
            m = solver.model()
            seen = [(m.eval(s, model_completion=True), m.eval(c, model_completion=True))
                    for s, c in pairs]
            return False, (f"with {size} neighbours (is enemy, enemies it faces) = {seen} the "
                           f"engine says {m.eval(theirs_rule, model_completion=True)}, the "
                           f"rule says {m.eval(spec, model_completion=True)}")
    return True, "equals the rule for every neighbourhood of 1 to 4 squares"


def battle_cases(profile: Profile) -> list[tuple[str, JSON, frozenset[int] | None]]:
    """(label, a p2-to-move state whose empty turn fights the battles, the dead the seed's
    picture shows or None): the z3 crowded boards of every kind, and the four pictures."""
    cfg = _cfg(profile)
    out: list[tuple[str, JSON, frozenset[int] | None]] = []
    for kind in KINDS:
        for seed in range(2):
            out.append((f"crowded {kind} board {seed}",
                        position(profile, crowded(profile, kind, seed), 10 + seed, "p2",
                                 (0, 0), (False, False), None),
                        None))
    for n, (before, after) in enumerate(PICTURES, 1):
        top, left = 8, 7
        out.append((f"seed picture {n}",
                    position(profile, picture_grid(cfg, before, top, left), 10, "p2", (0, 0),
                             (False, False), None),
                    picture_dead(cfg, after, top, left)))
    return out


@cache
def _starts(profile: Profile) -> st.SearchStrategy[JSON]:
    return st.one_of(
        st.just(None).map(_new_game),
        crafted_state(profile).map(_as_start),
        crafted_state(profile).map(_as_start),  # three times: the rare cases are its job
        crafted_state(profile).map(_as_start),
        crowded_state(profile).map(_as_start),
        st.builds(played_state, st.just(profile), st.integers(0, 255),
                  st.sampled_from([3, 20, 60, 120, 190, 199]),
                  st.sampled_from([0.0, 0.3, 0.7])).map(_as_start),
        picture_state(profile).map(_as_start),
    )


class BotWarsPlugin:
    game = GAME
    # What the crafted starts are for: each kind of start, the rules whose rare cases it
    # puts one step away. An engine that cannot load them gets those rules checked in part.
    crafted_for: dict[str, tuple[str, ...]] = {
        "z3 boards crowded with battles (crowded_state)": ("BOTWARS-BATTLE",
                                                           "BOTWARS-DEAD-MARKERS"),
        "enemies in contact or one square apart (layout)": ("BOTWARS-BATTLE",),
        "a raid on a spawn, defenders around it, a spawn blocked (layout)": (
            "BOTWARS-RAZE", "BOTWARS-SPAWN"),
        "energy between both bots, beside one, diagonal to one (layout)": (
            "BOTWARS-ENERGY-CONTESTED", "BOTWARS-ENERGY-COLLECT"),
    }

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        return _starts(profile)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        state: BotWarsState = ls.ref
        if GAME.current(state) == CHANCE:
            return self._chance(data, state)
        kind = data.draw(PLAYER_KINDS, label="kind")
        if kind in ("timeout", "bad-format"):
            return {"type": kind}
        if kind == "text":  # what the referee makes of a raw reply, played
            text = data.draw(self.bot_texts(ls.profile), label="text")
            return GAME.action_to_json(state, GAME.referee(state, text))
        rng = random.Random(data.draw(SEEDS, label="list seed"))
        return _moves_json(move_list(kind, state, ls.ref_json["pending"], rng))

    def _chance(self, data: st.DataObject, state: BotWarsState) -> JSON:
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

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        state: BotWarsState = ls.ref
        cfg = state.cfg
        kind = data.draw(PROBE_KINDS, label="probe kind")
        if kind == "malformed":
            return data.draw(MALFORMED_ACTIONS, label="malformed")
        if kind == "wrong-phase":
            if state.phase == "energy":
                return data.draw(BOT_ACTIONS, label="bot action")
            pairs = GAME.free_pairs(state)
            s = pairs[data.draw(index(len(pairs)), label="pair")] if pairs else 0
            return {"type": "energy", "at": [s, cfg.size - 1 - s]}
        half = cfg.size // 2
        taken = [s for s in range(half) if not GAME.free_pair(state, s)] \
            if kind == "energy-taken" else []
        if kind == "energy-none" or (kind == "energy-taken" and not taken):
            # (every pair free: an empty field where spawn points take energy too)
            return {"type": "energy", "at": None}
        if kind == "energy-taken":  # a mirror pair with something on it, or a spawn
            s = taken[data.draw(index(len(taken)), label="taken pair")]
            return {"type": "energy", "at": [s, cfg.size - 1 - s]}
        a = data.draw(index(cfg.size), label="square")
        b = data.draw(OTHER_END, label="other end")(a, cfg.size)
        return {"type": "energy", "at": [a, b] if a + b != cfg.size - 1 else [max(a, b),
                                                                               min(a, b)]}

    def rule_probes(self, ls: Lockstep) -> list[tuple[str, JSON]]:
        """Actions that each break one rule and no other here (botwars_probes)."""
        return rule_probes(ls)

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        return _texts(profile)

    def targets(self, ls: Lockstep) -> dict[str, float]:
        state: BotWarsState = ls.ref
        cfg, grid = state.cfg, state.grid
        one, two = BOT[1], BOT[2]
        contacts = sum(grid[n] == two for sq in GAME.botlets(grid, 1) for n in cfg.nbrs[sq])
        contested = 0
        sq = grid.find(ENERGY)
        while sq >= 0:
            near = [grid[n] for n in cfg.nbrs[sq]]
            contested += one in near and two in near
            sq = grid.find(ENERGY, sq + 1)
        raiders = sum(grid[n] == BOT[3 - side] for side in (1, 2)
                      for n in (cfg.spawns[side], *cfg.nbrs[cfg.spawns[side]]))
        return {"contacts": float(contacts), "contested energy": float(contested),
                "botlets at the enemy spawn": float(raiders),
                "turns elapsed": float(state.turns)}

    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        from gamecert.fuzz.engines import EngineFault, Refused
        from gamecert.fuzz.prove import engine_code

        ok, lines = True, []
        cfg = _cfg(profile)
        every = profile.variant("BOTWARS-BATTLE") == "lose-every-fight"
        reading = profile.variant("BOTWARS-BATTLE")
        code = engine_code(engine)
        if code is None:
            ok = False
            lines.append("BOTWARS-BATTLE symbolic proof: NOT RUN: the engine runs in another "
                         "process; give it in-process (--engine package.module:attr) to prove "
                         "its battle predicate")
        else:
            pred = battle_predicate(code)
            if isinstance(pred, str):
                ok = False
                lines.append(f"BOTWARS-BATTLE symbolic proof: NOT POSSIBLE: {pred}")
            else:
                try:
                    proved, message = prove_battle_predicate(pred, every)
                except (z3.Z3Exception, TypeError) as exc:
                    ok = False
                    lines.append(f"BOTWARS-BATTLE symbolic proof: NOT POSSIBLE: the predicate "
                                 f"does not run on z3 terms: {exc}")
                else:
                    ok &= proved
                    lines.append(f"BOTWARS-BATTLE symbolic proof ({reading}): "
                                 f"{'PROVED' if proved else 'FAILED'}: {message}")
        cases = battle_cases(profile)
        bad: list[str] = []
        for label, state, pictured in cases:
            want, unique = z3_dead(state["grid"], cfg, every)
            if not unique:
                bad.append(f"  {label}: the z3 model allows more than one dead set")
            if pictured is not None and want != pictured:
                bad.append(f"  {label}: the z3 model kills {sorted(want)}, the seed "
                           f"{sorted(pictured)}")
            try:
                engine.new_game(profile, None)  # a season's rules, before loading its state
                engine.load_state(state)
                after, _ = engine.apply(_moves_json([]))
                got = frozenset(i for i, c in enumerate(after["grid"]) if c in "xX")
            except (Refused, EngineFault) as exc:
                bad.append(f"  {label}: the engine failed: {exc}")
                continue
            except (KeyError, TypeError) as exc:
                bad.append(f"  {label}: the engine's state after the turn is unreadable: "
                           f"{exc!r}")
                continue
            if got != want:
                bad.append(f"  {label}: the engine kills {sorted(got)}, the z3 model "
                           f"{sorted(want)}")
        ok &= not bad
        lines.append(f"BOTWARS-BATTLE z3 model ({reading}) against the engine: "
                     f"{len(cases) - len(PICTURES)} crowded boards and the seed's "
                     f"{len(PICTURES)} pictures, {len(bad)} disagreements")
        lines.extend(bad[:10])
        return ok, lines


PLUGIN = BotWarsPlugin()
