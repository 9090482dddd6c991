"""The state machine that plays an engine and the reference in lockstep.

One machine serves every game: the game's `GamePlugin` says where to start and what to
draw. Rules (their bodies: `fuzz.search.play.rules`): play a legal move, referee action or
chance outcome; probe an illegal action or send raw bot text; compare legal sets; observe,
or save and reload the state. Two kinds of rule play many steps for one or two of
Hypothesis's choices:

- `run` and `run_to_end` (an engine that loads states, in a game whose plugin says
  `seeded_runs`, from the round its `runs_from_round` names): the machine's own rules in a
  row, their draws from a Random seeded by the rule's seed (`fuzz.search.play.runs`), up to
  a drawn length or to the game's end. A campaign's time then goes to playing and judging,
  and examples reach a game's end and its final scoring, while the one-step rules beside
  them keep Hypothesis's own search (targets, boundary values, mutations) for each choice.
- `stretch` (an engine that cannot load states, and every engine of a game whose plugin
  says `stretch_when_loading`): moves only, each the reference's seeded random choice or the
  plugin's steered policy: what crafted starts give the others, reached from a new game.

Campaigns play the class with their own driver (`fuzz.search.play.driver`); tests may use
Hypothesis's stateful runner on the same class (`make_machine`). Swarm testing turns rules
off per example; `target()` steers toward rare positions.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

from hypothesis import event, reject, target
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from gamecert.fuzz.engines.capabilities import FULL, LOAD_STATE, seeded_new_games
from gamecert.fuzz.games import GamePlugin
from gamecert.fuzz.search.play import rules
from gamecert.fuzz.search.play.rules import Plan, Policy
from gamecert.fuzz.search.play.runs import RUN_LENGTHS, seeded_run
from gamecert.fuzz.step.lockstep import Finding, InvalidInput, Lockstep
from gamecert.fuzz.step.play_on import play_seeded
from gamecert.reference_engine.contract import TERMINAL
from gamecert.spec import Profile

JSON = Any
# How far one run-ahead goes, in steps; shrinks towards the shortest. The last reaches the
# end of a whole game of Carcassonne (about 250 steps), Kingdomino (about 100) and Bot Wars
# (about 470), not of Flit (up to 32,768 turns: its turn cap needs a crafted start).
RUN_AHEAD = (16, 64, 256, 1024)
# a machine class made with its lockstep's factory (typed as the call it is)
MachineClass = Callable[[Callable[[], Lockstep]], RuleBasedStateMachine]


def machine_class(plugin: GamePlugin, profile: Profile,
                  caps: frozenset[str] = FULL, round_no: int = 0) -> MachineClass:
    """The machine class for one game, profile and engine. `caps`, what the engine
    declared, plans the rules: no `legal`, no comparison of legal sets (probes only); no
    `load_state`, new games with a seed drawn per example and no reload; no `bot_output`, no
    bot text. `round_no`, the campaign's round: seeded runs start at the plugin's
    `runs_from_round` (`has_runs`). An instance is made with its lockstep's factory
    (`cls(new_lockstep)`).

    The class must hold nothing of a round or an engine: Hypothesis keeps every machine
    class it has run (its rules, per class) as long as the process lives, so whatever the
    class reaches stays alive with it. A round hands its factory to each instance."""
    plan = Plan.of(plugin, profile, caps)
    starts = plugin.starts(profile) if plan.can_load else seeded_new_games()

    def live(self: Any) -> bool:
        return bool(self.ls.live)

    # a plugin may say how far a stretch goes in its game (none: no stretch rule). An engine
    # that loads states plays stretches only where the plugin says so
    # (`stretch_when_loading`) (docs/speed.md)
    run_lengths: tuple[int, ...] = getattr(plugin, "run_ahead", RUN_AHEAD)
    stretch_when_loading = getattr(plugin, "stretch_when_loading", False)
    if plan.can_load and not stretch_when_loading:
        run_lengths = ()
    # seeded runs of the machine's own rules (see has_runs)
    seeded_runs = has_runs(plugin, caps, round_no)
    # a plugin may steer its run-ahead (`run_ahead_policy(ls, rng, length)`: a function
    # giving each next action as JSON, None to end the run), where random play does not
    # reach what the run is for (a game's end, its winner); none: the reference's random
    # choices
    policy: Policy | None = getattr(plugin, "run_ahead_policy", None)

    class LockstepMachine(RuleBasedStateMachine):
        def __init__(self, new_lockstep: Callable[[], Lockstep]) -> None:
            super().__init__()
            self.ls = new_lockstep()
            self.best: dict[str, float] = {}

        @initialize(start=starts)
        def begin(self, start: JSON) -> None:
            # a start may carry moves to play from it at once (`"moves"`: a new game's first
            # chance steps, Flit's set-up part done), each a step of the trace like any other,
            # so that an engine judges them as it plays them rather than as a state it loads
            moves = start.get("moves", ())
            try:
                self.ls.start({k: v for k, v in start.items() if k != "moves"}
                              if moves else start)
                for action in moves if not self.ls.follow else ():
                    if not self.ls.live or action.get("type") in plan.no_referee:
                        break
                    self.ls.step(action)
            except InvalidInput:
                reject()
            event(f"start: {start.get('kind')}{' and moves' if moves else ''}")

        @precondition(live)
        @rule(data=st.data())
        def play(self, data: st.DataObject) -> None:
            events = rules.play(plan, self.ls, data)
            if events is None:
                reject()
            for e in events:
                event(f"rule {e.get('rule')}")
            self._aim()

        @precondition(live)
        @rule(data=st.data())
        def probe(self, data: st.DataObject) -> None:
            rules.probe(plan, self.ls, data)

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
                play_stretch(self.ls, seed, length, policy, plan.no_referee)
                event("stretch")
                self._aim()

        if seeded_runs:
            @precondition(live)
            @rule(seed=st.integers(0, 2**32 - 1), length=st.sampled_from(RUN_LENGTHS))
            def run(self, seed: int, length: int) -> None:
                """Up to `length` of the machine's own rules in a row, each value they
                draw from a Random seeded by `seed` (fuzz.search.play.runs): a long example
                for two of Hypothesis's choices."""
                seeded_run(plan, self.ls, seed, length)
                event("run")
                self._aim()

            @precondition(live)
            @rule(seed=st.integers(0, 2**32 - 1))
            def run_to_end(self, seed: int) -> None:
                """The machine's own rules, seeded, to the game's end (or as far as a run
                goes at most): a whole game and its final scoring for one choice."""
                seeded_run(plan, self.ls, seed, RUN_LENGTHS[-1] * 4)
                event("run to the end")
                self._aim()

        @precondition(lambda self: plan.may_list(self.ls))
        @rule()
        def compare_legal(self) -> None:
            self.ls.compare_legal()

        @rule(reload=st.booleans())
        def check_state(self, reload: bool) -> None:
            """Observe (always runnable, so a finished game still has a rule) or save and
            load the state back."""
            rules.check_state(plan, self.ls, reload)

        def at_end(self) -> None:
            """A finished game's last look (the driver's, once; Hypothesis's runner
            observed it at every step left): its final state observed, which the rules of
            a game's end judge."""
            ls = self.ls
            if not ls.dead and ls.ref is not None and ls.game.current(ls.ref) == TERMINAL:
                ls.observe()

        def _aim(self) -> None:
            for label, value in plugin.targets(self.ls).items():
                self.best[label] = max(value, self.best.get(label, value))

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



def has_runs(plugin: GamePlugin, caps: frozenset[str], round_no: int = 0) -> bool:
    """Whether a round's machine plays seeded runs: for an engine that loads states, in a
    game whose plugin says `seeded_runs`, from its `runs_from_round` on. A game whose
    public mutants fall to one step a rule in a campaign's first examples (Carcassonne)
    keeps its first rounds so, and goes deep after (docs/speed.md, fourth pass)."""
    return (LOAD_STATE in caps and not getattr(plugin, "stretch_when_loading", False)
            and bool(getattr(plugin, "seeded_runs", False))
            and round_no >= getattr(plugin, "runs_from_round", 0))


def play_stretch(ls: Lockstep, seed: int, length: int, policy: Policy | None = None,
                 no_referee: tuple[str, ...] = ()) -> int:
    """The `stretch` rule's play: up to `length` steps from where `ls` stands, each action
    the reference's random choice seeded by `seed` (or `policy`'s, seeded alike), to the
    game's end at most (fuzz.step.play_on); the number of steps played. The same seed from
    the same position plays the same steps."""
    rng = random.Random(seed)
    steered = policy(ls, rng, length) if policy is not None else None
    return play_seeded(ls, rng, length, steered, no_referee)


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
