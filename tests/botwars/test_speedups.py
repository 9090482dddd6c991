"""The Bot Wars oracles' speed-ups (issue 15) give the answers the plain computations give.

Each shared fact of a transition (`oracles.botwars.model.steps`), each cache keyed by a grid and
each shortcut that searches a string instead of scanning every square is checked against
the computation it stands in for, on transitions of random games under every profile, of
the reference and of mutant engines (whose replies break rules), and on replies swapped in
from other steps. Last, every oracle asked in the lockstep's order (sharing the Steps) must
answer what it answers asked alone with nothing kept.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from examples.engines import load
from examples.engines.botwars import MUTANTS
from gamecert.oracles.base import NA, Transition
from gamecert.oracles.botwars import (
    ORACLES,
    action_kind,
    battle,
    edges,
    energy,
    game,
    moves,
)
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import steps
from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue

CAT = load_catalogue("botwars")
PROFILES = sorted(CAT.profiles)


def _transitions(engine: Any, profile: Profile, seed: int, limit: int = 400,
                 late: float = 0.0) -> list[Transition]:
    """Steps of one random game of `engine` (odd entries and marches often; a bot's
    time-out with probability `late`), chained as the lockstep chains them (a step's after
    is the next step's before, the same object)."""
    rng = random.Random(seed)
    s = engine.initial(profile)
    before = engine.observe(s)
    out = []
    while engine.current(s) != TERMINAL and len(out) < limit:
        if engine.current(s) == CHANCE:
            a = engine.random_chance(s, rng)
        elif rng.random() < late:
            a = engine.action_from_json(s, {"type": "timeout"})
        else:
            a = engine.random_action(s, rng, odd=0.3, toward=0.3)
        action = engine.action_to_json(s, a)
        s, events = engine.apply(s, a)
        after = engine.observe(s)
        out.append(Transition(before, action, after, list(events)))
        before = after
    return out


def _swapped(ts: list[Transition], rng: random.Random) -> list[Transition]:
    """Steps shown with another step's reply (an engine may reply anything)."""
    out = []
    for t in ts[::5]:
        other = ts[rng.randrange(len(ts))]
        out.append(Transition(t.before, t.action, other.after, other.events))
    return out


def _answer(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return repr(exc)


def _malformed(ts: list[Transition], rng: random.Random) -> list[Transition]:
    """Steps whose reply an engine garbled: a member of an event dropped or replaced by a
    value of another type, or a member of the state after replaced."""
    out = []
    junk: list[Any] = ["junk", None, -1, 10**6, 3.5, [1], {}]
    for t in ts[::4]:
        if t.events:
            events = copy.deepcopy(t.events)
            e = events[rng.randrange(len(events))]
            key = rng.choice(sorted(e))
            if rng.random() < 0.3:
                del e[key]
            else:
                e[key] = rng.choice(junk)
            out.append(Transition(t.before, t.action, t.after, events))
        after = copy.deepcopy(t.after)
        after[rng.choice(["grid", "phase", "p1", "pending", "winner", "turnsElapsed"])] = \
            rng.choice([*junk, list(t.after["grid"]), t.after["grid"][:-1] + "q"])
        out.append(Transition(t.before, t.action, after, t.events))
    return out


def _plain_judge_list(r: m.Readings, grid: str, side: int,
                      moves: list[tuple[Any, Any]]) -> m.ListJudgement:
    """The judgement of a list as first written (every square asked of `r`, each stage
    marked): what `model._judge_list` must equal."""
    own, foe = m.LIVE[side], m.LIVE[3 - side]
    j = m.ListJudgement(list(moves), [set() for _ in moves])
    # single-move checks: all that fail, not just the first
    for i, (f, t) in enumerate(moves):
        b = j.broken[i]
        mine = r.on_field(f) and grid[f] == own
        if not mine:
            b.add("BOTWARS-MOVE")
        if f == t:
            if mine and not r.stay_ok:
                b.add("BOTWARS-MOVE-STAY")
            continue
        if not r.on_field(t):
            b.add("BOTWARS-MOVE")
            continue
        if not r.on_field(f) or t not in r.adjacent(f):
            b.add("BOTWARS-MOVE")
        there = grid[t]
        if there == "*" and not r.gather:
            b.add("BOTWARS-MOVE-ENERGY")
        if there == foe or (there == own and not r.follow_own):
            b.add("BOTWARS-MOVE-OCCUPIED")
    j.stage = [0 if b else -1 for b in j.broken]
    # a botlet named twice: the later entries (first-counts), or all of them (all-invalid)
    named: set[int] = set()
    names = [f for i, (f, _) in enumerate(moves) if not j.broken[i]]
    for i, (f, _) in enumerate(moves):
        if j.broken[i]:
            continue
        if f in named or (r.twice_all and names.count(f) > 1):
            j.broken[i].add("BOTWARS-MOVE")
        named.add(f)
    for i, (f, t) in enumerate(moves):
        if not j.broken[i] and f == t:
            j.stays.add(i)
    m._mark_stage(j, 1)
    # two moves onto one square
    by_target: dict[int, list[int]] = {}
    for i, (_, t) in enumerate(moves):
        if not j.broken[i] and i not in j.stays:
            by_target.setdefault(t, []).append(i)
    for group in by_target.values():
        if len(group) > 1 and not r.crowd_dies:  # die-there: they stand, and die in step 1
            for i in (group[1:] if r.first_wins else group):
                j.broken[i].add("BOTWARS-MOVE-SAME-TARGET")
    m._mark_stage(j, 2)
    if r.follow_own:
        m._follow(r, grid, own, j)
    m._mark_stage(j, 3)
    return j


def _all_steps(profile_id: str, seed: int = 1, garbled: bool = False) -> list[Transition]:
    profile = CAT.profile(profile_id)
    ts = _transitions(BotWars(), profile, seed)
    for name in MUTANTS[::4]:
        engine = load("botwars", name).ENGINE()
        ts += _transitions(engine, profile, seed + 1, limit=150)
    rng = random.Random(seed)
    return ts + _swapped(ts, rng) + (_malformed(ts, rng) if garbled else [])


@pytest.mark.parametrize("profile_id", PROFILES)
def test_step_facts_equal_the_plain_computations(profile_id: str) -> None:
    profile = CAT.profile(profile_id)
    r = m.readings(profile)
    ts = _all_steps(profile_id)
    resolutions = submissions = 0
    for t in ts:
        steps.forget()
        step = steps.step(t, r)
        assert steps.step(t, r) is step
        assert step.resolution == m.is_resolution(t.before, t.action, r)
        assert step.submission == m.is_submission(t.before, t.action)
        if step.resolution:
            resolutions += 1
            moved = m.after_moves(t.before, t.events)
            assert step.moved == "".join(moved)
            assert step.battled == "".join(m.after_battles(t.before, t.events))
            spawned = m.after_spawns(t.before, t.events)
            assert step.spawned == "".join(spawned)
            assert list(step.touching) == energy._touching(r, spawned)
            assert step.touched == tuple(x for x in energy._touching(r, spawned) if x[1] or x[2])
            assert step.untouched == tuple(sq for sq, n1, n2 in energy._touching(r, spawned)
                                           if not (n1 or n2))
            assert step.botlet_by_energy == any(
                spawned[n] in "12" for sq in m.squares(spawned, "*")
                for n in r.adjacent(sq, True))
            assert battle.in_contact(r, step.moved) == battle.plain_in_contact(r, moved)
            assert m.battle_deaths(r, step.moved) == m.battle_deaths(r, moved)
            assert step.foes == m.contacts(r, moved)
            assert bool(step.foes) == battle.plain_in_contact(r, moved)
            assert _answer(lambda s: s.p2_carried, step) == _answer(
                m.engine_carried, t.before, t.after, t.events, "p2")
            for diagonal in (False, True):
                for field in (t.after["grid"], step.moved, step.spawned):
                    for pair in (("1", "2"), ("2", "1"), ("*", "12")):
                        assert edges._field_crossings(profile, field, pair, diagonal) == \
                            edges._plain_field_crossings(profile, field, pair, diagonal)
                listed = Transition({**t.before, "grid": list(t.before["grid"])}, t.action,
                                    t.after, t.events)
                assert edges._energy_taken_at_edge(t, profile, diagonal) == \
                    edges._energy_taken_at_edge(listed, profile, diagonal)
                assert edges._energy_crossings(t, profile, step.spawned, diagonal) == \
                    edges._energy_crossings(t, profile, list(step.spawned), diagonal)
        assert _answer(game._replay, t, r) == _answer(game._replay, t, r, False)
        if step.judged is None:
            assert not step.submission
            continue
        submissions += 1
        _, judged, player = step.judged
        side = m.SIDE[player]
        plain = _plain_judge_list(r, t.before["grid"], side, m.moves_of(t.action))
        assert (judged.broken, judged.stage, judged.stays) == (plain.broken, plain.stage,
                                                               plain.stays)
        assert step.said == m.engine_invalid(t.events, player)
        assert step.took == m.engine_carried(t.before, t.after, t.events, player)
        assert step.reasons == m.engine_reasons(t.events, player)
        grid = t.before["grid"]
        for i, (f, to) in enumerate(judged.moves):
            for chars in ("12", "*", m.LIVE[side]):
                slow = (moves._own_single(grid, side, f) and f != to and r.on_field(to)
                        and to in r.adjacent(f) and grid[to] in chars)
                assert moves._step_onto(step, i, chars) == slow
        assert moves._first(step) == moves._first_disagreements(
            r, grid, side, judged, t.events, player)
        assert moves._crowded(r, judged) == moves._plain_crowded(r, judged)
        concerns = {"BOTWARS-MOVE-STAY": moves._stay_concerns,
                    "BOTWARS-MOVE-OCCUPIED": moves._occupied_concerns,
                    "BOTWARS-MOVE-ENERGY": moves._energy_concerns,
                    "BOTWARS-MOVE-SWAP": moves._swap_concerns,
                    moves.SAME_TARGET: moves._same_target_concerns}
        assert set(concerns) == set(moves._NONE_CONCERN)
        for rule, concern in concerns.items():
            some = any(concern(step, i) for i in range(len(judged.moves)))
            if moves._NONE_CONCERN[rule](step):  # then the entry check picks none
                assert not some
            elif rule != "BOTWARS-MOVE-SWAP":  # exact; for swaps a step onto an own botlet
                assert some
        if not moves._first(step) and not step.said:  # where the entry checks stop early
            for rule in moves.ENTRY_RULES:
                assert moves._charges(step, rule, list(range(len(judged.moves))), set(),
                                      step.reasons) == []
    assert resolutions > 20 and submissions > 20


@pytest.mark.parametrize("profile_id", PROFILES)
def test_grid_searches_equal_a_scan_of_every_square(profile_id: str) -> None:
    profile = CAT.profile(profile_id)
    r = m.readings(profile)
    for t in _transitions(BotWars(), profile, seed=2)[::3]:
        for grid in (t.before["grid"], t.after["grid"]):
            for char in ".12*xX":
                assert m.where(grid, char) == tuple(i for i, c in enumerate(grid) if c == char)
                assert m.squares(grid, char) == m.squares(list(grid), char)
            assert m.live_counts(grid) == m.live_counts(list(grid))
            assert battle._markers(grid) == battle._markers(list(grid))
            assert game._grid_shaped(grid, r.size) == game._plain_shaped(grid, r.size)
            assert m.battle_deaths(r, grid) == m.battle_deaths(r, list(grid))
            assert battle.in_contact(r, grid) == battle.plain_in_contact(r, grid)
            assert energy._pairs(r, grid) == energy._plain_pairs(r, grid)
            assert energy._pairs_off_spawn(r, grid) == energy._pairs_off_spawn(r, list(grid))
            assert m.cleared_view(grid) == m.cleared(grid) == m.cleared(list(grid))
    for sq in range(r.size):
        for diagonal in (False, True):
            assert r.neighbours(diagonal)[sq] == tuple(sorted(r.adjacent(sq, diagonal)))
            assert r.neighbour_sets(diagonal)[sq] == r.adjacent(sq, diagonal)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_energy_placed_by_slicing_equals_writing_a_list(profile_id: str) -> None:
    profile = CAT.profile(profile_id)
    r = m.readings(profile)
    placed = 0
    for t in _transitions(BotWars(), profile, seed=3):
        grid = t.before["grid"]
        if t.before["phase"] == "energy" and t.action.get("at"):
            s, s2 = t.action["at"]
            assert energy._placed(grid, s, s2) == energy._plain_placed(grid, s, s2)
            placed += 1
        for s, s2 in ((0, r.size - 1), (5, 7), (-1, 3), (3, r.size), (r.size // 2, 0)):
            assert _answer(energy._placed, grid, s, s2) == _answer(energy._plain_placed,
                                                                 grid, s, s2)
    assert placed


@pytest.mark.parametrize("profile_id", PROFILES)
def test_lists_of_any_squares_are_judged_as_first_written(profile_id: str) -> None:
    """Random lists (off the field, twice, onto one square, swaps, stays) on fields of a
    random game, under each reading."""
    r = m.readings(CAT.profile(profile_id))
    rng = random.Random(9)
    for t in _transitions(BotWars(), CAT.profile(profile_id), seed=4)[::4]:
        grid = t.before["grid"]
        live = [i for i, c in enumerate(grid) if c in "12"] or [0]
        for _ in range(4):
            entries: list[tuple[Any, Any]] = []
            for _ in range(rng.randrange(8)):
                f = rng.choice([*live, -1, r.size, rng.randrange(r.size)])
                to = rng.choice([f, f + 1, f - 1, f + r.cols, f - r.cols, rng.randrange(r.size),
                                 *(e[0] for e in entries[-1:])])
                entries.append((f, to))
                if rng.random() < 0.2:
                    entries.append((to, f) if rng.random() < 0.5 else (f, to))
            for side in (1, 2):
                got, want = m._judge_list(r, grid, side, entries), _plain_judge_list(
                    r, grid, side, entries)
                assert (got.broken, got.stage, got.stays) == (want.broken, want.stage,
                                                              want.stays)


def _written(field: Any, writes: list[tuple[Any, str]]) -> str:
    for square, char in writes:
        field[square] = char
    return field.text() if isinstance(field, game._Writes) else "".join(field)


def test_writes_laid_on_a_string_equal_writes_on_a_list() -> None:
    rng = random.Random(3)
    base = "".join(rng.choice(".12*xX") for _ in range(40))
    odd: list[Any] = [-1, -40, -41, 40, 41, True, False, "3", 2.0, None, [1]]
    for _ in range(300):
        writes = [(rng.choice([*range(-5, 45), *odd]) if rng.random() < 0.2
                   else rng.randrange(40), rng.choice("12xX.*")) for _ in range(rng.randrange(6))]
        assert _answer(_written, game._Writes(base), writes) == _answer(_written, list(base),
                                                                          writes)


def test_grid_shortcuts_judge_odd_grids_as_the_scan_does() -> None:
    r = m.readings(CAT.profile())
    for grid in ("." * r.size, "." * (r.size - 1), "." * (r.size - 1) + "q", "x" * r.size,
                 "X1" * (r.size // 2), "*" * (r.size + 1), "." * (r.size - 1) + "\u00e9",
                 "x." * (r.size // 2), ".X" * (r.size // 2)):
        assert game._grid_shaped(grid, r.size) == game._plain_shaped(grid, r.size)
        assert battle._markers(grid) == battle._markers(list(grid))
        assert _answer(energy._pairs, r, grid) == _answer(energy._plain_pairs, r, grid)
        assert m.live_counts(grid) == m.live_counts(list(grid))


def test_steps_are_kept_by_identity_and_only_a_few() -> None:
    profile = CAT.profile()
    r = m.readings(profile)
    ts = _transitions(BotWars(), profile, seed=3, limit=steps.KEEP + 3)
    steps.forget()
    first = steps.step(ts[0], r)
    equal = Transition(ts[0].before, ts[0].action, ts[0].after, ts[0].events)
    assert steps.step(equal, r) is not first  # an equal transition is another object
    other = m.readings(CAT.profile(PROFILES[-1]))
    if other is not r:
        assert steps.step(ts[0], other) is not first and steps.step(ts[0], other).r is other
    for t in ts[1:]:
        steps.step(t, r)
    assert len(steps._KEPT) == steps.KEEP
    assert all(entry[0] is not ts[0] for entry in steps._KEPT.values())
    again = steps.step(ts[0], r)
    assert again is not first and again.t is ts[0]


@pytest.mark.parametrize("profile_id", PROFILES)
def test_checks_answer_na_off_their_kinds_time_outs_and_bad_formats_included(
        profile_id: str) -> None:
    """tests/test_oracle_on.py with the steps random play does not make: a bot's time-out
    (under both readings of BOTWARS-TIME-LIMIT) and a bad format, each shown with its own
    reply and with other steps' replies."""
    profile = CAT.profile(profile_id)
    game = BotWars()
    ts = []
    for seed in range(3):
        ts += _transitions(game, profile, seed, limit=200, late=0.05)
        s = game.initial(profile)
        for kind in ("bad-format", "timeout"):
            a = game.action_from_json(s, {"type": kind})
            after, events = game.apply(s, a)
            ts.append(Transition(game.observe(s), game.action_to_json(s, a),
                                 game.observe(after), list(events)))
    kinds = {action_kind(t.action) for t in ts}
    assert {"moves", "timeout", "bad-format", "energy"} <= kinds
    rng = random.Random(7)
    bound = [o for o in ORACLES if o.on is not None]
    asked = 0
    for t in ts:
        other = ts[rng.randrange(len(ts))]
        for o in bound:
            if action_kind(t.action) in (o.on or ()):
                continue
            assert o.check is not None
            for reply in (t, other):
                steps.forget()
                shown = Transition(t.before, t.action, reply.after, reply.events)
                assert o.check(shown, profile) is NA, (o.rule, t.action)
                asked += 1
    assert asked > 100


EVENT_TYPES = ("moved", "died", "spawned", "spawn-wasted", "razed", "stayed", "bounced",
               "collided", "energy-collected", "energy-spawned", "turn-lost", "game-ended")
RULES = ("BOTWARS-BATTLE", "BOTWARS-MOVE-COLLIDE", "BOTWARS-MOVE-SAME-TARGET",
         "BOTWARS-MOVE-ENERGY", "BOTWARS-ENERGY-COLLECT", "BOTWARS-ENERGY-CONTESTED")


def _naming(events: Any, rule: str) -> list[Any]:
    return [e for e in events if e["rule"] == rule]


def _collected(events: Any) -> dict[Any, Any]:
    return {e["at"]: e for e in events if e["rule"] in energy.COLLECTION}


def _turn_steps(events: Any) -> list[int]:
    return [game._step(e) for e in events]


def _quick_turn_steps(events: Any) -> list[int]:
    return [game._STEP_OF.get(e["type"]) or game._step(e) for e in events]


def _into(step: steps.Step) -> dict[Any, list[tuple[str, Any]]]:
    into: dict[Any, list[tuple[str, Any]]] = {}
    for p, moves_in in step.entering.items():
        for f, to in moves_in:
            into.setdefault(to, []).append((p, f))
    return into


@pytest.mark.parametrize("profile_id", PROFILES)
def test_event_indexes_read_the_events_as_the_scans_do(profile_id: str) -> None:
    """The events by type and by rule stand in for scans of every event: the same events in
    the same order, and on garbled replies the same error."""
    r = m.readings(CAT.profile(profile_id))
    for t in _all_steps(profile_id, seed=8, garbled=True):
        steps.forget()
        step = steps.step(t, r)
        for kind in EVENT_TYPES:
            for rule in (None, *RULES):
                assert _answer(step.of, kind, rule) == _answer(m.events_of, t.events, kind,
                                                               rule)
        for rule in RULES:
            assert _answer(step.naming, rule) == _answer(_naming, t.events, rule)
        assert _answer(energy._handled, step) == _answer(_collected, t.events)
        known = step.has_type("bounced", "collided")
        if known is not None:
            assert known == any(e["type"] in ("bounced", "collided") for e in t.events)
        assert _answer(_quick_turn_steps, t.events) == _answer(_turn_steps, t.events)
        if step.resolution:
            got = _answer(lambda s: s.into, step)
            assert got == _answer(_into, step)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_the_lazy_replay_equals_the_plain_one_on_garbled_replies(profile_id: str) -> None:
    r = m.readings(CAT.profile(profile_id))
    ts = _all_steps(profile_id, seed=6, garbled=True)
    for t in ts:
        steps.forget()
        assert _answer(game._replay, t, r) == _answer(game._replay, t, r, False)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_oracles_sharing_steps_answer_as_each_alone(profile_id: str) -> None:
    """Every oracle asked in the lockstep's order (each step's facts shared, a step's after
    the next one's before) answers what it answers with nothing kept from other calls, on
    garbled replies too (what it raises then included: the lockstep reports that)."""
    profile = CAT.profile(profile_id)
    rng = random.Random(4)
    checks = [(o.rule, o.check) for o in ORACLES if o.check is not None]
    ts = _all_steps(profile_id, seed=5, garbled=True)
    asked = applied = 0
    steps.forget()
    shared = []
    for t in ts:
        order = checks if rng.random() < 0.5 else checks[::-1]
        got = {rule: _answer(check, t, profile) for rule, check in order}
        shared.append(got)
    for t, got in zip(ts, shared, strict=True):
        for rule, check in checks:
            steps.forget()
            m._judged.cache_clear()
            alone = _answer(check, t, profile)
            assert (type(alone), alone) == (type(got[rule]), got[rule]), (rule, t.action)
            asked += 1
            applied += str(alone) != "not applicable"
    assert asked and applied > asked // 10
