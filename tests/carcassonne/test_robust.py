"""Crafted input from a fuzzer: load and action_from_json answer with their own errors only."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecert.reference_engine.carcassonne.engine import action_problem
from gamecert.reference_engine.carcassonne.load import shape_ok
from gamecert.reference_engine.contract import BadState, IllegalAction
from gamecert.schemas import first_error

from .helpers import ENGINE, play, profile

PROF = profile()


def _samples() -> list[dict[str, Any]]:
    """A river state, a land place step, a claim step and a finished game."""
    out: dict[str, dict[str, Any]] = {}
    for before, _, after, _ in play(PROF, 41):
        o = ENGINE.observe(after)
        key = "over" if after.result else f"{o['phase']}-{o['step']}"
        out.setdefault(key, o)
        _ = before
    return [out[k] for k in ("river-place", "land-place", "land-claim", "over")]


SAMPLES = _samples()
JSONS = st.recursive(st.none() | st.booleans() | st.integers(-200, 200) | st.text(max_size=6)
                     | st.sampled_from(["A", "RS", "RE", "top", "claim", "land", "over"]),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=8)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    state = copy.deepcopy(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(state) if p]
        path = draw(st.sampled_from(paths))
        parent = state
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(["replace", "delete", "small-int"]))
        if how == "delete":
            del parent[path[-1]]
        elif how == "small-int":
            parent[path[-1]] = draw(st.integers(-3, 9))
        else:
            parent[path[-1]] = draw(JSONS)
    return state


def test_shape_check_accepts_every_sample_state() -> None:
    assert all(shape_ok(s) for s in SAMPLES)
    assert not shape_ok({**SAMPLES[0], "extra": 1})
    assert not shape_ok({**SAMPLES[0], "players": True})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_load_answers_bad_states_with_bad_state(state: dict[str, Any]) -> None:
    # the fast shape check that lets load skip the schema never lets a bad document through
    if shape_ok(state):
        assert first_error("carcassonne-state", state) is None
    try:
        loaded = ENGINE.load(PROF, state)
    except BadState as exc:
        assert str(exc)
        return
    # accepted: it must be a state the engine can observe and load back unchanged
    again = ENGINE.observe(loaded)
    assert ENGINE.observe(ENGINE.load(PROF, again)) == again


TILE = st.sampled_from(["A", "U", "V", "E", "R2", "RE", "ZZ", "a"])
ACTIONS = st.one_of(
    st.fixed_dictionaries({"type": st.just("place"), "tile": TILE,
                           "at": st.lists(st.integers(-6, 6), min_size=2, max_size=2),
                           "rotation": st.integers(-1, 4)}),
    st.fixed_dictionaries({"type": st.just("claim"),
                           "on": st.sampled_from(["top", "right", "left", "monastery", "x"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["discard", "draw"]), "tile": TILE}),
    st.just({"type": "pass"}), JSONS)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SAMPLES[:3]), ACTIONS)
def test_action_from_json_and_apply_refuse_cleanly(sample: dict[str, Any], data: Any) -> None:
    # the hand-written action check that words the errors agrees with the action schema
    assert (action_problem(data) is None) == (first_error("carcassonne-action", data) is None)
    state = ENGINE.load(PROF, sample)
    legal = ENGINE.legal(state)
    try:
        action = ENGINE.action_from_json(state, data)
        ENGINE.apply(state, action)
    except IllegalAction as exc:
        assert str(exc)
        assert not (isinstance(data, dict) and data.get("type") == "place"
                    and data.get("rotation") in (0, 1, 2, 3) and "action" in locals()
                    and action in legal), "a legal placement was refused"
        return
    assert action in legal, f"{data} applied but is not in the legal list"
