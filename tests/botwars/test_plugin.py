"""The Bot Wars fuzzing plugin: its starts load, its actions are accepted and its probes
refused by the reference, its positions and lists reach the rare cases, its bot replies and
targets say what they should."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.botwars import PLUGIN
from gamecert.fuzz.games.botwars.bot_text import GARBAGE
from gamecert.fuzz.games.botwars.crafted import layout, position, turn_edges
from gamecert.fuzz.games.botwars.play import move_list
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import OK
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction

from .boards import place, put, state
from .fuzzing import CAT
from .play import GARBAGE as PLAY_GARBAGE

GAME = BotWars()
FORMAT = next(o for o in oracles_for("botwars") if o.rule == "BOTWARS-FORMAT-DQ")
PROFILES = sorted(CAT.profiles)
FAST = settings(max_examples=25, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


def test_the_plugin_is_found_by_name() -> None:
    assert plugin_for("botwars") is PLUGIN
    assert callable(PLUGIN.prove)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_every_start_is_a_state_the_reference_loads(profile_id: str) -> None:
    profile = CAT.profile(profile_id)

    @FAST
    @given(start=PLUGIN.starts(profile))
    def check(start: Any) -> None:
        if start["kind"] == "new_game":
            return
        assert start["kind"] == "state"
        s = start["state"]
        loaded = GAME.load(profile, s)  # BadState if the plugin made an unreachable state
        assert GAME.observe(loaded) == s
        assert GAME.current(loaded) != TERMINAL

    check()


@pytest.mark.parametrize("profile_id", ["standard", "alternate"])
def test_actions_are_accepted_and_probes_refused_by_the_reference(profile_id: str) -> None:
    profile = CAT.profile(profile_id)

    @FAST
    @given(start=PLUGIN.starts(profile), data=st.data())
    def check(start: Any, data: st.DataObject) -> None:
        ls = Lockstep(GAME, InProcessEngine(reference_session("botwars")), profile,
                      oracles_for("botwars"))
        ls.start(start)
        for _ in range(6):
            if not ls.live:
                break
            probe = PLUGIN.draw_probe(data, ls)
            with pytest.raises(IllegalAction):
                if probe == {"type": "energy", "at": None} and not GAME.free_pairs(ls.ref):
                    raise IllegalAction("the one probe that can be right: no pair is free")
                GAME.apply(ls.ref, GAME.action_from_json(ls.ref, probe))
            ls.step(PLUGIN.draw_action(data, ls))  # InvalidInput if the reference refused

    check()


def test_turn_edges_are_the_limit_and_the_turns_before_energy() -> None:
    assert turn_edges(CAT.profile("standard")) == [199, 198, 197, 2]
    assert turn_edges(CAT.profile("port")) == [199, 198, 195, 5]  # from turn 1, every 5


def _features(profile_id: str, seed: int) -> set[str]:
    profile = CAT.profile(profile_id)
    cfg = BotWarsConfig.of(profile)
    grid = bytes(layout(cfg, random.Random(seed))).decode()
    out = set()
    for side, foe in ((1, "2"), (2, "1")):
        spawn = cfg.spawns[side]
        if any(grid[n] == foe for n in (spawn, *cfg.nbrs[spawn])):
            out.add("raid")
    for sq, c in enumerate(grid):
        near = {grid[n] for n in cfg.nbrs[sq]}
        if c == "*" and {"1", "2"} <= near:
            out.add("contested energy")
        if c == "*" and not near & {"1", "2"} and {grid[n] for n in cfg.nbrs8[sq]} & {"1", "2"}:
            out.add("diagonal energy")
        if c in "12" and ("2" if c == "1" else "1") in near:
            out.add("contact")
        if c in "12" and c in near:
            out.add("own neighbours")
    if any(grid[s] in "xX12" for s in cfg.spawns[1:]):
        out.add("spawn blocked")
    return out


def test_crafted_layouts_reach_the_rare_cases() -> None:
    seen: dict[str, int] = {}
    for seed in range(200):
        for f in _features("standard", seed):
            seen[f] = seen.get(f, 0) + 1
    for feature in ("raid", "contested energy", "diagonal energy", "contact",
                    "own neighbours", "spawn blocked"):
        assert seen.get(feature, 0) >= 10, (feature, seen)


def test_positions_are_consistent_with_their_turn() -> None:
    profile = CAT.profile()
    cfg = BotWarsConfig.of(profile)
    raided = put("." * 400, s21="2", s300="2", s100="1")
    s = position(profile, raided.encode(), 50, "energy", (0, 0), (False, False),
                 random.Random(1))
    assert s["phase"] == "p2"  # energy is not due after turn 50
    assert s["p1"]["spawnDisabled"]  # a p2 botlet stands on p1's spawn: it was razed
    assert GAME.load(profile, s)
    s = position(profile, raided.encode(), 51, "energy", (0, 0), (False, False), None)
    assert s["phase"] == "energy" and GAME.energy_due(cfg, 51)


def _loaded(grid: str, phase: str = "p1", pending: list[dict[str, int]] | None = None) -> Any:
    return GAME.load(CAT.profile(), state(grid, phase=phase, pending=pending))


def test_attack_lists_raid_the_enemy_spawn() -> None:
    s = _loaded(put("." * 400, s358="1", s100="1", s300="2"))
    raids = sum((358, 378) in move_list("attack", s, None, random.Random(i)) for i in range(50))
    assert raids >= 40


def test_bump_lists_put_own_botlets_in_each_others_way() -> None:
    # p1 on 100 and 101 (side by side) and 121 (below 101): 100 and 121 both touch 120
    s = _loaded(put("." * 400, s100="1", s101="1", s121="1", s300="2"))
    lists = [move_list("bump", s, None, random.Random(i)) for i in range(60)]
    pairs = [(100, 101), (101, 100), (101, 121), (121, 101)]
    assert any(m in pairs for ms in lists for m in ms)  # onto an own botlet
    assert any((a, b) in ms and (b, a) in ms for ms in lists for a, b in pairs)  # a swap
    assert any((100, 120) in ms and (121, 120) in ms for ms in lists)  # one square, two
    assert any(f == t for ms in lists for f, t in ms)  # a stay


def test_collide_lists_step_onto_squares_p1_enters() -> None:
    s = _loaded(put("." * 400, s100="1", s300="2", s102="2"), "p2",
                pending=[{"from": 100, "to": 101}])
    pending = [{"from": 100, "to": 101}]
    assert all((102, 101) in move_list("collide", s, pending, random.Random(i))
               for i in range(20))


def test_energy_lists_step_beside_or_onto_energy() -> None:
    s = _loaded(put("." * 400, s100="1", s102="*", s300="2"))
    lists = [move_list("energy", s, None, random.Random(i)) for i in range(30)]
    assert any((100, 101) in ms for ms in lists)  # beside it
    s = _loaded(put("." * 400, s100="1", s101="*", s300="2"))
    assert any((100, 101) in move_list("energy", s, None, random.Random(i)) for i in range(30))


def test_garbage_covers_the_unit_tests_and_all_of_it_disqualifies() -> None:
    assert set(PLAY_GARBAGE) <= set(GARBAGE)
    s = _loaded(put("." * 400, s100="1", s300="2"))
    for text in GARBAGE:
        assert GAME.referee(s, text) == ("bad-format",), text


@settings(max_examples=150, deadline=None, database=None)
@given(text=PLUGIN.bot_texts(CAT.profile()))
def test_bot_texts_are_judged_alike_by_the_referee_and_the_format_oracle(text: str) -> None:
    s = _loaded(put("." * 400, s100="1", s300="2"))
    action = GAME.action_to_json(s, GAME.referee(s, text))
    assert FORMAT.referee is not None
    assert FORMAT.referee(GAME.observe(s), text, action, CAT.profile()) is OK


def test_bot_texts_hold_both_good_and_bad_replies() -> None:
    s = _loaded(put("." * 400, s100="1", s300="2"))
    kinds: set[str] = set()

    @settings(max_examples=200, deadline=None, database=None)
    @given(text=PLUGIN.bot_texts(CAT.profile()))
    def sort(text: str) -> None:
        action = GAME.referee(s, text)
        if action[0] == "moves":
            kinds.add("moves" if action[1] else "empty list")
        elif text[:1] in "[{":
            kinds.add("bad shape")
        else:
            kinds.add("bad format")

    sort()
    assert kinds == {"moves", "empty list", "bad shape", "bad format"}


def test_targets_measure_the_rare_cases() -> None:
    profile = CAT.profile()
    ls = Lockstep(GAME, InProcessEngine(reference_session("botwars")), profile,
                  oracles_for("botwars"))
    grid = place([".121", ".1*2"], 8, 7)  # three contacts, one energy between both bots
    ls.start({"kind": "state", "state": state(put(grid, s358="1", s22="2"), turns=198)})
    assert PLUGIN.targets(ls) == {"contacts": 3.0, "contested energy": 1.0,
                                  "botlets at the enemy spawn": 2.0, "turns elapsed": 198.0}
    ls.start({"kind": "new_game"})
    assert PLUGIN.targets(ls) == {"contacts": 0.0, "contested energy": 0.0,
                                  "botlets at the enemy spawn": 0.0, "turns elapsed": 0.0}


def test_chance_outcomes_are_free_pairs() -> None:
    profile = CAT.profile()

    @FAST
    @given(data=st.data(), seed=st.integers(0, 1000))
    def check(data: st.DataObject, seed: int) -> None:
        ls = Lockstep(GAME, InProcessEngine(reference_session("botwars")), profile,
                      oracles_for("botwars"))
        grid = bytes(layout(BotWarsConfig.of(profile), random.Random(seed)))
        ls.start({"kind": "state", "state": position(profile, grid, 3, "energy", (0, 0),
                                                      (False, False), None)})
        assert GAME.current(ls.ref) == CHANCE
        action = PLUGIN.draw_action(data, ls)
        assert action["type"] == "energy"
        s, s2 = action["at"]
        assert GAME.free_pair(ls.ref, s) and s2 == 399 - s

    check()
