"""The field and the bots' lists of moves in Bot Wars: where botlets and free squares are,
what a list is worth (BOTWARS-MOVE and its open points: each a small hook a mutant
overrides), the lists the contract calls legal, the chance of energy, and random play.

`BotWarsMoves` is the bottom of the engine's chain of classes (`moves.py`, `turn.py`, then
`engine.py`'s `BotWars`). It judges and draws lists; it never carries out a turn
(`turn.py` does).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from gamecert.reference_engine.botwars.state import (
    _CLEAR_DEAD,
    BOT,
    DEAD,
    EMPTY,
    ENERGY,
    ENERGY_STEP,
    NAMES,
    Action,
    BotWarsConfig,
    BotWarsState,
    Checked,
    Invalid,
    Move,
)
from gamecert.reference_engine.contract import IllegalAction, Outcome


class BotWarsMoves:
    """The field, the lists of moves, chance and random play (see the module docstring)."""

    # --- legal lists, chance, random play ------------------------------------------------
    def legal(self, state: BotWarsState) -> list[Action]:
        """The empty list and every list of one valid move (a stay included when allowed).

        The lists a bot may send are far too many to enumerate (each botlet stays or steps:
        up to 5^n lists), and every well-formed list is accepted anyway (invalid moves are
        ignored, not refused). These one-move lists generate the valid lists: a list is valid
        when its moves are among them and do not conflict (BOTWARS-MOVE-SAME-TARGET, ...).
        """
        if state.side == 0:
            return []
        out: list[Action] = [("moves", ())]
        for f in self.botlets(state.grid, state.side):
            if state.cfg.stay_ok:
                out.append(("moves", ((f, f),)))
            for t in state.cfg.nbrs[f]:
                if not self.check_moves(state, state.side, ((f, t),)).invalid:
                    out.append(("moves", ((f, t),)))
        return out

    def chance(self, state: BotWarsState) -> list[Outcome[Action]]:
        if state.phase != ENERGY_STEP:
            return []
        pairs = self.free_pairs(state)
        if not pairs:
            return [Outcome(("energy", -1), Fraction(1))]
        p = Fraction(1, len(pairs))
        return [Outcome(("energy", s), p) for s in pairs]

    def random_chance(self, state: BotWarsState, rng: random.Random) -> Action:
        """Draw an energy outcome with its true probability: rejection sampling is uniform
        over the free pairs and cheap while most of the field is free."""
        half = state.cfg.size // 2
        for _ in range(32):
            s = int(rng.random() * half)
            if self.free_pair(state, s):
                return ("energy", s)
        pairs = self.free_pairs(state)
        return ("energy", rng.choice(pairs) if pairs else -1)

    def random_action(self, state: BotWarsState, rng: random.Random,
                      odd: float = 1 / 16, toward: float = 0.0) -> Action:
        """A random list for the bot to move, for fast random play and fuzzing.

        Each botlet steps four times in five, onto squares that are free by the default
        readings: with probability `toward` the step that most nears the enemy spawn (so
        games see battles, razing and eliminations), else a random direction. With
        probability `odd` one unusual entry is added (off the field, diagonal, staying, onto
        a botlet or energy, a botlet twice, two onto one square, a swap): invalid under
        some readings, valid under others. Where one of p2's botlets stands beside a square
        p1's pending list enters, half the time one such botlet steps onto it (a collision,
        BOTWARS-MOVE-COLLIDE: a random walk meets one in hundreds of turns).
        """
        side, cfg, grid = state.side, state.cfg, state.grid
        if side == 0:
            raise IllegalAction("no bot is to move")
        rand = rng.random
        moves: list[Move] = []
        taken: set[int] = set()
        mine = self.botlets(grid, side)
        if rand() < 0.5:  # either order, so neither bot's corner gets first pick of squares
            mine.reverse()
        goal_r, goal_c = divmod(cfg.spawns[3 - side], cfg.cols)
        for i in mine:
            if rand() < 0.8:
                near = cfg.nbrs[i]
                if toward and rand() < toward:
                    t = min(near, key=lambda n: abs(n // cfg.cols - goal_r)
                            + abs(n % cfg.cols - goal_c))
                else:
                    t = near[int(rand() * len(near))]
                c = grid[t]
                if t not in taken and (c == EMPTY or c == DEAD[1] or c == DEAD[2]
                                       or (cfg.gather and c == ENERGY)):
                    moves.append((i, t))
                    taken.add(t)
        if state.pending:
            self._add_collision(state, rng, moves, taken)
        if rand() < odd:
            self._add_odd_entry(state, rng, moves)
        return ("moves", tuple(moves))

    def _add_collision(self, state: BotWarsState, rng: random.Random, moves: list[Move],
                       taken: set[int]) -> None:
        """Half the time, one of p2's botlets beside a square p1 moves onto steps onto it
        (the random stream is drawn from only where such a botlet stands)."""
        cfg, grid = state.cfg, state.grid
        into = {t for _, t in state.pending if t not in taken}
        near = [(f, t) for t in sorted(into) for f in cfg.nbrs[t] if grid[f] == BOT[2]]
        if not near or rng.random() < 0.5:
            return
        f, t = near[int(rng.random() * len(near))]
        moves[:] = [mv for mv in moves if mv[0] != f]
        moves.append((f, t))
        taken.add(t)

    def _add_odd_entry(self, state: BotWarsState, rng: random.Random,
                       moves: list[Move]) -> None:
        cfg, grid, side = state.cfg, state.grid, state.side
        mine = self.botlets(grid, side)
        f = rng.choice(mine) if mine else rng.randrange(cfg.size)
        near = cfg.nbrs[f]
        kind = rng.randrange(9)
        if kind == 0:  # off the field, two rows down, diagonal
            entry = (f, rng.choice([-1, cfg.size, f + 2 * cfg.cols, f - 1 - cfg.cols]))
        elif kind == 1:  # staying put
            entry = (f, f)
        elif kind == 2 and moves:  # a botlet named twice
            entry = (moves[0][0], rng.choice(cfg.nbrs[moves[0][0]]))
        elif kind == 3 and moves:  # two botlets onto one square
            a = moves[0][1]
            others = [g for g in mine if a in cfg.nbrs[g] and g != moves[0][0]]
            entry = (rng.choice(others) if others else f, a)
        elif kind == 4:  # a swap
            pairs = [(a, b) for a in mine for b in cfg.nbrs[a] if grid[b] == BOT[side]]
            if pairs:
                a, b = rng.choice(pairs)
                moves.insert(rng.randrange(len(moves) + 1), (b, a))
                entry = (a, b)
            else:
                entry = (f, rng.choice(near))
        elif kind == 5:  # anything at all, most likely not even an own botlet
            entry = (rng.randrange(cfg.size), rng.randrange(cfg.size))
        else:
            entry = (f, rng.choice(near))  # whatever is there: own, enemy, energy, empty
        moves.insert(rng.randrange(len(moves) + 1), entry)

    # --- the field -------------------------------------------------------------------------
    def botlets(self, grid: bytes, side: int) -> list[int]:
        out, own = [], BOT[side]
        i = grid.find(own)
        while i >= 0:
            out.append(i)
            i = grid.find(own, i + 1)
        return out

    def counts(self, grid: bytes) -> tuple[int, int]:
        return grid.count(BOT[1]), grid.count(BOT[2])

    def energy_may_cover(self, cfg: BotWarsConfig, square: int) -> bool:
        """BOTWARS-ENERGY-SQUARES: may energy be placed on `square` when it is empty?"""
        return cfg.energy_on_spawn or square not in cfg.spawns[1:]

    def vacant(self, cfg: BotWarsConfig, char: int) -> bool:
        """BOTWARS-DEAD-MARKERS: is a square showing `char` empty for spawning and energy
        placement ('.', or a dead marker under the empty reading)?"""
        return char == EMPTY or (cfg.markers_empty and (char == DEAD[1] or char == DEAD[2]))

    def free_for_energy(self, state: BotWarsState, square: int) -> bool:
        """BOTWARS-ENERGY-SPAWN: empty and allowed by BOTWARS-ENERGY-SQUARES."""
        return (self.vacant(state.cfg, state.grid[square])
                and self.energy_may_cover(state.cfg, square))

    def free_pair(self, state: BotWarsState, s: int) -> bool:
        size = state.cfg.size
        return (0 <= s < size // 2 and self.free_for_energy(state, s)
                and self.free_for_energy(state, size - 1 - s))

    def free_pairs(self, state: BotWarsState) -> list[int]:
        """The smaller squares s of the free mirror pairs {s, size - 1 - s}."""
        cfg = state.cfg
        grid, half = state.grid, cfg.size // 2
        if cfg.markers_empty:
            grid = grid.translate(_CLEAR_DEAD)
        mirror = grid[::-1]
        allowed = self.energy_may_cover
        return [s for s in range(half)
                if grid[s] == EMPTY and mirror[s] == EMPTY and allowed(cfg, s)
                and allowed(cfg, len(grid) - 1 - s)]

    # --- moves (BOTWARS-MOVE and its open points) -----------------------------------------
    def single_move_fault(self, cfg: BotWarsConfig, grid: bytes, side: int,
                          move: Move) -> tuple[str, str] | None:
        """The first single-move check that `move` fails, as (reason, rule), or None."""
        f, t = move
        size = cfg.size
        if not (0 <= f < size) or grid[f] != BOT[side]:
            return "not-own-botlet", "BOTWARS-MOVE"
        if f == t:
            return None if cfg.stay_ok else ("stay", "BOTWARS-MOVE-STAY")
        if not 0 <= t < size:
            return "off-field", "BOTWARS-MOVE"
        if t not in cfg.nbrs[f]:
            return "not-adjacent", "BOTWARS-MOVE"
        c = grid[t]
        if c == ENERGY and not cfg.gather:
            return "energy", "BOTWARS-MOVE-ENERGY"
        if c == BOT[3 - side] or (c == BOT[side] and not cfg.follow_own):
            return "occupied", "BOTWARS-MOVE-OCCUPIED"
        return None

    def check_moves(self, state: BotWarsState, side: int, moves: tuple[Move, ...]) -> Checked:
        """Judge a list against the field at the start of the turn (stages as in the spec:
        single-move checks, a botlet named twice, same target, then following own botlets)."""
        cfg, grid = state.cfg, state.grid
        invalid: list[Invalid] = []
        named: set[int] = set()
        candidates: list[tuple[int, Move]] = []
        stays: list[int] = []
        faults = [self.single_move_fault(cfg, grid, side, move) for move in moves]
        twice = self.named_twice(cfg, moves, faults)
        for index, move in enumerate(moves):
            fault = faults[index]
            if fault is not None:
                invalid.append(Invalid(index, move, *fault))
            elif move[0] in named or move[0] in twice:
                invalid.append(Invalid(index, move, "moved-twice", "BOTWARS-MOVE"))
            else:
                named.add(move[0])
                if move[0] == move[1]:
                    stays.append(move[0])
                else:
                    candidates.append((index, move))
        kept = self.same_target(cfg, candidates, invalid)
        if cfg.follow_own:
            kept = self.follow(cfg, grid, side, kept, invalid)
        invalid.sort(key=lambda bad: bad.index)
        return Checked(tuple(sorted(m for _, m in kept)), tuple(sorted(stays)), tuple(invalid))

    def named_twice(self, cfg: BotWarsConfig, moves: tuple[Move, ...],
                    faults: list[tuple[str, str] | None]) -> set[int]:
        """BOTWARS-MOVE = all-invalid: the botlets that several entries passing the
        single-move checks name (every entry for them is invalid); empty under first-counts,
        where only the later entries are."""
        if not cfg.twice_all or len(moves) < 2:
            return set()
        seen: set[int] = set()
        out: set[int] = set()
        for move, fault in zip(moves, faults, strict=True):
            if fault is None:
                (out if move[0] in seen else seen).add(move[0])
        return out

    def same_target(self, cfg: BotWarsConfig, candidates: list[tuple[int, Move]],
                    invalid: list[Invalid]) -> list[tuple[int, Move]]:
        """BOTWARS-MOVE-SAME-TARGET (under die-there the moves all stand: step 1 kills)."""
        if cfg.crowd_dies:
            return candidates
        seen: dict[int, int] = {}
        for _, (_, t) in candidates:
            seen[t] = seen.get(t, 0) + 1
        kept, used = [], set()
        for index, move in candidates:
            t = move[1]
            if seen[t] > 1 and (not cfg.first_wins or t in used):
                invalid.append(Invalid(index, move, "same-target", "BOTWARS-MOVE-SAME-TARGET"))
            else:
                kept.append((index, move))
            used.add(t)
        return kept

    def follow(self, cfg: BotWarsConfig, grid: bytes, side: int,
               kept: list[tuple[int, Move]], invalid: list[Invalid]) -> list[tuple[int, Move]]:
        """BOTWARS-MOVE-OCCUPIED (follow-own) and BOTWARS-MOVE-SWAP: a move onto an own
        botlet stands only if that botlet leaves by a move that stands (greatest fixpoint)."""
        leaving = {m[0]: (index, m) for index, m in kept}
        own = BOT[side]
        if not cfg.swap_ok:
            for index, (f, t) in kept:
                back = leaving.get(t)
                if grid[t] == own and back is not None and back[1][1] == f:
                    invalid.append(Invalid(index, (f, t), "swap", "BOTWARS-MOVE-SWAP"))
            bad = {b.move[0] for b in invalid if b.reason == "swap"}
            kept = [(i, m) for i, m in kept if m[0] not in bad]
            leaving = {m[0]: (i, m) for i, m in kept}
        changed = True
        while changed:
            changed = False
            for index, (f, t) in list(leaving.values()):
                if grid[t] == own and t not in leaving:
                    invalid.append(Invalid(index, (f, t), "occupied", "BOTWARS-MOVE-OCCUPIED"))
                    del leaving[f]
                    changed = True
        return sorted(leaving.values())

    def accepted(self, cfg: BotWarsConfig, checked: Checked) -> tuple[Move, ...]:
        """BOTWARS-MOVE-INVALID: the moves carried out, given the list's invalid entries."""
        if checked.invalid and cfg.lose_turn:
            return ()
        return checked.valid

    def _judge_list(self, state: BotWarsState, moves: tuple[Move, ...],
                    events: list[Any]) -> tuple[Move, ...]:
        side, name = state.side, NAMES[state.side]
        checked = self.check_moves(state, side, moves)
        accepted = self.accepted(state.cfg, checked)
        lost = bool(checked.invalid) and state.cfg.lose_turn
        if lost:
            events.append({"type": "turn-lost", "rule": "BOTWARS-MOVE-INVALID",
                           "player": name, "invalid": [b.to_json() for b in checked.invalid]})
        else:
            for bad in checked.invalid:
                events.append({"type": "move-invalid", "rule": "BOTWARS-MOVE-INVALID",
                               "player": name, **bad.to_json()})
            for f in checked.stays:
                events.append({"type": "stayed", "rule": "BOTWARS-MOVE-STAY", "player": name,
                               "at": f})
        return accepted
