"""Hypothesis chooses the games: the other players' moves, the draws, the deck order and,
where the protocol can deliver a mid-game position, the start (the same start and target
strategies as certify, from `fuzz.games.<game>`). A game that makes the bot fail is shrunk
by Hypothesis to the shortest game prefix that still makes it fail, the bot started afresh
for every attempt; the finding keeps that prefix as its trace.

Each cause of failure (rule and kind) raises its own exception type, so Hypothesis shrinks
each one separately. Timing failures may not come back on a re-run (a busy machine, a
lucky one): then the game as first found is kept, unshrunk, and the finding says so.
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings, target
from hypothesis import strategies as st
from hypothesis.errors import Flaky, HypothesisException

from gamecert.fuzz.botcheck.findings import FAIL, Finding, Findings, Timing
from gamecert.fuzz.botcheck.process import BotUnusable
from gamecert.fuzz.botcheck.runner import (
    Codec,
    RunOptions,
    RunResult,
    play_game,
    scaled_limits,
    trace_document,
)
from gamecert.fuzz.search.campaign import cache_dir
from gamecert.fuzz.search.rounds import hypothesis_home
from gamecert.reference_engine import reference_game

JSON = Any
SEED_RANGE = st.integers(0, 2**16 - 1)


class DataChooser:
    """Picks through Hypothesis: a legal move by its index (shrinks to the first), a chance
    outcome by a seed for the game's own true-probability sampler (shrinks to seed 0)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.record: list[JSON] = []

    def pick(self, game: Any, state: Any, chance: bool) -> Any:
        if chance:
            action = game.random_chance(state, random.Random(self.data.draw(SEED_RANGE)))
        else:
            legal = game.legal(state)
            action = legal[self.data.draw(st.integers(0, len(legal) - 1))]
        self.record.append(game.action_to_json(state, action))
        return action


class BotFailed(Exception):
    """Raised by one game that made the bot fail; its subclasses name the cause."""

    finding: Finding
    choices: list[JSON]
    start: JSON | None


_CAUSES: dict[tuple[str, str], type[BotFailed]] = {}


def _cause(rule: str, kind: str) -> type[BotFailed]:
    key = (rule, kind)
    if key not in _CAUSES:
        _CAUSES[key] = type(f"BotFailed[{rule} {kind}]", (BotFailed,), {})
    return _CAUSES[key]


@dataclass
class Found:
    finding: Finding
    choices: list[JSON]
    start: JSON | None


def _starts(game: str, profile: Any, codec: Codec) -> st.SearchStrategy[JSON]:
    if not getattr(codec, "mid_game_starts", False):
        return st.just({"kind": "new_game"})
    from gamecert.fuzz.games import plugin_for

    try:
        return plugin_for(game).starts(profile)
    except KeyError:
        return st.just({"kind": "new_game"})


class Targets:
    """certify's target observations (`fuzz.games.<game>` plugins), taken at every position
    the bot is asked about; the best value of each label is reported once per game."""

    def __init__(self, game_name: str, game: Any) -> None:
        from gamecert.fuzz.games import plugin_for

        self.game = game
        try:
            self.plugin: Any = plugin_for(game_name)
        except KeyError:
            self.plugin = None
        self.best: dict[str, float] = {}

    def watch(self, state: Any) -> None:
        if self.plugin is None:
            return
        shim = SimpleNamespace(ref=state, ref_json=self.game.observe(state), start_spec=None)
        try:
            observations = self.plugin.targets(shim)
        except (AttributeError, KeyError, TypeError):
            self.plugin = None  # a plugin that wants more of a lockstep than a position
            return
        for label, value in observations.items():
            self.best[label] = max(value, self.best.get(label, value))

    def report(self) -> None:
        for label, value in self.best.items():
            target(value, label=label)


def search(codec: Codec, options: RunOptions, result: RunResult, examples: int,
           budget: float | None = None) -> None:
    """Up to `examples` Hypothesis-chosen games (and their shrinking) within `budget`
    seconds; findings go into `result`, each failure with the shortest game prefix found
    for it. Past the budget, games are no longer played: the shrinking stops with the
    shortest prefix so far."""
    stop_at = None if budget is None else time.monotonic() + budget
    game = reference_game(options.game)
    cap = getattr(codec, "search_queries", None)
    if cap and not options.max_queries:  # long games overflow what Hypothesis can shrink
        options = replace(options, max_queries=cap)
    options = replace(options, deadline=stop_at)  # no game goes on past the budget
    found: dict[tuple[str, str], Found] = {}
    scratch = Findings()  # shrinking attempts must not count as findings of the run
    timings: dict[int, Timing] = {}
    unusable: list[str] = []

    @settings(max_examples=examples, database=None, deadline=None,
              phases=(Phase.explicit, Phase.generate, Phase.target, Phase.shrink),
              suppress_health_check=list(HealthCheck), report_multiple_bugs=True,
              print_blob=False, verbosity=Verbosity.quiet)
    @seed(options.seed)
    @given(start=_starts(options.game, options.profile, codec), data=st.data())
    def one_game(start: JSON, data: st.DataObject) -> None:
        if stop_at is not None and time.monotonic() > stop_at:
            return
        chooser = DataChooser(data)
        state = None
        if start.get("kind") == "state":
            state = game.load(options.profile, start["state"])
        targets = Targets(options.game, game)
        try:
            _, new = play_game(codec, options, 0, chooser, scratch, timings,
                               stop_at_failure=True, start=state, watch=targets.watch)
        except BotUnusable as exc:
            unusable.append(str(exc))
            return
        targets.report()
        fails = [f for f in new if f.severity == FAIL]
        if fails:
            f = fails[0]
            failed = _cause(f.rule, f.kind)(f.message)
            failed.finding, failed.choices = f, list(chooser.record[:f.at_choice])
            failed.start = start.get("state")
            key = (f.rule, f.kind)
            best = found.get(key)
            if best is None or len(failed.choices) < len(best.choices):
                found[key] = Found(f, failed.choices, failed.start)
            raise failed

    # what each failure shrank to is in `found`; Hypothesis's own report is not needed.
    # Its files (caches) go where the campaigns' go, never into the current folder.
    with contextlib.suppress(BotFailed, Flaky, HypothesisException, BaseExceptionGroup), \
            hypothesis_home(cache_dir() / "hypothesis"):
        one_game()
    if unusable and not found:
        result.unusable = unusable[0]
    for _key, item in sorted(found.items()):
        f = item.finding
        f.game = 0
        trace = trace_document(options, 0, item.choices, f)
        trace["start"], trace["shrunk"] = item.start, True
        same = next((g for g in result.findings.items if g.key == f.key), None)
        if same is None:
            f.trace = trace
            f.message += f" (found by search, shrunk to {len(item.choices)} choices before it)"
            result.findings.add(f)
        elif same.trace is None or len(same.trace["choices"]) > len(item.choices):
            same.trace = trace  # the shorter game that shows the same failure


def run_search(codec: Codec, options: RunOptions, examples: int,
               budget: float | None = None) -> RunResult:
    limits = scaled_limits(codec, options)
    result = RunResult(options.game, options.profile.id, options.seed, options.seat,
                       options.commands, limits=limits)
    start = time.monotonic()
    search(codec, options, result, examples, budget)
    result.duration = time.monotonic() - start
    return result
