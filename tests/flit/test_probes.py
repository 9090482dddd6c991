"""One-rule probes (fuzz/games/flit/probes.py) and the plugin's other probes: each breaks
its rule and no other, is no legal action in another spelling, and, where the departure
library has a model that relaxes exactly that rule in that way, that model takes it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.flit.probes import build
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, cause_of
from gamecert.reference_engine.contract import CHANCE, TERMINAL, legal_json
from gamecert.reference_engine.flit import departures
from gamecert.spec import load_catalogue
from tests.flit.positions import GAME, crafted, outcome, steered_states

PROFILE = load_catalogue("flit").profile("standard")
JUDGES = [(o.rule, o.judge) for o in oracles_for("flit") if o.judge]
# the library's models that relax FLIT-MOVE-VALID in one way each, by the judge's cause
RELAXED = {"accepted-lifted-piece": departures.SelfNeighbour(),
           "accepted-diagonal": departures.DiagonalNeighbours(),
           "accepted-not-touching": departures.AnyDestination()}


def _states() -> list[Any]:
    states = [GAME.observe(s) for s in steered_states(PROFILE, seed=7, turns=200)[::3]
              if GAME.current(s) not in (CHANCE, TERMINAL)]
    return states + crafted(PROFILE)


def test_each_probe_breaks_its_rule_and_no_other() -> None:
    kinds: Counter[str] = Counter()
    for state in _states():
        legal = {repr(a) for a in legal_json(GAME, GAME.load(PROFILE, state))["actions"]}
        for rule, action in build(state, list_neutrals=False):
            assert repr(action) not in legal, action  # no legal action once parsed
            assert outcome(GAME, PROFILE, state, action) is None, action  # refused
            objecting = {r: str(j(state, action, True, PROFILE)) for r, j in JUDGES
                         if j(state, action, True, PROFILE) not in (OK, NA)}
            assert set(objecting) == {rule}, (action, objecting)
            why = cause_of(objecting[rule]) or ""
            kinds[why] += 1
            if why in RELAXED:  # the model relaxing just that accepts it
                assert outcome(RELAXED[why], PROFILE, state, action) is not None, action
    # every way of breaking the move rule is met, and the turn order's
    assert {"accepted-lifted-piece", "accepted-diagonal", "accepted-not-touching",
            "accepted-occupied-destination", "accepted-not-own-origin",
            "out-of-phase"} <= set(kinds), kinds


def test_probes_under_the_list_reading_are_its_outcomes() -> None:
    profile = load_catalogue("flit").profile("list-neutrals")
    state = GAME.observe(steered_states(profile, seed=2, turns=30)[-3])
    probes = [a for _, a in build(dict(state, phase="move", to_move=1, result=None), True)]
    assert {"type": "neutral-list", "at": None} in probes


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_plugin_probes_never_name_one_square_twice(data: st.DataObject) -> None:
    """A move from a square to itself is a no move by the rules (its canonical form is a
    pass): an engine that takes it so is right, so the plugin never offers it."""
    plugin: Any = plugin_for("flit")

    class Ls:
        ref_json = random.Random(data.draw(st.integers(0, 50))).choice(_STATES)
        profile = PROFILE

    probe = plugin.draw_probe(data, Ls)
    assert not (probe.get("type") == "move" and probe["from"] == probe["to"]), probe


_STATES = _states()
