"""Kingdomino's one look at a state and at a step (`oracles.kingdomino.fast`, issue 15)
answers exactly what each rule's own hook answers, wherever it answers.

Compared on every step of random games of every profile, with the JSON the lockstep shows
(`observe_next`: the parts a step left alone shared, a step's `after` the next `before`)
and with fresh JSON (nothing shared), on replies that break a rule (another step's state,
a changed square, the tile turned) and on corrupted replies; the derived facts of a grid
after a put equal the facts read in full; and a lockstep with the prejudgements counts
and finds what it counts and finds with the hooks alone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import gamecert.oracles.kingdomino as kd
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles.base import NA, OK, Oracle, Transition
from gamecert.oracles.kingdomino import facts as f
from gamecert.oracles.kingdomino import fast, fast_state
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE
from gamecert.spec import load_catalogue
from tests.kingdomino.test_speedups import _malformed, _outcome, _replies
from tests.random_play import random_steps

PROFILES = sorted(load_catalogue("kingdomino").profiles)
CHECKS = {o.rule: o.check for o in kd.ORACLES if o.check is not None}
STATES = {o.rule: o.state for o in kd.ORACLES if o.state is not None}
# the checks as they read without any shared facts
PLAIN = {"KD-TILES": kd._tiles_plain, "KD-PLACE-ROTATION": kd._rotation_plain,
         **kd.PLAIN_CHAIN_CHECKS}


@pytest.fixture(autouse=True)
def _fresh() -> None:
    f.grid_facts.cache_clear()
    f._STATES.clear()
    f._PREV = ([], f.StateGrids(()))
    f._LAST_STATE = (object(), f.StateGrids(()))
    f._LAST = (None, None, None)
    fast._BY_ID.clear()
    fast._seen.grids = fast._seen.kings = None
    fast._line_read[:] = [None, None]
    fast._length_read[:] = [None, None, None, -1, False]


def _steps(pid: str, seed: int, shared: bool, games: int = 1) -> list[Transition]:
    """Random games' steps; `shared`: the JSON built by `observe_next` as the lockstep
    builds it, else observed afresh at every state."""
    return random_steps("kingdomino", pid, seed, games, shared=shared)


def _compare(shown: list[Transition], prof: Any) -> tuple[int, int]:
    """Each step as the lockstep asks: the step's look, then the state's; every answer
    given is the hook's own verdict (and the plain reading's). Returns the answers given
    by the two looks."""
    said = said_states = 0
    for t in shown:
        answers = fast.verdicts(t, prof)
        assert len(answers) == len(fast.RULES)
        for rule, answer in zip(fast.RULES, answers, strict=True):
            if answer is None:
                continue
            assert answer is OK or answer is NA, rule
            got = _outcome(CHECKS[rule], t, prof)
            assert got == (type(answer).__name__, str(answer)), (rule, t.action)
            if rule in PLAIN:
                assert _outcome(PLAIN[rule], t, prof) == got, (rule, t.action)
            said += 1
        state_answers = fast.state_verdicts(t.after, prof)
        assert len(state_answers) == len(fast.STATE_RULES)
        for rule, answer in zip(fast.STATE_RULES, state_answers, strict=True):
            if answer is None:
                continue
            assert answer is OK or answer is NA, rule
            got = _outcome(STATES[rule], t.after, prof)
            assert got == (type(answer).__name__, str(answer)), (rule, t.after)
            said_states += 1
    return said, said_states


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("pid", PROFILES)
def test_every_answer_is_the_hooks_own_on_random_games(pid: str, shared: bool) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    steps = _steps(pid, seed=21, shared=shared)
    said, said_states = _compare(steps, prof)
    # on the reference's own steps the common checks and every state hook are answered
    puts = [t for t in steps if kd.action_kind(t.action) == kd.K_PUT]
    assert puts
    for t in puts:
        answers = dict(zip(fast.RULES, fast.verdicts(t, prof), strict=True))
        for rule in ("KD-TILES", "KD-PLACE-ROTATION", "KD-PLACE-NO-OVERLAP",
                     "KD-PLACE-EXTENT", "KD-PLACE-CONNECT", "KD-PICK", "KD-ORDER",
                     "KD-GAME-LENGTH", "KD-FIRST-TURN-NO-PUT"):
            assert answers[rule] is not None, rule
    assert said > 0 and said_states > 0
    # the grids read last were all well formed: the next grids list reads only its new grids
    assert fast._seen.grid_answers is fast._GOOD_GRID


@pytest.mark.parametrize("pid", PROFILES)
def test_every_answer_is_the_hooks_own_on_broken_and_corrupted_replies(pid: str) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    rng = random.Random(len(pid) + 3)
    for shared in (True, False):
        steps = _steps(pid, seed=22, shared=shared)
        shown = []
        for t, odd in zip(steps, _replies(steps, rng)[1::2], strict=False):
            shown += [t, odd]  # the lockstep's chain, with a broken reply after each step
        shown += _replies(steps, rng) + _malformed(steps[::3], rng)
        for t in steps[::4]:  # a deal of a tile twice in the bag, a put of another tile
            if t.action.get("type") == "deal":
                twice = {**t.before, "bag": [*t.before["bag"], t.action["tile"]]}
                shown.append(Transition(twice, t.action, t.after, t.events))
            if kd.action_kind(t.action) == kd.K_PUT:
                x, y, r = t.action["put"]
                for put in ([x, y, (r + 1) % 4], [y, x, r], [x, y, 7], [x, y, "0"]):
                    shown.append(Transition(t.before, {**t.action, "put": put}, t.after,
                                            t.events))
        for t in steps[::3]:  # the phase before any phase (a deal in play, a play dealing)
            for phase in ("deal", "order", "play", "over"):
                shown.append(Transition({**t.before, "phase": phase}, t.action, t.after,
                                        t.events))
        for t in steps[::5]:  # a part of either state missing, or of another type
            for side in ("before", "after"):
                for key in sorted(getattr(t, side)):
                    for value in (_GONE, None, "x", 1.0, [[]]):
                        s = {k: v for k, v in getattr(t, side).items() if k != key}
                        if value is not _GONE:
                            s[key] = value
                        shown.append(Transition(s, t.action, t.after, t.events)
                                     if side == "before" else
                                     Transition(t.before, t.action, s, t.events))
        said, _ = _compare(shown, prof)
        assert said > 0


_GONE = object()


@pytest.mark.parametrize("pid", PROFILES)
def test_a_grid_after_a_put_gets_the_facts_read_in_full(pid: str) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    derived = 0
    for t in _steps(pid, seed=23, shared=True):
        fast.verdicts(t, prof)
        fast.state_verdicts(t.after, prof)
        for rows in t.after["grids"]:
            hit = fast._BY_ID.get(id(rows))
            if hit is None or hit[0] is not rows:
                continue
            mine, full = hit[1], f.Grid(tuple(rows))
            assert (mine.g, mine.rows, mine.rows_ok, mine.shaped, mine.castle_ok,
                    mine.extent) == (full.g, full.rows, full.rows_ok, full.shaped,
                                     full.castle_ok, full.extent)
            derived += 1
    assert derived > 0


def _lockstep_run(oracles: list[Oracle], pid: str, seed: int) -> tuple[Any, list[str]]:
    profile = load_catalogue("kingdomino").profile(pid)
    ls = Lockstep(reference_game("kingdomino"),
                  InProcessEngine(reference_session("kingdomino")), profile, oracles,
                  coverage=Coverage())
    ls.start({"kind": "new_game", "seed": seed})
    rng = random.Random(seed)
    g = ls.game
    found: list[str] = []
    while ls.live:
        a = g.random_chance(ls.ref, rng) if g.current(ls.ref) == CHANCE else \
            g.random_action(ls.ref, rng)
        try:
            ls.step(g.action_to_json(ls.ref, a))
        except Finding as exc:  # pragma: no cover - the reference agrees with itself
            found.append(str(exc))
    return dict(ls.coverage.applied), found


@pytest.mark.parametrize("pid", PROFILES)
def test_the_lockstep_counts_the_same_with_and_without_the_looks(pid: str) -> None:
    """The game's own oracles (both looks used) and the same hooks wrapped (neither look
    used: the hooks are not the game's own) count every rule alike."""
    own = list(kd.ORACLES)
    wrapped = [Oracle(o.rule, (lambda s, p, h=o.state: h(s, p)) if o.state else None,
                      (lambda t, p, h=o.check: h(t, p)) if o.check else None,
                      o.judge, o.referee, o.listed, o.weights, o.on, o.within) for o in own]
    with_looks, found = _lockstep_run(own, pid, 3)
    without, found2 = _lockstep_run(wrapped, pid, 3)
    assert with_looks == without and found == found2 == []


@pytest.mark.parametrize("pid", PROFILES)
def test_a_put_answers_for_the_grids_after_as_grid_answers_would(pid: str) -> None:
    """A put judged OK on shared JSON (every other grid the very list it was, the grids
    before all well formed) records the grids after as all well formed: the answers
    `grid_answers` works out from nothing (no grids read last, no facts kept) and the
    hooks give on the state after."""
    prof = load_catalogue("kingdomino").profile(pid)
    recorded = 0
    for t in _steps(pid, seed=24, shared=True):
        answers = fast.verdicts(t, prof)
        if kd.action_kind(t.action) == kd.K_PUT and answers[fast.TILES] is OK \
                and fast._seen.grids is t.after["grids"]:
            recorded += 1
            said = fast._seen.grid_answers
            fast._seen.grids, fast._seen.grid_answers = None, fast._ASK_GRID
            fast._BY_ID.clear()
            assert fast.grid_answers(t.after) == said == (OK, OK)
            assert _outcome(STATES["KD-GRID"], t.after, prof) == (type(OK).__name__, str(OK)) == \
                _outcome(STATES["KD-PROTO-INPUT"], t.after, prof)
        fast.state_verdicts(t.after, prof)
    assert recorded > 0


def test_the_cells_around_picked_at_once_are_those_touches_reads() -> None:
    rng = random.Random(5)
    chars = "_*cfglwm"
    for _ in range(200):
        g = "".join(rng.choice(chars) + rng.choice("0123") for _ in range(81))
        for i in range(81):
            around = fast._AROUND_AT[i](g)
            assert type(around) is tuple
            for terrain in chars[1:]:
                assert ("*" in around or terrain in around) == f._touches(g, i, terrain)


@pytest.mark.parametrize("pid", PROFILES)
def test_the_reference_steps_get_an_answer_for_every_check_asked(pid: str) -> None:
    """At the reference's own deals, puts and plays the look answers every check the
    lockstep asks there (its `on` kinds) but for a discard's KD-DISCARD and KD-SCORE-ZONES
    at the end, and never None elsewhere: the lockstep takes such answers as a whole."""
    prof = load_catalogue("kingdomino").profile(pid)
    asked = {kind: {o.rule for o in kd.ORACLES if o.check is not None
                    and (o.on is None or kind in o.on)} for kind in (kd.K_DEAL, kd.K_PUT,
                                                                    kd.K_PLAY)}
    whole = 0
    for t in _steps(pid, seed=25, shared=True):
        kind = kd.action_kind(t.action)
        answers = fast.verdicts(t, prof)
        fast.state_verdicts(t.after, prof)
        if kind not in asked:
            continue
        missing = {rule for rule, a in zip(fast.RULES, answers, strict=True) if a is None}
        assert missing <= {"KD-DISCARD", "KD-SCORE-ZONES"}, (kind, missing)
        assert asked[kind] <= set(fast.RULES), kind
        if "KD-DISCARD" in missing:
            assert kind == kd.K_PLAY and t.action.get("put") is None
        if "KD-SCORE-ZONES" in missing:
            assert t.after["phase"] == "over"
        whole += not missing
    assert whole > 0


def test_a_deal_reads_the_line_before_from_the_deal_before() -> None:
    """On shared JSON a deal's line before is the line the deal before read (after it):
    its tiles are taken from then, and the answers are still the hooks' own."""
    prof = load_catalogue("kingdomino").profile(None)
    reused = 0
    for t in _steps("legend", seed=26, shared=True, games=2):
        if t.action.get("type") == "deal":
            reused += t.before["line"] is fast._line_read[0]
            answers = fast.verdicts(t, prof)
            assert fast._line_read[0] is t.after["line"]
            assert fast._line_read[1] == [e["tile"] for e in t.after["line"]]
            assert answers[fast.DEAL] is not None
            assert _outcome(CHECKS["KD-DEAL"], t, prof) == (type(answers[fast.DEAL]).__name__,
                                                           str(answers[fast.DEAL]))
    assert reused > 0


def test_action_kind_reads_a_deal_as_before() -> None:
    def plain(action: Any) -> str:
        kind = action.get("type")
        if kind == "play":
            return kd.K_PUT if isinstance(action.get("put"), list) else kd.K_PLAY
        return str(kind) if kind in (kd.K_INVALID_PUT, kd.K_STOP, kd.K_DEAL, kd.K_ORDER) \
            else "other"
    for kind in ("deal", "play", "order", "stop", "invalid-put", "x", None, 1, 1.0, True):
        for extra in ({}, {"put": [1, 2, 3]}, {"put": None}):
            action = {"type": kind, **extra}
            assert kd.action_kind(action) == plain(action)
            assert type(kd.action_kind(action)) is str


@pytest.mark.parametrize("pid", PROFILES)
def test_the_order_at_a_turn_end_is_the_hooks_own_on_odd_lines(pid: str) -> None:
    """KD-ORDER at the play that ends a turn (`_line_after` and the kings still playing
    read in one pass): the hook's own verdict where answered, on lines with an entry
    missing a part, another owner, or a stopped king."""
    prof = load_catalogue("kingdomino").profile(pid)
    shown, ends = [], 0
    for shared in (True, False):
        for t in _steps(pid, seed=27, shared=shared):
            if t.action.get("type") != "play" or t.after["turn"] != t.before["turn"] + 1:
                continue
            ends += 1
            shown.append(t)
            line = t.before["line"]
            for i in range(len(line)):
                for entry in ({"tile": line[i]["tile"]}, {"player": line[i]["player"]},
                              {**line[i], "player": None}, {**line[i], "player": 1},
                              {**line[i], "tile": None}, {**line[i], "extra": 0}):
                    odd = [*line[:i], entry, *line[i + 1:]]
                    shown.append(Transition({**t.before, "line": odd}, t.action, t.after,
                                            t.events))
            stopped = [True] * len(t.after["stopped"])
            shown.append(Transition(t.before, t.action, {**t.after, "stopped": stopped},
                                    t.events))
            shown.append(Transition(t.before, {**t.action, "pick": None}, t.after, t.events))
    assert ends > 0
    said, _ = _compare(shown, prof)
    assert said > 0


@pytest.mark.parametrize("pid", PROFILES)
def test_the_pick_within_a_turn_is_the_hooks_own_on_odd_lines_after(pid: str) -> None:
    """KD-PICK compared entry by entry (`fast._pick`): the hook's own verdict where
    answered, on lines after with an entry of another type, a key missing or added, another
    owner or tile (also as a float), an entry missing or added, on a line before with an
    entry missing a part, and on picks of no whole number."""
    prof = load_catalogue("kingdomino").profile(pid)
    shown, within = [], 0
    for shared in (True, False):
        for t in _steps(pid, seed=28, shared=shared):
            if t.action.get("type") != "play" or t.after["turn"] != t.before["turn"]:
                continue
            within += 1
            shown.append(t)
            line = t.after["line"]
            for i in range(len(line)):
                e = line[i]
                for entry in ([e["tile"], e["player"]], {"tile": e["tile"]},
                              {**e, "extra": 0}, {**e, "player": None}, {**e, "player": 9},
                              {**e, "tile": float(e["tile"])}, {**e, "tile": -1},
                              {"player": e["player"], "tile": e["tile"]}):
                    odd = [*line[:i], entry, *line[i + 1:]]
                    shown.append(Transition(t.before, t.action, {**t.after, "line": odd},
                                            t.events))
            for odd_line in (line[:-1], [*line, line[-1]] if line else [], tuple(line)):
                shown.append(Transition(t.before, t.action, {**t.after, "line": odd_line},
                                        t.events))
            before_line = t.before["line"]
            for i in range(len(before_line)):
                for entry in ({"tile": before_line[i]["tile"]},
                              {"player": before_line[i]["player"]}):
                    odd = [*before_line[:i], entry, *before_line[i + 1:]]
                    shown.append(Transition({**t.before, "line": odd}, t.action, t.after,
                                            t.events))
            for pick in (None, "1", 1.0, True, -1):
                shown.append(Transition(t.before, {**t.action, "pick": pick}, t.after,
                                        t.events))
    assert within > 0
    said, _ = _compare(shown, prof)
    assert said > 0


@pytest.mark.parametrize("pid", PROFILES)
def test_the_game_length_read_once_a_turn_is_the_hooks_own(pid: str) -> None:
    """KD-GAME-LENGTH's reads remembered per placing and stopped list (`_length_read`):
    the hook's own verdict at every play, the same lists read before or not, and on
    placings with a king of no player, a player out of range, and other stopped lists."""
    prof = load_catalogue("kingdomino").profile(pid)
    said, hits = 0, 0
    for t in _steps(pid, seed=29, shared=True):
        if t.action.get("type") != "play":
            continue
        hits += t.before["placing"] is fast._length_read[0]
        said += _compare([t], prof)[0]
        shown = []
        placing, n = t.before["placing"], len(t.after["stopped"])
        for i in range(len(placing)):
            for entry in ({"tile": placing[i]["tile"]}, {**placing[i], "player": n + 5},
                          {**placing[i], "player": 0}, {**placing[i], "player": "1"}):
                odd = [*placing[:i], entry, *placing[i + 1:]]
                shown.append(Transition({**t.before, "placing": odd}, t.action, t.after,
                                        t.events))
        for stopped in ([True] * n, [False] * n, [True] + [False] * (n - 1), [False]):
            shown.append(Transition(t.before, t.action, {**t.after, "stopped": stopped},
                                    t.events))
        shown.append(t)  # the lists remembered from the step before are another's now
        said += _compare(shown, prof)[0]
    assert said > 0 and hits > 0


def test_the_put_table_is_board_on_grid_and_second() -> None:
    from gamecert.oracles.kingdomino import board as b
    for x in range(-2, 12):
        for y in range(-2, 12):
            for r in range(-1, 6):
                cells = fast._PUT_CELLS.get((x, y, r))
                assert (cells is not None) == b.on_grid([x, y, r]), (x, y, r)
                if cells is None:
                    continue
                x2, y2 = b.second(x, y, r)
                assert cells[:12] == (9 * y + x, 9 * y2 + x2, min(x, x2), max(x, x2),
                                      min(y, y2), max(y, y2), y, 2 * x, 2 * x + 2, y2,
                                      2 * x2, 2 * x2 + 2)
                assert cells[12] is fast._AROUND_AT[9 * y + x]
                assert cells[13] is fast._AROUND_AT[9 * y2 + x2]


@pytest.mark.parametrize("pid", ["legend", "legend-2p", "legend-3p"])
def test_the_grids_kept_are_trimmed_and_the_answers_stay(pid: str) -> None:
    """`_BY_ID` forgets its older half when full (`_trim`): the answers are still the
    hooks' own, with few grids kept."""
    prof = load_catalogue("kingdomino").profile(pid)
    kept = fast_state._BY_ID_KEPT
    try:
        fast_state._BY_ID_KEPT = 4
        steps = _steps(pid, seed=30, shared=True)
        said, said_states = _compare(steps, prof)
        assert said > 0 and said_states > 0 and len(fast._BY_ID) <= 4
    finally:
        fast_state._BY_ID_KEPT = kept
