"""Depth on engines as they are: what a campaign still checks past an early departure.

    python benchmarks/reach/depth_bench.py [--game carcassonne] [--budget 120] [--seeds 1,2]
                                     [--rounds N]

Each compound mutant of examples/engines/<game>/ (the COMPOUNDS lists: three departures at
once, one of them on every game's first steps) runs as real engines are met: behind
`bare:` (the minimum capabilities, its own RNG, no events of its own). For each campaign
the script prints which of the compound's departures were found (each under which rule
and cause), how many steps were played past each example's first departure, and, rule by
rule, how often each was exercised past the first departure (`Coverage.past`): the rules a
campaign reaches only because it goes on after a departure instead of ending the example.
A budget (seconds, wall clock) or a number of rounds; the machine's load is printed, since
a budget buys fewer steps on a busy machine.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # examples/
from examples.engines import engine_spec, load
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.spec import load_catalogue

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")


def compounds(game: str) -> list[tuple[str, tuple[str, ...]]]:
    """The game's compound mutants and the rules each breaks (none: an empty list)."""
    module = importlib.import_module(f"examples.engines.{game}")
    return list(getattr(module, "COMPOUNDS", ()))


def campaign(game: str, name: str, seed: int, budget: float | None,
             rounds: int | None) -> CampaignResult:
    module = load(game, name)
    spec = engine_spec(game, name, "bare")
    return run_campaign(game, object_recipe(game, spec), seed=seed, budget=budget,
                        rounds=rounds, profile_id=getattr(module, "PROFILE", None))


def report(game: str, name: str, rules: tuple[str, ...], seed: int,
           result: CampaignResult, seconds: float) -> list[str]:
    found = {d.primary: d for d in result.departures}
    c = result.coverage
    lines = [f"{game} {name} seed {seed}: {result.rounds} rounds, {c.examples} examples, "
             f"{c.steps} steps ({c.past_steps} past a first departure) in {seconds:.1f} s"]
    for rule in rules:
        dep = found.get(rule)
        lines.append(f"  {rule:<28} " + (f"found ({dep.signature}, seen {dep.count} times)"
                                         if dep else "NOT FOUND"))
    others = [d for d in result.departures if d.primary not in rules]
    for d in others:
        lines.append(f"  other finding: {d.primary} ({d.signature}, seen {d.count} times)")
    order = load_catalogue(game).phase_order
    past = [(r, c.past[r]) for r in order if c.past.get(r)]
    lines.append(f"  rules exercised past the first departure: {len(past)} of {len(order)}")
    lines += [f"    {r:<28} {n:>8}" for r, n in past]
    never = [r for r in order if not c.past.get(r)]
    if never:
        lines.append(f"  not exercised past it: {', '.join(never)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=GAMES, action="append")
    ap.add_argument("--budget", type=float, default=120.0)
    ap.add_argument("--rounds", type=int, default=None, help="rounds instead of a budget")
    ap.add_argument("--seeds", default="1,2")
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    budget = None if args.rounds is not None else args.budget
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          + (f"{args.rounds} rounds" if args.rounds is not None else f"budget {budget:.0f} s")
          + f" per campaign, seeds {seeds}")
    missed = 0
    for game in args.game or GAMES:
        for name, rules in compounds(game):
            for seed in seeds:
                started = time.monotonic()
                result = campaign(game, name, seed, budget, args.rounds)
                lines = report(game, name, rules, seed, result, time.monotonic() - started)
                missed += sum(1 for line in lines if "NOT FOUND" in line)
                print("\n".join(lines), flush=True)
    print(f"departures not found: {missed}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
