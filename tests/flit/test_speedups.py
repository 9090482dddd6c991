"""Flit's shared look at a step (`oracles.flit.fast`) answers as the plain checks do.

Issue 15's lean lockstep: each Flit check is its plain function, answered from one shared
analysis of the step where that analysis shows what the plain function says. These tests
compare the two on the steps of random games in every profile, on the same steps with the
engine's reply corrupted in many ways (so that the plain checks object), and through the
real lockstep with every public mutant; and they check the caches behind the analysis (the
piece counts carried from board to board, the remembered transition) against plain
computations.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from examples.engines import load
from examples.engines.flit import MUTANTS
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import HARNESS_RULES, Coverage, Finding, InvalidInput, Lockstep
from gamecert.oracles.base import NA, OK, Oracle, Transition
from gamecert.oracles.flit import ORACLES
from gamecert.oracles.flit import fast as F
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue
from tests.conftest import mutant_engine

GAME = reference_game("flit")
CATALOGUE = load_catalogue("flit")
PROFILES = list(CATALOGUE.profiles)
PLAIN = {o.rule: o.check.__wrapped__ for o in ORACLES  # type: ignore[union-attr]
         if o.rule in F.INDEX}
CHAR = "012345"
CAP = CATALOGUE.profile(None).param("FLIT-END-TURNCAP", "max_turns")


@cache
def _game(profile: Profile, seed: int, limit: int = 100_000
          ) -> list[tuple[Any, Any, Any, list[Any]]]:
    """The steps of one random game, at most `limit`: (state before, action, state after,
    events)."""
    rng = random.Random(seed)
    s = GAME.initial(profile)
    before = GAME.observe(s)
    out = []
    while (who := GAME.current(s)) != TERMINAL and len(out) < limit:
        a = (GAME.random_chance(s, rng) if who == CHANCE  # type: ignore[attr-defined]
             else _play(s, rng))
        action = GAME.action_to_json(s, a)
        s, events = GAME.apply(s, a)
        after = GAME.observe(s)
        out.append((before, action, after, list(events)))
        before = after
    return out


def _play(s: Any, rng: random.Random) -> Any:
    """A random move, no move, time-out or invalid reply; bot 2 times out often, so that
    it is frozen in time and the others play on around it."""
    r = rng.random()
    if s.phase == "move" and r < (0.6 if s.to_move == 2 else 0.1):
        return GAME.action_from_json(s, {"type": "timeout" if r < 0.08 or s.to_move == 2
                                         else "invalid"})
    return GAME.random_action(s, rng)  # type: ignore[attr-defined]


def _variant(base: str, variants: dict[str, str], params: dict[str, dict[str, Any]]
             ) -> Profile:
    """A profile of the catalogue with other variants and parameters (the oracles read
    them from the profile; no catalogue profile checks the end after the move)."""
    p = CATALOGUE.profile(base)
    return replace(p, variants={**p.variants, **variants},
                   parameters={k: {**v, **params.get(k, {})} for k, v in p.parameters.items()})


# Every catalogue profile, and variants the catalogue leaves out, with ends that come soon.
VARIANTS = {
    "after-move": _variant("standard", {"FLIT-END-TIMING": "after-move",
                                        "FLIT-END-TURNCAP": "literal-exceeds"},
                           {"FLIT-END-TURNCAP": {"max_turns": 300}}),
    "after-move-skipped": _variant("strict", {"FLIT-END-TIMING": "after-move"},
                                   {"FLIT-END-CATCHUP": {"p_offset": 1010}}),
    "early-catch-up": _variant("list-neutrals", {}, {"FLIT-END-CATCHUP": {"p_offset": 1010},
                                                     "FLIT-END-TURNCAP": {"max_turns": 500}}),
}
ALL_PROFILES = {**{pid: CATALOGUE.profile(pid) for pid in PROFILES}, **VARIANTS}


def _steps(profile: Profile, seed: int, n: int = 250, limit: int = 4000
           ) -> list[Transition]:
    """The first `n` steps of a random game and the last `n` of its first `limit`, in order,
    each step's `after` the next one's `before` (as the lockstep shows them)."""
    steps = _game(profile, seed, limit)
    picked = steps[:n] + steps[-n:] if len(steps) > 2 * n else steps
    return [Transition(b, a, s, e) for b, a, s, e in picked]


def _recolour(board: str, i: int, c: str) -> str:
    return board[:i] + c + board[i + 1:]


def _corrupt(t: Transition, rng: random.Random) -> Transition:
    """The step with the engine's reply changed in one way, or (the last three) with the
    state before it changed alike on both sides, so that an end condition is due."""
    a, events = dict(t.after), [dict(e) for e in t.events]
    b = t.before
    k = rng.randrange(19)
    if k == 0:
        a["turn"] += rng.choice((-1, 1))
    elif k == 1:
        a["to_move"] = rng.randint(1, 4)
    elif k == 2:
        a["passes"] += rng.choice((-1, 1, 5))
    elif k == 3:
        frozen = list(a["frozen"])
        i = rng.randrange(4)
        frozen[i] = not frozen[i]
        a["frozen"] = frozen
    elif k == 4:
        timeouts = list(a["timeouts"])
        timeouts[rng.randrange(4)] += 1
        a["timeouts"] = timeouts
    elif k == 5:
        a["phase"] = rng.choice(("move", "neutral", "over", "setup"))
    elif k == 6:
        a["board"] = _recolour(a["board"], rng.randrange(len(a["board"])), rng.choice(CHAR))
    elif k == 7:  # a square the step is about, or a piece
        board = a["board"]
        near = [i for i, c in enumerate(board) if c != "0"] or [0]
        a["board"] = _recolour(board, rng.choice(near), rng.choice(CHAR))
    elif k == 8 and events:
        events.pop(rng.randrange(len(events)))
    elif k == 9 and events:
        e = events[rng.randrange(len(events))]
        for key in ("at", "from", "to"):
            if key in e:
                e[key] = [rng.randrange(33), rng.randrange(33)]
    elif k == 10 and events:
        events[rng.randrange(len(events))]["bot"] = rng.randint(0, 5)
    elif k == 11:
        events.append({"type": "neutral-added",
                       "at": [rng.randrange(32), rng.randrange(32)]})
    elif k == 12:
        a["result"] = {"reasons": ["catch-up"], "counts": [0, 0, 0, 0], "winner": 1}
        a["phase"] = "over"
    elif k == 13:  # bot 1 far ahead before and after: the catch-up end is due
        board = b["board"].replace("0", "1", len(b["board"]) // 2)
        b = dict(b, board=board)
        a["board"] = board if t.after["board"] == t.before["board"] else a["board"]
    elif k == 14:  # the turn cap reached
        b = dict(b, turn=CAP)
        a["turn"] = CAP + (t.after["turn"] - t.before["turn"])
    elif k == 15:  # every bot has passed
        b = dict(b, passes=4)
        a["passes"] = 4 if t.after["passes"] == t.before["passes"] else a["passes"]
    elif k == 16 and events:  # the same events, written otherwise (the rules read alike)
        e = events[rng.randrange(len(events))]
        if "bot" in e:
            e["bot"] = str(e["bot"])
    elif k in (17, 18) and events:  # squares as floats: whole (the same square), or not
        e = events[rng.randrange(len(events))]
        for key in ("at", "from", "to"):
            if key in e:
                e[key] = [e[key][0] + (0.0 if k == 17 else 0.5), e[key][1]]
    return Transition(b, t.action, a, events)


def _compare(t: Transition, profile: Profile, answered: dict[str, int]) -> None:
    answer = F.verdicts(t, profile)
    for rule, i in F.INDEX.items():
        fast = answer[i]
        if fast is None:
            continue
        assert fast is OK or fast is NA, (rule, fast)
        plain = PLAIN[rule](t, profile)
        assert plain is fast, (f"{rule}: fast {fast!r}, plain {plain!r} on {t.action} -> "
                               f"{ {k: v for k, v in t.after.items() if k != 'board'} }")
        answered[rule] += 1


@pytest.mark.parametrize("profile_id", ALL_PROFILES)
def test_fast_answers_are_the_plain_checks_answers(profile_id: str) -> None:
    profile = ALL_PROFILES[profile_id]
    rng = random.Random(17)
    answered = dict.fromkeys(F.RULES, 0)
    steps = _steps(profile, seed=1)
    for t in steps:
        _compare(t, profile, answered)
    # the plain checks are rarely asked on an ordinary step: the analysis is used
    common = [t for t in steps if t.action["type"] in ("move", "neutral", "neutral-list")
              and t.after["phase"] != "over" and not any(t.before["frozen"])]
    assert answered["FLIT-TURN-ORDER"] >= 0.9 * len(common)
    assert answered["FLIT-PROTO-UPDATES"] >= 0.9 * len(common)
    for t in steps:
        for _ in range(6):
            _compare(_corrupt(t, rng), profile, answered)
    assert all(answered.values()), answered


def test_fast_answers_only_ok_or_na_and_leave_violations_to_the_plain_checks() -> None:
    profile = CATALOGUE.profile(None)
    rng = random.Random(3)
    objections = 0
    for t in _steps(profile, seed=2, n=150):
        for _ in range(8):
            shown = _corrupt(t, rng)
            answer = F.verdicts(shown, profile)
            for rule, i in F.INDEX.items():
                try:
                    plain = PLAIN[rule](shown, profile)
                except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                    plain = None  # the lockstep makes it a violation
                if plain is not OK and plain is not NA:
                    objections += 1
                    assert answer[i] is None, (rule, plain)
    assert objections > 100


def test_an_unreadable_reply_is_left_to_the_plain_checks() -> None:
    profile = CATALOGUE.profile(None)
    t = next(t for t in _steps(profile, seed=3, n=60) if t.action["type"] == "move")
    assert F.verdicts(t, profile) != F.ASK_ALL
    for broken in ({k: v for k, v in t.after.items() if k != "frozen"},
                   {k: v for k, v in t.after.items() if k != "timeouts"},
                   dict(t.after, board=list(t.after["board"]))):
        assert F.verdicts(Transition(t.before, t.action, broken, t.events), profile) \
            == F.ASK_ALL
    assert F.verdicts(Transition(t.before, t.action, t.after, [{"kind": 1}]), profile) \
        == F.ASK_ALL


def test_carried_counts_are_the_boards_counts() -> None:
    for profile in ALL_PROFILES.values():
        carried = 0
        steps = _steps(profile, seed=4, n=300)
        for t in steps:
            F.verdicts(t, profile)
            board, n = F._carry[0]
            if board is t.after["board"]:
                carried += 1
                assert n == tuple(board.count(c) for c in CHAR)
            assert F.counts(t.after["board"]) == tuple(
                t.after["board"].count(c) for c in CHAR)
        assert carried > len(steps) // 3  # most boards are carried from the one before


def test_caches_hold_their_keys() -> None:
    profile = CATALOGUE.profile(None)
    t = next(t for t in _steps(profile, seed=5, n=60) if t.action["type"] == "neutral")
    F.verdicts(t, profile)
    assert F._last[0] is t and F._last[1] is profile
    assert F._carry[0][0] is t.after["board"]
    # an equal board that is another object is counted for itself
    copy = "".join(list(t.after["board"]))
    assert copy is not t.after["board"]
    assert F.counts(copy) == tuple(copy.count(c) for c in CHAR)
    # the same step shown again with another reply is analysed again
    other = Transition(t.before, t.action, dict(t.after, turn=t.after["turn"] + 5), t.events)
    assert F.verdicts(other, profile)[F.INDEX["FLIT-FREEZE"]] is None
    assert F.verdicts(t, profile)[F.INDEX["FLIT-FREEZE"]] is NA
    # the catch-up verdict is remembered for the very counts tuple only
    n = F.counts(t.after["board"])
    for offset in (0, 5, 10_000):
        _, _, second, first = sorted(n[1:5])
        spare = n[5] + n[0] - offset
        assert F.catchup_holds(n, offset) == (first > second + spare or second > first + spare)
        assert F.catchup_holds(tuple(n), offset) == F.catchup_holds(n, offset)


def _plain_oracles() -> list[Oracle]:
    return [replace(o, check=getattr(o.check, "__wrapped__", o.check)) for o in ORACLES]


def _run(engine: Any, profile: Profile, oracles: list[Oracle], start: Any,
         script: list[Any]) -> tuple[Coverage, list[tuple[list[str], str, str]]]:
    """The script through the lockstep, going on past every finding (each cause passed
    over once found, as a campaign's lockstep does)."""
    coverage = Coverage()
    muted = {r.id for r in CATALOGUE.rules} | set(HARNESS_RULES)
    ls = Lockstep(GAME, engine, profile, oracles, coverage=coverage, muted=muted, go_on=True)
    found: list[tuple[list[str], str, str]] = []
    ls.start(start)
    for action in script:
        if ls.dead:
            break
        try:
            ls.step(action)
        except Finding as exc:  # not muted after all: the window ends with it
            found.append((exc.rules, exc.kind, exc.message))
            break
        except InvalidInput as exc:  # the engine refused the start: the window ends
            found.append(([], "no start", str(exc)))
            break
    found += [(f.rules, f.kind, f.message) for f in ls.found + ls.muted_findings]
    return coverage, found


@pytest.mark.parametrize("name", MUTANTS)
def test_the_lockstep_judges_mutants_alike_with_and_without_the_analysis(name: str) -> None:
    rule = load("flit", name).RULE
    assert rule
    profile = CATALOGUE.profile(None)
    steps = _game(profile, seed=6)  # the whole game: its end is in the last window
    windows = [({"kind": "new_game", "seed": None}, steps[:150])]
    tail = steps[-150:]
    windows.append(({"kind": "state", "state": tail[0][0]}, tail))
    for start, window in windows:
        script = [action for _, action, _, _ in window]
        fast = _run(mutant_engine("flit", name, "inproc"), profile, ORACLES, start, script)
        plain = _run(mutant_engine("flit", name, "inproc"), profile, _plain_oracles(),
                     start, script)
        assert fast[0].applied == plain[0].applied
        assert fast[1] == plain[1]


def test_the_reference_is_judged_alike_with_and_without_the_analysis() -> None:
    for profile_id in PROFILES:
        profile = CATALOGUE.profile(profile_id)
        script = [action for _, action, _, _ in _game(profile, seed=8)[:600]]
        start = {"kind": "new_game", "seed": None}
        engine = InProcessEngine(reference_session("flit"))
        fast = _run(engine, profile, ORACLES, start, script)
        plain = _run(InProcessEngine(reference_session("flit")), profile, _plain_oracles(),
                     start, script)
        assert fast == plain and not fast[1]
        assert fast[0].applied["FLIT-END-CATCHUP"] > 0


def test_geometry_tables_are_the_boards_squares() -> None:
    from gamecert.oracles.flit.board import index, planar_neighbours, torus_neighbours

    for w, h in ((32, 32), (5, 3), (2, 7)):
        _, _, torus, planar, squares, inner = F._geometry(w, h)
        state = {"width": w, "height": h}
        for x in range(-1, w + 1):
            for y in range(-1, h + 1):
                assert squares.get((x, y)) == index(state, [x, y])
                if index(state, [x, y]) is not None:
                    assert squares.get((float(x), y)) == index(state, [x, y])
        assert squares.get((0.5, 0)) is None  # a square the plain checks must read
        for i in range(w * h):
            if inner[i]:  # no wrap around an inner square
                assert sorted(torus[i]) == sorted(planar[i])
            assert torus[i] == torus_neighbours(w, h)[i]
            assert planar[i] == planar_neighbours(w, h)[i]
    F._geometry(32, 32)
