"""The campaign's driver: one Hypothesis test over `st.data()` that plays a lockstep
machine's rules, in place of Hypothesis's stateful runner.

The rules are the machine class's own (`fuzz.search.machine`: its `@initialize` and `@rule`
methods, their preconditions and argument strategies), so the two runners play the same
rules: tests drive a machine with Hypothesis's runner (`make_machine`), campaigns with this
one. What it leaves out is what a campaign does not use: step printing, bundles,
invariants, and rule draws once a game is over (Hypothesis's runner goes on drawing rules
to `stateful_step_count`; here an example ends with its game). Each step is one choice
among the rules the example enabled (swarm testing: each example turns some rules off)
and whose preconditions hold; then the rule's arguments. Replay from the example database
and `target()` are @given's own.

This module drives rules; it must not choose moves (the rules do) nor judge.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

Machine = Any  # a LockstepMachine instance (its class is made per game: fuzz.search.machine)


def driven_test(cls: Any, make: Callable[[], Machine],
                run_settings: settings) -> Callable[[], None]:
    """The @given test that plays one machine (from `make()`) per example, with the rules
    of `cls` (a `RuleBasedStateMachine` subclass), up to `stateful_step_count` steps."""
    setup = cast(Any, cls).setup_state()
    initializers = list(setup.initializers)
    # in the order Hypothesis's runner sorts them (fewer arguments first), so that a rule's
    # place in its choices is the same under both runners
    rules = sorted(setup.rules, key=lambda r: (len(r.arguments), r.function.__name__))
    max_steps = run_settings.stateful_step_count

    @run_settings
    @given(st.data())
    def run_machine(data: st.DataObject) -> None:
        machine = make()
        try:
            for init in initializers:
                init.function(machine, **_arguments(data, init))
            # swarm testing, as Hypothesis's runner does it: a share of rules drawn for
            # the example, each rule then off with that chance (at least one stays on)
            off = data.draw(SHARE, label="rules off")
            enabled = [r for r in rules if data.draw(SHARE, label="rule off") >= off] or rules
            for _ in range(max_steps):
                if not machine.ls.live:
                    break  # the game is over: no rule has anything left to play
                ready = [r for r in enabled if all(p(machine) for p in r.preconditions)]
                if not ready:
                    break
                chosen = data.draw(_one_of(tuple(ready)), label="rule") \
                    if len(ready) > 1 else ready[0]
                chosen.function(machine, **_arguments(data, chosen))
        finally:
            machine.teardown()

    return cast(Callable[[], None], run_machine)


SHARE = st.integers(0, 254)


@lru_cache(maxsize=256)
def _one_of(ready: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    # made once per set of ready rules: a strategy costs more to make than to draw from
    return st.sampled_from(ready)


def _arguments(data: st.DataObject, rule: Any) -> dict[str, Any]:
    return {name: data.draw(strategy, label=name) for name, strategy in rule.arguments.items()}
