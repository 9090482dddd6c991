"""Time to first finding, per public mutant: how soon a campaign catches each engine of
`examples/engines/<game>/` that breaks one rule (issue 15, part 6).

    python benchmarks/reach/first_finding_bench.py [--games flit,botwars] [--mutants a,b]
                                             [--budget 30] [--seed 0 | --seeds 0,1,2]
                                             [--clock wall|cpu] [--own-profile]

Each mutant runs in process, one job, as `gamecert certify` runs it (seed 0, the default
profile; `--own-profile`: the mutant's own profile and no example database; `--seeds`: once
per seed) until its first finding is shrunk and fingerprinted (`max_findings=1`), or the
budget runs out. Printed per run: seconds to that finding (shrinking included), steps
played, the rule it was charged to; then, per game, the median and the slowest over the
runs caught under the mutant's own rule. A `-` is a run not caught within the budget or
charged to another rule. Timings are wall-clock unless `--clock cpu` (this process's CPU
time, for a shared machine): compare runs made one after the other, not across machines.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.reference_engine.contract import Session

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")
# the mutants live in the repository's examples/ (not installed): import them from there
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from examples.engines import load  # noqa: E402


def first_finding(game: str, name: str, budget: float, seed: int, clock: str = "wall",
                  own_profile: bool = False) -> tuple[float | None, int, str, bool]:
    """(seconds to the first finding or None, steps played, rule charged, right rule?).
    `clock`: "wall" or "cpu" (this process's CPU time, for a shared machine); with
    `own_profile`, the mutant's own profile where it names one (else the game's default),
    and no example database (each campaign starts alike)."""
    module = load(game, name)
    engine = InProcessEngine(Session(module.ENGINE(), name=name))
    now = time.process_time if clock == "cpu" else time.perf_counter
    how: dict[str, Any] = {}
    if own_profile:
        how["database"] = None
        if getattr(module, "PROFILE", None):
            how["profile_id"] = module.PROFILE
    t0 = now()
    result = run_campaign(game, engine, budget=budget, seed=seed, max_findings=1, **how)
    took = now() - t0
    if not result.departures:
        return None, result.coverage.steps, "", False
    rule = result.departures[0].primary
    return took, result.coverage.steps, rule, rule == module.RULE


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--mutants", default="", help="comma-separated names (default: all)")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per mutant at most")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", default="", help="comma-separated seeds (instead of --seed): "
                    "each mutant once per seed, then the median and worst over all runs")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--own-profile", action="store_true",
                    help="each mutant under its own profile, no example database")
    args = ap.parse_args(argv)
    only = {m for m in args.mutants.split(",") if m}
    seeds = [int(x) for x in args.seeds.split(",") if x] or [args.seed]
    print(f"time to first finding per public mutant: seeds {seeds}, budget "
          f"{args.budget:g} s each, {args.clock} clock, one job, in process; Python "
          f"{sys.version.split()[0]}")
    for game in args.games.split(","):
        names = [m for m in importlib.import_module(f"examples.engines.{game}").MUTANTS
                 if not only or m in only]
        times: list[float] = []
        missed = 0
        for name in names:
            for seed in seeds:
                took, steps, rule, right = first_finding(game, name, args.budget, seed,
                                                         args.clock, args.own_profile)
                if took is None or not right:
                    missed += 1
                    what = "not caught" if took is None else f"{rule} (not the rule it breaks)"
                    print(f"  {game:<11} {name:<28} {seed:3d}      -  {steps:6d} steps  {what}")
                    continue
                times.append(took)
                print(f"  {game:<11} {name:<28} {seed:3d} {took:6.2f} s {steps:6d} steps  {rule}")
        if times:
            print(f"{game}: {len(times)} of {len(names) * len(seeds)} runs caught under the "
                  f"mutant's own rule; median {statistics.median(times):.2f} s, slowest "
                  f"{max(times):.2f} s" + (f"; {missed} not" if missed else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
