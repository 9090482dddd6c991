"""Kingdomino oracles: silent on the reference's own games, and each speaks up, with its rule
id, on a step that breaks its rule."""

from __future__ import annotations

import copy
import random

from gamecert.oracles import NA, OK, Transition
from gamecert.oracles.kingdomino import (
    ORACLES,
    discard_judge,
    expected_reply,
    order_check,
    rotation_check,
    score_check,
    tie_state,
)
from gamecert.oracles.kingdomino import board as b
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from tests.kingdomino.helpers import GAME, at_turn, profile


def test_silent_on_reference_games() -> None:
    for pid in ("legend", "legend-2p", "wood", "legend-largest-zone"):
        prof, rng = profile(pid), random.Random(pid)
        state = GAME.initial(prof)
        while GAME.current(state) != TERMINAL:
            who = GAME.current(state)
            action = GAME.random_chance(state, rng) if who == CHANCE else \
                GAME.random_action(state, rng)
            before = GAME.observe(state)
            state, events = GAME.apply(state, action)
            t = Transition(before, GAME.action_to_json(state, action), GAME.observe(state),
                           events)
            for o in ORACLES:
                for verdict in ((o.check(t, prof) if o.check else NA),
                                (o.state(t.after, prof) if o.state else NA),
                                (o.judge(t.before, t.action, True, prof) if o.judge else NA)):
                    assert verdict in (OK, NA), (pid, o.rule, verdict)


def _placing_step(pid: str = "legend") -> Transition:
    """A placement of a tile whose two squares differ (so a mirror shows)."""
    seed = 0
    s = at_turn(pid, seed, 3)
    while len(set(s.cfg.tiles[s.placing[s.nxt][0]])) < 2:
        seed += 1
        s = at_turn(pid, seed, 3)
    action = next(a for a in GAME.legal(s) if a[1] is not None)
    after, events = GAME.apply(s, action)
    return Transition(GAME.observe(s), GAME.action_to_json(s, action), GAME.observe(after),
                      events)


def test_rotation_oracle_sees_a_mirrored_tile() -> None:
    t = _placing_step()
    assert rotation_check(t, profile()) is OK
    x, y, r = t.action["put"]
    tile, p = t.before["placing"][t.before["next"]]["tile"], t.before["to_move"]
    a, c = b.tiles(profile())[tile]
    assert a != c
    if a != c:
        after = copy.deepcopy(t.after)
        x2, y2 = b.second(x, y, r)
        rows = after["grids"][p - 1]
        for (cx, cy), sq in (((x, y), c), ((x2, y2), a)):
            rows[cy] = rows[cy][:2 * cx] + sq + rows[cy][2 * cx + 2:]
        assert rotation_check(Transition(t.before, t.action, after, t.events),
                              profile()) not in (OK, NA)


def test_score_and_tie_oracles_check_the_result() -> None:
    state = at_turn("legend-2p", 1, 7)
    rng = random.Random(1)
    while True:
        before = GAME.observe(state)
        action = GAME.random_action(state, rng)
        state, events = GAME.apply(state, action)
        if GAME.current(state) == TERMINAL:
            break
    t = Transition(before, GAME.action_to_json(state, action), GAME.observe(state), events)
    assert score_check(t, profile("legend-2p")) is OK
    assert tie_state(t.after, profile("legend-2p")) is OK
    wrong = copy.deepcopy(t.after)
    wrong["result"]["scores"][0] += 1
    assert score_check(Transition(t.before, t.action, wrong, t.events),
                       profile("legend-2p")) not in (OK, NA)
    wrong = copy.deepcopy(t.after)
    wrong["result"]["final"][1] += 1
    assert tie_state(wrong, profile("legend-2p")) not in (OK, NA)


def test_order_oracle_wants_ascending_picked_ids() -> None:
    s = at_turn("legend", 2, 4)
    while s.nxt < len(s.placing) - 1:  # play to the last king of the turn
        s, _ = GAME.apply(s, GAME.legal(s)[0])
    before = GAME.observe(s)
    action = GAME.legal(s)[0]
    after, events = GAME.apply(s, action)
    t = Transition(before, GAME.action_to_json(s, action), GAME.observe(after), events)
    assert order_check(t, profile()) is OK
    wrong = copy.deepcopy(t.after)
    wrong["placing"] = list(reversed(wrong["placing"]))
    assert order_check(Transition(t.before, t.action, wrong, t.events),
                       profile()) not in (OK, NA)


def test_discard_judge_knows_when_a_tile_fits() -> None:
    s = GAME.observe(at_turn("legend", 3, 2))
    pick = s["line"][0]["tile"]
    discard = {"type": "play", "put": None, "pick": pick}
    assert discard_judge(s, discard, True, profile()) not in (OK, NA)
    assert discard_judge(s, discard, False, profile()) in (OK, NA)  # refusing is right


def test_expected_reply_reads_the_two_lines() -> None:
    s = GAME.observe(at_turn("legend", 3, 2))
    pick = s["line"][0]["tile"]
    assert expected_reply(s, "PUT 1 2\nPICK 3\n", profile()) == {"type": "stop",
                                                                 "cause": "format"}
    assert expected_reply(s, f"PUT 0 0 0\nPICK {pick}\n", profile()) == {"type": "stop",
                                                                         "cause": "put"}
    assert expected_reply(s, f"PUT 0 0 0\nPICK {pick}\n", profile("wood")) == {
        "type": "invalid-put", "pick": pick}
