"""Oracles for the spawn points: BOTWARS-SPAWN-POINTS, -FIRST-BOTLETS, -RAZE, -SPAWN."""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import steps
from gamecert.spec import Profile


def spawn_points_state(s: Any, profile: Profile) -> Verdict:
    r = m.readings(profile)
    for side in (1, 2):
        if s[m.NAME[side]]["spawn"] != r.spawn[side]:
            return Violation(f"{m.NAME[side]}.spawn is {s[m.NAME[side]]['spawn']}, the "
                             f"spawn point is {r.spawn[side]}")
    return OK


def spawn_points_check(t: Transition, profile: Profile) -> Verdict:
    verdict = spawn_points_state(t.before, profile)
    return verdict if verdict is not OK else spawn_points_state(t.after, profile)


def first_botlets_state(s: Any, profile: Profile) -> Verdict:
    """A state before anything happened (turnsElapsed 0, p1 to move) is the start."""
    if s["turnsElapsed"] != 0 or s["phase"] != "p1":
        return NA
    r = m.readings(profile)
    problems = []
    want_energy = r.initial_energy - (r.cost if r.on_field_at_start else 0)
    for side in (1, 2):
        mine = m.squares(s["grid"], m.LIVE[side])
        want = [r.spawn[side]] if r.on_field_at_start else []
        if mine != want:
            problems.append(f"{m.NAME[side]} starts with botlets on {mine}, the rules say "
                            f"{want}")
        if s[m.NAME[side]]["energy"] != want_energy:
            problems.append(f"{m.NAME[side]} starts with {s[m.NAME[side]]['energy']} "
                            f"energy, the rules say {want_energy}")
    if any(c not in ".12" for c in s["grid"]):
        problems.append("the field starts with energy or dead markers")
    return cause(_start_kind(s, r), "; ".join(problems)) if problems else OK


def _start_kind(s: Any, r: m.Readings) -> str:
    """The kind of a start's departure: the other reading of the first botlets, or the
    initial energy one more or one less, when it gives this start (named as fuzz.step.blame
    names that reading or parameter, so the start and every later look at it are one
    cause); else what differs."""
    energy = (s["p1"]["energy"], s["p2"]["energy"])
    botlets = tuple(tuple(m.squares(s["grid"], m.LIVE[side])) for side in (1, 2))
    ways = [("reading-spawn-in-turn-1" if r.on_field_at_start else "reading-on-field-at-start",
             not r.on_field_at_start, r.initial_energy)]
    ways += [(f"parameter-initial-energy-{e}", r.on_field_at_start, e)
             for e in (r.initial_energy - 1, r.initial_energy + 1) if e >= 0]
    for kind, on_field, initial in ways:
        want = initial - (r.cost if on_field else 0)
        spots = tuple((r.spawn[side],) if on_field else () for side in (1, 2))
        if energy == (want, want) and botlets == spots:
            return kind
    return "start"


def first_botlets_check(t: Transition, profile: Profile) -> Verdict:
    """The start of the game (its first transition) and the end of turn 1."""
    r = m.readings(profile)
    b = t.before
    if b["turnsElapsed"] != 0:
        return NA
    problems = []
    if b["phase"] == "p1":
        return first_botlets_state(b, profile)
    # turn 1 carried out (a late bot disqualified carries none: BOTWARS-TIME-LIMIT's)
    if m.is_resolution(b, t.action, r) and not r.on_field_at_start and (
            t.after["turnsElapsed"] == 1):
        if r.initial_energy >= r.cost:
            for side in (1, 2):
                mine = m.squares(t.after["grid"], m.LIVE[side])
                if mine != [r.spawn[side]]:
                    problems.append(f"after turn 1 {m.NAME[side]}'s botlets are on {mine}, "
                                    f"the first botlet stands on {r.spawn[side]}")
    else:
        return NA
    return Violation("; ".join(problems)) if problems else OK


def raze_check(t: Transition, profile: Profile) -> Verdict:
    """A live enemy on a spawn after the battles razes it; nothing else does; razing lasts."""
    r = m.readings(profile)
    problems = []
    applicable = False
    for side in (1, 2):
        name = m.NAME[side]
        was, now = t.before[name]["spawnDisabled"], t.after[name]["spawnDisabled"]
        if was:
            applicable = True
            if not now:
                problems.append(f"{name}'s razed spawn came back")
    step = steps.step(t, r)
    if step.resolution:
        moved_field = step.moved  # the fields of the turn, shared with the other oracles
        field = step.battled
        reported = {e["player"] for e in step.of("razed")}
        for side in (1, 2):
            name, spawn, foe = m.NAME[side], r.spawn[side], m.LIVE[3 - side]
            on_it = field[spawn] == foe
            if not (on_it or moved_field[spawn] == foe or name in reported
                    or t.before[name]["spawnDisabled"] != t.after[name]["spawnDisabled"]):
                continue
            applicable = True
            want = t.before[name]["spawnDisabled"] or on_it
            if t.after[name]["spawnDisabled"] != want:
                problems.append(f"{name}'s spawn should {'' if want else 'not '}be razed: "
                                f"after the battles its square holds {field[spawn]!r}")
            fresh = on_it and not t.before[name]["spawnDisabled"]
            if fresh != (name in reported):
                problems.append(f"a razing of {name}'s spawn is {'' if fresh else 'not '}due "
                                "this turn")
    elif t.before["p1"]["spawnDisabled"] != t.after["p1"]["spawnDisabled"] or \
            t.before["p2"]["spawnDisabled"] != t.after["p2"]["spawnDisabled"]:
        applicable = True
        if not any(x["spawnDisabled"] for x in (t.before["p1"], t.before["p2"])):
            problems.append("a spawn was razed outside the carrying out of a turn")
    if not applicable:
        return NA
    return Violation("; ".join(problems)) if problems else OK


def spawn_check(t: Transition, profile: Profile) -> Verdict:
    """Step 4 for each bot: one botlet for cost energy when the spawn is not razed and is
    empty; the energy bookkeeping of the turn around it."""
    r = m.readings(profile)
    step = steps.step(t, r)
    if not step.resolution:
        return NA
    field = step.battled  # shared with the other oracles of the turn
    problems = []
    applicable = False
    for side in (1, 2):
        name, spawn = m.NAME[side], r.spawn[side]
        gathered = [e for e in step.of("energy-collected", "BOTWARS-MOVE-ENERGY")
                    if e["player"] == name]
        energy = t.before[name]["energy"] + len(gathered)
        spawned = [e for e in step.of("spawned") if e["player"] == name]
        wasted = [e for e in step.of("spawn-wasted") if e["player"] == name]
        razed = t.after[name]["spawnDisabled"]
        due = not razed and energy >= r.cost
        if energy < r.cost and not spawned and not wasted:
            continue  # the rule applies to a bot that could pay, razed or not
        applicable = True
        free = r.vacant(field[spawn])  # BOTWARS-DEAD-MARKERS decides for a marker
        want_spawn = due and free
        want_waste = due and not free and r.spend_anyway
        if bool(spawned) != want_spawn or len(spawned) > 1:
            why = ("razed" if razed else f"energy {energy}" if energy < r.cost else
                   f"square holds {field[spawn]!r}")
            problems.append(f"{name} should {'' if want_spawn else 'not '}get a botlet on its "
                            f"spawn ({why}), the engine spawns {len(spawned)}")
        if spawned and any(e["at"] != spawn for e in spawned):
            problems.append(f"{name}'s botlet spawned off its spawn point {spawn}")
        if bool(wasted) != want_waste:
            problems.append(f"{name} should {'' if want_waste else 'not '}spend energy on a "
                            "spawn that is taken")
        if want_spawn and t.after["grid"][spawn] != m.LIVE[side]:
            problems.append(f"{name}'s new botlet is not on {spawn} after the turn")
        collected = [e for e in step.of("energy-collected") if e["player"] == name
                     and e["rule"] != "BOTWARS-MOVE-ENERGY"]
        paid = r.cost * (want_spawn or want_waste)
        if t.after[name]["energy"] != energy - paid + len(collected):
            problems.append(f"{name}'s energy should end the turn at {energy} - {paid} + "
                            f"{len(collected)} collected, not {t.after[name]['energy']}")
    if not applicable:
        return NA
    return Violation("; ".join(problems)) if problems else OK
