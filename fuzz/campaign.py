"""Certification campaigns: rounds of seeded Hypothesis runs until the budget is spent.

Each round is one Hypothesis run of the lockstep machine with a seed derived from the
campaign seed and the round number, so `--seed S --rounds K` replays a run exactly. A rule
found broken is muted in later rounds, so the campaign goes on to find other broken rules.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Flaky
from hypothesis.stateful import get_state_machine_test

from gamecert.fuzz.engines import (
    Engine,
    EngineRecipe,
    as_recipe,
    declares_stateless,
    generation,
    handshake,
)
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.lockstep import Coverage, Finding, InvalidInput, Lockstep
from gamecert.fuzz.machine import make_machine
from gamecert.fuzz.minimize import minimize
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.spec import Profile, load_catalogue

JSON = Any


@dataclass
class CampaignResult:
    game: str
    profile: Profile
    engine: str
    seed: int
    budget: float | None
    rounds: int
    duration: float
    coverage: Coverage
    findings: list[Finding] = field(default_factory=list)
    unusable: str | None = None
    hello: Any = None  # what the engine said it is, in its own words
    engine_spec: dict[str, Any] = field(default_factory=dict)  # how it was opened

    @property
    def status(self) -> str:
        if self.unusable:
            return "unusable"
        return "violations" if self.findings else "certified"


@dataclass(frozen=True)
class Progress:
    elapsed: float
    budget: float | None
    rounds: int
    examples: int
    steps: int
    findings: int


# Typed here because Hypothesis versions differ on whether they type it themselves.
_machine_test = cast(Callable[..., Callable[[], None]], get_state_machine_test)


def round_seed(seed: int, round_no: int) -> int:
    digest = hashlib.sha256(f"gamecert:{seed}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def round_settings(examples: int, steps: int) -> settings:
    return settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, database=None,
        derandomize=False, verbosity=Verbosity.quiet, report_multiple_bugs=True,
        suppress_health_check=list(HealthCheck),
        # no Phase.shrink: fuzz.minimize shrinks traces far cheaper than re-running examples
        phases=[Phase.explicit, Phase.generate, Phase.target])


def check_usable(game: str, engine: Engine, profile: Profile) -> str | None:
    """Why the engine cannot be certified at all, or None."""
    return handshake(engine, game, profile.id)[1]


def run_campaign(game: str, engine: Engine | EngineRecipe, *, profile_id: str | None = None,
                 budget: float | None = 20.0, rounds: int | None = None, seed: int = 0,
                 examples_per_round: int = 20, steps_per_example: int = 25,
                 max_findings: int = 25,
                 progress: Callable[[Progress], None] | None = None) -> CampaignResult:
    catalogue = load_catalogue(game)
    profile = catalogue.profile(profile_id)
    oracles = oracles_for(game)
    plugin = plugin_for(game)
    ref = reference_game(game)
    started = time.monotonic()
    # a recipe: the minimiser and the confirmation replays open fresh engines from it; an
    # engine handed over open is shared (its traces are confirmed on it, not fresh)
    recipe = as_recipe(engine)
    engine = recipe.open()
    result = CampaignResult(game, profile, engine.name, seed, budget, 0, 0.0, Coverage(),
                            engine_spec=dict(recipe.spec))
    result.hello, result.unusable = handshake(engine, game, profile.id)
    if result.unusable:
        engine.close()
        result.duration = time.monotonic() - started
        return result
    muted: set[str] = set()
    seen: list[Finding] = []  # as raised: an engine that misbehaves once may not on replay
    history = _History(generation(engine))
    last: list[Lockstep] = []

    def new_lockstep() -> Lockstep:
        if last:
            history.next_game(engine, last[0], game, profile)
        ls = Lockstep(ref, engine, profile, oracles, coverage=result.coverage, muted=muted,
                      seed=seed, on_finding=lambda f: seen.append(history.note(f)))
        last[:] = [ls]
        # Once a round has a finding, Hypothesis no longer stops at max_examples and may run
        # a whole hill-climbing pass for each target label (hundreds of examples); a dead
        # lockstep makes those examples cost nothing. The findings are kept as raised.
        ls.dead = bool(seen)
        return ls

    def more() -> bool:
        if len(result.findings) >= max_findings:
            return False
        if rounds is not None:
            return result.rounds < rounds
        return budget is None or time.monotonic() - started < budget

    reuse = declares_stateless(result.hello)
    try:
        while more():
            machine = make_machine(plugin, profile, new_lockstep)
            test = _machine_test(machine, settings=round_settings(examples_per_round,
                                                                   steps_per_example))
            hypothesis_seed(round_seed(seed, result.rounds))(test)
            seen.clear()
            for finding in _run_round(test, seen):
                finding = minimize(finding, recipe, prelude=history.prelude(finding), reuse=reuse)
                result.findings.append(finding)
                muted.update(finding.rules)
            result.rounds += 1
            if progress:
                c = result.coverage
                progress(Progress(time.monotonic() - started, budget, result.rounds, c.examples,
                                  c.steps, len(result.findings)))
    finally:
        engine.close()  # whatever happens, the engine we opened is stopped
    result.duration = time.monotonic() - started
    if not result.findings and result.coverage.steps == 0:
        # no evidence, no certificate: nothing was played
        result.unusable = ("the campaign executed no step, so there is nothing to certify "
                           f"({result.rounds} rounds, {result.coverage.examples} examples)")
    return result


class _History:
    """The games one engine process has played, in order. A finding that depends on the
    process's history replays them first (its trace's prelude). A new process (after a
    crash) starts a new history, with the same handshake as the first."""

    def __init__(self, life: int) -> None:
        self.life = life
        self.games: list[dict[str, Any]] = []
        self.at: dict[int, tuple[list[dict[str, Any]], int]] = {}

    def next_game(self, engine: Engine, done: Lockstep, game: str, profile: Profile) -> None:
        if generation(engine) == self.life:
            if done.start_spec is not None:
                self.games.append(done.segment())
            return
        self.life, self.games = generation(engine), []
        handshake(engine, game, profile.id)

    def note(self, finding: Finding) -> Finding:
        self.at[id(finding)] = (self.games, len(self.games))
        return finding

    def prelude(self, finding: Finding) -> list[dict[str, Any]]:
        games, n = self.at.pop(id(finding), ([], 0))
        return games[:n]


def _run_round(test: Callable[[], None], seen: list[Finding]) -> list[Finding]:
    """Run one Hypothesis round; the findings it raised, one per set of rules.

    Findings are taken as they were raised rather than from Hypothesis's final replay: an
    engine that crashed or hung once may well behave on the replay (Hypothesis then calls
    the test flaky), and what it did the first time is the finding.
    """
    try:
        test()
    except Flaky as exc:
        if not seen:
            return [Finding(["ENGINE-AGREES"], "flaky",
                            f"the engine did not behave the same on a replay of the same "
                            f"inputs: {exc}")]
    except Finding as finding:
        if not seen:
            return [finding]
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        others = [e for e in leaves if not isinstance(e, Finding | Flaky)]
        if others and not seen:
            raise others[0] from group
        if not seen:
            seen.extend(e for e in leaves if isinstance(e, Finding))
    except InvalidInput as exc:  # a generator bug of ours, never the engine's fault
        raise RuntimeError(f"gamecert generated an input its reference rejects: {exc}") from exc
    distinct: dict[tuple[str, ...], Finding] = {}
    for found in seen:
        distinct.setdefault(tuple(found.rules), found)
    return list(distinct.values())


def _leaves(group: BaseExceptionGroup[Any]) -> list[BaseException]:
    out: list[BaseException] = []
    for e in group.exceptions:
        out.extend(_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])
    return out
