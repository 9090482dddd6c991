"""Carcassonne's shared looks (`oracles/carcassonne/fast.py`, issue 15) answer exactly what
the hooks and checks they stand in for answer: on every state and step of random games of
every profile, with the JSON shared between steps as the lockstep builds it
(`observe_next`) and fresh (nothing shared, as an engine's own reply), and on corrupted
states and steps (parts swapped for another state's, removed, of the wrong type; events
altered) met in between, so that a remembered answer is put to the test on them too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Oracle, Transition
from gamecert.oracles.carcassonne import fast
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE
from gamecert.spec import load_catalogue
from tests.random_play import random_states, random_steps

PROFILES = list(load_catalogue("carcassonne").profiles)
ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def shared_steps(profile_id: str, seed: int, games: int = 1) -> list[Transition]:
    """The steps of random games with their JSON built as the lockstep builds it."""
    return random_steps("carcassonne", profile_id, seed, games, shared=True)


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except ERRORS as exc:
        return type(exc)


def odd_states(states: list[Any], rng: random.Random, every: int = 7) -> list[Any]:
    """States with one part swapped for another state's (an older object: what a memo keyed
    by identity must not be fooled by), removed, or of the wrong type."""
    out: list[Any] = []
    for s in states[::every]:
        key = rng.choice(sorted(s))
        other = states[rng.randrange(len(states))]
        for value in (other.get(key), None, "x", [], {}, -1, 999):
            out.append({**s, key: value})
        out.append({k: v for k, v in s.items() if k != key})
        out.append({**s, "hands": [[*h, "TO1"] for h in s["hands"]]})
        out.append({**s, "deck": {**s["deck"], "ZZ": 0}})
    return out


def _state_hooks() -> dict[str, Any]:
    return {o.rule: o.state for o in oracles_for("carcassonne") if o.state is not None}


def _check_states(states: list[Any], profile: Any) -> tuple[int, int]:
    """Ask the prejudgement and then each hook, state after state: (answers, violations
    seen by the hooks on those states)."""
    hooks = _state_hooks()
    answered = bad = 0
    for s in states:
        try:
            said = fast.state_verdicts(s, profile)
        except ERRORS:
            continue
        assert len(said) == len(fast.STATE_RULES)
        for rule, answer in zip(fast.STATE_RULES, said, strict=True):
            own = _outcome(hooks[rule], s, profile)
            if answer is None:
                bad += own is not OK and own is not NA
                continue
            assert answer is OK or answer is NA, (rule, answer)
            assert own is answer, (rule, own, answer)
            answered += 1
    return answered, bad


def test_the_rules_answered_are_state_hooks() -> None:
    assert set(fast.STATE_RULES) <= set(_state_hooks())
    assert len(set(fast.STATE_RULES)) == len(fast.STATE_RULES)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_state_answers_on_shared_json_are_the_hooks_own(profile_id: str) -> None:
    profile = load_catalogue("carcassonne").profile(profile_id)
    steps = shared_steps(profile_id, seed=3)
    states = [steps[0].before] + [t.after for t in steps]
    assert sum(a is b for t in steps for a, b in zip(t.before.values(), t.after.values(),
                                                       strict=False)) > len(steps)
    answered, _ = _check_states(states, profile)
    assert answered > 5 * len(states)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_state_answers_on_fresh_json_are_the_hooks_own(profile_id: str) -> None:
    profile = load_catalogue("carcassonne").profile(profile_id)
    states = random_states("carcassonne", profile_id, seed=4)
    answered, _ = _check_states(states, profile)
    assert answered > 5 * len(states)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_state_answers_with_corrupted_states_in_between(profile_id: str) -> None:
    """Shared states with corrupted ones after them (sharing their parts) and the states
    going on after those: every answer is the hook's own, violations left to the hooks."""
    profile = load_catalogue("carcassonne").profile(profile_id)
    rng = random.Random(5)
    steps = shared_steps(profile_id, seed=5)
    states = [steps[0].before] + [t.after for t in steps]
    mixed: list[Any] = []
    for i, s in enumerate(states):
        mixed.append(s)
        if i % 7 == 3:
            mixed += odd_states([s, *states[: i + 1]], rng, every=10_000)
            mixed.append(s)  # the state again after the odd ones
    answered, bad = _check_states(mixed, profile)
    assert answered > 5 * len(states) and bad > 10


@pytest.mark.parametrize("profile_id", PROFILES)
def test_a_lockstep_counts_the_same_with_and_without_the_shared_looks(
        profile_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lockstep run of random games counts every rule the same whether the game's
    prejudgements answer or every hook is asked (the hooks wrapped: not the game's own)."""
    def run(oracles: list[Oracle]) -> dict[str, int]:
        game = reference_game("carcassonne")
        profile = load_catalogue("carcassonne").profile(profile_id)
        cov = Coverage()
        ls = Lockstep(game, InProcessEngine(reference_session("carcassonne")), profile,
                      oracles, coverage=cov)
        rng = random.Random(8)
        for seed in (1, 2):
            ls.start({"kind": "new_game", "seed": seed})
            while ls.live:
                s = ls.ref
                a = (game.random_chance(s, rng) if game.current(s) == CHANCE  # type: ignore[attr-defined]
                     else game.random_action(s, rng))  # type: ignore[attr-defined]
                ls.step(game.action_to_json(s, a))
        return dict(cov.applied)

    own = oracles_for("carcassonne")
    wrapped = [Oracle(o.rule, (lambda s, p, h=o.state: h(s, p)) if o.state else None,
                      (lambda t, p, h=o.check: h(t, p)) if o.check else None,
                      o.judge, o.referee, o.listed, o.weights, o.on, o.within) for o in own]
    assert run(own) == run(wrapped)


def _checks() -> dict[str, Any]:
    return {o.rule: o.check for o in oracles_for("carcassonne") if o.check is not None}


def odd_steps(t: Transition, others: list[Transition], rng: random.Random) -> list[Transition]:
    """`t` with its reply corrupted: parts of the state after swapped for another state's,
    removed or of the wrong type; events dropped, added, retyped or unreadable; a board out
    of order, with a tile twice, without the placed tile; another player before."""
    b, action, a, events = t
    other = rng.choice(others)
    key = rng.choice(sorted(a))
    board = a["board"]
    kinds = ["game-ended", "feature-completed", "feature-final", "farm-scored", "turn-skipped",
             "river-phase-ended", "meeple-placed", "tile-placed", "prisoners-exchanged"]
    out = [Transition(b, action, {**a, key: other.after.get(key)}, events),
           Transition(b, action, {k: v for k, v in a.items() if k != key}, events),
           Transition(b, action, {**a, key: None}, events),
           Transition(b, action, a, []),
           Transition(b, action, a, [*events, {"type": rng.choice(kinds)}]),
           Transition(b, action, a, [*events, *events]),
           Transition(b, action, a, [*events, 5]),
           Transition(b, action, a, events[::-1]),
           Transition(b, action, a, other.events),
           Transition({**b, "to_move": rng.choice([None, 1, 2, 3])}, action, a, events),
           Transition(b, action, {**a, "to_move": rng.choice([None, 1, 2, 5])}, events),
           Transition(b, action, {**a, "board": board[::-1]}, events),
           Transition(b, action, {**a, "board": [*board, board[-1]]}, events),
           Transition(b, action, {**a, "board": board[:-1]}, events),
           Transition(b, action, {**a, "board": other.after["board"]}, events)]
    if events:
        i = rng.randrange(len(events))
        retyped = [*events[:i], {**events[i], "type": rng.choice(kinds)}, *events[i + 1:]]
        out.append(Transition(b, action, a, retyped))
        if isinstance(events[i], dict) and "at" in events[i]:
            moved = {**events[i], "at": [99, 99]}
            out.append(Transition(b, action, a, [*events[:i], moved, *events[i + 1:]]))
    if isinstance(action, dict) and action.get("type") == "place":
        x, y = action["at"]
        for at in ([x + 1, y], [x, y + 1], [0, 0]):
            out.append(Transition(b, {**action, "at": at}, a, events))
        out.append(Transition(b, {**action, "rotation": (action["rotation"] + 1) % 4}, a,
                              events))
    if isinstance(action, dict) and action.get("type") == "claim" and b.get("placed"):
        x, y = b["placed"]
        spots = ["top", "right", "bottom", "left", "monastery", "top1", "field", "x", 3]
        for on in rng.sample(spots, 3):
            out.append(Transition(b, {**action, "on": on}, a, events))
        mine = {"at": [x, y], "on": action.get("on"), "player": 1}
        for meeples in ([*b["meeples"], mine], [*b["meeples"], {**mine, "player": 9}],
                        [*b["meeples"], {**mine, "player": "1"}],
                        [*b["meeples"], {**mine, "on": rng.choice(spots)}],
                        [*b["meeples"], {"at": [x + 1, y], "on": "left", "player": 2}],
                        [{"at": [x], "on": "top", "player": 1}], [],
                        [{**m, "player": 9} for m in b["meeples"]],
                        [{**m, "player": None} for m in b["meeples"]]):
            out.append(Transition({**b, "meeples": meeples}, action, a, events))
        for odd in ({"claim_blocked": [action.get("on")]}, {"claim_blocked": ["top", "left"]},
                    {"supply": [0] * len(b["supply"])}, {"placed": None}, {"step": "place"},
                    {"placed": [x + 50, y]}, {"players": 9}):
            out.append(Transition({**b, **odd}, action, a, events))
    return out


def _check_steps(steps: list[Transition], profile: Any) -> tuple[int, int]:
    """Ask the prejudgement and then each check, step after step: (answers, violations the
    checks found where it did not answer)."""
    checks = _checks()
    assert set(fast.RULES) <= set(checks)
    answered = bad = 0
    for t in steps:
        try:
            said = fast.step_verdicts(t, profile)
        except ERRORS:
            continue
        assert len(said) == len(fast.RULES)
        for rule, answer in zip(fast.RULES, said, strict=True):
            if answer is None:
                own = _outcome(checks[rule], t, profile)
                bad += own is not OK and own is not NA
                continue
            assert answer is OK or answer is NA, (rule, answer)
            own = _outcome(checks[rule], t, profile)
            assert own is answer, (rule, own, answer, t.action, t.events)
            answered += 1
    return answered, bad


@pytest.mark.parametrize("profile_id", PROFILES)
def test_step_answers_on_shared_json_are_the_checks_own(profile_id: str) -> None:
    profile = load_catalogue("carcassonne").profile(profile_id)
    steps = shared_steps(profile_id, seed=9)
    answered, _ = _check_steps(steps, profile)
    assert answered > 10 * len(steps)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_step_answers_on_fresh_json_are_the_checks_own(profile_id: str) -> None:
    profile = load_catalogue("carcassonne").profile(profile_id)
    steps = random_steps("carcassonne", profile_id, seed=10)
    answered, _ = _check_steps(steps, profile)
    assert answered > 10 * len(steps)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_step_answers_on_corrupted_steps_are_the_checks_own(profile_id: str) -> None:
    profile = load_catalogue("carcassonne").profile(profile_id)
    rng = random.Random(12)
    steps = shared_steps(profile_id, seed=12)
    mixed: list[Transition] = []
    for i, t in enumerate(steps):
        mixed.append(t)
        if i % 3 == 0 or t.action.get("type") == "claim":
            mixed += odd_steps(t, steps, rng)
    answered, bad = _check_steps(mixed, profile)
    assert answered > 10 * len(steps) and bad > 50


def _one_off(a: Any, b: Any, rng: random.Random) -> list[Any]:
    """State `b` (the state after `a`) with its tile counts made wrong in ways a count
    carried on from `a` must see: an old board entry retiled, the new entry retiled, a tile
    too many in a hand, a pile naming a tile with a count of 0, counts of another type."""
    out: list[Any] = []
    board, hands, deck = b["board"], b["hands"], b["deck"]
    if board:
        j = rng.randrange(len(board))
        for tile in ("A", "B", "RS"):
            out.append({**b, "board": [*board[:j], {**board[j], "tile": tile}, *board[j + 1:]]})
    out.append({**b, "hands": [[*hands[0], "A"], *hands[1:]]})
    out.append({**b, "hands": [list(reversed(h)) for h in hands]})  # the same counts
    out.append({**b, "hands": [tuple(h) for h in hands]})
    out.append({**b, "deck": {**deck, "ZZ": 0}})
    out.append({**b, "deck": {**deck, "TO1": 0}})
    out.append({**b, "river_pile": {**b["river_pile"], "A": 0}})
    if deck:
        k = sorted(deck)[0]
        out.append({**b, "deck": {**deck, k: float(deck[k])}})
        out.append({**b, "deck": {**deck, k: deck[k] + 1}})
        out.append({**b, "deck": {kk: v for kk, v in deck.items() if kk != k}})
    out.append({**b, "placed": [0, 0]})
    out.append({**b, "placed": None})
    out.append({**b, "board": [*board, *board[-1:]]})
    return out


def _with_tower_tile(s: Any) -> Any:
    """`s` with a Tower tile in the last player's hand (a hand no draw of these games fills
    without the others)."""
    return {**s, "hands": [*s["hands"][:-1], [*s["hands"][-1], "TO1"]]}


@pytest.mark.parametrize("profile_id", PROFILES)
def test_tile_counts_carried_on_from_the_last_state_see_every_change(profile_id: str) -> None:
    """Each state after a step, corrupted, judged right after the state before it (so that
    the counts are carried on from it where they can be), then the true state; and pairs of
    states both holding a Tower tile (CARC-TILES right, CARC-TOWER-TILES wrong outside the
    tower stage): every answer is the hook's own."""
    profile = load_catalogue("carcassonne").profile(profile_id)
    rng = random.Random(14)
    steps = shared_steps(profile_id, seed=14)
    seq: list[Any] = []
    for i, t in enumerate(steps):
        if i % 2:
            for odd in _one_off(t.before, t.after, rng):
                seq += [t.before, odd]
            seq += [_with_tower_tile(t.before), _with_tower_tile(t.after)]
        seq += [t.before, t.after]
    answered, bad = _check_states(seq, profile)
    assert answered > 5 * len(steps) and bad > len(steps)


def _find_plainly(bd: Any, e: Any) -> Any:
    """`checks._find` as first written (every feature's tile list compared)."""
    tiles = sorted(e["tiles"])
    complete = e.get("type") == "feature-completed"
    found = [f for f in bd.features() if f.kind == e["feature"] and f.tile_list() == tiles]
    for f in found:
        if f.complete == complete:
            return f
    return found[0] if found else None


def _odd_events(e: Any) -> list[Any]:
    tiles = e["tiles"]
    return [e, {**e, "tiles": tiles[:-1]}, {**e, "tiles": [*tiles, [99, 99]]},
            {**e, "tiles": tiles[::-1]}, {**e, "tiles": [tuple(c) for c in tiles]},
            {**e, "tiles": []}, {**e, "feature": "road"}, {**e, "feature": "city"},
            {**e, "feature": "monastery"}, {**e, "type": "feature-final"},
            {**e, "type": "feature-completed"}, {**e, "tiles": [*tiles, tiles[0]]},
            {**e, "tiles": "ab"}, {k: v for k, v in e.items() if k != "feature"}]


@pytest.mark.parametrize("profile_id", PROFILES)
def test_find_compares_tile_lists_only_of_features_as_large(profile_id: str) -> None:
    from gamecert.oracles.carcassonne import checks
    found = 0
    for steps in (shared_steps(profile_id, seed=15), random_steps("carcassonne", profile_id,
                                                                 seed=15)):
        for t in steps:
            for e in t.events:
                if e.get("type") not in ("feature-completed", "feature-final"):
                    continue
                bd = checks.board(t.after)
                for odd in _odd_events(e):
                    want = _outcome(_find_plainly, bd, odd)
                    assert _outcome(checks._find, bd, odd) is want
                    found += want is not None and not isinstance(want, type)
    assert found > 20
