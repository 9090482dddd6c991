"""Campaign speed beside the lockstep's, per game, in one run (issue 31).

    python benchmarks/speed/campaign_bench.py [--game flit,botwars,...] [--budget 10]
                                              [--seed 1] [--mutants 3|all] [--no-profile]

Per game, printed:

1. **campaign steps/s in process**: `run_campaign` as `gamecert certify GAME --engine
   reference --jobs 1` runs it (every oracle on), in a fresh process of its own, as a
   user's campaign runs (what it builds once is charged to it), steps from its coverage,
   over that process's CPU time (`time.process_time`) and over wall time: the machine is
   shared, so the CPU figure is the one to compare;
2. **through the wire**: the same with the reference as a subprocess (`python -m gamecert
   serve GAME`), as the README's main job `gamecert certify flit` runs it. The CPU figure is
   the campaign process's alone; the server's own CPU time is printed beside it;
3. **the lockstep's steps/s** on the same machine at the same time: `overhead.measure`'s
   first pass (recorded games through the lockstep, CPU clock) on this process's core while
   the in-process campaign runs on the other, eight times spread over its budget, each over
   games of its own (their median; on a one-core machine, the mean of a measure just before
   and one just after), and the ratio
   campaign / lockstep: the machine's speed drifts from one minute to the next, and both
   meet the same drift. `overhead.measure` in full follows, for its parts;
4. **where a campaign's time goes**: one more in-process campaign under cProfile, each
   function's own time (`tottime`) charged to the part its file belongs to (Hypothesis's
   generation, its shrinker, its database, its stateful runner; the machine's rules, its
   seeded runs and the campaign's driver; the game plugin's start positions and its
   draws; the engine and the reference, which in process are the same code; the oracles;
   the lockstep; findings and reports); a function of the standard library or a builtin
   is charged to the part of its costliest caller.
   The profiler slows Python code about evenly, so these are shares, not rates. Then the
   timer-based shares of `overhead.measure`'s own short machine run (engine, reference,
   oracles, the lockstep's comparison, "Hypothesis + machine");
5. **time to first finding** over the public mutants (`examples/engines/<game>` MUTANTS,
   N spread evenly over each game's list with `--mutants N`, all with `--mutants all`): each
   in process, one job, `max_findings=1`, the finding shrunk and fingerprinted; CPU
   seconds (and wall), the rule charged and whether it is the mutant's own; median and
   worst per game.

The seed is printed; the same seed replays the same campaigns (their step counts differ
only by how far the budget reached).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# the mutants live in the repository's examples/ (not installed), the overhead benchmark
# beside this file: import them from there
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import overhead  # noqa: E402

from examples.engines import load  # noqa: E402
from gamecert.fuzz.engines.engine import InProcessEngine  # noqa: E402
from gamecert.fuzz.engines.recipes import command_recipe, object_recipe  # noqa: E402
from gamecert.fuzz.games import plugin_for  # noqa: E402
from gamecert.fuzz.search.campaign import run_campaign  # noqa: E402
from gamecert.fuzz.search.database import RoundDatabase, take_snapshot  # noqa: E402
from gamecert.fuzz.search.rounds import database_key  # noqa: E402
from gamecert.oracles import oracles_for  # noqa: E402
from gamecert.reference_engine import reference_game  # noqa: E402
from gamecert.reference_engine.contract import Session  # noqa: E402
from gamecert.spec import load_catalogue  # noqa: E402

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")


@dataclass
class Run:
    steps: int
    cpu: float  # this process's CPU seconds
    wall: float
    child_cpu: float = 0.0  # CPU seconds of the processes it started and waited for

    @property
    def per_cpu(self) -> float:
        return self.steps / self.cpu if self.cpu > 0 else 0.0

    @property
    def per_wall(self) -> float:
        return self.steps / self.wall if self.wall > 0 else 0.0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def fresh_database(game: str, storage: Path) -> RoundDatabase:
    """An example database of its own, empty, as `certify`'s default on a first run (a
    folder database the rounds save their failing examples to)."""
    return take_snapshot(f"dir:{(storage / 'examples').resolve()}",
                         database_key(game, "default"))


def start_campaign(game: str, wire: bool, budget: float, seed: int,
                   storage: Path) -> subprocess.Popen[str]:
    """One campaign of the reference, in process or as a subprocess, in a fresh Python
    process of its own (`--child`), as `gamecert certify` runs one: what it builds once per
    campaign (start positions, crafted boards) is charged to it, whatever ran before in
    this process. Its figures: `campaign_figures`."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", game, "--budget",
            str(budget), "--seed", str(seed), "--storage", str(storage)]
    if wire:
        argv.append("--wire")
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def campaign_figures(proc: subprocess.Popen[str], budget: float) -> tuple[Run, int]:
    """(Run, rounds) of a campaign started with `start_campaign`, once it ends."""
    try:
        out, err = proc.communicate(timeout=budget * 4 + 300)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise RuntimeError("the campaign's process did not end") from None
    if proc.returncode != 0:
        raise RuntimeError(f"the campaign's process failed: {err[-2000:]}")
    doc = json.loads(out.strip().splitlines()[-1])
    return Run(doc["steps"], doc["cpu"], doc["wall"], doc["child_cpu"]), doc["rounds"]


def campaign(game: str, wire: bool, budget: float, seed: int,
             storage: Path) -> tuple[Run, int]:
    return campaign_figures(start_campaign(game, wire, budget, seed, storage), budget)


def child(game: str, wire: bool, budget: float, seed: int, storage: Path) -> None:
    """The campaign process: one campaign, its figures as one JSON line."""
    recipe = (command_recipe(game, [sys.executable, "-m", "gamecert", "serve", game])
              if wire else object_recipe(game, "reference"))
    kids, c0, w0 = _children_cpu(), time.process_time(), time.perf_counter()
    result = run_campaign(game, recipe, budget=budget, seed=seed, jobs=1,
                          database=fresh_database(game, storage))
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(json.dumps({"steps": result.coverage.steps, "cpu": cpu, "wall": wall,
                      "child_cpu": _children_cpu() - kids, "rounds": result.rounds}))


# (part, test on a path relative to site-packages or the project), first match wins
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("Hypothesis shrinking", ("hypothesis/internal/conjecture/shrink",)),
    ("Hypothesis database", ("hypothesis/database",)),
    ("Hypothesis stateful runner", ("hypothesis/stateful",)),
    ("Hypothesis generation + engine", ("hypothesis/",)),
    ("machine rules, runs and driver", ("fuzz/search/machine", "fuzz/search/play/rules",
                                        "fuzz/search/play/runs", "fuzz/search/play/seeded_data",
                                        "fuzz/search/play/driver")),
    ("start positions", ("/starts.py", "/crafted.py", "/proofs.py", "fuzz/games/proving")),
    ("plugin draws + targets", ("fuzz/games/",)),
    ("rounds + campaign", ("fuzz/search/",)),
    ("lockstep", ("fuzz/step/",)),
    ("engine + reference", ("reference_engine/", "fuzz/engines/")),
    ("oracles", ("oracles/",)),
    ("findings + reports", ("fuzz/findings/", "fuzz/reports/", "fuzz/cli/")),
    ("z3", ("z3/",)),
]


def _part_of(filename: str) -> str | None:
    path = filename.replace("\\", "/")
    for part, marks in PARTS:
        if any(m in path for m in marks):
            return part
    return None


def breakdown(game: str, budget: float, seed: int,
              storage: Path) -> tuple[float, Run, dict[str, float]]:
    """(CPU seconds the game's start positions take to build, once per campaign; the
    profiled campaign; its time's shares per part, see the docstring). The start positions
    are built first, on their own: the profiled campaign then finds them built (each
    game's plugin keeps them per process), and their helpers in the oracles' modules (z3
    models, board facts) are not charged to the oracles."""
    c0 = time.process_time()
    plugin_for(game).starts(load_catalogue(game).profile())
    starts = time.process_time() - c0
    prof = cProfile.Profile()
    c0, w0 = time.process_time(), time.perf_counter()
    prof.enable()
    result = run_campaign(game, object_recipe(game, "reference"), budget=budget, seed=seed,
                          jobs=1, database=fresh_database(game, storage))
    prof.disable()
    run = Run(result.coverage.steps, time.process_time() - c0, time.perf_counter() - w0)
    stats: dict[Any, Any] = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    memo: dict[Any, str] = {}

    def part(key: Any, seen: frozenset[Any] = frozenset()) -> str:
        if key in memo:
            return memo[key]
        own = _part_of(key[0])
        if own is None:  # stdlib or builtin: its costliest caller's part
            callers = stats[key][4] if key in stats else {}
            up = [c for c in sorted(callers, key=lambda c: -callers[c][3]) if c not in seen]
            own = part(up[0], seen | {key}) if up else "other"
        memo[key] = own
        return own

    totals: dict[str, float] = defaultdict(float)
    for key, (_, _, tt, _, _) in stats.items():
        totals[part(key)] += tt
    whole = sum(totals.values()) or 1.0
    return starts, run, {k: v / whole
                         for k, v in sorted(totals.items(), key=lambda kv: -kv[1])}


def first_findings(game: str, count: int | None, budget: float, seed: int,
                   storage: Path) -> None:
    """Time to the first finding of each sampled public mutant, and per game the median
    and the worst (CPU seconds of this process; wall beside)."""
    names = list(importlib.import_module(f"examples.engines.{game}").MUTANTS)
    if count is not None and count < len(names):  # spread over the list, not its head
        names = [names[(i * len(names)) // count] for i in range(count)]
    cpus: list[float] = []
    walls: list[float] = []
    missed, wrong = 0, 0
    for name in names:
        module = load(game, name)
        engine = InProcessEngine(Session(module.ENGINE(), name=name))
        c0, w0 = time.process_time(), time.perf_counter()
        result = run_campaign(game, engine, budget=budget, seed=seed, max_findings=1,
                              database=fresh_database(game, storage / name))
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        if not result.departures:
            missed += 1
            print(f"    {name:<30}      -            {result.coverage.steps:7d} steps  "
                  "not caught")
            continue
        rule = result.departures[0].primary
        right = rule == module.RULE
        wrong += not right
        cpus.append(cpu)
        walls.append(wall)
        print(f"    {name:<30} {cpu:6.2f} s CPU {wall:6.2f} s wall {result.coverage.steps:7d} "
              f"steps  {rule}{'' if right else '  (NOT its rule ' + module.RULE + ')'}")
    if cpus:
        print(f"  first finding, {game}: {len(cpus)} of {len(names)} caught ({wrong} by "
              f"another rule); CPU median {statistics.median(cpus):.2f} s, worst "
              f"{max(cpus):.2f} s; wall median {statistics.median(walls):.2f} s, worst "
              f"{max(walls):.2f} s" + (f"; {missed} NOT caught" if missed else ""))


def lockstep_rate(game: str, repeats: int) -> float:
    """The lockstep's steps/s (CPU clock) from the overhead benchmark's measure, printing
    its own lines (its timer-based shares of a short machine run among them)."""
    overhead.use_clock("cpu")
    figures = overhead.run(game, None, 3, repeats)
    return figures.steps / figures.wall


# lockstep measures beside a campaign, spread over its budget, each over its own recorded
# games (replayed twice, the same positions would be in the oracles' and the engine's caches)
MEASURES_BESIDE = 8


def lockstep_beside(game: str, budget: float, ended: Callable[[], bool],
                    sets: list[list[list[Any]]]) -> list[float]:
    """The lockstep's steps/s (CPU clock), as `overhead.measure`'s first pass times it
    (recorded games through a fresh lockstep, the in-process reference as the engine, the
    collector off), on this process's core while a campaign runs on the other: one measure
    per set of `sets`, spread over `budget` seconds, until `ended()`. Both meet the same
    drift of the machine's speed (by a third from one minute to the next here), so their
    ratio does not depend on it."""
    overhead.use_clock("cpu")
    profile = load_catalogue(game).profile()
    private = overhead.private_reference(game)
    ref, oracles = reference_game(game), oracles_for(game)
    rates: list[float] = []
    start = time.perf_counter()
    for i, scripts in enumerate(sets):
        if rates and ended():
            break
        time.sleep(max(0.0, start + i * budget / len(sets) - time.perf_counter()))
        engine = InProcessEngine(Session(private.ENGINE(), name=f"gamecert-reference-{game}"))
        overhead.collect()
        t0 = overhead.now()
        steps = overhead._replay(ref, engine, profile, oracles, scripts)
        rates.append(steps / (overhead.now() - t0))
        engine.close()
    return rates


def bench_game(game: str, args: argparse.Namespace, storage: Path) -> dict[str, float]:
    print(f"== {game} (seed {args.seed}, budget {args.budget:g} s)")
    if args.first_finding_only:
        first_findings(game, None if args.mutants == "all" else int(args.mutants),
                       args.mutant_budget, args.seed, storage / "mutants")
        return {}
    # The lockstep is measured beside the in-process campaign, on the other core, for as
    # long as it runs (the median of its measures): this machine's speed drifts by a third
    # from one minute to the next, so a ratio to a lockstep measured at another time says
    # more about the drift than about the code. On one core, just before and just after.
    if (os.cpu_count() or 1) >= 2:
        sets = overhead.record_sets(game, load_catalogue(game).profile(), MEASURES_BESIDE, 3)
        proc = start_campaign(game, False, args.budget, args.seed, storage / "in")
        rates = lockstep_beside(game, args.budget, lambda: proc.poll() is not None, sets)
        inproc, rounds = campaign_figures(proc, args.budget)
        how = (f"the median of {len(rates)} measures beside the campaign, "
               f"{min(rates):,.0f} to {max(rates):,.0f}")
    else:
        rates = [lockstep_rate(game, args.repeats)]
        inproc, rounds = campaign(game, False, args.budget, args.seed, storage / "in")
        rates.append(lockstep_rate(game, args.repeats))
        how = f"the mean of {rates[0]:,.0f} before the campaign and {rates[1]:,.0f} after"
    lock = statistics.median(rates)
    print(f"  campaign in process: {inproc.steps} steps, {rounds} rounds; "
          f"{inproc.per_cpu:,.0f} steps/s CPU ({inproc.cpu:.1f} s), {inproc.per_wall:,.0f} "
          f"steps/s wall ({inproc.wall:.1f} s)")
    wire, _ = campaign(game, True, args.budget, args.seed, storage / "wire")
    print(f"  campaign through the wire: {wire.steps} steps; {wire.per_cpu:,.0f} steps/s "
          f"CPU of the campaign process ({wire.cpu:.1f} s; the server {wire.child_cpu:.1f} s "
          f"CPU), {wire.per_wall:,.0f} steps/s wall ({wire.wall:.1f} s)")
    print("  lockstep (overhead.measure, CPU clock; its parts):")
    lockstep_rate(game, args.repeats)
    print(f"  campaign / lockstep (CPU): in process {100 * inproc.per_cpu / lock:.1f}%, "
          f"through the wire {100 * wire.per_cpu / lock:.1f}% (lockstep {lock:,.0f} steps/s, "
          f"{how})")
    if not args.no_profile:
        starts, prof_run, shares = breakdown(game, args.budget, args.seed, storage / "prof")
        print(f"  start positions, built once per campaign: {starts:.2f} s CPU")
        print(f"  where the rest of a campaign's time goes (cProfile, own time by part; "
              f"{prof_run.steps} steps under the profiler): " + ", ".join(
                  f"{k} {100 * v:.1f}%" for k, v in shares.items() if v >= 0.001))
    if args.mutants != "0":
        first_findings(game, None if args.mutants == "all" else int(args.mutants),
                       args.mutant_budget, args.seed, storage / "mutants")
    return {"in": inproc.per_cpu, "wire": wire.per_cpu, "lockstep": lock}


def main(argv: list[str] | None = None) -> None:
    import tempfile

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--game", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--budget", type=float, default=10.0, help="seconds per campaign")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mutants", default="4",
                    help="public mutants per game for time to first finding: N (spread evenly "
                         "over the game's list), 'all', or 0 for none")
    ap.add_argument("--mutant-budget", type=float, default=30.0,
                    help="seconds per mutant at most")
    ap.add_argument("--repeats", type=int, default=3, help="the lockstep measure's repeats")
    ap.add_argument("--no-profile", action="store_true", help="skip the cProfile breakdown")
    ap.add_argument("--first-finding-only", action="store_true",
                    help="only the time to first finding over the mutants")
    ap.add_argument("--child", help=argparse.SUPPRESS)  # one campaign, in this process
    ap.add_argument("--wire", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--storage", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.wire, args.budget, args.seed, Path(args.storage))
        return
    if args.mutants not in ("all",) and not args.mutants.isdigit():
        ap.error(f"--mutants: a count or 'all', not {args.mutants!r}")
    print(f"campaign benchmark: seed {args.seed}, budget {args.budget:g} s, one job, Python "
          f"{sys.version.split()[0]}; steps/s over this process's CPU time (and wall)")
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="gamecert-campaign-bench-") as tmp:
        for game in args.game.split(","):
            rows[game] = bench_game(game, args, Path(tmp) / game)
    print("| game | campaign steps/s in process (CPU) | through the wire (CPU) | lockstep "
          "steps/s (CPU) | in process / lockstep |")
    print("|---|---|---|---|---|")
    for game, r in rows.items():
        if not r:
            continue
        print(f"| {game} | {r['in']:,.0f} | {r['wire']:,.0f} | {r['lockstep']:,.0f} | "
              f"{100 * r['in'] / r['lockstep']:.1f}% |")


if __name__ == "__main__":
    main(sys.argv[1:])
