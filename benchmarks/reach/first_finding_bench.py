"""Time to first finding, per public mutant: how soon a campaign catches each engine of
`examples/engines/<game>/` that breaks one rule (issue 15, part 6).

    python benchmarks/reach/first_finding_bench.py [--games flit,botwars] [--mutants a,b]
                                             [--budget 30] [--seed 0]

Each mutant runs in process, one job, as `gamecert certify` runs it (seed 0, the default
profile) until its first finding is shrunk and fingerprinted (`max_findings=1`), or the
budget runs out. Printed per mutant: seconds to that finding (shrinking included), steps
played, the rule it was charged to and whether that is the rule the mutant breaks; then, per
game, the median and the slowest. A `-` is a mutant not caught within the budget. Timings are
wall-clock on a shared machine: compare runs made one after the other, not across machines.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.reference_engine.contract import Session

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")
# the mutants live in the repository's examples/ (not installed): import them from there
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from examples.engines import load  # noqa: E402


def first_finding(game: str, name: str, budget: float, seed: int) -> tuple[float | None, int,
                                                                             str, bool]:
    """(seconds to the first finding or None, steps played, rule charged, right rule?)."""
    module = load(game, name)
    engine = InProcessEngine(Session(module.ENGINE(), name=name))
    t0 = time.perf_counter()
    result = run_campaign(game, engine, budget=budget, seed=seed, max_findings=1)
    took = time.perf_counter() - t0
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
    args = ap.parse_args(argv)
    only = {m for m in args.mutants.split(",") if m}
    print(f"time to first finding per public mutant: seed {args.seed}, budget "
          f"{args.budget:g} s each, one job, in process; Python {sys.version.split()[0]}")
    for game in args.games.split(","):
        names = [m for m in importlib.import_module(f"examples.engines.{game}").MUTANTS
                 if not only or m in only]
        times: list[float] = []
        missed = 0
        for name in names:
            took, steps, rule, right = first_finding(game, name, args.budget, args.seed)
            if took is None:
                missed += 1
                print(f"  {game:<11} {name:<28}      -  {steps:6d} steps  not caught")
                continue
            times.append(took)
            print(f"  {game:<11} {name:<28} {took:6.2f} s {steps:6d} steps  {rule}"
                  f"{'' if right else '  (not the rule it breaks)'}")
        if times:
            print(f"{game}: {len(times)} of {len(names)} caught; median "
                  f"{statistics.median(times):.2f} s, slowest {max(times):.2f} s"
                  + (f"; {missed} not caught" if missed else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
