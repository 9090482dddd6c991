"""What an engine's own states say it did in one step, for the state-only forms of the Bot
Wars oracles (`Oracle.bare`): an engine that sends no events shows only the state before,
the action and the state after.

A submitted list's moves carried out are read off the state after: p1's are its `pending`
list; p2's show on the field only, after the battles, the spawns, the energy collected and
(in follow mode) the energy placed. So the account tries *candidates* for step 1: the moves
the rules carry out, then each one-rule change of them (an invalid entry taken as valid, a
valid one dropped, the whole turn lost or kept, a collision handled another way), and keeps
those whose field after step 1 gives the engine's field after the turn (`fits`: every
botlet that lives after the turn stood there after step 1, every marker is a botlet of its
side that died there, only a spawn point may hold a botlet step 1 did not put there). The
fitting candidate names the rule an engine broke in step 1 (none: step 1 is the rules'),
and its field after step 1 is the engine's own, on which the later steps are judged: the
battles (the markers), razing (the flags), spawning (the spawn points) and the energy.

Each oracle's state-only form reads the account of its own step and answers for its own
rule only. Nothing here comes from the reference engine, and nothing reads events.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from gamecert.oracles.base import Transition
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import turn as tn

JSON = Any
MOVE, STAY, OCCUPIED, SWAP = ("BOTWARS-MOVE", "BOTWARS-MOVE-STAY", "BOTWARS-MOVE-OCCUPIED",
                              "BOTWARS-MOVE-SWAP")
SAME_TARGET, ENERGY, COLLIDE, INVALID = ("BOTWARS-MOVE-SAME-TARGET", "BOTWARS-MOVE-ENERGY",
                                         "BOTWARS-MOVE-COLLIDE", "BOTWARS-MOVE-INVALID")
SPAWN, COLLECT, CONTESTED = ("BOTWARS-SPAWN", "BOTWARS-ENERGY-COLLECT",
                             "BOTWARS-ENERGY-CONTESTED")
# a square's occupant for `fits`: a marker stands for the botlet of its side that died there
_SIDE_OF = {"1": "1", "x": "1", "2": "2", "X": "2"}
_OCCUPANT_OF = {c: _SIDE_OF.get(c, ".") for c in ".12*xX"}
_OCCUPANT = str.maketrans(_OCCUPANT_OF)


@dataclass(frozen=True)
class Candidate:
    """One account of step 1: the moves carried into it and how collisions and crowds are
    handled; `rules` are those it breaks (none: the rules' own account)."""

    rules: tuple[str, ...]
    kind: str  # the departure's cause tag
    text: str  # what the engine did, for a reader
    lists: tuple[tn.Moves, tn.Moves]
    collide: str | None = None
    crowd_dies: bool | None = None


class Account:
    """The state-only account of one step (see the module docstring)."""

    def __init__(self, t: Transition, r: m.Readings) -> None:
        self.t, self.r = t, r
        b, a = t.before, t.after
        self.kind = t.action.get("type")
        self.player = b["phase"] if b["phase"] in ("p1", "p2") else None
        # a turn is carried out (p2's list, or its time-out read as an empty one) and the
        # engine did carry it out: the turn count moved on by one
        self.resolution = (m.is_resolution(b, t.action, r)
                           and a["turnsElapsed"] == b["turnsElapsed"] + 1)
        self.submission = (self.player == "p1" and self.kind in ("moves", "timeout")
                           and a["phase"] == "p2" and isinstance(a["pending"], list))

    # --- the list submitted ---------------------------------------------------------------
    @cached_property
    def entries(self) -> list[tuple[Any, Any]]:
        return m.moves_of(self.t.action) if self.kind == "moves" else []

    @cached_property
    def judged(self) -> m.ListJudgement:
        side = m.SIDE[self.player] if self.player else 1
        return m.judge_list(self.r, self.t.before["grid"], side, self.entries)

    @cached_property
    def own(self) -> str:
        return m.LIVE[m.SIDE[self.player]] if self.player else "?"

    def concerns(self, i: int) -> tuple[str, ...]:
        """The rules an engine would break by refusing entry i, a valid one: the open
        point the entry meets, else BOTWARS-MOVE."""
        f, to = self.entries[i]
        grid = self.t.before["grid"]
        if f == to:
            return (STAY,)
        if self.player == "p2" and self.resolution and to in {t for _, t in self._pending}:
            return (COLLIDE,)  # p1 moves onto the same square: a collision's handling
        if grid[to] == self.own:
            if (to, f) in self.entries:
                return (SWAP,)
            return (OCCUPIED,)
        if grid[to] == "*":
            return (ENERGY,)
        j = self.judged
        if any(k != i and not j.broken[k] and self.entries[k][1] == to
               for k in range(len(self.entries))) or any(
                SAME_TARGET in j.broken[k] and self.entries[k][1] == to
                for k in range(len(self.entries))):
            return (SAME_TARGET,)
        return (MOVE,)

    @cached_property
    def concerned(self) -> frozenset[str]:
        """Every rule some entry of the list meets (broken or not), and the collisions."""
        j = self.judged
        out: set[str] = {MOVE} if self.entries else set()
        for i in range(len(self.entries)):
            out |= j.broken[i]
            if not j.broken[i]:
                out |= set(self.concerns(i))
        if j.invalid:
            out.add(INVALID)
        if self.resolution and self._clash(self.wanted):
            out.add(COLLIDE)
        return frozenset(out)

    @cached_property
    def wanted(self) -> tuple[tn.Moves, tn.Moves]:
        """The moves the rules carry into step 1: p1's pending list (what the engine took of
        p1's list, judged at p1's step) and p2's list as the rules carry it out; at p1's
        step, p1's list."""
        carried = tn.moves_tuple(self.judged.carried_out(self.r))
        if self.player == "p1":
            return (carried, ())
        return (self._pending, carried)

    @cached_property
    def _pending(self) -> tn.Moves:
        pending = self.t.before.get("pending") or []
        return tn.moves_tuple((x["from"], x["to"]) for x in pending)

    def _with(self, carried: tn.Moves) -> tuple[tn.Moves, tn.Moves]:
        return (carried, ()) if self.player == "p1" else (self._pending, carried)

    # --- candidates for step 1 ------------------------------------------------------------
    def candidates(self) -> list[Candidate]:
        """The rules' account first, then each one-rule change of the list's handling."""
        j, r = self.judged, self.r
        entries = self.entries
        rules_list = tn.moves_tuple(j.carried_out(r))
        valid = tn.moves_tuple(j.valid_moves)
        out = [Candidate((), "", "", self._with(rules_list))]
        if self.resolution:  # another handling of a collision or a crowd first: a move
            # dropped that collides is the same departure, named by how it is handled
            wanted = self.wanted
            if self._clash(wanted):
                way = ("die-there" if r.collide_there else "both-die" if r.collide_kills
                       else "bounce")
                for other in tn.COLLIDE_WAYS:
                    if other != way:
                        out.append(Candidate((COLLIDE,), f"collide-{other}",
                                             f"botlets of both bots moving onto one square: "
                                             f"{other}, where the rules say {way}", wanted,
                                             collide=other))
            if self._crowd(wanted):
                out.append(Candidate((SAME_TARGET,), "crowd-enters", "botlets of one bot "
                                     "moving onto one square did not die there", wanted,
                                     crowd_dies=False))
        if j.invalid and valid:
            if r.lose_turn:
                out.append(Candidate((INVALID,), "drop-move", "only the invalid moves were "
                                     "dropped; the valid ones were carried out",
                                     self._with(valid)))
            else:
                out.append(Candidate((INVALID,), "lose-turn", "the whole turn was lost for "
                                     "its invalid moves", self._with(())))
        # invalid entries taken as valid: each alone, and all those one rule breaks
        groups = [[i] for i in j.invalid]
        for rule in sorted({rule for i in j.invalid for rule in j.broken[i]}):
            group = [i for i in j.invalid if rule in j.broken[i]]
            if len(group) > 1:
                groups.append(group)
        for group in groups:
            rest = [k for k in j.invalid if k not in group]
            if rest and r.lose_turn:
                continue  # the turn is lost either way: nothing to see
            moves = [entries[i] for i in group]
            if not all(r.on_field(f) and r.on_field(to) for f, to in moves):
                continue  # no field has it carried out
            froms = {f for f, _ in moves}
            taken = [mv for mv in valid if mv[0] not in froms]
            taken += [(f, to) for f, to in moves if f != to]
            carried = tn.moves_tuple(taken)
            if carried == rules_list:
                continue
            broken = tuple(sorted(set.intersection(*(j.broken[i] for i in group))))
            what = ", ".join(f"{i} ({entries[i][0]} -> {entries[i][1]})" for i in group)
            out.append(Candidate(broken, "taken-as-valid",
                                 f"entr{'y' if len(group) == 1 else 'ies'} {what}, which "
                                 f"break{'s' if len(group) == 1 else ''} "
                                 f"{', '.join(broken)}, carried out", self._with(carried)))
        for i, (f, to) in enumerate(entries):
            if (f, to) not in rules_list:
                continue
            carried = tuple(mv for mv in rules_list if mv != (f, to))
            out.append(Candidate(self.concerns(i), "valid-dropped",
                                 f"entry {i} ({f} -> {to}), a valid move, was not carried out",
                                 self._with(carried)))
        if not j.invalid and r.lose_turn and (rules_list or j.stays):
            why = sorted({rule for i in range(len(entries)) for rule in self.concerns(i)
                          if not j.broken[i]})
            out.append(Candidate(tuple(why), "turn-lost", "the whole turn was lost, though "
                                 "every entry of the list is valid", self._with(())))
        if self.submission and j.invalid:
            # p1's list: what the engine carried is seen whole; a part of the valid moves,
            # neither none nor all of them, is the invalid moves' handling
            pending = tn.moves_tuple((x["from"], x["to"]) for x in self.t.after["pending"])
            if pending and pending != valid and set(pending) <= set(valid):
                out.append(Candidate((INVALID,), "part-carried", "a part of the valid "
                                     "moves was carried out, for a list with invalid ones",
                                     self._with(pending)))
        if self.resolution:
            p2_into = {t for _, t in rules_list}
            for k, (f, to) in enumerate(self._pending):
                lists = (tuple(mv for mv in self._pending if mv != (f, to)), rules_list)
                rule = COLLIDE if to in p2_into else MOVE
                out.append(Candidate((rule,), "pending-dropped", f"p1's pending move "
                                     f"{f} -> {to} (entry {k}) was not carried out", lists))
        return out

    @staticmethod
    def _clash(lists: tuple[tn.Moves, tn.Moves]) -> bool:
        return bool({t for _, t in lists[0]} & {t for _, t in lists[1]})

    @staticmethod
    def _crowd(lists: tuple[tn.Moves, tn.Moves]) -> bool:
        return any(len({t for _, t in moves}) < len(moves) for moves in lists)

    # --- the engine's field -----------------------------------------------------------------
    @cached_property
    def placed(self) -> frozenset[int]:
        """Energy squares the state after shows that the state before had not: energy
        placed in this step (a chance step, or follow mode's draw inside a move's reply)."""
        before, after = self.t.before["grid"], self.t.after["grid"]
        if not self.resolution:
            return frozenset(sq for sq in m.where(after, "*") if before[sq] != "*")
        pair = m.placed_pair(before, after)  # a pair may cover energy collected this turn
        return frozenset(pair or ()) | frozenset(
            sq for sq in m.where(after, "*") if before[sq] != "*")

    @cached_property
    def field(self) -> str:
        """The engine's field after the turn's five steps: its state after, the energy
        placed after them taken off."""
        grid = list(self.t.after["grid"])
        for sq in self.placed:
            grid[sq] = "."
        return "".join(grid)

    def fits(self, moved: str) -> bool:
        """Does a field after step 1 give the engine's field after the turn? (See the
        module docstring; energy is left to the energy rules.)"""
        field, r = self.field, self.r
        mine = list(moved.translate(_OCCUPANT))
        for sq, c in self._special:
            g = field[sq]
            own = c  # the botlet a spawn point may hold, or "" for a placed square
            if own and g == own and (moved[sq] in ".*" or (
                    r.markers_empty and moved[sq] in "12xX")):
                mine[sq] = _OCCUPANT_OF[g]  # a botlet spawned there (over a marker, where
                # markers are empty squares)
            elif not own and r.markers_empty and moved[sq] in "12xX":
                mine[sq] = _OCCUPANT_OF[g]  # energy placed over a marker of this turn
        return "".join(mine) == self._occupants

    @cached_property
    def _occupants(self) -> str:
        return self.field.translate(_OCCUPANT)

    @cached_property
    def _special(self) -> list[tuple[int, str]]:
        """The squares `fits` judges one by one: the spawn points (with the botlet each
        may get in step 4) and the squares of energy placed after the turn."""
        r = self.r
        out = [(r.spawn[1], "1"), (r.spawn[2], "2")]
        out += [(sq, "") for sq in sorted(self.placed) if sq not in r.spawn.values()]
        return out

    @cached_property
    def fitting(self) -> list[Candidate]:
        """The candidates whose step 1 gives the engine's state: at p1's step, its pending
        list; on a turn carried out, its field. The rules' account alone, when it fits."""
        if self.submission:
            pending = tn.moves_tuple((x["from"], x["to"]) for x in self.t.after["pending"])
            found = [c for c in self.candidates() if c.lists[0] == pending]
        elif self.resolution:
            found = []
            first, *others = self.candidates()
            moved, _, _ = tn.step_one(self.r, self.start, first.lists, first.collide,
                                      first.crowd_dies)
            if self.fits(moved):
                return [first]
            # a one-rule change of step 1 changes only the squares its moves (and the
            # moves behind them) touch: the others need not be played
            wrong = {sq for sq, (a, b) in enumerate(zip(
                moved.translate(_OCCUPANT), self._occupants, strict=True)) if a != b}
            wrong -= {sq for sq, _ in self._special}
            for c in others:
                if not wrong <= self._touched(first, c):
                    continue
                moved, _, _ = tn.step_one(self.r, self.start, c.lists, c.collide,
                                          c.crowd_dies)
                if self.fits(moved):
                    found.append(c)
        else:
            return []
        if found and not found[0].rules:
            return found[:1]
        return found

    def _touched(self, base: Candidate, other: Candidate) -> set[int]:
        """The squares whose occupant `other`'s step 1 may give otherwise than `base`'s:
        those of the moves one has and the other has not (all the moves into a square
        both bots move onto, where a collision is handled otherwise), and of every move
        that follows one of them into the square it leaves."""
        moves = [mv for k in (0, 1) for mv in set(base.lists[k]) ^ set(other.lists[k])]
        if (other.collide, other.crowd_dies) != (base.collide, base.crowd_dies):
            moves += [mv for k in (0, 1) for mv in other.lists[k]]
        out = {sq for mv in moves for sq in mv}
        every = [mv for k in (0, 1) for mv in (*base.lists[k], *other.lists[k])]
        grow = True
        while grow:
            grow = False
            for f, t in every:
                if t in out and f not in out:
                    out.add(f)
                    grow = True
        return out

    @cached_property
    def start(self) -> str:
        return "".join(m.cleared_view(self.t.before["grid"]))

    @cached_property
    def fit(self) -> Candidate | None:
        """The account of step 1 that gives the engine's state (the rules' own first), or
        None when none does (then nothing after step 1 can be read off the field)."""
        found = self.fitting
        return found[0] if found else None

    @cached_property
    def breaks(self) -> tuple[str, ...]:
        """The rules the fitting candidates of step 1 break (several: one step cannot tell
        which; none: step 1 is the rules' or nothing fits)."""
        return tuple(sorted({rule for c in self.fitting for rule in c.rules}))

    @cached_property
    def turn(self) -> tn.Turn | None:
        """The rules' account of the turn from the engine's own step 1 (the fitting
        candidate), or None."""
        c = self.fit
        if c is None or not self.resolution:
            return None
        b = self.t.before
        return tn.carry_out(self.r, b["grid"], (b["p1"]["energy"], b["p2"]["energy"]),
                            (b["p1"]["spawnDisabled"], b["p2"]["spawnDisabled"]), c.lists,
                            c.collide, c.crowd_dies)

    # --- what the engine did after step 1 ------------------------------------------------
    def died(self) -> tuple[frozenset[int], frozenset[int]]:
        """(the botlets after step 1 that the engine's field shows dead, the squares where
        that cannot be told: a death a spawn or placed energy may have covered)."""
        assert self.turn is not None
        moved, field, r = self.turn.moved, self.field, self.r
        dead, unknown = set(), set()
        for sq in m.where(moved, "1") + m.where(moved, "2"):
            if field[sq] in "xX":
                dead.add(sq)
            elif r.markers_empty and (sq in self.placed or sq in r.spawn.values()):
                unknown.add(sq)
        return frozenset(dead), frozenset(unknown)

    def battled(self) -> str:
        """The engine's field after the battles: step 1's field with the engine's dead
        (where its field cannot tell, the rules' battles)."""
        turn = self.turn
        assert turn is not None
        dead, unknown = self.died()
        out = list(turn.moved)
        for sq in dead:
            out[sq] = m.DEAD[int(_SIDE_OF[out[sq]])]
        for sq in unknown:
            out[sq] = turn.battled[sq]
        return "".join(out)

    def spawned(self, side: int) -> bool:
        """Did the engine add a botlet on `side`'s spawn point in step 4?"""
        sq = self.r.spawn[side]
        return self.field[sq] == m.LIVE[side] and self.battled()[sq] != m.LIVE[side]

    def energy_squares(self) -> tuple[int, ...]:
        """The energy on the field when step 5 judges it (after the moves)."""
        assert self.turn is not None
        return m.where(self.turn.moved, "*")

    def vanished(self, sq: int) -> bool:
        return self.field[sq] != "*"

    def paid_by_collection(self, side: int) -> bool:
        """Did `side` spawn with energy it had only from this turn's collection (step 5
        before step 4: BOTWARS-TURN-ORDER's order, not BOTWARS-SPAWN's price)?"""
        turn = self.turn
        if turn is None or not self.spawned(side):
            return False
        energy = turn.energy_at_spawn[side - 1]
        return energy < self.r.cost <= energy + self.credits()[side]

    def credits(self) -> dict[int, int]:
        """What the energy the engine took off the field in step 5 earns each bot by the
        rules, touched as the engine's field after the turn shows (every botlet that lives
        after the turn lived in step 5)."""
        out = {1: 0, 2: 0}
        for sq in self.energy_squares():
            if self.vanished(sq):
                n1, n2 = tn.touching(self.r, self.field, sq)
                who = tn.taker(self.r, n1, n2)
                if who:
                    out[who] += 1
        return out

    def energy_gap(self, side: int) -> int:
        """The engine's energy after the turn less what the rules give, for its own step 1,
        spawns and energy taken off the field (0: the energy is right)."""
        turn = self.turn
        assert turn is not None
        k = side - 1
        paid = self.r.cost if self.spawned(side) else (
            turn.paid[k] if not turn.spawned[k] else 0)
        want = (int(self.t.before[m.NAME[side]]["energy"]) + turn.gathered[k] - paid
                + self.credits()[side])
        return int(self.t.after[m.NAME[side]]["energy"]) - want

    def misplaced(self) -> dict[int, str]:
        """Energy squares of step 5 that the engine took off the field or left on it
        against the rules (touched as its field after the turn shows), each with the rule
        that decides it: BOTWARS-ENERGY-CONTESTED for one both bots touch, else
        BOTWARS-ENERGY-COLLECT (the adjacency included)."""
        out = {}
        for sq in self.energy_squares():
            n1, n2 = tn.touching(self.r, self.field, sq)
            if self.vanished(sq) != bool(n1 or n2):
                out[sq] = CONTESTED if n1 and n2 else COLLECT
        return out

    def energy_rules(self, side: int) -> tuple[str, ...]:
        """The rules whose one change would explain `energy_gap(side)` (empty: no gap, or
        none explains it). Energy taken off the field against the rules explains the gap
        first: its own rule answers for what it earned."""
        gap = self.energy_gap(side)
        turn = self.turn
        if not gap or turn is None:
            return ()
        wrong = self.misplaced()
        if wrong:
            return tuple(sorted(set(wrong.values())))
        k, r = side - 1, self.r
        out = []
        if turn.gathered[k] and -turn.gathered[k] <= gap < 0:
            out.append(ENERGY)
        if (self.spawned(side) and gap == r.cost) or (
                not self.spawned(side) and gap == -r.cost
                and turn.energy_at_spawn[k] >= r.cost):
            out.append(SPAWN)
        # what the energy taken off the field earns `side` by the rules, and how far a
        # change of the collection (COLLECT: one-sided energy) or of the contested energy
        # (CONTESTED) could move that
        won = lost = extra = mine = 0
        for sq in self.energy_squares():
            if not self.vanished(sq):
                continue
            n1, n2 = tn.touching(r, self.field, sq)
            ours = (n1, n2)[k]
            if not ours:
                continue
            if n1 and n2:
                if tn.taker(r, n1, n2) == side:
                    lost += 1  # it could have earned nothing
                else:
                    won += 1  # it could have earned this one
            else:
                mine += 1
                extra += ours - 1  # one per botlet, not one per energy
        if (won and 0 < gap <= won) or (lost and -lost <= gap < 0):
            out.append(CONTESTED)
        if (mine and -mine <= gap < 0) or (extra and 0 < gap <= extra):
            out.append(COLLECT)
        return tuple(out)


_KEPT: dict[tuple[int, int], tuple[Transition, Account]] = {}
KEEP = 16


def account(t: Transition, r: m.Readings) -> Account:
    """The account of step `t` under readings `r` (made once per transition object)."""
    key = (id(t), id(r))
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is t:
        return hit[1]
    while len(_KEPT) >= KEEP:
        del _KEPT[next(iter(_KEPT))]
    made = Account(t, r)
    _KEPT[key] = (t, made)
    return made


__all__ = ["Account", "Candidate", "account"]
