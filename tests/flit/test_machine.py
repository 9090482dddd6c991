"""The lockstep state machine as an ordinary Hypothesis test (the `ci` profile under CI)."""

from __future__ import annotations

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games import plugin_for
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
