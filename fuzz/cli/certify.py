"""`gamecert certify`: a campaign from the command line, with its report folder (claimed,
checkpointed, resumed), its scale options (--jobs, --cluster, --db), its live progress and
its reports (terminal, JSON, JUnit, HTML, traces).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gamecert.fuzz.cli.args import (
    EXIT_BAD_INPUT,
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNUSABLE,
    EXIT_VIOLATIONS,
    UsageError,
    _catalogue,
    _check_report_dir,
    _profile,
    _recipe,
    _version,
)
from gamecert.fuzz.engines.engine import EngineSpecError
from gamecert.fuzz.reports.visible_text import visible
from gamecert.spec import Catalogue, Profile
from gamecert.spec.profile_file import (
    profile_from_record,
    profile_option,
    record_key,
    record_of,
)

if TYPE_CHECKING:
    from gamecert.fuzz.findings.baseline import Baseline
    from gamecert.fuzz.reports.folder import Claim
    from gamecert.fuzz.search.campaign import CampaignResult
    from gamecert.fuzz.search.checkpoint import Checkpoint
    from gamecert.fuzz.search.database import RoundDatabase


def cmd_certify(args: argparse.Namespace) -> int:
    from gamecert.fuzz.findings.baseline import load_baseline

    cat = _catalogue(args.game)
    resume = None
    if args.resume:
        from gamecert.fuzz.search.checkpoint import load_checkpoint

        resume = load_checkpoint(Path(args.resume))
        if resume.game != args.game:
            raise UsageError(f"{args.resume} holds a {resume.game} campaign, not {args.game}")
        args.report, args.seed, args.profile = args.resume, resume.seed, resume.profile
        if resume.profile_doc is not None:  # the season it ran, whatever the file says now
            args.profile_file = None
        if args.steps is None and resume.steps is not None:  # the examples it was playing
            args.steps = resume.steps
        if args.rounds is None and resume.budget is not None:
            args.budget = resume.budget
    profile = (profile_from_record(resume.profile_doc, f"{args.resume}: checkpoint.json")
               if resume is not None and resume.profile_doc is not None
               else _profile(args, cat))
    baseline = load_baseline(args.baseline, cat) if args.baseline else None
    if args.report is not None:
        _check_report_dir(args.report)
    report_dir = Path(args.report) if args.report else None
    held = _claim_report_dir(report_dir, resuming=resume is not None)
    try:
        return _certify(args, cat, profile, baseline, resume, report_dir)
    finally:
        if held is not None:
            held.release()


def _claim_report_dir(report_dir: Path | None, resuming: bool) -> Claim | None:
    """This campaign's hold on its --report folder (fuzz.reports.folder), and a note of
    what an earlier campaign left there and was removed."""
    if report_dir is None:
        return None
    from gamecert.fuzz.reports.folder import FolderBusy, claim

    try:
        held = claim(report_dir, resuming=resuming)
    except FolderBusy as exc:
        raise UsageError(f"--report {exc}") from None
    except OSError as exc:
        raise UsageError(f"--report {str(report_dir)!r}: cannot lock the folder: "
                         f"{exc.strerror or exc}") from None
    if held.removed:
        traces = sum(1 for p in held.removed if p.endswith(".json") and "/" in p)
        print(f"note: --report {report_dir} held an earlier campaign's files; removed "
              f"{len(held.removed)} ({traces} trace files), so the folder holds this "
              f"campaign's only", flush=True)
    return held


def _certify(args: argparse.Namespace, cat: Catalogue, profile: Profile,
             baseline: Baseline | None, resume: Checkpoint | None,
             report_dir: Path | None) -> int:
    from gamecert.fuzz.cli.progress import progress_display
    from gamecert.fuzz.reports.certificate import (
        render_capabilities,
        render_findings,
        render_fingerprint,
        render_load,
        render_table,
        rule_rows,
        steps_option,
        summary,
        write_report,
    )
    from gamecert.fuzz.search.campaign import STEPS_PER_EXAMPLE, CampaignResult, run_campaign
    from gamecert.fuzz.step.lockstep import Coverage

    try:
        engine = _recipe(args)
    except EngineSpecError as exc:
        if report_dir is not None:  # a CI job must get its JUnit file even now
            failed = CampaignResult(args.game, profile, _engine_label(args), args.seed,
                                    None if args.rounds else args.budget, 0, 0.0, Coverage(),
                                    unusable=str(exc), min_exercised=args.min_exercised)
            write_report(failed, report_dir)
        raise
    jobs, database = _scale_options(args, report_dir, resume is not None, profile)
    season = (f" (from a profile file: {profile.extends} with {len(profile.changes)} "
              f"change(s))" if profile.extends else "")
    print(f"gamecert certify {args.game}: engine {engine.name}, profile {profile.id}{season}, "
          f"seed {args.seed}, " + (f"{args.rounds} rounds" if args.rounds else
                                   f"budget {args.budget:g} s") +
          (f", baseline {args.baseline}" if baseline else "") +
          (f", resuming after round {resume.rounds} ({resume.elapsed:.1f} s spent, "
           f"{len(resume.departures)} findings)" if resume else "") +
          (f", {args.cluster}" if args.cluster else f", {jobs} jobs") +
          f", example database {database.info()['location'] if database else 'none'}",
          flush=True)
    display = progress_display(args.quiet)
    writes = ReportWrites()  # how the report's writes went, round after round
    from gamecert.fuzz.search import campaign

    def on_ctrl_c(signum: int, frame: object) -> None:
        campaign.STOP.set()  # finish the example, write the partial report
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second one: at once

    campaign.STOP.clear()
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler:  # not when the shell told us to ignore it
        with contextlib.suppress(ValueError):  # only the main thread may set handlers
            signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        result = run_campaign(args.game, engine, profile_id=profile.id, profile=profile,
                              budget=None if args.rounds else args.budget, rounds=args.rounds,
                              seed=args.seed, min_exercised=args.min_exercised,
                              steps_per_example=args.steps or STEPS_PER_EXAMPLE,
                              baseline=baseline, progress=display, resume=resume,
                              on_round=_checkpointer(report_dir, writes=writes),
                              jobs=jobs, cluster=args.cluster, database=database,
                              database_info=database.info() if database else None)
    finally:
        display.close()
        if previous is signal.default_int_handler:
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGINT, previous)
    if result.runner_note:
        print(f"note: {result.runner_note}")
    writes.failed = None  # what counts is whether the last writes, below, succeed
    final = _checkpointer(report_dir, finished=not result.interrupted, writes=writes)
    if final is not None and not result.unusable:
        final(result)
    if result.shrink_allowance is not None:
        print(f"budget {args.budget:g} s; shrink allowance {result.shrink_allowance:g} s (to "
              f"shrink and fingerprint what was found), plus one reply time-out")
    if not result.unusable:
        print(f"engine says: {_said(result.hello)}; gamecert {_version()}")
        rows = rule_rows(result)
        print(render_table(result, rows))
        if result.departures:
            print("\n" + render_findings(result))
        print("\n" + render_fingerprint(result))
        print("\n" + render_capabilities(result))
        load = render_load(result)
        if load:
            print("\n" + load)
    else:
        rows = []
        print(visible(f"ENGINE UNUSABLE: {result.unusable}"))
    if report_dir is not None and writes.failed is None:
        try:
            path = write_report(result, report_dir)
            print(f"\nreport: {path}" + (f" (traces in {path.parent / 'traces'})"
                                          if result.departures else ""))
        except OSError as exc:
            writes.failed = exc
    if result.unusable:
        return _unsaved(writes, report_dir) or EXIT_UNUSABLE
    print("\n" + visible(summary(result, rows)))
    print(f"replay this run: gamecert certify {args.game} {profile_option(profile)} "
          f"--seed {args.seed} --rounds {result.rounds}{steps_option(result)}" +
          (f" (from the same starting example database: {result.database['examples_at_start']}"
           f" examples, snapshot {result.database['snapshot_sha256'][:12]})"
           if result.database and result.database["examples_at_start"] else ""))
    if _unsaved(writes, report_dir):
        return EXIT_BAD_INPUT
    if result.interrupted:
        print("INTERRUPTED: the verdict above covers the rounds that ran"
              + (f"; go on with --resume {report_dir}" if report_dir else ""))
        return EXIT_INTERRUPTED
    return {"violations": EXIT_VIOLATIONS, "incomplete": EXIT_INCOMPLETE}.get(result.status,
                                                                               EXIT_OK)


@dataclass
class ReportWrites:
    """How writing the --report folder went: the last write that failed (None once one
    succeeds again), and whether the user was told."""

    failed: OSError | None = None
    warned: bool = False


def _unsaved(writes: ReportWrites, report_dir: Path | None) -> int:
    """Exit 2 (an unwritable --report folder), saying so, when the campaign's report
    could not be written at the end; else 0. The verdict was printed all the same."""
    if writes.failed is None:
        return 0
    print(visible(f"gamecert: error: --report {report_dir}: the report was not written: "
                  f"{writes.failed} (the verdict above stands; free the space or give "
                  f"another folder, and run again)"), file=sys.stderr)
    return EXIT_BAD_INPUT


def _scale_options(args: argparse.Namespace, report_dir: Path | None,
                   resuming: bool, profile: Profile) -> tuple[int, RoundDatabase | None]:
    """--jobs and --db: how many worker processes, and the example database's snapshot
    (a resumed campaign reads the snapshot its first part took, kept in its folder)."""
    from gamecert.fuzz.search.campaign import cache_dir
    from gamecert.fuzz.search.database import (
        database_spec,
        load_snapshot,
        save_snapshot,
        take_snapshot,
    )
    from gamecert.fuzz.search.parallel import default_jobs
    from gamecert.fuzz.search.rounds import database_key

    if args.cluster is not None and not args.cluster.startswith(("tcp://", "tls://")):
        raise UsageError(f"--cluster {args.cluster!r}: give the scheduler's address, "
                         f"tcp://HOST:PORT")
    jobs = args.jobs if args.jobs is not None else default_jobs()
    spec = database_spec(args.db, report_dir, cache_dir())
    if not spec:
        return jobs, None
    snap = load_snapshot(report_dir, spec) if resuming and report_dir else None
    if snap is None:
        snap = take_snapshot(spec, database_key(args.game, record_key(profile)))
        if report_dir is not None:
            save_snapshot(snap, report_dir)
    return jobs, snap


def _checkpointer(report_dir: Path | None, finished: bool = False,
                  writes: ReportWrites | None = None,
                  ) -> Callable[[CampaignResult], None] | None:
    """After each round: the report and a checkpoint, so a killed run loses nothing.
    A write that fails (a full disk) does not stop the campaign: it is said once, kept in
    `writes`, and the next round tries again."""
    if report_dir is None:
        return None
    from gamecert.fuzz.reports.certificate import write_report
    from gamecert.fuzz.search.checkpoint import save_checkpoint

    def save(result: CampaignResult) -> None:
        try:
            write_report(result, report_dir)
            save_checkpoint(report_dir, game=result.game, profile=result.profile.id,
                            profile_doc=record_of(result.profile),
                            seed=result.seed, budget=result.budget, rounds=result.rounds,
                            elapsed=result.duration, coverage=result.coverage,
                            departures=result.departures, finished=finished,
                            chance=None if result.chance_samples is None
                            else result.chance_samples.portable(),
                            steps=result.steps_per_example)
        except OSError as exc:
            if writes is None:
                raise
            if not writes.warned:
                print(visible(f"gamecert: warning: {exc}; the campaign goes on and says at "
                              f"the end whether its report could be written"),
                      file=sys.stderr, flush=True)
            writes.failed, writes.warned = exc, True
        else:
            if writes is not None:
                writes.failed = None

    return save


def _engine_label(args: argparse.Namespace) -> str:
    return str(args.engine_cmd or args.engine or "reference (subprocess)")


def _said(hello: object) -> str:
    """The engine's hello, in a line: what was certified, in its own words."""
    if not isinstance(hello, dict):
        return repr(hello)[:120]
    caps = hello.get("capabilities")
    return (f"{hello.get('engine')!r} plays {hello.get('game')!r}"
            + (f", capabilities {', '.join(map(str, caps))}" if isinstance(caps, list) else ""))
