"""The state machine's rules as plain functions of a lockstep and a source of draws.

Each rule body here is played two ways: one rule per Hypothesis step by the state machine
(`fuzz.search.machine`, its draws from `st.data()`), and many in a row inside one `run`
(`fuzz.search.play.runs`, its draws from a seeded Random). The same code chooses in both, so a
run plays what the machine plays, only without a Hypothesis choice per value.

`Plan` is what an engine's capabilities and the game's plugin allow. This module chooses
and plays operations; it must not judge (the lockstep does) nor know Hypothesis's runner.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, cast

from hypothesis import strategies as st

from gamecert.fuzz.engines.capabilities import (
    BOT_OUTPUT,
    LEGAL,
    LOAD_STATE,
    NO_REFEREE,
    REFEREE_ACTIONS,
)
from gamecert.fuzz.games import GamePlugin
from gamecert.fuzz.step.lockstep import InvalidInput, Lockstep
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile

JSON = Any
# a plugin's steering of a stretch: `policy(ls, rng, length)` gives each next action
Policy = Callable[[Lockstep, random.Random, int], Callable[[], JSON | None]]


class Draws(Protocol):
    """What the rules draw from: `st.DataObject`, or `fuzz.search.play.seeded_data.SeededData`."""

    def draw(self, strategy: st.SearchStrategy[Any], label: Any = None) -> Any: ...


@dataclass(frozen=True)
class Plan:
    """What one game, profile and engine allow the rules to do."""

    plugin: GamePlugin
    profile: Profile
    can_list: bool
    can_load: bool
    can_referee: bool
    # the referee's actions an engine that declares no referee is never sent
    no_referee: tuple[str, ...]
    rule_probes: Callable[[Lockstep], list[tuple[str, JSON]]] | None
    cheap_to_list: Callable[[Lockstep], bool]
    # the moves that end a game at once (a stop, a disqualification), by type
    ending: frozenset[str] = frozenset()
    # a bot reply written from the position, where the game writes them
    bot_text_at: Callable[[st.DataObject, Lockstep], str | None] | None = None

    @staticmethod
    def of(plugin: GamePlugin, profile: Profile, caps: frozenset[str]) -> Plan:
        return Plan(plugin, profile, LEGAL in caps, LOAD_STATE in caps, BOT_OUTPUT in caps,
                    REFEREE_ACTIONS.get(profile.game, ()) if NO_REFEREE in caps else (),
                    # a plugin may build probes that each break one rule and no other
                    getattr(plugin, "rule_probes", None),
                    # a plugin may say when a full legal listing is too big to compare
                    getattr(plugin, "cheap_to_list", lambda ls: True),
                    getattr(plugin, "ending_actions", frozenset()),
                    getattr(plugin, "bot_text_at", None))

    def may_list(self, ls: Lockstep) -> bool:
        return self.can_list and bool(ls.live) and self.cheap_to_list(ls)


def play(plan: Plan, ls: Lockstep, data: Draws, ending: int = 1) -> list[JSON] | None:
    """One move from the game's draw: its events, or None when no move could be drawn that
    this engine may be sent, or the reference refused what was drawn (the steps before it
    are judged all the same). A move that ends the game is kept one time in `ending`, else
    drawn again."""
    action = plan.plugin.draw_action(_as_data(data), ls)
    for _ in range(20):  # drawn again, so the walk goes on (a quarter are stops)
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in plan.no_referee and (
                kind not in plan.ending or ending == 1
                or data.draw(_below(ending), label="keep ending") == 0):
            break
        action = plan.plugin.draw_action(_as_data(data), ls)
    else:
        return None
    try:
        return ls.step(action)
    except InvalidInput:
        ls.finish()
        return None


def probe(plan: Plan, ls: Lockstep, data: Draws) -> None:
    """An illegal action the engine must refuse, or raw bot text for its referee. Where the
    game builds them, most probes break one rule and no other in the position
    (`rule_probes`), each counted for its rule, with or without `legal`."""
    if plan.can_referee and ls.to_move not in (CHANCE, TERMINAL) and data.draw(
            st.booleans(), label="bot text"):
        # a game may write replies from the position too (`bot_text_at`: the mover's own
        # moves written other ways), where a text drawn blind seldom names its pieces
        at = plan.bot_text_at
        text = at(_as_data(data), ls) if at is not None and data.draw(
            st.booleans(), label="text from the position") else None
        ls.referee(text if text is not None else
                   data.draw(plan.plugin.bot_texts(plan.profile), label="text"))
        return
    if plan.rule_probes is not None and ls.to_move not in (CHANCE, TERMINAL) \
            and data.draw(PROBE_KIND, label="probe kind"):
        built = plan.rule_probes(ls)
        if built:
            rule_id, action = data.draw(st.sampled_from(built), label="rule probe")
            ls.probe(action, rule_id)
            return
    ls.probe(plan.plugin.draw_probe(_as_data(data), ls))


def check_state(plan: Plan, ls: Lockstep, reload: bool) -> None:
    """Observe, or save and load the state back (an engine that loads states)."""
    if reload and plan.can_load and ls.live:
        ls.reload()
    else:
        ls.observe()


PROBE_KIND = st.integers(0, 3)  # 0: the game's own probe draw; else a one-rule probe


@cache
def _below(n: int) -> st.SearchStrategy[int]:
    """0 to n - 1, made once per n (a strategy costs more to make than to draw from)."""
    return st.integers(0, n - 1)


def _as_data(data: Draws) -> st.DataObject:
    # the game folders' draw functions are typed for st.DataObject and use only `draw`,
    # which SeededData has with the same meaning
    return cast(st.DataObject, data)
