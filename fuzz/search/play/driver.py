"""The campaign's driver: one Hypothesis test over `st.data()` that plays a lockstep
machine's rules, in place of Hypothesis's stateful runner.

The rules are the machine class's own (`fuzz.search.machine`: its `@initialize` and `@rule`
methods, their preconditions and argument strategies), so the two runners play the same
rules: tests drive a machine with Hypothesis's runner (`make_machine`), campaigns with this
one. What it leaves out is what a campaign does not use: step printing, bundles,
invariants, and rule draws once a game is over (Hypothesis's runner goes on drawing rules
to `stateful_step_count`, only observing a finished game again and again; here the
machine's `at_end` looks at it once and the example ends). Each step's rule and arguments
are drawn as Hypothesis's runner draws them and laid out alike (a span per step, its rule
strategy: swarm testing, preconditions, one choice among the rules on and ready), so that
Hypothesis generates and mutates a campaign's examples as it would under its own runner.
Replay from the example database and `target()` are @given's own.

This module drives rules; it must not choose moves (the rules do) nor judge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import STATE_MACHINE_RUN_LABEL

Machine = Any  # a LockstepMachine instance (its class is made per game: fuzz.search.machine)


def driven_test(cls: Any, make: Callable[[], Machine],
                 run_settings: settings) -> Callable[[], None]:
    """The @given test that plays one machine (from `make()`) per example, with the rules
    of `cls` (a `RuleBasedStateMachine` subclass), up to `stateful_step_count` steps."""
    max_steps = run_settings.stateful_step_count

    @run_settings
    @given(st.data())
    def run_machine(data: st.DataObject) -> None:
        cd = data.conjecture_data
        machine = make()
        # what Hypothesis's runner gives a machine before its rules are drawn
        machine._observability_predicates = cd._observability_predicates
        try:
            steps = 0
            while True:
                if steps and not machine.ls.live:  # the game is over, or the lockstep
                    machine.at_end()  # stopped: nothing is left to play
                    break
                # each step laid out as Hypothesis's runner lays it out (a span, a rare
                # stop, the rule and its arguments), so that its generation and mutations
                # (a step copied over another) work the same on a campaign's examples
                cd.start_span(STATE_MACHINE_RUN_LABEL)
                if cd.draw_boolean(p=2**-16, forced=True if steps >= max_steps else
                                   False if steps == 0 else None):
                    break
                steps += 1
                if machine._initialize_rules_to_run:
                    inits = [st.tuples(st.just(r), st.fixed_dictionaries(r.arguments))
                             for r in machine._initialize_rules_to_run]
                    chosen, arguments = cd.draw(st.one_of(inits))
                    machine._initialize_rules_to_run.remove(chosen)
                else:
                    # swarm testing, preconditions, one choice among the rules on and ready
                    chosen, arguments = cd.draw(machine._rules_strategy)
                chosen.function(machine, **arguments)
                cd.stop_span()
        finally:
            machine.teardown()

    return cast(Callable[[], None], run_machine)
