"""The lockstep state machine as an ordinary Hypothesis test (the `ci` profile under CI)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.flit.starts import setup_moves
from gamecert.fuzz.search.machine import make_machine
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
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
