"""Kingdomino's one-rule probes (fuzz/games/kingdomino/probes.py) and the plugin's other
probes: each one-rule probe is refused by the reference, objected to by its own rule's judge
and by no other judge, and legal under the departure model that relaxes exactly its rule;
every rule with a judge that one action can break alone gets probes in random games; and no
probe, one-rule or drawn, reads as a legal action once parsed by a lenient JSON reader
(integral floats, -0: issue 27 item 4).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecert.fuzz.engines.capabilities import NO_REFEREE, capabilities_of
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.games.kingdomino import PLUGIN
from gamecert.fuzz.games.kingdomino.probes import RELAXING, build, rule_probes
from gamecert.fuzz.step.blame import Blame
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK
from gamecert.oracles.kingdomino import ORACLES
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction
from tests.kingdomino.helpers import GAME, profile
from tests.random_play import random_steps

PROFILES = ("legend", "legend-3p", "legend-2p", "wood", "legend-fiddleatwork",
            "board-game-start")
JUDGES = [(o.rule, o.judge) for o in ORACLES if o.judge is not None]
# Rules with a judge that no single action breaks alone: KD-STOP's judge speaks only of a
# refused stop (a legal action); a PUT that another tile list's squares make legal breaks
# KD-PLACE-CONNECT with the profile's (KD-TILES; one step cannot tell the two apart).
UNPROBED = {"KD-STOP", "KD-TILES"}


def _states(pid: str, seed: int = 5, every: int = 1) -> list[Any]:
    return [t.before for t in random_steps("kingdomino", pid, seed=seed, games=2)][::every]


def _refused(pid: str, state: Any, action: Any) -> bool:
    s = GAME.load(profile(pid), state)
    try:
        GAME.apply(s, GAME.action_from_json(s, action))
    except IllegalAction:
        return True
    return False


@pytest.mark.parametrize("pid", ["legend", "legend-3p", "legend-2p", "wood"])
def test_each_probe_breaks_its_rule_and_no_other(pid: str) -> None:
    prof = profile(pid)
    blame = Blame("kingdomino", prof)
    tried: Counter[str] = Counter()
    for state in _states(pid, every=4):
        for rule, action in build(state, prof):
            tried[rule] += 1
            assert _refused(pid, state, action), (rule, action)
            objecting = {r for r, judge in JUDGES
                         if judge(state, action, True, prof) not in (OK, NA)}
            assert objecting == {rule}, (rule, action, objecting)
            in_line = {e["tile"] for e in state.get("line", [])}
            if rule == "KD-PICK" and action.get("pick") not in in_line:
                continue  # a tile not in the line: no model relaxes that (nor KD-GRID's)
            if rule in RELAXING or rule in ("KD-ORDER-FIRST", "KD-PUT-INVALID"):
                # the model that relaxes exactly this rule takes it
                assert rule in {e.rule for e in blame.acceptance(state, action, None)}, (
                    rule, action)

    assert tried["KD-PLACE-EXTENT"] and tried["KD-PLACE-CONNECT"], tried


def test_every_rule_with_a_judge_is_probed_somewhere() -> None:
    tried: set[str] = set()
    for pid in PROFILES:
        for state in _states(pid, seed=6, every=2):
            tried |= {rule for rule, _ in build(state, profile(pid))}
    judged = {rule for rule, _ in JUDGES}
    assert judged - UNPROBED <= tried, judged - UNPROBED - tried


def test_no_referee_action_is_probed_on_an_engine_without_a_referee() -> None:
    prof = profile("legend")
    for state in _states("legend", every=3):
        with_referee = build(state, prof)
        without = build(state, prof, no_referee=True)
        assert {r for r, _ in without} <= {r for r, _ in with_referee} - {"KD-PUT-INVALID"}
        assert all(a.get("type") not in ("stop", "invalid-put") for _, a in without)


def lenient(value: Any) -> Any:
    """What a lenient JSON reader makes of `value` (a JavaScript engine: one number type):
    an integral float is that whole number, -0 is 0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [lenient(v) for v in value]
    if isinstance(value, dict):
        return {k: lenient(v) for k, v in value.items()}
    return value


def _no_phantom(pid: str, state: Any, action: Any) -> None:
    """The probe's JSON, read leniently, is still an action the reference refuses, and its
    text has no duplicate key (a dict cannot hold one)."""
    text = json.dumps(action)
    assert json.loads(text) == action
    assert _refused(pid, state, lenient(json.loads(text))), action


@pytest.mark.parametrize("pid", ["legend", "wood", "legend-2p"])
def test_no_one_rule_probe_is_a_legal_action_once_parsed(pid: str) -> None:
    for state in _states(pid, every=3):
        for _, action in build(state, profile(pid)):
            _no_phantom(pid, state, action)


def _lockstep(pid: str, seed: int) -> Lockstep:
    engine = object_recipe("kingdomino", "bare:reference").open()
    ls = Lockstep(GAME, engine, profile(pid), oracles_for("kingdomino"),
                  caps=capabilities_of(engine.hello()), go_on=True)
    ls.start({"kind": "new_game", "seed": seed})
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        if not ls.live:
            break
        state = ls.ref
        act = GAME.random_chance(state, rng) if GAME.current(state) == CHANCE \
            else GAME.random_action(state, rng)
        ls.step(GAME.action_to_json(state, act))
    return ls


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(pid=st.sampled_from(["legend", "wood", "legend-2p"]), seed=st.integers(0, 50),
       data=st.data())
def test_drawn_probes_are_no_phantom_inputs(pid: str, seed: int, data: st.DataObject) -> None:
    """The plugin's drawn probes (near misses, bad picks, other action types): whatever the
    lockstep would send (the reference refuses it), a lenient reader refuses it too."""
    ls = _lockstep(pid, seed)
    if ls.to_move in (CHANCE, TERMINAL):
        return
    action = PLUGIN.draw_probe(data, ls)
    if _refused(pid, ls.ref_json, action):
        _no_phantom(pid, ls.ref_json, action)


def test_rule_probes_are_built_once_per_state() -> None:
    ls = _lockstep("legend", 4)
    first = rule_probes(ls)
    assert rule_probes(ls) is first
    assert NO_REFEREE not in ls.caps
