"""The Hypothesis state machine that plays an engine and the reference in lockstep.

One machine serves every game: the game's `GamePlugin` says where to start and what to
draw. Rules: play a legal move, referee action or chance outcome; probe an illegal action or
send raw bot text; compare legal sets; observe, or save and reload the state. Playing is
one rule of four so that games get deep. An engine that cannot load states has one more,
`stretch` (so has every engine of a game whose plugin says `stretch_when_loading`): many
steps in one rule, each move the reference's own seeded random choice (or the plugin's
steered policy), Hypothesis choosing only the seed and the length. It makes examples long
at the cost of two choices, and reaches what only deep positions show (a game's end and
final scoring, the turn cap, long fights) without crafted starts. Swarm testing
(Hypothesis turns rules off per example) varies the mix; `target()` steers toward rare
positions.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

from hypothesis import event, reject, target
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from gamecert.fuzz.engines.capabilities import (
    BOT_OUTPUT,
    FULL,
    LEGAL,
    LOAD_STATE,
    NO_REFEREE,
    REFEREE_ACTIONS,
    seeded_new_games,
)
from gamecert.fuzz.games import GamePlugin
from gamecert.fuzz.step.lockstep import Finding, InvalidInput, Lockstep
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile

JSON = Any
# How far one run-ahead goes, in steps; shrinks towards the shortest. The last reaches the
# end of a whole game of Carcassonne (about 250 steps), Kingdomino (about 100) and Bot Wars
# (about 470), not of Flit (up to 32,768 turns: its turn cap needs a crafted start).
RUN_AHEAD = (16, 64, 256, 1024)
# a machine class made with its lockstep's factory (typed as the call it is)
MachineClass = Callable[[Callable[[], Lockstep]], RuleBasedStateMachine]


def machine_class(plugin: GamePlugin, profile: Profile,
                  caps: frozenset[str] = FULL) -> MachineClass:
    """The machine class for one game, profile and engine. `caps`, what the engine
    declared, plans the rules: no `legal`, no comparison of legal sets (probes only); no
    `load_state`, new games with a seed drawn per example and no reload; no `bot_output`, no
    bot text. An instance is made with its lockstep's factory (`cls(new_lockstep)`).

    The class must hold nothing of a round or an engine: Hypothesis keeps every machine
    class it has run (its rules, per class) as long as the process lives, so whatever the
    class reaches stays alive with it. A round hands its factory to each instance."""
    can_list, can_load, can_referee = LEGAL in caps, LOAD_STATE in caps, BOT_OUTPUT in caps
    # an engine that declares no referee is sent none of the referee's actions
    no_referee = REFEREE_ACTIONS.get(profile.game, ()) if NO_REFEREE in caps else ()
    starts = plugin.starts(profile) if can_load else seeded_new_games()

    def live(self: Any) -> bool:
        return bool(self.ls.live)

    # a plugin may say how far a stretch goes in its game (none: no stretch rule). An engine
    # that loads states plays stretches only where the plugin says so
    # (`stretch_when_loading`): there a campaign's crafted starts and one-choice-per-step
    # play are what finds most public mutants soonest, and a plugin turns stretches on
    # once its mutants are caught as soon, with their own rules (docs/speed.md)
    run_lengths: tuple[int, ...] = getattr(plugin, "run_ahead", RUN_AHEAD)
    if can_load and not getattr(plugin, "stretch_when_loading", False):
        run_lengths = ()
    # a plugin may steer its run-ahead (`run_ahead_policy(ls, rng, length)`: a function
    # giving each next action as JSON, None to end the run), where random play does not
    # reach what the run is for (a game's end, its winner); none: the reference's random
    # choices
    policy: Policy | None = getattr(plugin, "run_ahead_policy", None)
    # a plugin may build probes that each break one rule and no other: (rule, action) pairs
    rule_probes: Callable[[Lockstep], list[tuple[str, JSON]]] | None = getattr(
        plugin, "rule_probes", None)
    # a plugin may say when a full legal listing is too big to compare at every turn
    cheap_to_list: Callable[[Lockstep], bool] = getattr(plugin, "cheap_to_list",
                                                         lambda ls: True)

    class LockstepMachine(RuleBasedStateMachine):
        def __init__(self, new_lockstep: Callable[[], Lockstep]) -> None:
            super().__init__()
            self.ls = new_lockstep()
            self.best: dict[str, float] = {}

        @initialize(start=starts)
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
            for _ in range(20):  # drawn again, so the walk goes on (a quarter are stops)
                if not (isinstance(action, dict) and action.get("type") in no_referee):
                    break
                action = plugin.draw_action(data, self.ls)
            else:
                reject()
            try:
                events = self.ls.step(action)
            except InvalidInput:
                self.ls.finish()  # the steps before it are judged all the same
                reject()
            for e in events:
                event(f"rule {e.get('rule')}")
            for label, value in plugin.targets(self.ls).items():
                self.best[label] = max(value, self.best.get(label, value))

        @precondition(live)
        @rule(data=st.data())
        def probe(self, data: st.DataObject) -> None:
            """An illegal action the engine must refuse, or raw bot text for its referee.
            Where the game builds them, most probes break one rule and no other in the
            position (`rule_probes`), each counted for its rule, with or without `legal`."""
            if can_referee and self.ls.to_move not in (CHANCE, TERMINAL) and data.draw(
                    st.booleans(), label="bot text"):
                self.ls.referee(data.draw(plugin.bot_texts(profile), label="text"))
                return
            if rule_probes is not None and self.ls.to_move not in (CHANCE, TERMINAL) \
                    and data.draw(st.integers(0, 3), label="probe kind"):
                built = rule_probes(self.ls)
                if built:
                    rule_id, action = data.draw(st.sampled_from(built), label="rule probe")
                    self.ls.probe(action, rule_id)
                    return
            self.ls.probe(plugin.draw_probe(data, self.ls))

        if run_lengths:
            @precondition(live)
            @rule(seed=st.integers(0, 2**32 - 1), length=st.sampled_from(run_lengths))
            def stretch(self, seed: int, length: int) -> None:
                """Up to `length` steps (to the game's end at most), each action the
                reference's seeded random choice among its legal ones (or the plugin's
                policy's, seeded alike). Hypothesis chooses only the seed and the length, so
                a long example costs it two choices instead of several per step. For an
                engine that cannot load states it is what crafted starts give the others,
                reached from a new game. Every step is checked as `play`'s are; the trace
                records each, so a replay needs no seed."""
                play_stretch(self.ls, seed, length, policy, no_referee)
                event("stretch")
                for label, value in plugin.targets(self.ls).items():
                    self.best[label] = max(value, self.best.get(label, value))

        @precondition(lambda self: can_list and live(self) and cheap_to_list(self.ls))
        @rule()
        def compare_legal(self) -> None:
            self.ls.compare_legal()

        @rule(reload=st.booleans())
        def check_state(self, reload: bool) -> None:
            """Observe (always runnable, so a finished game still has a rule) or save and
            load the state back."""
            if reload and can_load and live(self):
                self.ls.reload()
            else:
                self.ls.observe()

        def teardown(self) -> None:
            # target() takes one observation per label per example: the best seen
            for label, value in self.best.items():
                target(value, label=label)
            # The steps still waiting for their oracles (a lockstep made with `defer`) are
            # judged now. When the example is already ending on an exception (Hypothesis'
            # own, out of data; or a finding, raised once every step before it was
            # judged), a finding here is reported through the lockstep's `on_finding`
            # only: raised, it would stand in for that exception.
            ending = sys.exc_info()[1] is not None
            try:
                self.ls.end_example()
            except Finding:
                if not ending:
                    raise
            # A campaign's lockstep goes on past what it finds (each finding already
            # reported as it was met); the example still fails for Hypothesis, with the
            # first, so it is kept in the example database like any failing example.
            if self.ls.found and not ending:
                raise self.ls.found[0]

    LockstepMachine.__name__ = f"{profile.game.capitalize()}Lockstep"
    made: MachineClass = LockstepMachine
    return made


Policy = Callable[[Lockstep, random.Random, int], Callable[[], JSON | None]]


def play_stretch(ls: Lockstep, seed: int, length: int, policy: Policy | None = None,
                 no_referee: tuple[str, ...] = ()) -> int:
    """The `stretch` rule's play: up to `length` steps from where `ls` stands, each action
    the reference's random choice seeded by `seed` (or `policy`'s, seeded alike), to the
    game's end at most; the number of steps played. The same seed from the same position
    plays the same steps."""
    rng = random.Random(seed)
    game: Any = ls.game
    steered = policy(ls, rng, length) if policy is not None else None
    played = 0
    for _ in range(length):
        if not ls.live:
            break
        state, seen = ls.ref, ls.ref_json
        if steered is not None:
            action = steered()
            if action is None:
                break
        else:
            act = (game.random_chance(state, rng) if game.current(state) == CHANCE
                   else game.random_action(state, rng))
            action = game.action_to_json(state, act)
        if isinstance(action, dict) and action.get("type") in no_referee:
            break
        try:
            ls.step(action)
        except InvalidInput:
            break
        played += 1
        if ls.ref_json is seen:  # refused: the reference stands where it stood,
            break  # and the same seeded choices would be refused again and again
    return played


def make_machine(plugin: GamePlugin, profile: Profile,
                 new_lockstep: Callable[[], Lockstep],
                 caps: frozenset[str] = FULL) -> type[RuleBasedStateMachine]:
    """A machine class made with no arguments, bound to `new_lockstep`: for a test's
    `TestCase` or a one-off run. It stays alive as long as the process (see
    `machine_class`), with all the factory reaches; campaigns use `machine_class`."""
    base: Any = machine_class(plugin, profile, caps)

    class Bound(base):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(new_lockstep)

    Bound.__name__ = base.__name__
    return Bound
