"""BOTWARS-GRID at the edges: an engine that reads adjacency across the edge of the field
the other way (a torus where the field has edges, or edges where it wraps) is BOTWARS-GRID's
to answer for, not the move, battle or energy rule that met the difference first.

Each check here asks one question: does the transition (or the legal listing) break an
adjacency rule's oracle under the profile's reading of the edge, yet pass it under the
other reading? Then the engine's edge is what differs. It is asked only where an edge is in
play (a step, a fight or an energy across it), so the step loop pays for it rarely. This
module decides nothing else: every other fault stays with its own rule's oracle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache
from operator import itemgetter

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation
from gamecert.oracles.botwars import bare, battle, energy, game, moves
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import steps
from gamecert.spec import Profile

GRID = "BOTWARS-GRID"


@cache  # profiles hash by identity: one flipped profile per profile
def other_edge(profile: Profile) -> Profile:
    """`profile` with the other reading of the edge (wrap for no-wrap and back)."""
    flipped = "no-wrap" if profile.variant(GRID) == "wrap" else "wrap"
    return dataclasses.replace(profile, variants={**profile.variants, GRID: flipped})


def _kind(profile: Profile) -> str:
    return "wraps" if m.readings(other_edge(profile)).wrap else "has edges"


def crosses(r: m.Readings, other: m.Readings, f: object, t: object,
            diagonal: bool = False) -> bool:
    """Are squares `f` and `t` neighbours under one reading of the edge and not the other?"""
    if not (isinstance(f, int) and isinstance(t, int) and r.on_field(f) and r.on_field(t)):
        return False
    return (t in r.adjacent(f, diagonal)) != (t in other.adjacent(f, diagonal))


def _explained(t: Transition, profile: Profile,
               oracles: list[Callable[[Transition, Profile], Verdict]]) -> bool:
    """Some of `oracles` fail under the profile's edge and all pass under the other."""
    if not any(isinstance(o(t, profile), Violation) for o in oracles):
        return False
    other = other_edge(profile)
    return not any(isinstance(o(t, other), Violation) for o in oracles)


@cache  # per profile: the squares on an edge, with their neighbours across it
def edge_pairs(profile: Profile, diagonal: bool) -> tuple[tuple[int, frozenset[int]], ...]:
    """Each square whose neighbours differ between the two readings of the edge, with the
    squares that differ (only squares on an edge have any)."""
    r, other = m.readings(profile), m.readings(other_edge(profile))
    out = []
    for sq in range(r.size):
        near = r.adjacent(sq, diagonal) ^ other.adjacent(sq, diagonal)
        if near:
            out.append((sq, near))
    return tuple(out)


@cache  # per profile: `edge_pairs` as a map (only read it)
def edge_map(profile: Profile, diagonal: bool) -> dict[int, frozenset[int]]:
    return dict(edge_pairs(profile, diagonal))


@cache  # per profile: the squares of `edge_pairs`, and what reads them off a field at once
def _edge_reader(profile: Profile, diagonal: bool
                 ) -> tuple[tuple[int, ...], Callable[[str], str]] | None:
    squares = tuple(sq for sq, _ in edge_pairs(profile, diagonal))
    if not squares:
        return None
    get = itemgetter(*squares)
    return squares, lambda field: "".join(get(field))


def _edge_view(profile: Profile, diagonal: bool, field: str
               ) -> tuple[tuple[int, ...], str] | None:
    """The squares of `edge_pairs` and what `field` holds on each, as one string (None for
    a field with no edge: the plain loops then answer)."""
    reader = _edge_reader(profile, diagonal)
    return None if reader is None else (reader[0], reader[1](field))


def _found(view: str, char: str) -> list[int]:
    """The places in `view` holding `char` (one character)."""
    out, i = [], view.find(char)
    while i >= 0:
        out.append(i)
        i = view.find(char, i + 1)
    return out


def _field_crossings(profile: Profile, field: list[str] | str, pairs: tuple[str, str],
                     diagonal: bool = False) -> bool:
    """A square holding one of `pairs[0]` next, across the edge, to one of `pairs[1]`."""
    seen = _edge_view(profile, diagonal, field) if type(field) is str and len(
        pairs[0]) == 1 else None
    if seen is not None:  # the edge squares holding pairs[0], found in the edge's string
        squares, view = seen
        edge = edge_map(profile, diagonal)
        return any(any(field[n] in pairs[1] for n in edge[squares[i]])
                   for i in _found(view, pairs[0]))
    return _plain_field_crossings(profile, field, pairs, diagonal)


def _plain_field_crossings(profile: Profile, field: list[str] | str, pairs: tuple[str, str],
                           diagonal: bool = False) -> bool:
    return any(field[sq] in pairs[0] and any(field[n] in pairs[1] for n in near)
               for sq, near in edge_pairs(profile, diagonal))


def _energy_taken_at_edge(t: Transition, profile: Profile, diagonal: bool) -> bool:
    """Energy on an edge square before the turn that is gone after it (cheap: the grids
    only)."""
    before, after = t.before["grid"], t.after["grid"]
    seen = _edge_view(profile, diagonal, before) if type(before) is str else None
    if seen is not None:  # the energy on the edge, found in the edge's string
        squares, view = seen
        return any(after[squares[i]] != "*" for i in _found(view, "*"))
    return any(before[sq] == "*" and after[sq] != "*" for sq, _ in edge_pairs(profile, diagonal))


def _energy_crossings(t: Transition, profile: Profile, field: list[str] | str,
                      diagonal: bool) -> bool:
    """An energy with a botlet next to it across the edge, that the engine took off the
    field (only then can the edge have decided what happened to it)."""
    after = t.after["grid"]
    if type(field) is str:  # the energy found by the string's search
        edge = edge_map(profile, diagonal)
        return any(after[sq] != "*" and any(field[n] in "12" for n in edge[sq])
                   for sq in m.where(field, "*") if sq in edge)
    return any(field[sq] == "*" and after[sq] != "*" and any(field[n] in "12" for n in near)
               for sq, near in edge_pairs(profile, diagonal))


def grid_check(t: Transition, profile: Profile) -> Verdict:
    """The field's shape (`game.grid_check`), then the edge: the moves of a submitted list,
    and on a resolution the battles and the energy, judged as the engine read the edge."""
    verdict = game.grid_check(t, profile)
    if verdict is not OK:
        return verdict
    r = m.readings(profile)
    step = steps.step(t, r)
    edge = edge_map(profile, False)
    if m.is_submission(t.before, t.action):
        assert step.judged is not None
        entries = step.judged[1].moves  # the list's entries (`model.moves_of`), shared
        if any(isinstance(f, int) and to in edge.get(f, ()) for f, to in entries) and _explained(
                t, profile, [moves.move_check]):
            return Violation(f"{t.before['phase']}'s list has a step across the edge, which "
                             f"the engine judges as on a field that {_kind(profile)}")
    if not step.resolution:
        return verdict
    # a fight across the edge shows as a death on an edge square, or as botlets facing
    # each other across it after the turn: only then is the field after the moves rebuilt
    died = step.has_type("died") is not False and any(
        e.get("type") == "died" and e.get("at") in edge for e in t.events)
    if (died or _field_crossings(profile, t.after["grid"], ("1", "2"))) and _field_crossings(
            profile, step.moved, ("1", "2")) and _explained(
            t, profile, [battle.battle_check]):
        return Violation("botlets fight across the edge of the field as on a field that "
                         f"{_kind(profile)}")
    if not _energy_taken_at_edge(t, profile, r.diagonal_energy):
        return verdict
    spawned = step.spawned  # shared with the energy oracles
    if _energy_crossings(t, profile, spawned, r.diagonal_energy) and _explained(
            t, profile, [energy.collect_check, energy.contested_check]):
        return Violation("energy is collected across the edge of the field as on a field "
                         f"that {_kind(profile)}")
    return verdict


_MOVE_LISTED = moves.listed("BOTWARS-MOVE")


def grid_listed(state: m.JSON, action: m.JSON, shown: bool, profile: Profile) -> Verdict:
    """A one-move list across the edge that the engine lists (or leaves out) as on a field
    read the other way."""
    if not (isinstance(state, dict) and m.well_formed(action)):
        return NA
    if state.get("phase") not in ("p1", "p2") or action.get("type") != "moves":
        return NA
    entries = m.moves_of(action)
    r, other = m.readings(profile), m.readings(other_edge(profile))
    if len(entries) != 1 or not crosses(r, other, *entries[0]):
        return NA
    if not isinstance(_MOVE_LISTED(state, action, shown, profile), Violation):
        return OK
    if isinstance(_MOVE_LISTED(state, action, shown, other_edge(profile)), Violation):
        return OK  # wrong under either reading: BOTWARS-MOVE's alone
    f, to = entries[0]
    return Violation(f"{f} -> {to} crosses the edge: the engine "
                     f"{'lists' if shown else 'leaves out'} it as on a field that "
                     f"{_kind(profile)}")


_COLLECT, _CONTESTED = bare.collection(False), bare.collection(True)


def edge_deferred(form: Callable[[Transition, Profile], Verdict]
                  ) -> Callable[[Transition, Profile], Verdict]:
    """`form` (a state-only form of `bare`), except on a step that BOTWARS-GRID's own
    state-only form finds read on a field with the other edge (a torus for a field with
    edges, or back): that departure is the grid's, not this rule's (`grid_bare` asks the
    forms themselves, unwrapped)."""

    def deferred(t: Transition, profile: Profile) -> Verdict:
        verdict = form(t, profile)
        if verdict is OK or verdict is NA:
            return verdict
        return NA if isinstance(grid_bare(t, profile), Violation) else verdict

    deferred.__name__ = form.__name__
    deferred.__doc__ = form.__doc__
    return deferred


def grid_bare(t: Transition, profile: Profile) -> Verdict:
    """`grid_check` without events (`Oracle.bare`): the field's shape, then a list's step
    across the edge, a fight or an energy taken across it, judged as `grid_check` does but
    by the state-only forms of the move, battle and energy checks."""
    for doc in (t.before, t.after):
        verdict = game.grid_state(doc, profile)
        if verdict is not OK:
            return verdict
    edge = edge_map(profile, False)
    if not edge or t.action.get("type") != "moves":
        return OK
    r = m.readings(profile)
    entries = m.moves_of(t.action)
    if any(isinstance(f, int) and to in edge.get(f, ()) for f, to in entries) and _explained(
            t, profile, [bare.entries("BOTWARS-MOVE")]):
        return Violation(f"{t.before['phase']}'s list has a step across the edge, which the "
                         f"engine judges as on a field that {_kind(profile)}")
    if not m.is_resolution(t.before, t.action, r):
        return OK
    if _field_crossings(profile, t.after["grid"], ("1x", "2X")) and _explained(
            t, profile, [bare.battle_plain]):
        return Violation("botlets fight across the edge of the field as on a field that "
                         f"{_kind(profile)}")
    if _energy_taken_at_edge(t, profile, r.diagonal_energy) and _explained(
            t, profile, [_COLLECT, _CONTESTED]):
        return Violation("energy is collected across the edge of the field as on a field "
                         f"that {_kind(profile)}")
    return OK
