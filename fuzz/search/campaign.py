"""Certification campaigns: rounds of seeded Hypothesis runs until the budget is spent.

Each round is one Hypothesis run of the lockstep machine with a seed derived from the
campaign seed and the round number, so `--seed S --rounds K` replays a run exactly. A rule
found broken is muted in later rounds (a cause: the rule, or one named departure of it), so
the campaign goes on to find other broken rules and other departures under the same rule.

Who plays the rounds is a seam (fuzz.search.rounds.RoundRunner): this process (`jobs=1`),
worker processes on this machine (fuzz.search.parallel) or a Dask cluster
(fuzz.search.cluster). Whoever plays them, outcomes come back in round order, each played
with the rules muted by the rounds before it, so the findings are the same for the same
seed and rounds.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamecert.fuzz.engines.capabilities import CHANCE as CHANCE_CAP
from gamecert.fuzz.engines.capabilities import (
    FULL,
    LOAD_STATE,
    capabilities_of,
    checked_in_part,
    not_checkable,
)
from gamecert.fuzz.engines.engine import Engine, EngineSpecError
from gamecert.fuzz.engines.recipes import EngineRecipe, as_recipe, declares_stateless, handshake
from gamecert.fuzz.findings.baseline import Baseline
from gamecert.fuzz.findings.chance_stats import ChanceStats, ChanceTest
from gamecert.fuzz.findings.minimize import minimize
from gamecert.fuzz.findings.trace import Chooser, TraceError, replay, standing
from gamecert.fuzz.findings.triage import (
    Departure,
    Triage,
    blamed_reading,
    disambiguated,
    fingerprint,
    first_violation,
    settle_by_play,
    settle_by_probes,
)
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.search.checkpoint import Checkpoint
from gamecert.fuzz.search.load_meter import Load, LoadMeter
from gamecert.fuzz.search.rounds import (
    DatabaseOpener,
    RoundPlayer,
    RoundRunner,
    RoundSetup,
    SerialRunner,
    campaign_collector,
    hypothesis_home,
    in_order,
    reopenable,
    round_seed,
    round_settings,
)
from gamecert.fuzz.step.blame import tag
from gamecert.fuzz.step.lockstep import Coverage, Finding
from gamecert.oracles import oracles_for
from gamecert.oracles.base import cause_of
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Catalogue, Profile, load_catalogue
from gamecert.spec.profile_file import record_of

__all__ = ["CampaignResult", "Progress", "hypothesis_home", "round_seed", "round_settings",
           "run_campaign"]

JSON = Any


# Steps per example unless told otherwise. An engine without load_state starts every example
# from a new game, so a game longer than this is never finished (certify --steps raises it).
STEPS_PER_EXAMPLE = 25


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
    departures: list[Departure] = field(default_factory=list)
    unusable: str | None = None
    min_exercised: int = 1
    shrink_allowance: float | None = None  # seconds past the budget for shrinking, if any
    baseline: Baseline | None = None
    interrupted: bool = False
    hello: Any = None  # what the engine said it is, in its own words
    engine_spec: dict[str, Any] = field(default_factory=dict)  # how it was opened
    # what the engine declared in hello (fuzz.engines.capabilities), and the rules that cannot be
    # checked without a capability it lacks (rule -> capability): not passed, not required
    capabilities: frozenset[str] = FULL
    not_checkable: dict[str, str] = field(default_factory=dict)
    # rules checked, but not whole, for want of a capability (rule -> capability): a pass
    # says nothing of the part that needs it
    in_part: dict[str, str] = field(default_factory=dict)
    # follow mode: the statistical test of each chance rule over the draws the engine made,
    # and the draws themselves so far (checkpointed: a resumed campaign tests them all)
    chance_tests: list[ChanceTest] = field(default_factory=list)
    chance_samples: ChanceStats | None = None
    # the most steps an example takes (Hypothesis's stateful_step_count): part of a replay
    steps_per_example: int = STEPS_PER_EXAMPLE
    runner: str = "serial"  # who played the rounds: serial, N local processes, a cluster
    runner_note: str | None = None  # why fewer jobs than asked ran, if so
    database: dict[str, Any] | None = None  # the example database the rounds started from
    # how much the machine's other work slowed the rounds (fuzz.search.load_meter); None where
    # it cannot be measured
    load: Load | None = None

    @property
    def catalogue(self) -> Catalogue:
        return load_catalogue(self.game)

    @property
    def findings(self) -> list[Finding]:
        """One finding per cause (accepted ones included), the shortest trace of each."""
        return [d.finding for d in self.departures]

    @property
    def new_departures(self) -> list[Departure]:
        """Departures no baseline accepts: these fail the run."""
        return [d for d in self.departures if d.accepted is None]

    @property
    def applicable(self) -> list[str]:
        """The catalogue rules a certify run must exercise under this profile."""
        return [r.id for r in self.catalogue.rules
                if r.checked_by == "certify" and r.id not in self.profile.off
                and r.id not in self.not_checkable]

    @property
    def unexercised(self) -> list[str]:
        """Applicable rules exercised fewer than `min_exercised` times, and never found
        broken (a broken rule was exercised by the finding itself)."""
        broken = {d.primary for d in self.departures}
        applied = self.coverage.applied
        return [rid for rid in self.applicable
                if applied.get(rid, 0) < self.min_exercised and rid not in broken]

    @property
    def status(self) -> str:
        if self.unusable:
            return "unusable"
        if self.new_departures:
            return "violations"
        if self.coverage.steps == 0 or self.unexercised:
            return "incomplete"
        return "certified-with-departures" if self.departures else "certified"


@dataclass(frozen=True)
class Progress:
    elapsed: float
    budget: float | None
    rounds: int
    examples: int
    steps: int
    findings: int
    unexercised: tuple[str, ...] = ()
    found: tuple[str, ...] = ()  # each finding's primary rule, in the order found

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.elapsed if self.elapsed > 0 else 0.0


# Set by the command line's Ctrl-C handler: the running example ends as at the deadline and
# no new round starts (an exception through Hypothesis could be taken for a finding).
STOP = threading.Event()
TICK_SECONDS = 0.5  # progress during a round, at most this often
STEER_FACTOR = 4  # examples this many times longer for an engine that cannot load states


def cache_dir() -> Path:
    """The user's cache folder for gamecert (Hypothesis keeps its files there)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamecert"


def shrink_allowance(budget: float) -> float:
    """Seconds a budgeted run may spend past its budget shrinking and fingerprinting what it
    found: a quarter of the budget, at least 5 s, at most 30 s."""
    return min(30.0, max(5.0, budget / 4))


def check_usable(game: str, engine: Engine, profile: Profile) -> str | None:
    """Why the engine cannot be certified at all, or None."""
    return handshake(engine, game, profile)[1]


@dataclass(frozen=True)
class Options:
    """How a campaign runs (see `run_campaign`)."""

    profile_id: str | None = None
    budget: float | None = 20.0
    rounds: int | None = None
    seed: int = 0
    examples_per_round: int = 20
    steps_per_example: int = STEPS_PER_EXAMPLE
    max_findings: int = 25
    min_exercised: int = 1
    baseline: Baseline | None = None
    progress: Callable[[Progress], None] | None = None
    on_round: Callable[[CampaignResult], None] | None = None
    resume: Checkpoint | None = None
    jobs: int = 1
    cluster: str | None = None
    database: DatabaseOpener | None = None
    database_info: dict[str, Any] | None = None
    profile: Profile | None = None  # a profile object (a season's file): wins over profile_id


def run_campaign(game: str, engine: Engine | EngineRecipe, *, profile_id: str | None = None,
                 budget: float | None = 20.0, rounds: int | None = None, seed: int = 0,
                 examples_per_round: int = 20, steps_per_example: int = STEPS_PER_EXAMPLE,
                 max_findings: int = 25, min_exercised: int = 1,
                 baseline: Baseline | None = None, storage: Path | None = None,
                 progress: Callable[[Progress], None] | None = None,
                 on_round: Callable[[CampaignResult], None] | None = None,
                 resume: Checkpoint | None = None, jobs: int = 1, cluster: str | None = None,
                 database: DatabaseOpener | None = None,
                 database_info: dict[str, Any] | None = None,
                 profile: Profile | None = None) -> CampaignResult:
    """Fuzz `engine` against the reference until the budget (seconds) or `rounds` is spent.

    A budget is a wall-clock promise: no new work starts after it, and shrinking and
    fingerprinting what was found get at most `shrink_allowance(budget)` seconds more.
    Hypothesis's files go to `storage` (default: the user's cache folder). `on_round` sees
    the result so far after every round (to checkpoint it); `resume` goes on from a
    checkpoint: its rounds, time spent, coverage and departures. Ctrl-C ends the campaign
    at once with what it found (`result.interrupted`).

    `jobs` > 1 plays rounds in that many worker processes, each with its own engine opened
    from the recipe (an engine handed over open runs with one job: `result.runner_note`
    says so); `cluster` (tcp://host:port) sends them to a Dask scheduler instead. Either
    way the findings are those of `jobs=1` for the same seed and rounds. `database`
    (fuzz.search.database) is the Hypothesis example database the rounds replay first and save
    to; `database_info` describes it for the certificate. `profile` is a profile object
    (spec.profile_file: a season's) to run under instead of the catalogue's `profile_id`;
    its whole record travels with the rounds, traces and report.
    """
    opts = Options(profile_id, budget, rounds, seed, examples_per_round, steps_per_example,
                   max_findings, min_exercised, baseline, progress, on_round, resume,
                   max(1, jobs), cluster, database, database_info, profile)
    home = storage or cache_dir() / "hypothesis"
    with hypothesis_home(home), campaign_collector():
        return _campaign(game, engine, opts, home)


def _runner(opts: Options, setup: RoundSetup, recipe: EngineRecipe, player: RoundPlayer,
            wait: Callable[[], None]) -> tuple[RoundRunner, str | None]:
    """Who plays the rounds (the seam between a campaign and its machinery), and why it is
    fewer jobs than asked, if so."""
    why = reopenable(recipe)
    if opts.cluster is not None:
        if why is not None:
            raise EngineSpecError(f"--cluster: {why}; name it as a command or a "
                                  f"module:attr the workers can open")
        from gamecert.fuzz.search.cluster import DaskRunner

        return DaskRunner(opts.cluster, setup, stop=STOP, on_wait=wait), None
    if opts.jobs > 1:
        if why is not None:
            return SerialRunner(player), f"runs with 1 job, not {opts.jobs}: {why}"
        from gamecert.fuzz.search.parallel import ProcessRunner

        return ProcessRunner(setup, opts.jobs, stop=STOP, on_wait=wait), None
    return SerialRunner(player), None


def _campaign(game: str, engine_or_recipe: Engine | EngineRecipe,
              opts: Options, home: Path) -> CampaignResult:
    profile_id, budget, rounds, seed = opts.profile_id, opts.budget, opts.rounds, opts.seed
    min_exercised, max_findings, progress = opts.min_exercised, opts.max_findings, opts.progress
    catalogue = load_catalogue(game)
    profile = opts.profile or catalogue.profile(profile_id)
    oracles = oracles_for(game)
    started = time.monotonic() - (opts.resume.elapsed if opts.resume else 0.0)
    # a recipe: the minimiser and the confirmation replays open fresh engines from it; an
    # engine handed over open is shared (its traces are confirmed on it, not fresh)
    recipe = as_recipe(engine_or_recipe)
    result = CampaignResult(game, profile, recipe.name, seed, budget, 0, 0.0, Coverage(),
                            min_exercised=min_exercised, baseline=opts.baseline,
                            engine_spec=dict(recipe.spec),
                            steps_per_example=opts.steps_per_example,
                            database=opts.database_info)
    try:
        engine = recipe.open()
    except EngineSpecError as exc:  # it cannot even be started: a verdict, with a report
        result.unusable = str(exc)
        result.duration = time.monotonic() - started
        return result
    result.engine = engine.name
    result.hello, result.unusable = handshake(engine, game, profile)
    if result.unusable:
        engine.close()
        result.duration = time.monotonic() - started
        return result
    caps = result.capabilities = capabilities_of(result.hello)
    result.not_checkable = not_checkable(caps, oracles, game)
    result.in_part = checked_in_part(caps, oracles, game, result.not_checkable,
                                     getattr(plugin_for(game), "crafted_for", None))
    chance_stats = None if CHANCE_CAP in caps else ChanceStats()
    if chance_stats is not None and opts.resume is not None and opts.resume.chance:
        chance_stats.merge(ChanceStats.from_portable(opts.resume.chance))
    result.chance_samples = chance_stats
    # without load_state, deep positions (a game's end, a full grid) are reached only by
    # playing there from a new game: examples are STEER_FACTOR times longer
    steps = opts.steps_per_example * (1 if LOAD_STATE in caps else STEER_FACTOR)
    deadline = None if rounds is not None or budget is None else started + budget
    if deadline is not None and budget is not None:
        result.shrink_allowance = shrink_allowance(budget)
    triage = Triage(catalogue)
    muted: set[str] = set()
    if opts.resume is not None:  # go on where the checkpoint left off
        result.rounds = opts.resume.rounds
        result.coverage.merge(opts.resume.coverage)
        for dep in opts.resume.departures:
            triage.restore(dep)
            muted.update({dep.key, *dep.finding.causes})
    last_tick = [0.0]
    live: list[RoundRunner] = []

    def snapshot() -> Progress:
        c = Coverage()
        c.merge(result.coverage)
        running = live[0].live() if live else None
        if running is not None:  # the round being played in this process, so far
            c.merge(running)
        left = tuple(r for r in result.applicable if c.applied.get(r, 0) < min_exercised)
        return Progress(time.monotonic() - started, budget, result.rounds, c.examples,
                        c.steps, len(triage.departures), left,
                        tuple(d.primary for d in triage.departures))

    def tick() -> None:  # progress during long rounds too, twice a second at most
        now = time.monotonic()
        if progress is not None and now - last_tick[0] >= TICK_SECONDS:
            last_tick[0] = now
            progress(snapshot())

    def accept() -> bool:
        if STOP.is_set():  # Ctrl-C: end with what was found, a partial report
            result.interrupted = True
            return False
        # a departure one step could not pin on one rule, not settled yet, is not counted:
        # the rounds go on until a later finding shows one of its rules broken alone (the
        # triage then charges it there) or the budget ends
        return sum(not d.alternatives for d in triage.departures) < max_findings

    def schedule(round_no: int) -> bool:
        if STOP.is_set():
            return False
        if rounds is not None:
            return round_no < rounds
        return deadline is None or time.monotonic() < deadline

    def seconds_left() -> float:
        if STOP.is_set():
            return 0.0
        if deadline is None or result.shrink_allowance is None:
            return 10.0
        return min(10.0, deadline + result.shrink_allowance - time.monotonic())

    def record(finding: Finding, prelude: list[dict[str, Any]]) -> None:
        if triage.known(finding) is not None:
            triage.add(finding)  # the same cause again: counted, not listed
            return
        if finding.trace and finding.trace.get("muted"):  # passed over then, shown now
            finding.trace["muted"] = sorted(set(finding.trace["muted"]) - finding.causes)
        if finding.tainted:  # a known cause may have made this position: find the first
            cause = _first_cause(finding, recipe)
            if cause is not None and triage.known(cause) is not None:
                dep, _ = triage.add(cause)
                dep.consequences.update(set(finding.rules) - {dep.primary})
                return
            finding = cause or finding
        if seconds_left() > 0:
            finding = minimize(finding, recipe, prelude=prelude, reuse=reuse,
                               seconds=seconds_left())
        dep, _ = triage.add(finding)
        resolved = None
        if dep.alternatives and seconds_left() > 0:  # one step could not tell: ask the engine
            shown_by = disambiguated(dep, lambda doc: _first_finding(recipe, doc))
            if shown_by is None and seconds_left() > 0:
                # or by the one-rule probes of its rules, offered where it was met
                shown_by = settle_by_probes(dep, _probes_at,
                                            lambda doc: _first_finding(recipe, doc))
            if shown_by is not None:
                resolved, shown = shown_by
                dep = triage.reattribute(dep, resolved)
                if resolved not in dep.finding.rules and shown.rules == [resolved]:
                    dep.finding = shown  # the step names another of the rules; the
                    # listing or probe shows this one broken, and no other
            elif seconds_left() > 0:  # or by what the engine does further on
                # the game played on passes over every known cause, this one too: what
                # stops it is a departure this cause's rule does not explain
                choose = getattr(plugin_for(game), "play_on_action", None)
                known = {*muted, dep.key, *dep.finding.causes}
                settled = settle_by_play(dep, lambda doc: _played_on(recipe, doc, known,
                                                                     choose))
                if settled is not None and settled[0] == dep.primary:
                    resolved = settled[0]
                    dep = triage.confirm(dep)
                elif settled is not None:  # charged to the rule the game played on shows,
                    resolved, named, shown = settled  # with that game as its finding
                    dep = triage.reattribute(dep, resolved, named)
                    if seconds_left() > 0:
                        shown = minimize(shown, recipe, prelude=prelude, reuse=reuse,
                                         seconds=seconds_left())
                    dep.finding = shown
        dep.reading = blamed_reading(dep, catalogue)  # the step's own model named it
        # a parameter or a library model explains it: no reading to look for
        modelled = (cause_of(first_violation(dep.finding, dep.primary)[0]) or "").startswith(
            ("parameter-", "model-"))
        if dep.reading is None and not modelled and seconds_left() > 0:
            dep.reading = fingerprint(dep, catalogue, profile,
                                      _clean_under(dep, recipe, seconds_left))
            if resolved is not None and dep.reading and dep.reading.rule != resolved:
                dep.reading = None  # the engine's own listing named the cause: the rules it
                # ruled out explain nothing, whatever reading runs the short trace clean
            if dep.reading and dep.reading.variant:  # that reading is the cause, whoever
                # saw it (a listing's oracle, a step's model): one departure
                dep = triage.reattribute(dep, dep.reading.rule,
                                         tag("reading", dep.reading.variant))
        muted.update(finding.causes)  # a cause, not its whole rule: keep hunting under it
        muted.add(dep.key)

    reuse = declares_stateless(result.hello)
    attach = getattr(progress, "attach", None)  # a display that can ask for snapshots
    if attach is not None:
        attach(snapshot)
    setup = RoundSetup(game, dict(recipe.spec), profile.id, seed, opts.examples_per_round,
                       steps,
                       None if deadline is None else time.time() + deadline - time.monotonic(),
                       str(home), opts.database, caps, record_of(profile))
    try:
        player = RoundPlayer(setup, engine, STOP, on_step=tick)
        runner, result.runner_note = _runner(opts, setup, recipe, player, tick)
    except BaseException:
        engine.close()
        raise
    live.append(runner)
    result.runner = runner.label
    if not isinstance(runner, SerialRunner):
        engine.close()  # the workers open their own; this one only said hello
    meter = LoadMeter().start()
    try:
        for outcome in in_order(runner, result.rounds, schedule, accept,
                                lambda: frozenset(muted)):
            if outcome.interrupted:
                result.interrupted = True
                break
            result.coverage.merge(outcome.coverage)
            if chance_stats is not None and outcome.chance is not None:
                chance_stats.merge(outcome.chance)  # in round order: as a serial run adds
            for finding, prelude in outcome.found:
                record(finding, prelude)
            result.rounds += 1
            if progress:
                progress(snapshot())
            if opts.on_round is not None:
                result.departures = triage.departures
                result.duration = time.monotonic() - started
                opts.on_round(result)
    except KeyboardInterrupt:  # a second Ctrl-C while waiting for workers: end now
        result.interrupted = True
    finally:
        result.load = meter.stop()  # before the workers and engines it measures are gone
        runner.close()  # workers stopped, their engines with them
        engine.close()  # whatever happens, the engine we opened is stopped
    if chance_stats is not None:
        _judge_chance(result, chance_stats, triage, seed)
    result.departures = triage.departures
    for dep in result.departures:  # found broken, so checked after all: in part at most
        need = result.not_checkable.pop(dep.primary, None)
        if need is not None:
            result.in_part.setdefault(dep.primary, need)
    if opts.baseline is not None:
        for dep in result.departures:
            dep.accepted = opts.baseline.reason_for(dep)
    result.duration = time.monotonic() - started
    return result  # no step at all is "incomplete" (see `status`): no evidence, no certificate


def _judge_chance(result: CampaignResult, stats: ChanceStats, triage: Triage,
                  seed: int) -> None:
    """Test each chance rule over the campaign's followed draws; a failed test is a finding
    under that rule. It has no step trace (it is a property of many draws, not of one
    step): the campaign's seed and rounds replay it."""
    result.chance_tests = stats.tests()
    for t in result.chance_tests:
        if t.verdict != "failed":
            continue
        triage.add(Finding([t.rule], "chance-statistics",
                           f"the engine's draws do not follow the rule's distribution: "
                           f"chi-square {t.statistic:.1f} on {t.df} df, p = {t.p_value:.3g} "
                           f"< {t.alpha:.3g}, over {t.n} draws ({t.counts_text()}); no step "
                           f"trace: replay with --seed {seed} --rounds {result.rounds}"))


def _replay_fresh(recipe: EngineRecipe, doc: dict[str, Any], **how: Any) -> Any:
    """Replay a trace on a fresh engine from the recipe (the shared one for a handed-over
    engine), after the same handshake as a campaign."""
    engine = recipe.open()
    try:
        return replay(doc, engine, handshake=recipe.fresh, **how)
    finally:
        engine.close()


def _first_cause(finding: Finding, recipe: EngineRecipe) -> Finding | None:
    """The first failure of a finding's trace replayed with no rule muted, or None."""
    if not finding.trace:
        return None
    ops = finding.trace["ops"][: finding.op_index + 1]
    try:
        cause: Finding | None = _replay_fresh(recipe, {**finding.trace, "ops": ops},
                                              muted=frozenset()).finding
    except TraceError:
        return None
    return cause


def _first_finding(recipe: EngineRecipe, doc: dict[str, Any]) -> Finding | None:
    """The finding of a trace replayed on a fresh engine with no rule muted, or None."""
    try:
        found: Finding | None = _replay_fresh(recipe, doc, muted=frozenset()).finding
    except TraceError:
        return None
    return found


def _probes_at(doc: dict[str, Any]) -> list[tuple[str, Any]]:
    """The game's one-rule probes (rule, action) where a trace's operations leave the
    reference (`triage.settle_by_probes`); none where the game builds none."""
    rule_probes: Callable[[Any], list[tuple[str, Any]]] | None = getattr(
        plugin_for(doc["game"]), "rule_probes", None)
    if rule_probes is None:
        return []
    ls = standing(doc)
    if ls is None or not ls.live or ls.to_move in (CHANCE, TERMINAL):
        return []
    return rule_probes(ls)


def _played_on(recipe: EngineRecipe, doc: dict[str, Any], known: set[str],
               choose: Chooser | None) -> Finding | None:
    """The first finding of a trace played on past its prefix (`triage.settle_by_play`),
    steered by the game's `choose` where it has one, or None: the causes muted at the time
    passed over as then, and every cause the campaign knows by now (`known`), so that the
    game played on stops at something new."""
    try:
        muted = frozenset({*(doc.get("muted") or ()), *known})
        found: Finding | None = _replay_fresh(recipe, doc, muted=muted, choose=choose).finding
    except TraceError:
        return None
    return found


def _clean_under(dep: Departure, recipe: EngineRecipe,
                 seconds_left: Callable[[], float]) -> Callable[[Profile], bool | None]:
    """How `fingerprint` replays a departure's trace under another reading."""
    doc = dict(dep.finding.trace or {})

    def clean_under(variant: Profile) -> bool | None:
        if not doc or seconds_left() <= 0:  # out of time: no reading claimed
            return None
        try:
            again = _replay_fresh(recipe, doc, profile=variant)
        except TraceError:
            return None  # the trace's moves are not moves under that reading
        return again.finding is None and again.ops_run == len(doc.get("ops", []))

    return clean_under
