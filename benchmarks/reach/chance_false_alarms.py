"""False-alarm rate and power of the statistical chance checks, on real followed draws.

    python benchmarks/reach/chance_false_alarms.py [--runs 200] [--games 10] [--game kingdomino]

Each run gathers the draws of `--games` random games of an engine behind the minimum-
capability wrapper (fuzz.search.chance_sim: the same follow-mode lockstep as a campaign, random
moves instead of Hypothesis's, new seeds each run) and tests every chance rule as a
campaign does. For the reference it prints how often a test's p-value fell under 0.05,
0.01 and the per-rule alpha, and how often a whole run failed (the false-alarm rate);
for the biased Carcassonne deck (--biased) how often it was caught (the power).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.findings.chance_stats import ALPHA
from gamecert.fuzz.search.chance_sim import gather

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # examples/, for --biased
from examples.engines import engine_spec

BIASED = engine_spec("carcassonne", "deck_biased", "minimal")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kingdomino",
                    choices=("flit", "botwars", "carcassonne", "kingdomino"))
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--biased", action="store_true", help="the biased Carcassonne deck")
    args = ap.parse_args(argv)
    game = "carcassonne" if args.biased else args.game
    spec = BIASED if args.biased else "minimal:reference"
    ps: list[float] = []
    failed_runs = 0
    samples = 0
    started = time.perf_counter()
    for run in range(args.runs):
        engine = object_recipe(game, spec).open()
        tests = gather(game, engine, args.games, seed=10_000 + run).tests()
        engine.close()
        failed_runs += any(t.verdict == "failed" for t in tests)
        for t in tests:
            if t.p_value is not None:
                ps.append(t.p_value)
                samples += t.n
    took = time.perf_counter() - started
    if not ps:
        print("no test had enough samples: raise --games")
        return 1
    rate = {a: sum(p < a for p in ps) / len(ps) for a in (0.05, 0.01, ALPHA)}
    print(f"{game} ({spec}): {args.runs} runs of {args.games} games, {len(ps)} tests, "
          f"{samples // len(ps)} draws per test on average, {took:.0f} s")
    print(f"  p < 0.05: {rate[0.05]:.4f}   p < 0.01: {rate[0.01]:.4f}   "
          f"p < {ALPHA}: {rate[ALPHA]:.4f}")
    what = "caught (power)" if args.biased else "false alarms"
    print(f"  runs failed: {failed_runs}/{args.runs} = {failed_runs / args.runs:.4f} {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
