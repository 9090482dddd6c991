"""The season property as a campaign: many random seasons, the reference certifying itself.

    python benchmarks/reach/season_property.py [--examples 50] [--game flit] [--rounds 2]
                                         [--seed 0] [--mutant MODULE:ENGINE --rule RULE]

Draws `--examples` season files per game (fuzz.season_draw: any readings, every parameter
anywhere in its schema's range) and certifies the reference under each in a rounds-based
campaign; with `--mutant`, certifies that engine too and counts the seasons where it was not
charged `--rule`. Prints the seed, per game the seasons drawn, the failures and the median
and slowest campaign time, and every failing season file as JSON (paste it into a .json
file and run `gamecert certify GAME --profile-file` to replay it). The seed replays the run:
the same seed draws the same seasons. Exit 1 when any season failed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from hypothesis import HealthCheck, given, seed, settings

from gamecert.fuzz.engines.recipes import engine_recipe
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.search.season_draw import season_files
from gamecert.spec.profile_file import parse_profile

GAMES = ("botwars", "carcassonne", "flit", "kingdomino")


def _certify(game: str, engine: str, doc: Any, rounds: int) -> tuple[str | None, list[str]]:
    profile = parse_profile(json.dumps(doc), "drawn.json", game)
    try:
        result = run_campaign(game, engine_recipe(game, engine=engine), profile=profile,
                              rounds=rounds)
    except Exception as exc:  # a crash of gamecert under this season: a failure to report
        return f"crashed: {type(exc).__name__}: {exc}"[:300], []
    return result.unusable, sorted({d.primary for d in result.departures})


def run_game(game: str, args: argparse.Namespace) -> tuple[int, list[float], list[Any]]:
    times: list[float] = []
    failures: list[Any] = []

    @seed(args.seed)
    @settings(max_examples=args.examples, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck))  # a campaign nests Hypothesis
    @given(season_files(game))
    def one(doc: Any) -> None:
        started = time.perf_counter()
        got = _certify(game, "reference", doc, args.rounds)
        if got != (None, []):
            failures.append({"season": doc, "reference": got})
        if args.mutant:
            caught = _certify(game, args.mutant, doc, args.rounds)
            if args.rule not in caught[1]:
                failures.append({"season": doc, "mutant": caught})
        times.append(time.perf_counter() - started)

    one()
    return len(times), times, failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, action="append", help="default: every game")
    ap.add_argument("--examples", type=int, default=50, help="seasons per game")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mutant", help="an engine (module:ENGINE) that must be caught too")
    ap.add_argument("--rule", help="the rule the mutant must be charged (with --mutant)")
    args = ap.parse_args(argv)
    if args.mutant and not args.rule:
        ap.error("--mutant needs --rule")
    print(f"seed {args.seed}, {args.examples} seasons per game, {args.rounds} rounds each")
    failed = 0
    for game in args.game or GAMES:
        started = time.perf_counter()
        n, times, failures = run_game(game, args)
        failed += len(failures)
        print(f"{game}: {n} seasons, {len(failures)} failed, campaign median "
              f"{statistics.median(times):.1f} s, slowest {max(times):.1f} s, "
              f"{time.perf_counter() - started:.0f} s in all", flush=True)
        for f in failures:
            print("  FAILED", json.dumps(f))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
