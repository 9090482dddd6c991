"""A Bot Wars turn carried out: `apply` takes a bot's list (p1's waits, hidden, for p2's),
a disqualification or an energy placement; the turn's steps in the seed's fixed order
(moves, battles, razing, spawning, energy collection), each a small method a mutant
overrides; and the end (elimination, the turn limit, the winner).

`BotWarsTurn` builds on the lists (`moves.py`) and is built on by `engine.py`'s `BotWars`.
It knows actions as internal tuples only: their JSON forms and the referee are
`engine.py`'s.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.botwars import rules
from gamecert.reference_engine.botwars.moves import BotWarsMoves
from gamecert.reference_engine.botwars.state import (
    _CLEAR_DEAD,
    BOT,
    DEAD,
    EMPTY,
    ENERGY,
    ENERGY_STEP,
    NAMES,
    OVER,
    P1,
    P2,
    Action,
    BotWarsConfig,
    BotWarsState,
    Move,
    _is_int,
    _pair,
    dead_marker,
)
from gamecert.reference_engine.contract import IllegalAction


class BotWarsTurn(BotWarsMoves):
    """A turn carried out, and the end (see the module docstring)."""

    # --- transitions -------------------------------------------------------------------
    def apply(self, state: BotWarsState, action: Action) -> tuple[BotWarsState, list[Any]]:
        kind = action[0] if isinstance(action, tuple) and action else None
        if state.phase == OVER:
            raise IllegalAction("the game is over")
        if state.phase == ENERGY_STEP:
            if kind != "energy":
                raise IllegalAction(f"an energy placement is due, not {kind!r}")
            return self._place_energy(state, action[1])
        if kind == "moves":
            moves = action[1]
            if type(moves) is not tuple or not all(  # exact types: bools are not squares
                    type(m) is tuple and len(m) == 2 and type(m[0]) is int
                    and type(m[1]) is int for m in moves):
                raise IllegalAction("a list of moves is a tuple of (from, to) integer pairs")
            return self._submit(state, moves, [])
        if kind == "bad-format":
            return self._disqualify(state, "BOTWARS-FORMAT-DQ")
        if kind == "timeout":
            if state.cfg.timeout_dq:
                return self._disqualify(state, "BOTWARS-TIME-LIMIT")
            events: list[Any] = [{"type": "timed-out", "rule": "BOTWARS-TIME-LIMIT",
                                  "player": NAMES[state.side]}]
            return self._submit(state, (), events)
        raise IllegalAction(f"{NAMES[state.side]} must send moves, not {kind!r}")

    def _submit(self, state: BotWarsState, moves: tuple[Move, ...],
                events: list[Any]) -> tuple[BotWarsState, list[Any]]:
        accepted = self._judge_list(state, moves, events)
        if state.phase == P1:  # BOTWARS-TURN-ORDER: p1's list waits, hidden, for p2's
            return state._replace(phase=P2, pending=accepted), events
        return self._carry_out(state, state.pending, accepted, events), events

    def _disqualify(self, state: BotWarsState, rule: str) -> tuple[BotWarsState, list[Any]]:
        side = state.side
        other = 3 - side
        events: list[Any] = [{"type": "disqualified", "rule": rule, "player": NAMES[side]}]
        after = state._replace(dq=_pair(state.dq, side, True), pending=())
        return self._finish(after, "disqualified", other, rule, events), events

    def _carry_out(self, state: BotWarsState, moves1: tuple[Move, ...],
                   moves2: tuple[Move, ...], events: list[Any]) -> BotWarsState:
        """BOTWARS-TURN-ORDER: clear the dead, then steps 1 to 5, the end, and step 6."""
        cfg = state.cfg
        grid = bytearray(state.grid.translate(_CLEAR_DEAD))  # BOTWARS-DEAD-MARKERS
        energy = list(state.energy)
        self.step_moves(cfg, grid, (moves1, moves2), energy, events)
        post_move = bytes(grid)
        for square, enemies in self.battle_deaths(cfg, post_move):
            side = 1 if post_move[square] == BOT[1] else 2
            grid[square] = DEAD[side]
            events.append({"type": "died", "rule": "BOTWARS-BATTLE", "player": NAMES[side],
                           "at": square, "enemies": list(enemies), "enemyCount": len(enemies)})
        razed = self.step_raze(cfg, self.raze_grid(post_move, bytes(grid)), state.razed, events)
        for side in (1, 2):
            self.step_spawn(cfg, grid, side, energy, razed, events)
        self.step_collect(cfg, grid, energy, events)
        after = state._replace(grid=bytes(grid), turns=state.turns + 1,
                               energy=(energy[0], energy[1]), razed=razed, pending=())
        ended = self._check_end(after, events)
        if ended is not None:
            return ended
        return after._replace(phase=ENERGY_STEP if self.energy_due(cfg, after.turns) else P1)

    def step_moves(self, cfg: BotWarsConfig, grid: bytearray,
                   moves: tuple[tuple[Move, ...], tuple[Move, ...]], energy: list[int],
                   events: list[Any]) -> None:
        """Step 1: every accepted move at once. Where botlets of both bots move onto one
        square, BOTWARS-MOVE-COLLIDE; where several of one bot do (only possible under
        BOTWARS-MOVE-SAME-TARGET = die-there), they die there."""
        entrants: dict[int, list[tuple[int, int]]] = {}  # square -> [(k, from)], k = side - 1
        for k in (0, 1):
            for f, t in moves[k]:
                entrants.setdefault(t, []).append((k, f))
        clash = {t for t, into in entrants.items() if len({k for k, _ in into}) == 2}
        die_there = {t for t, into in entrants.items() if len(into) > 1 and t not in clash}
        if cfg.collide_there:
            die_there |= clash
        halted = clash - die_there  # bounce or both-die: nobody enters
        stopped: list[set[int]] = [set(), set()]
        for t in halted:
            for k, f in entrants[t]:
                stopped[k].add(f)
        for k in (0, 1):  # botlets following a stopped botlet stop too, down the line
            grow = True
            while grow:
                grow = False
                for f, t in moves[k]:
                    if t in stopped[k] and f not in stopped[k]:
                        stopped[k].add(f)
                        grow = True
        for k, side in ((0, 1), (1, 2)):
            for f, t in moves[k]:
                if f not in stopped[k]:
                    continue
                kind = "collided" if t in halted and cfg.collide_kills else "bounced"
                events.append({"type": kind, "rule": "BOTWARS-MOVE-COLLIDE",
                               "player": NAMES[side], "from": f, "to": t})
        going = [[(f, t) for f, t in moves[k] if f not in stopped[k]] for k in (0, 1)]
        for k in (0, 1):
            for f, _ in going[k]:
                grid[f] = EMPTY
        for k, side in ((0, 1), (1, 2)):
            for f, t in going[k]:
                if grid[t] == ENERGY and t not in die_there:  # BOTWARS-MOVE-ENERGY = gather
                    energy[k] += 1
                    events.append({"type": "energy-collected", "rule": "BOTWARS-MOVE-ENERGY",
                                   "player": NAMES[side], "at": t})
                grid[t] = BOT[side]
                events.append({"type": "moved", "rule": "BOTWARS-MOVE", "player": NAMES[side],
                               "from": f, "to": t})
        for t in sorted(die_there):  # all of them entered (none follows a stopped botlet)
            arrived = [(k, f) for k, f in sorted(entrants[t]) if f not in stopped[k]]
            if not arrived:
                continue
            grid[t] = dead_marker({k + 1 for k, _ in arrived})
            rule = "BOTWARS-MOVE-COLLIDE" if t in clash else "BOTWARS-MOVE-SAME-TARGET"
            for k, f in arrived:
                events.append({"type": "died", "rule": rule, "player": NAMES[k + 1],
                               "at": t, "from": f})
        if cfg.collide_kills:
            for t in sorted(halted):
                for k, f in sorted(entrants[t]):
                    grid[f] = DEAD[k + 1]
                    events.append({"type": "died", "rule": "BOTWARS-MOVE-COLLIDE",
                                   "player": NAMES[k + 1], "at": f})

    def battle_deaths(self, cfg: BotWarsConfig,
                      grid: bytes) -> list[tuple[int, tuple[int, ...]]]:
        """Step 2, BOTWARS-BATTLE: all battles decided at once on the post-move field.
        Returns (square, adjacent enemy squares) for every botlet that dies, by square."""
        nbrs, two = cfg.nbrs, BOT[2]
        contacts: dict[int, list[int]] = {}
        for sq in self.botlets(grid, 1):  # every fighting pair has exactly one p1 botlet
            for n in nbrs[sq]:
                if grid[n] == two:
                    contacts.setdefault(sq, []).append(n)
                    contacts.setdefault(n, []).append(sq)
        out = []
        for sq in sorted(contacts):
            near = contacts[sq]
            if rules.dies([(1, len(contacts[n])) for n in near], cfg.battle_every):
                out.append((sq, tuple(sorted(near))))
        return out

    def raze_grid(self, post_move: bytes, post_battle: bytes) -> bytes:
        """BOTWARS-TURN-ORDER: razing (step 3) looks at the field after the battles."""
        return post_battle

    def step_raze(self, cfg: BotWarsConfig, grid: bytes, razed: tuple[bool, bool],
                  events: list[Any]) -> tuple[bool, bool]:
        """Step 3, BOTWARS-RAZE."""
        out = razed
        for side in (1, 2):
            spawn = cfg.spawns[side]
            if not out[side - 1] and grid[spawn] == BOT[3 - side]:
                out = _pair(out, side, True)
                events.append({"type": "razed", "rule": "BOTWARS-RAZE", "player": NAMES[side],
                               "by": NAMES[3 - side], "at": spawn})
        return out

    def may_spawn(self, cfg: BotWarsConfig, energy: int, razed: bool) -> bool:
        """BOTWARS-SPAWN: enough energy and a spawn that is not razed."""
        return not razed and energy >= cfg.spawn_cost

    def step_spawn(self, cfg: BotWarsConfig, grid: bytearray, side: int, energy: list[int],
                   razed: tuple[bool, bool], events: list[Any]) -> None:
        """Step 4, BOTWARS-SPAWN."""
        if not self.may_spawn(cfg, energy[side - 1], razed[side - 1]):
            return
        spawn = cfg.spawns[side]
        if self.vacant(cfg, grid[spawn]):
            grid[spawn] = BOT[side]
            energy[side - 1] -= cfg.spawn_cost
            events.append({"type": "spawned", "rule": "BOTWARS-SPAWN", "player": NAMES[side],
                           "at": spawn})
        elif cfg.spend_anyway:
            energy[side - 1] -= cfg.spawn_cost
            events.append({"type": "spawn-wasted", "rule": "BOTWARS-SPAWN",
                           "player": NAMES[side], "at": spawn})

    def collect_neighbours(self, cfg: BotWarsConfig) -> tuple[tuple[int, ...], ...]:
        """BOTWARS-ENERGY-COLLECT: the squares that count as next to energy."""
        return cfg.nbrs8 if cfg.collect_diagonal else cfg.nbrs

    def energy_taker(self, cfg: BotWarsConfig, n1: int, n2: int) -> int:
        """BOTWARS-ENERGY-COLLECT and -CONTESTED: who gains an energy touched by n1 botlets
        of p1 and n2 of p2 (at least one of them positive); 0 for nobody."""
        if n1 and n2:
            if cfg.majority and n1 != n2:
                return 1 if n1 > n2 else 2
            return 0
        return 1 if n1 else 2

    def step_collect(self, cfg: BotWarsConfig, grid: bytearray, energy: list[int],
                     events: list[Any]) -> None:
        """Step 5: every energy square is judged on the same field (collection never moves a
        botlet, so judging them one after another is the same)."""
        near = self.collect_neighbours(cfg)
        one, two = BOT[1], BOT[2]
        sq = grid.find(ENERGY)
        while sq >= 0:
            n1 = n2 = 0
            for n in near[sq]:
                c = grid[n]
                n1 += c == one
                n2 += c == two
            if n1 or n2:
                grid[sq] = EMPTY
                taker = self.energy_taker(cfg, n1, n2)
                rule = "BOTWARS-ENERGY-CONTESTED" if n1 and n2 else "BOTWARS-ENERGY-COLLECT"
                if taker:
                    energy[taker - 1] += 1
                    events.append({"type": "energy-collected", "rule": rule,
                                   "player": NAMES[taker], "at": sq})
                else:
                    events.append({"type": "energy-removed", "rule": rule, "at": sq,
                                   "count": [n1, n2]})
            sq = grid.find(ENERGY, sq + 1)

    def energy_due(self, cfg: BotWarsConfig, turns: int) -> bool:
        """BOTWARS-ENERGY-SPAWN: is energy placed after turn `turns`?"""
        if cfg.energy_from_first:
            return turns >= 1 and (turns - 1) % cfg.interval == 0
        return turns >= 1 and turns % cfg.interval == 0

    def _place_energy(self, state: BotWarsState, s: Any) -> tuple[BotWarsState, list[Any]]:
        if not _is_int(s):
            raise IllegalAction("an energy outcome names a square")
        size = state.cfg.size
        events: list[Any] = []
        grid = state.grid
        if s == -1:
            if self.free_pairs(state):
                raise IllegalAction("a free mirror pair exists: energy must be placed")
        elif not self.free_pair(state, s):
            raise IllegalAction(f"squares {s} and {size - 1 - s} are not a free mirror pair")
        else:
            b = bytearray(grid)
            b[s] = b[size - 1 - s] = ENERGY
            grid = bytes(b)
            events.append({"type": "energy-spawned", "rule": "BOTWARS-ENERGY-SPAWN",
                           "at": [s, size - 1 - s]})
        return state._replace(grid=grid, phase=P1), events

    # --- the end -----------------------------------------------------------------------
    def turn_limit_reached(self, cfg: BotWarsConfig, turns: int) -> bool:
        """BOTWARS-END-TURNLIMIT."""
        return turns >= cfg.max_turns

    def turn_limit_winner(self, cfg: BotWarsConfig, counts: tuple[int, int],
                          energy: tuple[int, int]) -> int:
        """BOTWARS-WINNER: 1, 2, or 0 for a draw."""
        if counts[0] != counts[1]:
            return 1 if counts[0] > counts[1] else 2
        if cfg.tie_by_energy and energy[0] != energy[1]:
            return 1 if energy[0] > energy[1] else 2
        return 0

    def _check_end(self, state: BotWarsState, events: list[Any]) -> BotWarsState | None:
        counts = self.counts(state.grid)
        if 0 in counts:  # BOTWARS-END-ELIMINATION
            winner = 0 if counts == (0, 0) else (1 if counts[0] else 2)
            return self._finish(state, "elimination", winner, "BOTWARS-END-ELIMINATION", events)
        if self.turn_limit_reached(state.cfg, state.turns):
            winner = self.turn_limit_winner(state.cfg, counts, state.energy)
            return self._finish(state, "turn-limit", winner, "BOTWARS-END-TURNLIMIT", events)
        return None

    def _finish(self, state: BotWarsState, reason: str, winner: int, rule: str,
                events: list[Any]) -> BotWarsState:
        events.append({"type": "game-ended", "rule": rule, "endReason": reason,
                       "winner": NAMES[winner] or None, "botlets": list(self.counts(state.grid))})
        return state._replace(phase=OVER, winner=winner, end_reason=reason, pending=())

    def scores(self, state: BotWarsState) -> list[int]:
        return list(self.counts(state.grid))
