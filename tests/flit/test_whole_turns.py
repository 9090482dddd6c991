"""The oracles on a bot's whole turn, as an engine that draws for itself replies (follow
mode: the action, its neutral step and any frozen bots' turns in one reply): the
reference behind `bare:` (no events either) passes every step, and each rule an oracle can
judge there is judged."""

from __future__ import annotations

import random

import pytest

from gamecert.fuzz.engines.capabilities import capabilities_of
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.games.flit.play import converting_move
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.spec import load_catalogue

# Not judged on whole turns: the set-up happens inside new_game, when the end was checked
# does not show in a reply that holds the neutral step, bot text is not played here
UNSEEN = {"FLIT-SETUP-ORDER", "FLIT-END-TIMING", "FLIT-PROTO-REPLY"}


@pytest.mark.parametrize("profile_id", sorted(load_catalogue("flit").profiles))
def test_the_reference_passes_every_whole_turn(profile_id: str) -> None:
    game = reference_game("flit")
    profile = load_catalogue("flit").profile(profile_id)
    engine = object_recipe("flit", "bare:reference").open()
    coverage = Coverage()
    ls = Lockstep(game, engine, profile, oracles_for("flit"),
                  caps=capabilities_of(engine.hello()), go_on=True, coverage=coverage)
    rng = random.Random(1)
    for seed in range(12):
        ls.start({"kind": "new_game", "seed": seed})
        while ls.live and coverage.steps < 150 * (seed + 1):
            r, state = rng.random(), ls.ref
            action = {"type": "timeout"} if r < 0.25 else {"type": "invalid"} if r < 0.3 \
                else {"type": "pass"} if r < 0.45 else game.action_to_json(
                    state, converting_move(game, state) or game.random_action(state, rng))
            ls.step(action)
        ls.end_example()
    assert ls.found == [], [str(f) for f in ls.found]
    assert ls.blind <= {"FLIT-END-TIMING"}
    judged = {r for r, n in coverage.applied.items() if n}
    rules = set(load_catalogue("flit").rule_ids)
    assert rules - UNSEEN - {"FLIT-BOARD-TORUS", "FLIT-WINNER"} <= judged, \
        rules - UNSEEN - judged
