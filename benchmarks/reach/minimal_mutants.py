"""Every public mutant behind the minimum-capability wrapper (issue 9, part 5).

    python benchmarks/reach/minimal_mutants.py [--rounds 6] [--game flit] [--full-too]

Each mutant of examples/engines/<game>/ (the MUTANTS lists) runs in-process behind
`minimal:` (no load_state, no legal, no bot_output, no chance: it draws with its own seeded
RNG and reports its draws) for a short campaign. A line per mutant says whether it was
caught under its rule, listed as not checkable (with the capability), or missed, and what
else was found. With --full-too, the same campaign on the full-capability engine first, as
the baseline of this run (the time ratio is minimal / full). A mutant not caught whose rule
the certificate lists as checked in part (the capability the rest needs named) counts as
such. Exit 1 if any is missed (or only "not exercised", with no capability named).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.search import campaign
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.reference_engine.contract import Session

# the mutants are the repository's examples, beside this script
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from examples.engines import engine_spec, load

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")
CAUGHT, NOT_CHECKABLE, MISSED = "caught", "not checkable", "MISSED"
# not caught, but the certificate lists its rule as checked in part, naming the capability
# the rest needs (the break lies in that rest)
IN_PART = "checked in part"
# the certificate names the rule as not exercised (INCOMPLETE): not passed, but not caught
UNEXERCISED = "not exercised"


def mutants(games: tuple[str, ...] = GAMES) -> list[tuple[str, str]]:
    return [(g, m) for g in games
            for m in importlib.import_module(f"examples.engines.{g}").MUTANTS]


def minimal_campaign(game: str, name: str, rounds: int, seed: int = 0,
                     until_caught: bool = False) -> CampaignResult:
    """The mutant behind the wrapper, in the profile where its break shows (its PROFILE).
    With `until_caught`, no round starts once a finding under the mutant's rule is in (as
    Ctrl-C ends a campaign): the same rounds up to there, so the same verdict, sooner."""
    module = load(game, name)
    spec = engine_spec(game, name, "minimal")

    def stop_once_caught(result: CampaignResult) -> None:
        if until_caught and module.RULE in {d.primary for d in result.departures}:
            campaign.STOP.set()

    campaign.STOP.clear()
    try:
        return run_campaign(game, object_recipe(game, spec), rounds=rounds, seed=seed,
                            profile_id=getattr(module, "PROFILE", None),
                            on_round=stop_once_caught)
    finally:
        campaign.STOP.clear()


def verdict(result: CampaignResult, rule: str) -> tuple[str, str]:
    """(caught / not checkable / MISSED, detail)."""
    primaries = [d.primary for d in result.departures]
    if rule in primaries:
        return CAUGHT, ""
    if rule in result.not_checkable:
        return NOT_CHECKABLE, f"needs {result.not_checkable[rule]}"
    if rule in result.in_part:
        return IN_PART, f"the rest needs {result.in_part[rule]}" + (
            ", certificate INCOMPLETE" if rule in result.unexercised else "")
    if rule in result.unexercised:
        return UNEXERCISED, "certificate INCOMPLETE"
    return MISSED, "the certificate says passed"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--game", choices=GAMES, action="append")
    ap.add_argument("--full-too", action="store_true")
    args = ap.parse_args(argv)
    games = tuple(args.game) if args.game else GAMES
    tally: dict[str, int] = {CAUGHT: 0, NOT_CHECKABLE: 0, IN_PART: 0, UNEXERCISED: 0,
                             MISSED: 0}
    t_min = t_full = 0.0
    for game, name in mutants(games):
        module = load(game, name)
        if args.full_too:
            t0 = time.perf_counter()
            run_campaign(game, InProcessEngine(Session(module.ENGINE(), name=name)),
                         rounds=args.rounds, seed=0,
                         profile_id=getattr(module, "PROFILE", None))
            t_full += time.perf_counter() - t0
        t0 = time.perf_counter()
        result = minimal_campaign(game, name, args.rounds)
        t_min += time.perf_counter() - t0
        what, detail = verdict(result, module.RULE)
        tally[what] += 1
        others = sorted({d.primary for d in result.departures} - {module.RULE})
        print(f"{game:12} {name:28} {module.RULE:28} {what:14} {detail}"
              + (f" also: {', '.join(others)}" if others else ""), flush=True)
    print(f"\n{sum(tally.values())} mutants: {tally[CAUGHT]} caught with their rule, "
          f"{tally[NOT_CHECKABLE]} not checkable (capability named), {tally[IN_PART]} "
          f"checked in part (capability named), {tally[UNEXERCISED]} not exercised "
          f"(certificate INCOMPLETE), {tally[MISSED]} missed; "
          f"{args.rounds} rounds each")
    if args.full_too and t_full > 0:
        print(f"time behind the wrapper / full capabilities: {t_min / t_full:.2f}")
    return 1 if tally[MISSED] or tally[UNEXERCISED] else 0


if __name__ == "__main__":
    sys.exit(main())
