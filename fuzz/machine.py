"""The Hypothesis state machine that plays an engine and the reference in lockstep.

One machine serves every game: the game's `GamePlugin` says where to start and what to
draw. Rules: play a legal move or chance outcome, probe an illegal action, send raw bot
text, save and reload the state, compare legal sets. Swarm testing (Hypothesis turns rules
off per example) varies the mix; `target()` steers toward rare positions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hypothesis import event, reject, target
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from fuzz.games import GamePlugin
from fuzz.lockstep import InvalidInput, Lockstep
from reference_engine.contract import CHANCE, TERMINAL
from spec import Profile

JSON = Any


def make_machine(plugin: GamePlugin, profile: Profile, new_lockstep: Callable[[], Lockstep],
                 deadline: float | None = None) -> type[RuleBasedStateMachine]:
    """A machine class bound to one engine campaign. `deadline` (monotonic seconds) stops
    new steps once the campaign's budget is spent."""

    def live(self: Any) -> bool:
        return bool(self.ls.live) and (deadline is None or time.monotonic() < deadline)

    def player_to_move(self: Any) -> bool:
        return live(self) and self.ls.to_move not in (CHANCE, TERMINAL)

    class LockstepMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.ls = new_lockstep()
            self.best: dict[str, float] = {}

        @initialize(start=plugin.starts(profile))
        def begin(self, start: JSON) -> None:
            try:
                self.ls.start(start)
            except InvalidInput:
                reject()
            event(f"start: {start.get('kind')}")

        @precondition(live)
        @rule(data=st.data())
        def play(self, data: st.DataObject) -> None:
            action = plugin.draw_action(data, self.ls)
            try:
                events = self.ls.step(action)
            except InvalidInput:
                reject()
            for e in events:
                event(f"rule {e.get('rule')}")
            for label, value in plugin.targets(self.ls).items():
                self.best[label] = max(value, self.best.get(label, value))

        @precondition(live)
        @rule(data=st.data())
        def probe_illegal(self, data: st.DataObject) -> None:
            self.ls.probe(plugin.draw_probe(data, self.ls))

        @precondition(player_to_move)
        @rule(text=plugin.bot_texts(profile))
        def bot_output(self, text: str) -> None:
            self.ls.referee(text)

        @precondition(live)
        @rule()
        def save_and_reload(self) -> None:
            self.ls.reload()

        @precondition(live)
        @rule()
        def compare_legal(self) -> None:
            self.ls.compare_legal()

        @rule()
        def observe(self) -> None:
            # always runnable, so a finished game still leaves Hypothesis a rule to pick
            self.ls.observe()

        def teardown(self) -> None:
            # target() takes one observation per label per example: the best seen
            for label, value in self.best.items():
                target(value, label=label)

    LockstepMachine.__name__ = f"{profile.game.capitalize()}Lockstep"
    return LockstepMachine
