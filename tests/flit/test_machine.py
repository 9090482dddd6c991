"""The lockstep state machine as an ordinary Hypothesis test (the `ci` profile under CI)."""

from __future__ import annotations

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.flit.starts import setup_state
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


def test_a_start_inside_the_set_up_has_some_pieces_and_more_to_come() -> None:
    """A start drawn inside the set-up (fuzz.games.flit.starts.setup_state): the pieces asked
    for on available squares, the set-up still under way, the same seed the same board."""
    for pieces in (1, 4, 7):
        state = setup_state(PROFILE, 7, pieces)
        assert state["phase"] == "setup", state["phase"]
        assert sum(c != "0" for c in state["board"]) == pieces
        assert setup_state(PROFILE, 7, pieces) == state
    assert setup_state(PROFILE, 8, 4) != setup_state(PROFILE, 7, 4)
