"""Reference engine changes made while plugging Carcassonne into the fuzzer: the river discard
under end-turn, the referee's INVALID verdict, and the rule hooks the mutants override."""

from __future__ import annotations

import random

import pytest

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig, CarcState
from gamecert.reference_engine.carcassonne.engine import (
    CLAIM,
    DRAW,
    INVALID,
    RIVER_PHASE,
    Feat,
    pack,
)
from gamecert.reference_engine.carcassonne.tiles import load_tiles
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction

from .helpers import ENGINE, crafted, load, profile


class NothingFits(Carcassonne):
    """Lets a test discard a river tile whatever the board (the shape of the position where
    no river tile fits is hard to build by hand)."""

    def any_placement(self, state: CarcState) -> bool:
        return False


def river_place_state(pid: str) -> CarcState:
    """Player 1 holds R2 in the river phase; the rest of the river is in the pile."""
    river = {t.id: t.count for t in load_tiles().of_set("river")}
    river["RS"] -= 1
    river["R2"] -= 1
    players = profile(pid).param("CARC-PLAYERS", "players")
    o = crafted([(0, 0, "RS", 0)], pid=pid, phase="river",
                hands=[["R2"]] + [[]] * (players - 1),
                river_pile={k: n for k, n in river.items() if n})
    o["discarded"] = []
    o["deck"] = {t.id: t.count for t in load_tiles().of_set("land")}
    return load(o, pid)


def test_a_river_discard_under_end_turn_passes_the_turn_without_a_replacement() -> None:
    """Under end-turn a replacement drawn now would sit in a hand across turns (and could be
    carried into the land phase): the reference produced states its own load refused."""
    state = river_place_state("official-order")
    after, events = NothingFits().apply(state, ("discard", state.cfg.t.index["R2"]))
    assert events[0]["type"] == "tile-discarded"
    assert after.phase == RIVER_PHASE and after.step == DRAW
    assert after.to_move == 2 and after.pending == (2,)
    assert not any(after.hands) and "R2" in ENGINE.observe(after)["discarded"]
    assert ENGINE.observe(ENGINE.load(after.profile, ENGINE.observe(after))) == \
        ENGINE.observe(after)


def test_a_river_discard_under_continue_redraws_for_the_same_player() -> None:
    state = river_place_state("syncs-2025-base")
    after, _ = NothingFits().apply(state, ("discard", state.cfg.t.index["R2"]))
    assert after.to_move == 1 and after.pending == (1,) and ENGINE.current(after) == CHANCE


@pytest.mark.parametrize("pid", ["official-order", "syncs-2025-base-2p"])
def test_random_games_round_trip_every_state(pid: str) -> None:
    prof = profile(pid)
    rng = random.Random(5)
    for _ in range(3):
        state = ENGINE.initial(prof)
        while ENGINE.current(state) != TERMINAL:
            observed = ENGINE.observe(state)
            assert ENGINE.observe(ENGINE.load(prof, observed)) == observed
            move = (ENGINE.random_chance(state, rng) if ENGINE.current(state) == CHANCE
                    else ENGINE.random_action(state, rng))
            state = ENGINE.apply(state, move)[0]


def test_the_referee_verdict_on_a_bad_reply_is_invalid_and_not_applicable() -> None:
    state = load(crafted([(0, 0, "RS", 0), (0, -1, "RE", 0)], hands=[["U"], [], [], []]))
    assert ENGINE.referee(state, "garbage") == INVALID
    assert ENGINE.action_to_json(state, INVALID) == {"type": "invalid"}
    with pytest.raises(IllegalAction, match="not a Carcassonne action"):
        ENGINE.action_from_json(state, {"type": "invalid"})
    with pytest.raises(IllegalAction, match="no player is asked to move"):
        ENGINE.referee(ENGINE.initial(profile()), "garbage")


def test_rule_hooks_decide_what_the_engine_does() -> None:
    """The hooks the mutants override are what the engine consults (a sample)."""
    s = load(crafted([(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -1, "W", 3)],
                     meeples=[(1, -1, "right", 2)], hands=[["U"], [], [], []]))
    placed = ENGINE.apply(s, ("place", s.cfg.t.index["U"], pack(2, -1), 1))[0]
    assert placed.step == CLAIM
    assert ENGINE.claims(placed) == []  # the U's road joins player 2's road

    class Lenient(Carcassonne):
        def feature_free(self, f: Feat, player: int) -> bool:
            return True

    class Broke(Lenient):
        def has_meeple(self, state: CarcState, player: int) -> bool:
            return False

    assert Lenient().claims(placed) == [("claim", 0)]
    assert Broke().claims(placed) == []
    assert ENGINE.winners(s.cfg, [3, 3, 1, 0]) == [1, 2]  # shared
    assert ENGINE.winners(CarcConfig.of(profile("official-order")), [3, 3, 1]) == []  # none
    assert ENGINE.completed_points(s.cfg, placed.feats[placed.owner[pack(1, -1) * 8]]) == 1
