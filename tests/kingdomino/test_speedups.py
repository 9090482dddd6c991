"""Kingdomino's oracle speed-ups (issue 15) give the answers the plain computations give.

Each shortcut in `oracles.kingdomino` (cell sets for `fits_somewhere`, zones and extents by
index, the shared facts of `facts`, the checks that read them) is compared with the plain
computation it stands in for, on states and steps of random games under every profile, on
replies that differ from the reference's, and on replies too malformed to read (where the
verdict, or the exception the lockstep turns into one, must be the same too).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

import gamecert.oracles.kingdomino as kd
from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause, expect
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue
from tests.kingdomino.helpers import GAME

PROFILES = sorted(load_catalogue("kingdomino").profiles)


@pytest.fixture(autouse=True)
def _fresh_facts() -> None:
    """Each test starts with empty caches: profiles that play the same games would
    otherwise find the facts an earlier test worked out."""
    f.grid_facts.cache_clear()
    f._STATES.clear()
    f._PREV = ([], f.StateGrids(()))
    f._LAST_STATE = (object(), f.StateGrids(()))
    f._LAST = (None, None, None)


def _steps(pid: str, seed: int, games: int = 2) -> list[Transition]:
    """The steps of random games, each step's `after` the next one's `before`."""
    prof = load_catalogue("kingdomino").profile(pid)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = GAME.initial(prof)
        sj = GAME.observe(s)
        while GAME.current(s) != TERMINAL:
            who = GAME.current(s)
            a = GAME.random_chance(s, rng) if who == CHANCE else GAME.random_action(s, rng)
            aj = GAME.action_to_json(s, a)
            s, events = GAME.apply(s, a)
            after = GAME.observe(s)
            out.append(Transition(sj, aj, after, list(events)))
            sj = after
    return out


def _outcome(fn: Callable[..., Verdict], *args: Any) -> Any:
    """A hook's verdict (kind and text), or the exception it raises (type and text): what
    the lockstep makes of it either way."""
    try:
        v = fn(*args)
    except Exception as exc:  # the lockstep reads these as violations
        return ("raised", type(exc).__name__, str(exc))
    return (type(v).__name__, str(v))


# --- board: the same answers by cell sets and indexes ------------------------------------

def _grids_of(steps: list[Transition]) -> list[str]:
    seen = dict.fromkeys(b.grid(t.after, p) for t in steps
                         for p in range(1, len(t.after["grids"]) + 1))
    return list(seen)


@pytest.mark.parametrize("pid", PROFILES)
def test_fits_somewhere_by_cell_sets_equals_trying_every_placement(pid: str) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    tiles = sorted(set(b.tiles(prof).values()) | {("c0", "*0"), ("_0", "m1")})
    rng = random.Random(3)
    grids = _grids_of(_steps(pid, seed=11, games=1))[::2]
    assert len(grids) > 10
    for g in grids:
        for squares in rng.sample(tiles, 3):
            for size in (1, 2, 3, 5, b.N + 1):
                for connect in (True, False):
                    assert b._fits_masks(g, squares, size, connect) == \
                        b._fits_plain(g, squares, size, connect), (g, squares, size, connect)


def test_fits_somewhere_on_odd_grids_reads_them_as_before() -> None:
    full = "c0" * 40 + "*0" + "c0" * 40
    empty = "_0" * 81
    off = "_0" * 10 + "*0" + "_0" * 70  # a castle away from the centre
    for g in (full, empty, off, off.replace("_0", "w1", 5)):
        for size in (2, 5, 9):
            for connect in (True, False):
                assert b._fits_masks(g, ("w0", "c1"), size, connect) == \
                    b._fits_plain(g, ("w0", "c1"), size, connect)
    b.fits_somewhere.cache_clear()
    # not 81 cells: the plain reading, to the same exception
    assert _outcome(b.fits_somewhere, empty[:-2], ("w0", "c1"), 5) == \
        _outcome(b._fits_plain, empty[:-2], ("w0", "c1"), 5)
    assert _outcome(b.fits_somewhere, empty + "_0", ("w0", "c1"), 5) == \
        _outcome(b._fits_plain, empty + "_0", ("w0", "c1"), 5)


@pytest.mark.parametrize("pid", PROFILES)
def test_zones_extent_and_cells_by_index_equal_the_cell_by_cell_reading(pid: str) -> None:
    steps = _steps(pid, seed=5, games=1)
    grids = _grids_of(steps)
    for g in grids:
        assert b.zones(g) == b._zones_plain(g)
        assert b.territory(g, False) == sum(1 for i in range(81) if g[2 * i] not in "_*")
        assert b.crowns(g) == sum(int(g[2 * i + 1]) for i in range(81))
        cells = b.occupied(g)
        want = (min(c[0] for c in cells), max(c[0] for c in cells),
                min(c[1] for c in cells), max(c[1] for c in cells)) if cells else None
        b.extent.cache_clear()
        assert b.extent(g) == want
        for x in range(b.N):
            for y in range(b.N):
                for terrain in ("c", "w", "*", "_"):
                    assert b.touches(g, x, y, terrain) == any(
                        b.cell(g, a, c)[0] in ("*", terrain) for a, c in b.around(x, y))
                for r in range(4):
                    if b.on_grid([x, y, r]):
                        x2, y2 = b.second(x, y, r)
                        assert b.free(g, [x, y, r]) == (
                            b.cell(g, x, y)[0] == "_" and b.cell(g, x2, y2)[0] == "_")
    rng = random.Random(2)
    for _ in range(200):
        one, two = rng.choice(grids), rng.choice(grids)
        assert b.changed_cells(one, two) == b._changed_plain(one, two)
        assert list(b.changed_cells(one, two)) == list(b._changed_plain(one, two))
    for odd in ("c1" * 80, "c1" * 82, "c1" * 40 + "_0" + "c1" * 38):  # the plain reading
        assert _outcome(b.zones, odd) == _outcome(b._zones_plain, odd)
    for odd in ("c1" * 80 + "cx", "c1" * 80 + "c\u0663", "c1" * 80, "c1" * 82, "*2" * 81):
        assert _outcome(b.crowns, odd) == _outcome(
            lambda g: sum(int(g[2 * i + 1]) for i in range(81)), odd)
        assert _outcome(b.territory, odd, False) == _outcome(
            lambda g, _: sum(1 for i in range(81) if g[2 * i] not in "_*"), odd, False)


# --- facts: grids, their cache and the step's shared facts -------------------------------

def test_grid_facts_equal_the_plain_readings() -> None:
    steps = _steps("legend", seed=4, games=1)
    rows_seen = [tuple(rows) for t in steps for rows in t.after["grids"]]
    odd = [("c0" * 9,) * 8, ("c0" * 9,) * 8 + ("c0" * 8 + "c",), ("x0" * 9,) * 9,
           ("c4" * 9,) * 9, ("c0" * 10,) * 9, ("c0" * 9,) * 9, ("*0" * 9,) * 9,
           ("c0" * 9,) * 8 + ("c0" * 8 + "c٣",), ("c0" * 9,) * 8 + ("c0" * 4, "c0" * 5)]
    for rows in rows_seen + odd:
        facts = f.Grid(rows)
        g = "".join(rows)
        assert facts.g == g
        assert facts.rows_ok == facts.rows_ok_plain() == kd._rows_ok(rows)
        assert facts.castle_ok == (b.cell(g, 4, 4) == "*0" and g.count("*") == 1)
        assert f.grid_facts(rows).g == g


def test_unreadable_states_are_read_as_before() -> None:
    for s in (None, {}, {"grids": None}, {"grids": [None]}, {"grids": [["c0"], 5]}):
        for _ in range(2):  # the second time after the first was asked: still unread
            assert _outcome(kd.grid_state, s, None) == _outcome(kd._grid_state_plain, s, None)
            assert _outcome(kd.input_state, s, None) == _outcome(kd._input_state_plain, s,
                                                                 None)


def test_state_grids_are_cached_by_identity_and_follow_a_new_object() -> None:
    steps = _steps("legend", seed=6, games=1)
    s = steps[40].after
    first = f.grids(s)
    assert f.grids(s) is first
    changed = copy.deepcopy(s)
    changed["grids"][0][0] = "c0" + changed["grids"][0][0][2:]
    assert f.grids(changed)[0].g == b.grid(changed, 1) != first[0].g
    for t in steps[::9]:  # after many other states: still the right facts
        for q in range(1, len(t.after["grids"]) + 1):
            assert f.grids(t.after)[q - 1].g == b.grid(t.after, q)
            assert f.grids(t.before)[q - 1].g == b.grid(t.before, q)


@pytest.mark.parametrize("pid", PROFILES)
def test_changed_cells_of_grid_facts_equal_the_board_reading(pid: str) -> None:
    steps = _steps(pid, seed=8, games=1)
    rng = random.Random(8)
    rows = [tuple(r) for t in steps for r in t.after["grids"]]
    rows += [("c0" * 9,) * 8, ("c0" * 10,) * 9]
    for _ in range(300):
        one, two = f.Grid(rng.choice(rows)), f.Grid(rng.choice(rows))
        assert f.changed_cells(one, two) == b.changed_cells(one.g, two.g)
        assert f.changed_cells(one, one) == {}


@pytest.mark.parametrize("pid", PROFILES)
def test_hinted_changes_and_grown_extents_equal_the_board_readings(pid: str) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    steps = _steps(pid, seed=9, games=1)
    rng = random.Random(9)
    rows = [tuple(r) for t in steps for r in t.after["grids"]]
    for _ in range(300):  # any two grids, any two cells named
        one, two = f.Grid(rng.choice(rows)), f.Grid(rng.choice(rows))
        hint = (rng.randrange(81), rng.randrange(81))
        assert f.changed_cells(one, two, hint) == b.changed_cells(one.g, two.g)
    grown = 0
    for t in _replies(steps, rng):  # the put steps: their grids' extents, grown or not
        step = kd._put_step(t, prof)
        if step is None:
            continue
        before, after = f.grids(t.before), f.grids(t.after)
        known = [a._extent is not None for a in after]
        diffs = step.read()
        for q in range(len(after)):
            assert diffs[q] == b.changed_cells(before[q].g, after[q].g)
            grown += not known[q] and after[q]._extent is not None  # widened by the change
            assert after[q].extent == b.extent(after[q].g)
            assert before[q].extent == b.extent(before[q].g)
        assert step.faults == kd._faults(t.before, t.action, prof)
    assert grown > 0


# --- the checks and state hooks: fast and plain say the same -----------------------------

def _replies(steps: list[Transition], rng: random.Random) -> list[Transition]:
    """Each step as the reference made it, and with replies that break a rule: another
    step's state after, a grid with one more or one fewer tile square, the tile turned."""
    out = []
    for t in steps:
        out.append(t)
        other = steps[rng.randrange(len(steps))]
        out.append(Transition(t.before, t.action, other.after, other.events))
        wrong = copy.deepcopy(t.after)
        p = rng.randrange(len(wrong["grids"]))
        rows = wrong["grids"][p]
        y, x = rng.randrange(b.N), rng.randrange(b.N)
        rows[y] = rows[y][:2 * x] + rng.choice(["c1", "_0", "w0", "*0"]) + rows[y][2 * x + 2:]
        out.append(Transition(t.before, t.action, wrong, t.events))
        put = t.action.get("put")
        if isinstance(put, list) and t.before != t.after:  # the same squares, swapped over
            p = t.before["to_move"]
            g = b.changed_cells(b.grid(t.before, p), b.grid(t.after, p))
            if len(g) == 2:
                (c1, v1), (c2, v2) = g.items()
                turned = copy.deepcopy(t.after)
                rows = turned["grids"][p - 1]
                for (cx, cy), v in ((c1, v2), (c2, v1)):
                    rows[cy] = rows[cy][:2 * cx] + v + rows[cy][2 * cx + 2:]
                out.append(Transition(t.before, t.action, turned, t.events))
    return out


def _malformed(steps: list[Transition], rng: random.Random) -> list[Transition]:
    """Replies too malformed to read: grids missing, short, not strings, not lists."""
    out = []
    breakers: list[Callable[[Any], None]] = [
        lambda s: s["grids"].pop(),
        lambda s: s["grids"][0].pop(),
        lambda s: s["grids"][0].__setitem__(3, 7),
        lambda s: s["grids"].__setitem__(1, None),
        lambda s: s["grids"].__setitem__(0, "c0" * 81),
        lambda s: s["grids"][1].__setitem__(0, {"row": 1}),
        lambda s: s.pop("grids"),
        lambda s: s.__setitem__("grids", 5),
        lambda s: s.__setitem__("kings", "22"),
        lambda s: s.__setitem__("kings", None),
        lambda s: s.__setitem__("bag", None),
        lambda s: s.pop("line"),
    ]
    for t in steps:
        wrong = copy.deepcopy(t.after)
        rng.choice(breakers)(wrong)
        out.append(Transition(t.before, t.action, wrong, t.events))
    return out


def _chain_pairs() -> list[tuple[str, Any, Any]]:
    pairs = []
    for o in kd.ORACLES:
        if o.rule in kd.PLAIN_CHAIN_CHECKS:
            pairs.append((o.rule, o.check, kd.PLAIN_CHAIN_CHECKS[o.rule]))
    assert len(pairs) == 3
    return pairs


CHECK_PAIRS = [("KD-TILES", kd.tiles_check, kd._tiles_plain),
               ("KD-PLACE-ROTATION", kd.rotation_check, kd._rotation_plain)]
STATE_PAIRS = [("KD-GRID", kd.grid_state, kd._grid_state_plain),
               ("KD-PROTO-INPUT", kd.input_state, kd._input_state_plain)]


@pytest.mark.parametrize("pid", PROFILES)
def test_checks_over_shared_facts_say_what_the_plain_checks_say(pid: str) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    rng = random.Random(len(pid))
    steps = _steps(pid, seed=12, games=1)
    shown = _replies(steps, rng) + _malformed(steps[::3], rng)
    pairs = CHECK_PAIRS + _chain_pairs()
    judged = 0
    for t in shown:
        for rule, fast, plain in pairs:
            got = _outcome(fast, t, prof)
            assert got == _outcome(plain, t, prof), (rule, t.action)
            judged += got[0] == "Violation"
        for rule, fast, plain in STATE_PAIRS:
            assert _outcome(fast, t.after, prof) == _outcome(plain, t.after, prof), rule
    assert judged > 0  # some replies broke a rule: the comparison saw violations too


@pytest.mark.parametrize("pid", PROFILES)
def test_the_fast_readings_read_every_step_of_a_game(pid: str) -> None:
    """On the reference's own steps the fast paths answer without falling back (an error
    in them would otherwise hide behind the plain check's answer)."""
    prof = load_catalogue("kingdomino").profile(pid)
    for t in _steps(pid, seed=13, games=1):
        for fn in (kd._tiles_fast, kd._rotation_fast):
            assert fn(t, prof) in (NA, OK)
        step = kd._put_step(t, prof)
        if step is not None:
            assert step.faults == kd._faults(t.before, t.action, prof) == []
        assert all(facts.rows_ok and facts.castle_ok for facts in f.grids(t.after))


# --- the state hooks and checks whose reading changed: as they read before --------------
# (the code as it was before issue 15's speed-ups, kept here as the plain computation)

def _players_before(s: Any, profile: Profile) -> Verdict:
    n = b.players(profile)
    return expect(s["players"] == n and len(s["grids"]) == n and len(s["stopped"]) == n,
                  f"the profile plays {n} players; the state has {s['players']} and "
                  f"{len(s['grids'])} grids")


def _kings_before(s: Any, profile: Profile) -> Verdict:
    k = b.kings(profile)
    return expect(all(v == k for v in s["kings"]),
                  f"each player has {k} king(s) with {b.players(profile)} players; "
                  f"the state says {s['kings']}")


def _in_play_before(s: Any, profile: Profile) -> Verdict:
    drawn = len(b.tiles(profile)) - len(s["bag"])
    if len(s["line"]) <= b.line_size(profile) and drawn <= b.in_play(profile):
        return OK
    return cause("line-size" if len(s["line"]) > b.line_size(profile) else "tiles-in-play",
                 f"{drawn} tiles drawn and a line of {len(s['line'])}: at most "
                 f"{b.in_play(profile)} come into play, in lines of {b.line_size(profile)}")


def _last_turn_before(s: Any, profile: Profile) -> Verdict:
    if s["turn"] < b.turns(profile) or s["phase"] == "over":
        return NA
    return expect(s["phase"] == "play" and s["line"] == [],
                  f"the last turn ({s['turn']}) draws no line; phase {s['phase']}, "
                  f"line {s['line']}")


def _length_before(s: Any, profile: Profile) -> Verdict:
    if s["turn"] <= b.turns(profile):
        return OK
    return cause("goes-on", f"turn {s['turn']}: the game lasts {b.turns(profile)} turns")


def _stop_before(s: Any, profile: Profile) -> Verdict:
    if s["phase"] != "play":
        return NA
    return expect(not s["stopped"][s["to_move"] - 1],
                  f"player {s['to_move']} is to move but its game has ended")


def _state_breakers() -> list[Callable[[Any], None]]:
    return [
        lambda s: s.__setitem__("players", s["players"] + 1),
        lambda s: s["grids"].pop(),
        lambda s: s["stopped"].append(False),
        lambda s: s["kings"].__setitem__(0, 3),
        lambda s: s.__setitem__("kings", "22"),
        lambda s: s.__setitem__("kings", [2.0, True]),
        lambda s: s.__setitem__("kings", None),
        lambda s: s.__setitem__("bag", []),
        lambda s: s.__setitem__("line", [{"tile": 1, "player": None}] * 9),
        lambda s: s.__setitem__("turn", s["turn"] + 20),
        lambda s: s.__setitem__("phase", "deal"),
        lambda s: s.__setitem__("stopped", [True] * 4),
        lambda s: s.pop("line"),
        lambda s: s.__setitem__("to_move", None),
    ]


@pytest.mark.parametrize("pid", PROFILES)
def test_state_hooks_say_what_they_said_before(pid: str) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    pairs = [(kd.players_state, _players_before), (kd.kings_state, _kings_before),
             (kd.in_play_state, _in_play_before), (kd.last_turn_state, _last_turn_before),
             (kd.length_state, _length_before), (kd.stop_state, _stop_before)]
    rng = random.Random(4)
    breakers = _state_breakers()
    judged = 0
    for t in _steps(pid, seed=14, games=1)[::2]:
        states = [t.after]
        for breaker in rng.sample(breakers, 4):
            wrong = copy.deepcopy(t.after)
            breaker(wrong)
            states.append(wrong)
        for s in states:
            for fast, plain in pairs:
                got = _outcome(fast, s, prof)
                assert got == _outcome(plain, s, prof), (fast.__name__, s)
                judged += got[0] == "Violation"
    assert judged > 0


def _in_play_check_before(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "deal" or t.before["phase"] != "deal":
        return NA
    size, line = b.line_size(profile), len(t.after["line"])
    if t.after["phase"] == "deal":
        return OK if line < size and t.after["bag"] != [] else cause(
            "line-size", f"a line of {size} is complete with {line} tiles, yet another is drawn")
    return OK if line == size or not t.after["bag"] else cause(
        "line-size", f"the line is complete with {line} tiles; the rule says {size}")


def _deal_check_before(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "deal":
        return NA
    tile = t.action["tile"]
    want_bag = [x for x in t.before["bag"] if x != tile]
    want_line = sorted([*(e["tile"] for e in t.before["line"]), tile])
    got_line = [e["tile"] for e in t.after["line"]]
    if t.after["turn"] != t.before["turn"]:
        return NA
    return expect(t.after["bag"] == want_bag and got_line == want_line,
                  f"drawing tile {tile}: the bag must lose it and the line show it in "
                  f"ascending id; line {got_line}")


def _order_check_before(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play" or t.after["phase"] == "over" \
            or t.after["turn"] != t.before["turn"] + 1:
        return NA
    stopped = t.after["stopped"]
    want = sorted(({"tile": e["tile"], "player": e["player"]} for e in kd._line_after(t)
                   if e["player"] is not None and not stopped[e["player"] - 1]),
                  key=lambda e: e["tile"])
    return expect(t.after["placing"] == want,
                  f"turn {t.after['turn']}: kings act by ascending picked id {want}; "
                  f"got {t.after['placing']}")


def _pick_check_before(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play" or t.action.get("type") not in ("play", "invalid-put") \
            or kd._last(t.before, profile):
        return NA
    pick, p = t.action.get("pick"), kd._acting(t.before)[1]
    if t.after["phase"] == "over":
        return NA  # a game that ends before its last turn is KD-GAME-LENGTH's
    if pick not in kd._free_tiles(t.before):
        return cause("not-free", f"PICK {pick} applied; free tiles were "
                     f"{kd._free_tiles(t.before)}")
    if t.after["turn"] != t.before["turn"] or t.after["line"] == kd._line_after(t):
        return OK
    return cause("line-marked", f"player {p} picked tile {pick}: the line should mark it and "
                 f"nothing else; got {t.after['line']}")


def _length_check_before(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play":
        return NA
    stopped = t.after["stopped"]
    rest = [k for k in t.before["placing"][t.before["next"] + 1:]
            if not stopped[k["player"] - 1]]
    alone = 1 if profile.variant("KD-STOP") == "end-when-alone" else 0
    everyone_out = stopped.count(False) <= alone
    should_end = everyone_out or (not rest and kd._last(t.before, profile))
    if t.after["phase"] == "over":
        return OK if should_end or (not rest and not kd._kings_next(t)) else cause(
            "ends-early", f"the game ended on turn {t.before['turn']} of {b.turns(profile)}")
    return OK if not should_end else cause(
        "goes-on", f"turn {t.before['turn']} is the last and every king has played, but the "
        "game goes on")


def _score_check_before(t: Transition, profile: Profile) -> Verdict:
    res = t.after["result"]
    if t.after["phase"] != "over" or res is None:
        return NA
    want = [b.score(b.grid(t.after, p)) for p in range(1, len(t.after["grids"]) + 1)]
    return expect(res["scores"] == want, f"zone scores are {want}; the result says "
                                         f"{res['scores']}")


def _tie_state_before(s: Any, profile: Profile) -> Verdict:
    res = s["result"]
    if res is None:
        return NA
    largest = profile.variant("KD-TIE-BREAK") == "largest-zone"
    n = len(s["grids"])
    terr = [b.territory(b.grid(s, p), largest) for p in range(1, n + 1)]
    crowns = [b.crowns(b.grid(s, p)) for p in range(1, n + 1)]
    final = kd.tie_break(res["scores"], terr, crowns)
    winners = [i + 1 for i, v in enumerate(final) if v == max(final)]
    wrong = [(name, want) for name, want in (("territory", terr), ("crowns", crowns),
                                             ("final", final), ("winners", winners))
             if res[name] != want]
    if not wrong:
        return OK
    said = "; ".join(f"{name}: the rule gives {want}, the result says {res[name]}"
                     for name, want in wrong)
    agree = "" if res["final"] != final else f" (the final scores agree: {final})"
    measure = "largest zone" if largest else "total squares"
    return cause(wrong[0][0], f"{', '.join(n for n, _ in wrong)} "
                 f"differ{'s' if len(wrong) == 1 else ''}{agree}: {said}; with scores "
                 f"{res['scores']}, territory ({measure}) {terr} and crowns {crowns}")


@pytest.mark.parametrize("pid", PROFILES)
def test_checks_say_what_they_said_before(pid: str) -> None:
    prof = load_catalogue("kingdomino").profile(pid)
    pairs = [(kd.in_play_check, _in_play_check_before), (kd.deal_check, _deal_check_before),
             (kd.order_check, _order_check_before), (kd.pick_check, _pick_check_before),
             (kd.length_check, _length_check_before), (kd.score_check, _score_check_before)]
    rng = random.Random(6)
    steps = _steps(pid, seed=15, games=1)
    shown = _replies(steps, rng) + _malformed(steps[::4], rng)
    for t in steps:  # a deal of a tile the bag holds twice, or a tile of another type
        if t.action.get("type") == "deal":
            twice = {**t.before, "bag": [*t.before["bag"], t.action["tile"]]}
            shown.append(Transition(twice, t.action, t.after, t.events))
            shown.append(Transition(t.before, {**t.action, "tile": float(t.action["tile"])},
                                    t.after, t.events))
    judged = 0
    for t in shown:
        for fast, plain in pairs:
            got = _outcome(fast, t, prof)
            assert got == _outcome(plain, t, prof), (fast.__name__, t.action)
            judged += got[0] == "Violation"
        if t.after is not None and isinstance(t.after, dict) and t.after.get("result"):
            assert _outcome(kd.tie_state, t.after, prof) == _outcome(_tie_state_before,
                                                                     t.after, prof)
    assert judged > 0


def test_action_kinds_name_what_the_checks_read() -> None:
    assert kd.action_kind({"type": "play", "put": [1, 2, 0], "pick": 3}) == "put"
    assert kd.action_kind({"type": "play", "put": None, "pick": 3}) == "play"
    assert kd.action_kind({"type": "invalid-put", "pick": 3}) == "invalid-put"
    assert kd.action_kind({"type": "deal", "tile": 3}) == "deal"
    assert kd.action_kind({"type": "order", "order": [1, 2]}) == "order"
    assert kd.action_kind({"type": "stop", "cause": "format"}) == "stop"
    assert kd.action_kind({"type": "wave"}) == "other"
    assert isinstance(Violation("x"), str)


def test_rows_remembered_as_matching_are_not_matched_again_and_say_the_same() -> None:
    """`_rows_match` skips the rows it has seen match `ROW`: with the memory empty, warm, or
    holding only some rows of a grid, it says what matching every row says."""
    steps = _steps("legend-3p", seed=18, games=1)
    rows_seen = [tuple(rows) for t in steps for rows in t.after["grids"]]
    rng = random.Random(18)
    bad_rows = ["c0" * 8 + "c", "x0" * 9, "c4" * 9, "c0" * 10, "c0" * 8 + "c\u0663"]
    shown = list(rows_seen)
    for rows in rng.sample(rows_seen, 40):  # one row broken: the others remembered
        broken = list(rows)
        broken[rng.randrange(len(broken))] = rng.choice(bad_rows)
        shown.append(tuple(broken))
    for warm in (False, True, True):
        if not warm:
            f._GOOD_ROWS.clear()
        for rows in rng.sample(shown, len(shown)):
            want = all(f.ROW.fullmatch(r) for r in rows)
            assert f._rows_match(rows) == want, rows
    assert f._GOOD_ROWS and all(f.ROW.fullmatch(r) for r in f._GOOD_ROWS)


def test_state_grid_summaries_equal_the_reading_over_every_grid() -> None:
    """StateGrids' `rows_ok` and `castle_bad` (a loop) are `all` of the grids' rows_ok and
    the first grid whose castle is not alone on (4, 4)."""
    rng = random.Random(19)
    good = [f.Grid(tuple(rows)) for t in _steps("legend", seed=19, games=1)[::7]
            for rows in t.after["grids"]]
    bad = [f.Grid(("c0" * 9,) * 9), f.Grid(("x0" * 9,) * 9),
           f.Grid(("c0" * 9,) * 4 + ("c0" * 4 + "*0" + "c0" * 4,) + ("*0" * 9,) * 4)]
    for _ in range(300):
        grids = tuple(rng.choice(good + bad) for _ in range(rng.randrange(5)))
        facts = f.StateGrids(grids)
        assert facts.rows_ok == all(g.rows_ok for g in grids)
        assert facts.castle_bad == next((i for i, g in enumerate(grids) if not g.castle_ok),
                                        None)
