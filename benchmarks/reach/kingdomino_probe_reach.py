"""Do one-rule probes reach Kingdomino's placement departures on an engine as it is?

    python benchmarks/reach/kingdomino_probe_reach.py [--budget 60] [--seeds 1 2 3 4 5]
        [--players 2 3 4] [--mutant no_extent_limit] [--rounds K]

Each placement mutant (KD-PLACE-EXTENT: a territory of 6 x 6, no extent limit at all;
KD-PLACE-CONNECT: no connection) runs behind `bare:` (the minimum capabilities, its own RNG,
no events: a real engine's shape) for a campaign of `--budget` seconds (or `--rounds`
rounds) at each seed, under the profile of each player count (the profile whose KD-PLAYERS
parameter is that count and which changes nothing else: legend-2p, legend-3p, legend).
A line per campaign: caught (a departure charged to the mutant's rule), the seconds to the
end of the round that caught it, the one-rule probes each placement rule got, the steps,
and any rule blamed that the mutant follows. Issue 26's figure: caught in every one of 5
seeds at 60 s, in 2, 3 and 4 players. Exit 1 if a campaign missed its mutant or blamed
another rule.

Timings are wall-clock on a shared machine; seconds to catch are at round granularity
(a campaign's findings are judged when their round ends).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.spec import load_catalogue

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # examples/
from examples.engines import engine_spec, load

MUTANTS = ("extent_6x6", "no_extent_limit", "no_connection")
PLACEMENT = ("KD-PLACE-EXTENT", "KD-PLACE-CONNECT", "KD-PLACE-NO-OVERLAP", "KD-GRID",
             "KD-PLACE-ROTATION")


def profile_for(players: int) -> str:
    """The profile that plays `players` players and differs from the default in nothing
    else (no variant, no other parameter)."""
    catalogue = load_catalogue("kingdomino")
    default = catalogue.profile(None)
    for pid, prof in catalogue.profiles.items():
        if prof.param("KD-PLAYERS", "players") != players or prof.variants != default.variants:
            continue
        others = {r: p for r, p in prof.parameters.items() if r != "KD-PLAYERS"}
        if others == {r: p for r, p in default.parameters.items() if r != "KD-PLAYERS"}:
            return pid
    raise SystemExit(f"no plain profile plays {players} players")


@dataclass
class Reach:
    mutant: str
    players: int
    seed: int
    caught: bool
    seconds: float | None  # to the end of the round that caught it
    probes: dict[str, int]
    steps: int
    others: list[str]  # rules blamed that the mutant does not break
    result: CampaignResult


def reach(mutant: str, players: int, seed: int, budget: float | None = 60.0,
          rounds: int | None = None, until_caught: bool = False) -> Reach:
    """One campaign of the mutant behind `bare:`; with `until_caught`, no round starts once
    its rule is caught (the same rounds up to there, so the same verdict, sooner)."""
    from gamecert.fuzz.search import campaign

    module = load("kingdomino", mutant)
    started = time.monotonic()
    first: list[float] = []

    def on_round(result: CampaignResult) -> None:
        if not first and module.RULE in {d.primary for d in result.departures}:
            first.append(time.monotonic() - started)
            if until_caught:
                campaign.STOP.set()

    campaign.STOP.clear()
    try:
        result = run_campaign("kingdomino", object_recipe(
            "kingdomino", engine_spec("kingdomino", mutant, "bare")),
            profile_id=profile_for(players), budget=None if rounds else budget,
            rounds=rounds, seed=seed, on_round=on_round)
    finally:
        campaign.STOP.clear()
    primaries = [d.primary for d in result.departures]
    return Reach(mutant, players, seed, module.RULE in primaries, first[0] if first else None,
                 {r: result.coverage.probes.get(r, 0) for r in PLACEMENT},
                 result.coverage.steps, sorted(set(primaries) - {module.RULE}), result)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--rounds", type=int, default=None, help="rounds instead of a budget")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--mutant", choices=MUTANTS, action="append")
    ap.add_argument("--until-caught", action="store_true",
                    help="no round starts once the rule is caught (the same verdict, sooner)")
    args = ap.parse_args(argv)
    mutants = tuple(args.mutant) if args.mutant else MUTANTS
    how = f"{args.rounds} rounds" if args.rounds else f"{args.budget:g} s"
    print(f"Kingdomino placement mutants behind bare:, {how} a campaign, seeds {args.seeds}")
    print(f"{'mutant':16} {'pl':>2} {'seed':>4} {'caught':6} {'s to catch':>10} "
          f"{'EXTENT':>6} {'CONNECT':>7} {'OVERLAP':>7} {'GRID':>5} {'ROTATE':>6} "
          f"{'steps':>6}  other rules blamed")
    bad = 0
    rows: list[Reach] = []
    for mutant in mutants:
        for players in args.players:
            for seed in args.seeds:
                r = reach(mutant, players, seed, args.budget, args.rounds,
                          until_caught=args.until_caught)
                rows.append(r)
                bad += (not r.caught) + bool(r.others)
                p = r.probes
                secs = f"{r.seconds:.1f}" if r.seconds is not None else "-"
                print(f"{mutant:16} {players:>2} {seed:>4} {'yes' if r.caught else 'NO':6} "
                      f"{secs:>10} {p['KD-PLACE-EXTENT']:>6} {p['KD-PLACE-CONNECT']:>7} "
                      f"{p['KD-PLACE-NO-OVERLAP']:>7} {p['KD-GRID']:>5} "
                      f"{p['KD-PLACE-ROTATION']:>6} {r.steps:>6}  "
                      f"{', '.join(r.others) or '-'}", flush=True)
    print()
    for mutant in mutants:
        for players in args.players:
            mine = [r for r in rows if r.mutant == mutant and r.players == players]
            times = sorted(r.seconds for r in mine if r.seconds is not None)
            when = (f", median time to catch {times[len(times) // 2]:.1f} s, max "
                    f"{times[-1]:.1f} s") if times else ""
            print(f"{mutant:16} {players} players: caught {sum(r.caught for r in mine)} of "
                  f"{len(mine)}{when}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
