"""What several Bot Wars oracles derive from one transition, derived once per transition.

The lockstep asks every oracle about the same `Transition` object, and many of them rebuild
the same things from it: the field after each step of the turn (from the engine's events),
the energy each side touches then, the judged list of a submission and what the engine says
of its entries. `step(t, r)` is the `Step` of transition `t` under readings `r`: each of
its facts is computed on first use, exactly as the plain computation in `model` computes
it (a fact whose computation raises is not kept, so every oracle asking for it meets the
same error it met before), and then shared. Nothing here judges anything.

Steps are keyed by the transition's identity and hold the transition, so a key is never
reused for another object while its Step is kept; only the last few are kept. The facts
are strings and tuples (or values the oracles only read): an oracle that changes a field
copies it first. tests/botwars/test_speedups.py checks every fact against the plain
computation on random games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from gamecert.oracles.base import Transition
from gamecert.oracles.botwars import model as m

KEEP = 8  # transitions whose Steps are kept (the lockstep judges one at a time)
T = TypeVar("T")


class fact(Generic[T]):
    """A Step's fact: computed on first use and then kept in the Step (a computation that
    raises keeps nothing, so the next use raises the same). `cached_property` without its
    lock: one thread judges a transition, and a race would only compute a fact twice."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __get__(self, step: Any, owner: Any = None) -> T:
        value = self.compute(step)
        step.__dict__[self.name] = value  # found before this descriptor from now on
        return value


class Step:
    """Facts of one transition under one profile's readings (see the module docstring)."""

    def __init__(self, t: Transition, r: m.Readings) -> None:
        self.t = t
        self.r = r
        # the first disagreements of a submitted list (moves._first_disagreements), once
        # an oracle has asked
        self.first: set[int] | None = None
        # the entries of a submitted list that BOTWARS-MOVE-SAME-TARGET is about
        # (moves._crowded), once its oracle has asked
        self.crowded: frozenset[int] | None = None

    # --- what kind of step ---------------------------------------------------------------
    @fact
    def resolution(self) -> bool:
        return m.is_resolution(self.t.before, self.t.action, self.r)

    @fact
    def submission(self) -> bool:
        return m.is_submission(self.t.before, self.t.action)

    # --- the field step by step, from the engine's events (resolutions) --------------------
    @fact
    def moved(self) -> str:
        """`model.after_moves` as a string."""
        return "".join(m.after_moves(self.t.before, self.t.events))

    @fact
    def battled(self) -> str:
        """`model.after_battles` as a string (the same writes on the field after the moves)."""
        g = list(self.moved)
        for e in self.t.events:
            if e["type"] == "died" and e["rule"] == "BOTWARS-BATTLE":
                g[e["at"]] = m.DEAD[m.SIDE[e["player"]]]
        return "".join(g)

    @fact
    def spawned(self) -> str:
        """`model.after_spawns` as a string."""
        g = list(self.battled)
        for e in self.t.events:
            if e["type"] == "spawned":
                g[e["at"]] = m.LIVE[m.SIDE[e["player"]]]
        return "".join(g)

    @fact
    def touching(self) -> tuple[tuple[int, int, int], ...]:
        """Each energy on the field after the spawns, ascending, with the p1 and the p2
        botlets next to it by the profile's adjacency (energy._touching)."""
        field = self.spawned
        nbrs = self.r.neighbours(self.r.diagonal_energy)
        sets = self.r.neighbour_sets(self.r.diagonal_energy)
        botlets = set(m.where(field, "1") + m.where(field, "2"))
        out = []
        for sq in m.where(field, "*"):
            if sets[sq].isdisjoint(botlets):  # no botlet next to it
                out.append((sq, 0, 0))
                continue
            n1 = n2 = 0
            for n in nbrs[sq]:
                c = field[n]
                if c == "1":
                    n1 += 1
                elif c == "2":
                    n2 += 1
            out.append((sq, n1, n2))
        return tuple(out)

    @fact
    def touched(self) -> tuple[tuple[int, int, int], ...]:
        """The entries of `touching` with a botlet next to the energy."""
        return tuple(x for x in self.touching if x[1] or x[2])

    @fact
    def untouched(self) -> tuple[int, ...]:
        """The energy squares of `touching` with no botlet next to them, ascending."""
        return tuple(sq for sq, n1, n2 in self.touching if not (n1 or n2))

    @fact
    def botlet_by_energy(self) -> bool:
        """Is a botlet one of the eight neighbours of an energy on the field after the
        spawns? (Yes at once when one touches an energy by the profile's adjacency, whose
        neighbours are among the eight.)"""
        if self.touched:
            return True
        field = self.spawned
        near = self.r.neighbour_sets(True)
        botlets = set(m.where(field, "1") + m.where(field, "2"))
        return any(not near[sq].isdisjoint(botlets) for sq in m.where(field, "*"))

    @fact
    def entering(self) -> dict[str, list[tuple[int, int]]]:
        """On a resolution: each bot's moves carried out into step 1, p1's pending list and
        p2's moves as the engine reports them (moves._entering): only read it."""
        t = self.t
        return {"p1": [(x["from"], x["to"]) for x in t.before["pending"]],
                "p2": self.p2_carried or []}

    @fact
    def p2_carried(self) -> list[tuple[int, int]] | None:
        """`model.engine_carried` for p2: only read it."""
        t = self.t
        return m.engine_carried(t.before, t.after, t.events, "p2")

    @fact
    def took(self) -> list[tuple[int, int]] | None:
        """`model.engine_carried` for the player of a submitted list: only read it."""
        assert self.judged is not None
        player = self.judged[2]
        if player == "p2":
            return self.p2_carried
        t = self.t
        return m.engine_carried(t.before, t.after, t.events, player)

    @fact
    def foes(self) -> dict[int, list[int]]:
        """`model.contacts` on the field after the moves: only read it."""
        return m.contacts(self.r, self.moved)

    # --- the engine's events ---------------------------------------------------------------
    @fact
    def by_type(self) -> dict[str, list[Any]] | None:
        """The events by type, in their order; None when some event is not an object with
        a string type (then `of` reads them as `model.events_of` does)."""
        return _grouped(self.t.events, "type")

    @fact
    def by_rule(self) -> dict[str, list[Any]] | None:
        """The events by the rule they name, in their order; None when some event is not
        an object naming a rule by a string."""
        return _grouped(self.t.events, "rule")

    def naming(self, rule: str) -> list[Any]:
        """`[e for e in t.events if e["rule"] == rule]` (a new list; where that raises, the
        comprehension itself is run)."""
        index = self.by_rule
        if index is None:
            return [e for e in self.t.events if e["rule"] == rule]
        return list(index.get(rule, ()))

    def has_type(self, *kinds: str) -> bool | None:
        """Is an event of one of `kinds` among the events (None: not known this way, some
        event has no string type)?"""
        index = self.by_type
        return None if index is None else any(kind in index for kind in kinds)

    def of(self, kind: str, rule: str | None = None) -> list[Any]:
        """`model.events_of(t.events, kind, rule)` (a new list, the same error where that
        raises: the events of other types are all readable here)."""
        index = self.by_type
        if index is None:
            return m.events_of(self.t.events, kind, rule)
        found = index.get(kind, ())
        if rule is None:
            return list(found)
        return [e for e in found if e["rule"] == rule]

    @fact
    def into(self) -> dict[Any, list[tuple[str, Any]]]:
        """On a resolution: each square some move of `entering` goes to, with the (bot,
        from) of each, p1's first (moves._crowds_on_field, collide_check): only read it."""
        into: dict[Any, list[tuple[str, Any]]] = {}
        for p, moves in self.entering.items():
            for f, to in moves:
                into.setdefault(to, []).append((p, f))
        return into

    # --- a submitted list ---------------------------------------------------------------
    @fact
    def onto_held(self) -> frozenset[str]:
        """What the squares of `onto` hold, all together (None for the other entries)."""
        return frozenset(c for c in self.onto if c is not None)

    @fact
    def judged(self) -> tuple[m.Readings, m.ListJudgement, str] | None:
        """The judged list of a submission, with the readings and its player, or None."""
        t = self.t
        if not m.is_submission(t.before, t.action):
            return None
        player = t.before["phase"]
        # judged afresh (`judge_list` without its cache, whose key costs about as much to
        # build and hash as the judgement of a short list): the Step is the cache here
        judged = m._judge_list(self.r, t.before["grid"], m.SIDE[player], m.moves_of(t.action))
        return self.r, judged, player

    @fact
    def invalid(self) -> list[int]:
        """`ListJudgement.invalid` of the submitted list: only read it."""
        assert self.judged is not None
        return self.judged[1].invalid

    @fact
    def said(self) -> dict[int, str]:
        """What the engine says is invalid in the submitted list (model.engine_invalid):
        only read it."""
        assert self.judged is not None
        return m.engine_invalid(self.t.events, self.judged[2])

    @fact
    def reasons(self) -> dict[int, str]:
        """The engine's reasons (model.engine_reasons): only read it."""
        assert self.judged is not None
        return m.engine_reasons(self.t.events, self.judged[2])

    @fact
    def onto(self) -> tuple[str | None, ...]:
        """Per entry of the submitted list: when it is one step of an own botlet onto an
        adjacent square of the field, what that square holds; else None."""
        assert self.judged is not None
        r, judged, player = self.judged
        grid = self.t.before["grid"]
        own = m.LIVE[m.SIDE[player]]
        size, field, near = len(grid), r.size, r.neighbour_sets()
        out: list[str | None] = []
        for f, to in judged.moves:
            # `r.on_field(to) and to in r.adjacent(f)`, with f a square of the grid: when
            # it is not one of the field too, `r.adjacent` is asked as before
            if (isinstance(f, int) and 0 <= f < size and grid[f] == own and f != to
                    and isinstance(to, int) and 0 <= to < field
                    and to in (near[f] if f < field else r.adjacent(f))):
                out.append(grid[to])
            else:
                out.append(None)
        return tuple(out)


_KEPT: dict[int, tuple[Transition, dict[m.Readings, Step]]] = {}


def step(t: Transition, r: m.Readings) -> Step:
    """The Step of `t` under `r` (made on the first call for this transition object)."""
    last = _LAST[0]
    if last is not None and last.t is t and last.r is r:  # every oracle of one step asks
        return last
    entry = _KEPT.get(id(t))
    if entry is None or entry[0] is not t:
        while len(_KEPT) >= KEEP:
            del _KEPT[next(iter(_KEPT))]
        entry = _KEPT[id(t)] = (t, {})
    by_readings = entry[1]
    found = by_readings.get(r)
    if found is None:
        found = by_readings[r] = Step(t, r)
    _LAST[0] = found
    return found


_LAST: list[Step | None] = [None]  # the Step asked for last (it holds its transition)


def forget() -> None:
    """Drop every kept Step (for tests that compare with the plain computations)."""
    _KEPT.clear()
    _LAST[0] = None


__all__ = ["Step", "forget", "step"]


def _grouped(events: Any, field: str) -> dict[str, list[Any]] | None:
    """The events by the string each holds under `field`, in their order; None when
    `events` is not a list or some event is not an object with a string there."""
    if type(events) is not list:
        return None
    out: dict[str, list[Any]] = {}
    for e in events:
        key = e.get(field) if type(e) is dict else None
        if type(key) is not str:
            return None
        if key in out:
            out[key].append(e)
        else:
            out[key] = [e]
    return out
