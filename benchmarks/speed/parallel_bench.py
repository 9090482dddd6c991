"""`--jobs` speed figures: what worker processes buy on this machine.

    python benchmarks/speed/parallel_bench.py [--jobs 2] [--rounds 24] [--repeat 2]
                                        [--mutants slow|all|NAME,...]

1. Speed-up: the same campaign (the reference engine, so nothing is found and no time goes
   to shrinking; `--rounds` rounds, seed 0) with `--jobs 1` (the baseline, measured in this
   run) and with `--jobs N`, alternated `--repeat` times; medians and their ratio. Worker
   start-up (a process each, importing gamecert, opening its engine) is inside the figure.
   Goal: at least 1.7x with 2 jobs on 2 cores.
2. Time to first finding over public Flit mutants: wall time from the campaign's start to
   the end of the round that found the first departure (max_findings=1, up to 12 rounds),
   with 1 and with N jobs.

Both runs of a pair find the same things (same seed and rounds); the script checks it.
Each campaign runs in a fresh process of its own, as `gamecert certify` does and as the
workers always start: a `--jobs 1` campaign played after others in this script's process
is not measured as a user runs it (a leak, since fixed, once slowed those and flattered the
speed-up; see docs/cluster.md).
The machine's load average is printed before and after: figures on a shared machine are
only comparable within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.fuzz.engines.recipes import engine_recipe
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign

ROOT = Path(__file__).resolve().parents[2]
SLOW = ["no_wrap_x", "invalid_disqualifies", "convert_no_wrap", "freeze_after_four",
        "turncap_off_by_one", "catchup_ge"]  # found after several rounds from seed 0


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the workers)."""
    me, children = (resource.getrusage(resource.RUSAGE_SELF),
                    resource.getrusage(resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


@dataclass
class Ran:
    """What a campaign in its own process reported."""

    wall: float  # seconds of `run_campaign`, in that process
    steps: int
    examples: int
    found: list[list[Any]]  # (signature, count) of each departure
    first: float | None  # seconds to the end of the round with the first finding


def campaign(game: str, engine: str, rounds: int, jobs: int, **how: Any) -> Ran:
    """One campaign (seed 0) in a fresh process of its own (`--one`); it is waited for,
    with a time limit, and killed if it overruns."""
    spec = json.dumps({"game": game, "engine": engine, "rounds": rounds, "jobs": jobs,
                       "how": how})
    # one hash seed for every process, as `--jobs` gives its workers: which of a set of bad
    # moves a finding names follows it, and the two campaigns of a pair must agree
    env = {**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    run = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", spec],
                         capture_output=True, text=True, timeout=1800, check=True, env=env)
    return Ran(**json.loads(run.stdout.splitlines()[-1]))


def one(spec: dict[str, Any]) -> Ran:
    """`campaign`'s work, in this process."""
    first: list[float] = []
    t0 = time.perf_counter()

    def on_round(result: CampaignResult) -> None:
        if result.departures and not first:
            first.append(time.perf_counter() - t0)

    game = spec["game"]
    result = run_campaign(game, engine_recipe(game, engine=spec["engine"]),
                          rounds=spec["rounds"], seed=0, jobs=spec["jobs"],
                          on_round=on_round, **spec["how"])
    return Ran(time.perf_counter() - t0, result.coverage.steps, result.coverage.examples,
               [[d.signature, d.count] for d in result.departures],
               first[0] if first else None)


def speedup(game: str, jobs: int, rounds: int, repeat: int) -> None:
    times: dict[int, list[float]] = {1: [], jobs: []}
    cpu: dict[int, list[float]] = {1: [], jobs: []}
    seen: dict[int, Any] = {}
    for _ in range(repeat):
        for n in (1, jobs):
            c0 = cpu_seconds()
            ran = campaign(game, "reference", rounds, n)
            cpu[n].append(cpu_seconds() - c0)  # the process's own start-up included
            times[n].append(ran.wall)
            seen[n] = (ran.steps, ran.examples, ran.found)
    assert seen[1] == seen[jobs], f"--jobs {jobs} found something else than --jobs 1"
    one, many = statistics.median(times[1]), statistics.median(times[jobs])
    steps = seen[1][0]
    print(f"{game}, reference engine, {rounds} rounds ({steps} steps), median of {repeat}:")
    print(f"  --jobs 1:  {one:6.2f} s  ({steps / one:7.1f} steps/s)")
    print(f"  --jobs {jobs}:  {many:6.2f} s  ({steps / many:7.1f} steps/s)")
    print(f"  speed-up: {one / many:.2f}x with {jobs} jobs (goal: >= 1.7x with 2 on 2 cores)")
    c1, cn = statistics.median(cpu[1]), statistics.median(cpu[jobs])
    # With Linux's autogroup scheduling, all of one session's processes share one share of
    # a busy machine: there the wall speed-up says little, the CPU figures still do.
    print(f"  CPU seconds (campaign + workers): {c1:.2f} with 1 job, {cn:.2f} with {jobs} "
          f"({cn - c1:+.2f} s: the workers' start-up and the hand-over, less what each "
          f"worker's smaller heap saves); on {jobs} idle cores that bounds the speed-up at "
          f"about {jobs * c1 / cn:.2f}x")


def first_findings(names: list[str], jobs: int) -> None:
    from examples.engines import engine_spec  # on the path main() set

    print(f"time to first finding, Flit mutants, seed 0, up to 12 rounds (1 vs {jobs} jobs):")
    ratios = []
    for name in names:
        engine = engine_spec("flit", name)
        row = []
        results = []
        for n in (1, jobs):
            ran = campaign("flit", engine, 12, n, max_findings=1)
            row.append(ran.first)
            results.append(ran.found)
        assert results[0] == results[1], f"{name}: --jobs {jobs} found something else"
        t1, tn = row
        if t1 is not None and tn is not None:
            ratios.append(t1 / tn)
        shown = " ".join("   none" if t is None else f"{t:6.2f}s" for t in row)
        print(f"  {name:24} {shown}")
    if ratios:
        print(f"  median ratio (1 job / {jobs} jobs): {statistics.median(ratios):.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--one", help=argparse.SUPPRESS)  # a campaign in this process (JSON)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--game", default="flit")
    ap.add_argument("--mutants", default="slow",
                    help="slow (a few found only after several rounds), all, or names")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))  # examples/ for the mutants
    if args.one is not None:
        print(json.dumps(vars(one(json.loads(args.one)))))
        return
    from examples.engines.flit import MUTANTS

    names = (SLOW if args.mutants == "slow" else list(MUTANTS) if args.mutants == "all"
             else args.mutants.split(","))
    print(f"before: {load()}")
    speedup(args.game, args.jobs, args.rounds, args.repeat)
    first_findings(names, args.jobs)
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
