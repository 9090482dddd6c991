"""Rounds: what one Hypothesis round of a campaign is, and the runners that play them.

A campaign is a sequence of rounds. Round k is one seeded Hypothesis run of the lockstep
machine: its seed comes from the campaign seed and k, and the rules it passes over (muted)
are those the rounds before it found broken. So a round is a function of
`(setup, k, muted)`, whoever plays it: the campaign's own process (`SerialRunner`, here),
worker processes on this machine (`fuzz.search.parallel.ProcessRunner`) or a Dask cluster
(`fuzz.search.cluster.DaskRunner`).

`in_order` is the one scheduler all runners share: it keeps up to `runner.slots` rounds
running, hands their outcomes back in round order, and plays a round again when an earlier
round found something new while it ran (it was played with a muted set that turned out
stale). That is why `--jobs N` finds exactly what `--jobs 1` finds for the same seed and
rounds: every outcome handed back is the one a serial campaign would have had.

Before each round it keeps Python's cyclic collector off what lived already
(`before_round`; `campaign_collector` around a campaign undoes it). This module plays
rounds and moves their outcomes about; it must not judge findings
(triage, minimising, fingerprints: fuzz.search.campaign) nor write reports.
"""

from __future__ import annotations

import gc
import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from functools import partial
from pathlib import Path
from typing import Any, Protocol, cast

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis import configuration as hypothesis_configuration
from hypothesis import seed as hypothesis_seed
from hypothesis.database import ExampleDatabase
from hypothesis.errors import Flaky

from gamecert.fuzz.engines.capabilities import CHANCE as CHANCE_CAP
from gamecert.fuzz.engines.capabilities import FULL
from gamecert.fuzz.engines.engine import Engine, EngineSpecError, generation
from gamecert.fuzz.engines.recipes import EngineRecipe, command_recipe, handshake, object_recipe
from gamecert.fuzz.findings.chance_stats import ChanceStats
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.search.database import RUNS_SUFFIX
from gamecert.fuzz.search.machine import MachineClass, has_runs, machine_class
from gamecert.fuzz.search.play.driver import driven_test
from gamecert.fuzz.step.lockstep import AGREED_BATCH, Coverage, Finding, InvalidInput, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.spec import Profile
from gamecert.spec.profile_file import record_key, resolve_profile


class StopFlag(Protocol):
    """A threading.Event or a multiprocessing one: set from outside to end a round."""

    def is_set(self) -> bool: ...


def round_seed(seed: int, round_no: int) -> int:
    digest = hashlib.sha256(f"gamecert:{seed}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def round_settings(examples: int, steps: int,
                   database: ExampleDatabase | None = None) -> settings:
    # no Phase.shrink: fuzz.findings.minimize shrinks traces far cheaper than re-running examples.
    # Phase.reuse only with a database: its saved examples are replayed first.
    phases = [Phase.explicit, Phase.generate, Phase.target]
    if database is not None:
        phases.insert(1, Phase.reuse)
    return settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, database=database,
        derandomize=False, verbosity=Verbosity.quiet, report_multiple_bugs=True,
        suppress_health_check=list(HealthCheck), phases=phases)


def database_key(game: str, profile_id: str) -> bytes:
    """The key a campaign's examples are saved under: one corpus per game and profile, so
    what failed on one engine is tried first on the next (a regression corpus). For a
    profile that is not shipped, `profile_id` is its `record_key` (its id and a digest of
    its rules: a season changed keeps no corpus of the old rules)."""
    return f"gamecert:{game}:{profile_id}".encode()


@contextmanager
def hypothesis_home(directory: Path) -> Iterator[None]:
    """Hypothesis writes its `.hypothesis` files here, never into the user's current folder;
    the previous home is restored after (a campaign may run inside someone's test suite)."""
    previous = getattr(hypothesis_configuration, "__hypothesis_home_directory", None)
    hypothesis_configuration.set_hypothesis_home_dir(directory)
    try:
        yield
    finally:
        hypothesis_configuration.set_hypothesis_home_dir(previous)


@contextmanager
def same_draws_everywhere() -> Iterator[None]:
    """Hypothesis draws, now and then, constants it mines from the source of every *local*
    module loaded so far (an editable install, the engine under test), and caches the first
    pool it built for the life of the process. What a round drew would then depend on what
    its process had imported before: the command line and a worker process, or two
    campaigns in one test session, would play different rounds for the same seed. During a
    round that pool is empty and the cache its own, so a round draws the same wherever it
    is played. (Hypothesis's global constants, such as boundary values, stay.)"""
    try:
        from hypothesis.internal.cache import LRUCache
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # another Hypothesis: nothing of the kind to pin
        yield
        return
    mod = cast(Any, providers)
    if not hasattr(mod, "_get_local_constants") or not hasattr(mod, "CONSTANTS_CACHE"):
        yield
        return
    saved = mod._get_local_constants, mod.CONSTANTS_CACHE
    empty = Constants()
    mod._get_local_constants = lambda: empty
    mod.CONSTANTS_CACHE = LRUCache(1024)
    try:
        yield
    finally:
        mod._get_local_constants, mod.CONSTANTS_CACHE = saved


class DatabaseOpener(Protocol):
    """What a round opens its example database from (fuzz.search.database.RoundDatabase); it
    travels to worker processes and cluster workers, so it is plain data."""

    def open(self) -> ExampleDatabase: ...


@dataclass(frozen=True)
class RoundSetup:
    """Everything a round needs besides its number and muted rules; plain data, so it can
    be pickled to a worker process or a cluster worker."""

    game: str
    engine_spec: dict[str, Any]
    profile_id: str
    seed: int
    examples: int
    steps: int
    deadline: float | None = None  # wall clock (time.time()): other hosts have other clocks
    storage: str | None = None  # Hypothesis's home folder
    database: DatabaseOpener | None = None
    # what the engine declared in hello (fuzz.engines.capabilities): how its rounds are played
    caps: frozenset[str] = FULL
    # the whole profile (spec.profile_file's record) when it is not a shipped one, so a
    # worker plays a season's rules without its file; None: the catalogue's `profile_id`
    profile_doc: dict[str, Any] | None = None


@dataclass(frozen=True)
class RoundJob:
    round_no: int
    muted: frozenset[str]


@dataclass
class RoundOutcome:
    round_no: int
    muted: frozenset[str]  # what it was played with
    coverage: Coverage
    # raised first, then the ones passed over (muted); each with its engine's prelude
    found: list[tuple[Finding, list[dict[str, Any]]]] = field(default_factory=list)
    interrupted: bool = False
    worker: str = ""
    chance: ChanceStats | None = None  # follow mode: the draws the engine made and reported

    def portable(self) -> dict[str, Any]:
        """As plain data (a Finding made with keywords does not survive pickle)."""
        return {"round_no": self.round_no, "muted": sorted(self.muted),
                "coverage": (dict(self.coverage.applied), self.coverage.steps,
                             self.coverage.examples, dict(self.coverage.probes),
                             dict(self.coverage.past), self.coverage.past_steps),
                "found": [({f.name: getattr(finding, f.name) for f in fields(Finding)}, pre)
                          for finding, pre in self.found],
                "interrupted": self.interrupted, "worker": self.worker,
                "chance": None if self.chance is None else self.chance.portable()}

    @staticmethod
    def from_portable(doc: dict[str, Any]) -> RoundOutcome:
        from collections import Counter

        applied, steps, examples, probes, past, past_steps = doc["coverage"]
        return RoundOutcome(doc["round_no"], frozenset(doc["muted"]),
                            Coverage(Counter(applied), steps, examples, Counter(probes),
                                     Counter(past), past_steps),
                            [(Finding(**f), pre) for f, pre in doc["found"]],
                            doc["interrupted"], doc["worker"],
                            None if doc.get("chance") is None
                            else ChanceStats.from_portable(doc["chance"]))


class RoundError(Exception):
    """A worker could not play a round (not a finding about the engine)."""


def recipe_from_spec(game: str, spec: dict[str, Any]) -> EngineRecipe | None:
    """A recipe rebuilt from its spec on another process or host, or None when the engine
    cannot be reopened there (a live object handed over)."""
    if spec.get("kind") == "command":
        return command_recipe(game, [str(c) for c in spec["command"]],
                              float(spec.get("timeout_s", 5.0)))
    if spec.get("kind") == "python":
        recipe = object_recipe(game, str(spec["object"]))
        return recipe if recipe.fresh else None
    return None


def reopenable(recipe: EngineRecipe) -> str | None:
    """Why rounds of this engine cannot run in other processes, or None when they can."""
    if not recipe.fresh or recipe.spec.get("kind") not in ("command", "python"):
        return "the engine was handed over as a live object that cannot be reopened elsewhere"
    return None


# --- the cyclic garbage collector while rounds are played --------------------------------
# A round allocates fast (states, events, Hypothesis's choices), and each time the
# collector's oldest generation is due it walks every object the process holds: the start
# positions, the oracles' caches, what the rounds before kept. In a campaign that walk was
# about a fifth of the CPU time (docs/speed.md, fourth pass). So before each round what
# lives is frozen out of the collector's walks (`gc.freeze`: such objects are still freed
# by reference counting as ever); every `FULL_EVERY` rounds a process plays, everything is
# unfrozen first and a full collection frees the cycles that became garbage meanwhile, so
# what a long campaign holds stays bounded; and a campaign unfreezes all when it ends
# (`campaign_collector`), so the process that ran it keeps no frozen heap. The benchmarks'
# lockstep figure runs with the collector off (benchmarks/speed/overhead.py).

FULL_EVERY = 16  # rounds a process plays between full collections

_played = 0  # rounds this process has played since its last full collection


def before_round() -> None:
    """Freeze what lives now, after a full collection every FULL_EVERY rounds of this
    process (not before its first: a campaign's first finding comes in tenths of a second,
    and nothing of it is garbage yet). Rounds are counted per process, not by their number:
    a worker plays every other round, or any."""
    global _played
    if _played >= FULL_EVERY:
        gc.unfreeze()
        gc.collect()
        _played = 0
    _played += 1
    gc.freeze()


@contextmanager
def campaign_collector() -> Iterator[None]:
    """Around a campaign: what its rounds froze is unfrozen when it ends, whatever happens."""
    try:
        yield
    finally:
        gc.unfreeze()


class RoundPlayer:
    """Plays rounds on one open engine (already through its handshake)."""

    def __init__(self, setup: RoundSetup, engine: Engine, stop: StopFlag | None = None,
                 on_step: Callable[[], None] | None = None, worker: str = "") -> None:
        self.setup = setup
        self.engine = engine
        self.stop = stop
        self.on_step = on_step
        self.worker = worker
        self.profile: Profile = setup_profile(setup)
        self.oracles = oracles_for(setup.game)
        self.plugin = plugin_for(setup.game)
        self.ref = reference_game(setup.game)
        self.history = _History(generation(engine))
        self.last: list[Lockstep] = []  # the example before, across rounds: engine history
        self.live: Coverage | None = None  # the running round's coverage, for progress
        self.database = setup.database.open() if setup.database is not None else None
        # one class for the player's rounds: each round hands its instances the round's
        # lockstep factory, so what Hypothesis keeps per class holds no round's engine,
        # coverage or traces (a class per round kept them all: about 3,000 objects a round).
        # Made at the first round: its start strategy can take a z3 proof (Flit: 0.16 s),
        # wasted in a campaign's own player when workers play the rounds.
        # Two at most: a game's first rounds may play without the seeded runs of its later
        # ones (the plugin's `runs_from_round`), keyed by whether the round has them.
        self.machines: dict[bool, MachineClass] = {}

    def _deadline(self) -> float | None:
        if self.setup.deadline is None:
            return None
        return time.monotonic() + (self.setup.deadline - time.time())

    def play(self, job: RoundJob) -> RoundOutcome:
        setup, profile, engine = self.setup, self.profile, self.engine
        coverage = Coverage()
        self.live = coverage
        seen: list[Finding] = []  # as raised: a misbehaving engine may not on replay
        made: list[Lockstep] = []
        deadline = self._deadline()
        caps = setup.caps
        chance = None if CHANCE_CAP in caps else ChanceStats()

        def new_lockstep() -> Lockstep:
            if self.last:
                self.history.next_game(engine, self.last[0], setup.game, profile)
            ls = Lockstep(self.ref, engine, profile, self.oracles, coverage=coverage,
                          muted=job.muted, seed=setup.seed,
                          on_finding=lambda f: seen.append(self.history.note(f)),
                          deadline=deadline, on_step=self.on_step,
                          stop=cast(Any, self.stop), caps=caps, chance_stats=chance,
                          defer=AGREED_BATCH, go_on=True)
            self.last[:] = [ls]
            # Once a round has a finding, Hypothesis no longer stops at max_examples and
            # may run a whole hill-climbing pass for each target label (hundreds of
            # examples); a dead lockstep makes those examples cost nothing. The findings
            # are kept as raised.
            ls.dead = bool(seen)
            made.append(ls)
            return ls

        runs = has_runs(self.plugin, caps, job.round_no)
        if runs not in self.machines:
            self.machines[runs] = machine_class(self.plugin, profile, caps, job.round_no)
        cls = self.machines[runs]
        machine = partial(cls, new_lockstep)
        run_settings = round_settings(setup.examples, setup.steps, self.database)
        test = driven_test(cls, machine, run_settings)
        if self.database is not None:  # one corpus per game and profile, whatever the code
            cast(Any, test)._hypothesis_internal_database_key = database_key(
                setup.game, record_key(profile)) + (RUNS_SUFFIX if runs else b"")
        hypothesis_seed(round_seed(setup.seed, job.round_no))(test)
        if self.database is not None:  # @seed turns the database off; a campaign's is wanted
            t = cast(Any, test)
            t._hypothesis_internal_use_settings = settings(
                t._hypothesis_internal_use_settings, database=self.database)
        try:
            before_round()
            with same_draws_everywhere():
                raised = _run_round(test, seen, late=lambda: (
                    deadline is not None and time.monotonic() > deadline)
                    or (self.stop is not None and self.stop.is_set()))
        except KeyboardInterrupt:  # end now, with what was found: a partial report
            return RoundOutcome(job.round_no, job.muted, coverage, [], True, self.worker,
                                chance)
        finally:
            self.live = None
        passed_over = [f for ls in made for f in ls.muted_findings]
        found = [(f, self.history.prelude(f)) for f in raised + passed_over]
        return RoundOutcome(job.round_no, job.muted, coverage, found, False, self.worker,
                            chance)


class RoundRunner(Protocol):
    """Plays the rounds `in_order` submits; outcomes come back in any order."""

    slots: int  # rounds it can play at once
    # rounds it may hold queued beside those, so a worker that finishes starts the next
    # one at once, while the campaign is busy shrinking a finding (0: none)
    prefetch: int
    label: str  # for the certificate: "serial", "2 local processes", "dask tcp://..."

    def submit(self, job: RoundJob) -> None: ...
    def next_outcome(self) -> RoundOutcome: ...
    def live(self) -> Coverage | None: ...  # the running round's coverage, when visible
    def close(self) -> None: ...


class SerialRunner:
    """Today's campaign: each round played in this process, on the campaign's engine, when
    its outcome is asked for."""

    slots = 1
    prefetch = 0  # a queued round would be played with the muted set of its queuing time
    label = "serial"

    def __init__(self, player: RoundPlayer) -> None:
        self.player = player
        self.queue: list[RoundJob] = []

    def submit(self, job: RoundJob) -> None:
        self.queue.append(job)

    def next_outcome(self) -> RoundOutcome:
        return self.player.play(self.queue.pop(0))

    def live(self) -> Coverage | None:
        return self.player.live

    def close(self) -> None:
        self.queue.clear()


def in_order(runner: RoundRunner, first: int, schedule: Callable[[int], bool],
             accept: Callable[[], bool],
             muted: Callable[[], frozenset[str]]) -> Iterator[RoundOutcome]:
    """Outcomes of rounds `first`, `first + 1`, ... in round order, each played with the
    muted set the rounds before it left.

    `schedule(k)` says whether round k may still start (rounds, budget, Ctrl-C); `accept()`
    whether the next outcome is still wanted (it is asked again after the caller has taken
    in the one before, e.g. enough findings). Up to `runner.slots` rounds run at once; one
    played with rules muted that are no longer the rules muted when its turn comes is played
    again (rare: only a round that was running or queued when an earlier one found
    something new).
    """
    next_round = first  # the next round not yet submitted
    waiting = first  # the next round to hand back
    running: set[int] = set()
    done: dict[int, RoundOutcome] = {}
    limit = runner.slots + runner.prefetch

    def top_up() -> None:
        nonlocal next_round
        while (len(running) < limit and next_round - waiting < 4 * limit
               and schedule(next_round)):
            runner.submit(RoundJob(next_round, muted()))
            running.add(next_round)
            next_round += 1

    while True:
        if not accept():
            return
        top_up()
        if waiting not in done and waiting not in running:
            return  # not scheduled: the budget is spent
        while waiting not in done:
            outcome = runner.next_outcome()
            running.discard(outcome.round_no)
            done[outcome.round_no] = outcome
            if waiting not in done:
                # a later round ended first: its worker is free now, not once the round
                # waited for has ended (a long round would leave the others idle)
                top_up()
        outcome = done.pop(waiting)
        if outcome.interrupted:
            yield outcome
            return
        if outcome.muted != muted():  # played with a stale muted set: again
            runner.submit(RoundJob(waiting, muted()))
            running.add(waiting)
            continue
        waiting += 1
        yield outcome


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
        handshake(engine, game, profile)

    def note(self, finding: Finding) -> Finding:
        self.at[id(finding)] = (self.games, len(self.games))
        return finding

    def prelude(self, finding: Finding) -> list[dict[str, Any]]:
        games, n = self.at.pop(id(finding), ([], 0))
        return games[:n]


def setup_profile(setup: RoundSetup) -> Profile:
    """The profile a setup's rounds play: its record's, else the catalogue's of its id."""
    return resolve_profile(setup.game, setup.profile_id, setup.profile_doc)


def open_player(setup: RoundSetup, stop: StopFlag | None = None,
                worker: str = "") -> RoundPlayer:
    """A worker's player: a fresh engine from the setup's recipe, through the handshake."""
    try:  # a module or command this host does not have: the engine's spec, not our bug
        recipe = recipe_from_spec(setup.game, setup.engine_spec)
        if recipe is None:
            raise RoundError(f"the engine {setup.engine_spec} cannot be reopened on a worker")
        engine = recipe.open()
    except EngineSpecError as exc:
        raise RoundError(f"the worker could not start the engine: {exc}") from None
    _, unusable = handshake(engine, setup.game, setup_profile(setup))
    if unusable:
        engine.close()
        raise RoundError(f"the engine is unusable on the worker: {unusable}")
    return RoundPlayer(setup, engine, stop, worker=worker)


def _run_round(test: Callable[[], None], seen: list[Finding],
               late: Callable[[], bool] = lambda: False) -> list[Finding]:
    """Run one Hypothesis round; the findings it raised, one per set of rules.

    Findings are taken as they were raised rather than from Hypothesis's final replay: an
    engine that crashed or hung once may well behave on the replay (Hypothesis then calls
    the test flaky), and what it did the first time is the finding.
    """
    try:
        test()
    except Flaky as exc:
        # past the budget the lockstep stops mid-example, which Hypothesis sees as
        # inconsistent data, not as an engine that behaves differently
        if not seen and not late():
            return [_flaky_finding(exc)]
    except Finding as finding:
        if not seen:
            return [finding]
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        if any(isinstance(e, KeyboardInterrupt) for e in leaves):
            raise KeyboardInterrupt from group  # Ctrl-C stops the campaign, found or not
        others = [e for e in leaves if not isinstance(e, Finding | Flaky)]
        if others and not seen:
            raise others[0] from group
        if not seen:
            seen.extend(e for e in leaves if isinstance(e, Finding))
    except InvalidInput as exc:  # a generator bug of ours, never the engine's fault
        raise RuntimeError(f"gamecert generated an input its reference rejects: {exc}") from exc
    distinct: dict[tuple[str, ...], Finding] = {}
    for found in seen:
        distinct.setdefault(tuple(sorted(found.causes)), found)
    return list(distinct.values())


def _flaky_finding(exc: Flaky) -> Finding:
    """An engine that behaved differently when Hypothesis played an example again, said in
    our words: Hypothesis's ("Inconsistent data generation!") speak of the test's data,
    which is ours, when what changed is the engine's replies."""
    text = str(exc)
    how = (" (the example ended sooner the second time)" if "stopped drawing earlier" in text
           else " (the example ran longer the second time)" if "more data" in text else "")
    return Finding(["ENGINE-AGREES"], "flaky",
                   "the engine did not behave the same when an example was played again "
                   f"with the same requests{how}: it depends on something besides the seed "
                   "and the requests it is sent (a clock, system randomness, a file)")


def _leaves(group: BaseExceptionGroup[Any]) -> list[BaseException]:
    out: list[BaseException] = []
    for e in group.exceptions:
        out.extend(_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])
    return out
