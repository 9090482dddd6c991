"""Bot Wars' crafted positions: fields laid out near the rare cases (enemies in contact, a
raid on a spawn, contested energy), z3's boards crowded with battles, and the battle
pictures of the rules text. Builds states only: nothing here plays or judges.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from hypothesis import strategies as st

from gamecert.fuzz.games.botwars.play import SEEDS, index, move_list
from gamecert.fuzz.games.built_once import built_once
from gamecert.oracles.botwars.battle_z3 import KINDS, crowded_board
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig, BotWarsState
from gamecert.reference_engine.botwars.engine import BOT, DEAD, EMPTY, ENERGY, Move
from gamecert.spec import Profile

# The four battle pictures of the rules text (spec/botwars.json, source seed-002, "Battle
# examples"): the field after the moves, and the same field after the battles ('x' marks a
# botlet that died).
GAME = BotWars()  # the reference's helpers (botlets, free pairs, random lists); it is pure
JSON = Any
# What the crafted starts are for: each kind of start, the rules whose rare cases it puts one
# step away. An engine that cannot load them gets those rules checked in part.
CRAFTED_FOR: dict[str, tuple[str, ...]] = {
    "z3 boards crowded with battles (crowded_state)": ("BOTWARS-BATTLE",
                                                       "BOTWARS-DEAD-MARKERS"),
    "enemies in contact or one square apart (layout)": ("BOTWARS-BATTLE",),
    "a raid on a spawn, defenders around it, a spawn blocked (layout)": (
        "BOTWARS-RAZE", "BOTWARS-SPAWN"),
    "energy between both bots, beside one, diagonal to one (layout)": (
        "BOTWARS-ENERGY-CONTESTED", "BOTWARS-ENERGY-COLLECT"),
}

PICTURES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    ((".....", ".12..", "....."), (".....", ".xx..", ".....")),
    ((".....", ".121.", "....."), (".....", ".1x1.", ".....")),
    (("...12", ".121.", "...2."), ("...xx", ".1xx.", "...2.")),
    (("...12.", ".212..", ".212..", "...12."), ("...x2.", ".2xx..", ".2xx..", "...x2.")),
)


def _cfg(profile: Profile) -> BotWarsConfig:
    return BotWarsConfig.of(profile)


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
    # solved once per machine (a tenth of a second or so each; built_once), shared by the
    # profiles
    grid: str = built_once("botwars", "crowded", None, lambda: str(crowded_board(
        kind, seed, rows=rows, cols=cols, every=every)["grid"]), rows, cols, every, kind, seed)
    return grid.encode("ascii")


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
