"""Helpers for the Bot Wars fuzzing tests: engines under test, and reading traces."""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from examples.engines import load, module_of
from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.contract import Session
from gamecert.spec import load_catalogue

CAT = load_catalogue("botwars")
WHERE = ["in-process", "subprocess"]
SERVE_REFERENCE = [sys.executable, "-m", "gamecert", "serve", "botwars"]


def mutant(name: str) -> ModuleType:
    return load("botwars", name)


def mutant_engine(name: str, where: str, *args: str) -> Engine:
    """A mutant as an engine under test: its Game in a Session, or its module served over
    the wire protocol in a child process."""
    if where == "in-process":
        return InProcessEngine(Session(mutant(name).ENGINE(), name))
    return SubprocessEngine([sys.executable, "-m", module_of("botwars", name), *args])


def reference_engine(where: str) -> Engine:
    if where == "in-process":
        return InProcessEngine(reference_session("botwars"))
    return SubprocessEngine(SERVE_REFERENCE)


def turns_in(trace: dict[str, Any]) -> int:
    """How many turns a trace carries out: its operations that complete a turn, counted
    by replaying them on the reference (probes, bot text and observations change nothing)."""
    game = BotWars()
    profile = CAT.profile(trace["profile"])
    start = trace["start"]
    state = (game.initial(profile) if start["kind"] == "new_game"
             else game.load(profile, start["state"]))
    turns = 0
    for op in trace["ops"]:
        if op["op"] != "apply":
            continue
        after, _ = game.apply(state, game.action_from_json(state, op["action"]))
        turns += after.turns - state.turns
        state = after
    return turns
