"""The fast shape check of a Kingdomino state (reference_engine.kingdomino.shape) against
the plain path, jsonschema: it vouches for every state the reference observes, never for
one the schema refuses, and loading gives the same state or the same error either way."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState
from gamecert.reference_engine.kingdomino import load as kd_load
from gamecert.reference_engine.kingdomino.shape import surely_well_formed
from gamecert.schemas import first_error
from gamecert.spec import load_catalogue
from tests.kingdomino.helpers import GAME, profile


def observed_states(pid: str, seed: int) -> list[Any]:
    """Every state of one random game under `pid`, as the reference observes it."""
    rng = random.Random(seed)
    state = GAME.initial(profile(pid))
    seen = [GAME.observe(state)]
    while GAME.current(state) != TERMINAL:
        who = GAME.current(state)
        act = GAME.random_chance(state, rng) if who == CHANCE else GAME.random_action(state, rng)
        state, _ = GAME.apply(state, act)
        seen.append(GAME.observe(state))
    return seen


PROFILES = sorted(load_catalogue("kingdomino").profiles)
# a few states of every phase (order, deal, play, over) under every profile
SAMPLES = [s for i, pid in enumerate(PROFILES)
           for game in [observed_states(pid, i)] for s in game[::7] + game[-1:]]


def test_it_vouches_for_every_state_the_reference_observes() -> None:
    for pid in PROFILES:
        for o in observed_states(pid, 3):
            assert first_error("kingdomino-state", o) is None
            assert surely_well_formed(o), (pid, o)
    assert {o["phase"] for o in SAMPLES} == {"order", "deal", "play", "over"}


# values the schema's types are easy to get wrong on: bools are not integers for it, 1.0
# is, a final newline passes its `$`, and so on
ODD = [None, True, False, 0, 1, 2, 5, 48, 49, -1, 1.0, 2.0, "", "x", "kingdomino",
       "_0" * 9, "_0" * 9 + "\n", "_4" * 9, [], [1], [1, 1], [1, 2], [True, 2], {},
       {"tile": 1, "player": None}, {"tile": None, "player": 1}, {"tile": 1.0, "player": 1}]


def _paths(o: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(o, dict):
        for k, v in o.items():
            out += _paths(v, (*at, k))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            out += _paths(v, (*at, i))
    return out


def _broken(o: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    doc = copy.deepcopy(o)
    if not path:
        return value
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if how == "replace":
        parent[last] = copy.deepcopy(value)
    elif how == "delete":
        del parent[last]
    elif isinstance(parent, dict):
        parent[f"extra{last}"] = copy.deepcopy(value)
    else:
        parent.append(copy.deepcopy(value))
    return doc


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_it_never_vouches_for_a_state_the_schema_refuses(data: st.DataObject) -> None:
    o = data.draw(st.sampled_from(SAMPLES))
    for _ in range(data.draw(st.integers(1, 2))):
        path = data.draw(st.sampled_from(_paths(o)))
        how = data.draw(st.sampled_from(["replace", "delete", "add"]))
        value = data.draw(st.sampled_from(ODD) | st.integers(-3, 60) | st.text(max_size=20))
        o = _broken(o, path, how, value)
    if surely_well_formed(o):
        assert first_error("kingdomino-state", o) is None, o


def _load(o: Any) -> Any:
    try:
        return GAME.observe(GAME.load(profile(o.get("profile", "legend")
                                              if isinstance(o, dict) else "legend"), o))
    except BadState as exc:
        return f"BadState: {exc}"
    except Exception as exc:  # compared, not hidden
        return f"{type(exc).__name__}"


@pytest.mark.parametrize("seed", range(4))
def test_loading_is_the_same_with_and_without_the_fast_path(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    docs = []
    for o in SAMPLES[seed::4]:
        docs.append(copy.deepcopy(o))
        path = rng.choice(_paths(o))
        docs.append(_broken(o, path, rng.choice(["replace", "delete", "add"]), rng.choice(ODD)))
    fast = [_load(d) for d in docs]
    monkeypatch.setattr(kd_load, "surely_well_formed", lambda o: False)
    monkeypatch.setattr(kd_load, "_WELL_FORMED", [])
    plain = [_load(d) for d in docs]
    assert fast == plain
    assert any(isinstance(r, dict) for r in fast) and any(isinstance(r, str) for r in fast)
