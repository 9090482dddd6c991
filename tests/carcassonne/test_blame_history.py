"""Blame replayed over the agreed steps (fuzz.step.blame.History): a departure made where
Carcassonne's canonical state does not look (a town's banners lost when it joined another)
shows only when that town scores; one step from the state before cannot name it, the
models replayed from where both sides last agreed can.

Games are random reference games; the same actions are applied to the departure model's
engine, and the first step whose states differ is asked of `Blame`."""

from __future__ import annotations

import random
from typing import Any

from gamecert.fuzz.step.blame import Blame, History
from gamecert.reference_engine.carcassonne.departures.claims import BannersLostInJoin
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from tests.carcassonne.helpers import ENGINE, profile

JSON = Any
GAMES = 40  # random games tried for one where a lost banner shows


def _first_departure(seed: int) -> tuple[History, JSON, JSON, JSON] | None:
    """(history, action, the model's state after, the reference's) at the first step where
    a random game of the reference and BannersLostInJoin differ; None if they never do."""
    prof = profile("syncs-2025-base")
    model, rng = BannersLostInJoin(), random.Random(seed)
    ref, mine = ENGINE.initial(prof, seed), model.initial(prof, seed)
    history = History(ENGINE.observe(ref), [])
    while ENGINE.current(ref) != TERMINAL:
        act = ENGINE.random_chance(ref, rng) if ENGINE.current(ref) == CHANCE \
            else ENGINE.random_action(ref, rng)
        action = ENGINE.action_to_json(ref, act)
        ref, _ = ENGINE.apply(ref, act)
        mine, _ = model.apply(mine, model.action_from_json(mine, action))
        want, got = ENGINE.observe(ref), model.observe(mine)
        if want != got:
            return history, action, got, want
        history.steps.append((action, None, want, False))
        history.at = want
    return None


def _case() -> tuple[History, JSON, JSON, JSON]:
    for seed in range(GAMES):
        found = _first_departure(seed)
        if found is not None and found[0].steps:
            return found
    raise AssertionError(f"no lost banner showed in {GAMES} random games")


def test_a_banner_lost_in_a_join_is_named_only_replayed_over_the_agreed_steps() -> None:
    history, action, got, want = _case()
    blame = Blame("carcassonne", profile("syncs-2025-base"))
    alone = blame.step(history.at, action, got, want)
    assert "CARC-FEATURE-JOIN" not in {e.rule for e in alone}, alone
    replayed = blame.step(history.at, action, got, want, history=history)
    join = [e for e in replayed if e.rule == "CARC-FEATURE-JOIN"]
    assert [e.kind for e in join] == ["model-banners-lost-in-join"], replayed
    assert join[0].replayed
    # what explained the step alone still does, not marked replayed
    assert {e.key for e in alone} <= {e.key for e in replayed if not e.replayed}


def test_a_known_replayed_cause_is_met_again_alone() -> None:
    history, action, got, want = _case()
    blame = Blame("carcassonne", profile("syncs-2025-base"))
    again = blame.step(history.at, action, got, want,
                       known={"CARC-FEATURE-JOIN|model-banners-lost-in-join"}, history=history)
    assert [(e.key, e.replayed) for e in again] == [
        ("CARC-FEATURE-JOIN|model-banners-lost-in-join", True)]


def test_past_a_departure_taken_over_the_model_keeps_what_it_hid() -> None:
    """A step where the engine departed (its state taken over by the reference) that the
    model explains too: the model keeps its own state there, hidden part and all, so a banner
    it lost before still shows at the later step; a model that does not explain that step
    takes the engine's state and goes on."""
    history, action, got, want = _case()
    blame = Blame("carcassonne", profile("syncs-2025-base"))
    marked = History(history.start, [(a, d, s, True) for a, d, s, _ in history.steps],
                     history.at)
    found = blame.step(history.at, action, got, want, history=marked)
    assert "CARC-FEATURE-JOIN|model-banners-lost-in-join" in {e.key for e in found if e.replayed}


def test_a_history_the_engine_did_not_follow_explains_nothing() -> None:
    """A model replayed must give every state both sides showed on the way: a history whose
    recorded states are not the model's own rules it out."""
    history, action, got, want = _case()
    blame = Blame("carcassonne", profile("syncs-2025-base"))
    first, draws, shown, _ = history.steps[0]
    wrong = History(history.start, [(first, draws,
                                     {**shown, "scores": [s + 1 for s in shown["scores"]]},
                                     False), *history.steps[1:]], history.at)
    found = blame.step(history.at, action, got, want, history=wrong)
    assert not any(e.replayed for e in found), found
