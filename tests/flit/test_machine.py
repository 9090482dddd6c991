"""The lockstep state machine as an ordinary Hypothesis test (the `ci` profile under CI)."""

from __future__ import annotations

import random
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.flit.bot_text import bot_text_at
from gamecert.fuzz.games.flit.starts import played_state, setup_moves
from gamecert.fuzz.search.machine import make_machine
from gamecert.fuzz.search.play.seeded_data import SeededData
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE
from gamecert.spec import load_catalogue

PROFILE = load_catalogue("flit").profile()

FlitReferenceLockstep = make_machine(
    plugin_for("flit"), PROFILE,
    lambda: Lockstep(reference_game("flit"), InProcessEngine(reference_session("flit")),
                     PROFILE, oracles_for("flit")))

TestFlitReferenceLockstep = FlitReferenceLockstep.TestCase




def _begun(start: Any) -> Lockstep:
    """The lockstep of a reference machine begun at `start` (inside a Hypothesis test: the
    rule records an event)."""
    ls = Lockstep(reference_game("flit"), InProcessEngine(reference_session("flit")),
                  PROFILE, oracles_for("flit"))
    machine = FlitReferenceLockstep.__bases__[0](lambda: ls)

    @settings(max_examples=1, database=None)
    @given(st.just(start))
    def begin(spec: Any) -> None:
        machine.begin(spec)

    begin()
    return ls


def test_a_start_inside_the_set_up_plays_its_pieces_as_steps() -> None:
    """A start with the set-up part played (fuzz.games.flit.starts.setup_moves): its moves
    are the set-up's own chance steps, played by the machine as steps of the example (so in
    its trace), the same seed the same squares."""
    for pieces in (1, 4, 7):
        moves = setup_moves(PROFILE, 7, pieces)
        assert len(moves) == pieces and {m["type"] for m in moves} == {"setup"}
        assert setup_moves(PROFILE, 7, pieces) == moves
        ls = _begun({"kind": "new_game", "moves": moves})
        assert ls.ref_json["phase"] == "setup"
        assert sum(c != "0" for c in ls.ref_json["board"]) == pieces
        assert [op.get("action") for op in ls.ops][-pieces:] == moves, ls.ops[:3]
        assert not ls.found
    assert setup_moves(PROFILE, 8, 4) != setup_moves(PROFILE, 7, 4)


def test_a_reply_written_from_the_position_names_a_move_of_the_mover() -> None:
    """fuzz.games.flit.bot_text.bot_text_at: a reply naming one of the mover's own moves;
    within the board the referee plays that move, a whole board off it the referee refuses
    it (FLIT-PROTO-REPLY), which a referee that wraps numbers onto the board would not."""
    game = reference_game("flit")
    ls = Lockstep(game, InProcessEngine(reference_session("flit")), PROFILE,
                  oracles_for("flit"))
    ls.start({"kind": "state", "state": played_state(PROFILE, 3, 30)})
    rng = random.Random(1)
    while game.current(ls.ref) == CHANCE:  # on to a bot's move
        ls.step(game.action_to_json(ls.ref, game.random_chance(ls.ref, rng)))
    data = SeededData(rng)
    legal = {(tuple(m["from"]), tuple(m["to"])) for m in
             (game.action_to_json(ls.ref, a) for a in game.legal(ls.ref))
             if m["type"] == "move"}
    moves, refused = set(), 0
    for _ in range(200):
        text = bot_text_at(cast(st.DataObject, data), ls)
        assert text is not None
        numbers = [int(n) for n in text.split()]
        action = game.action_to_json(ls.ref, game.referee(ls.ref, text))
        if all(0 <= n < 32 for n in numbers):
            assert action["type"] == "move", (text, action)
            moves.add((tuple(action["from"]), tuple(action["to"])))
            assert moves <= legal
        else:
            refused += 1
            assert action["type"] != "move", (text, action)
    assert len(moves) > 5 and refused > 20
