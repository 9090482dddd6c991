"""How often a certify campaign reaches The Tower's rare cases:
`python benchmarks/reach/carcassonne_tower_reach.py [--budget S | --rounds R] [--seed N]
[--profile P]`.

Runs the campaign `gamecert certify carcassonne --profile P --budget S --seed N` runs (the
reference as the engine under test), and counts, in the steps it applies, the events of the
rules the fuzzing targets aim at: captures, exchanges of prisoners, ransoms (and those paid
at exactly the ransom), floors making a tower 3 or more high, farm scorings with tied
farmers. Counted apart for examples that start from a new game or a played position (where
targets and draw biases must do the work) and from a crafted start (where the start holds
the case). Figures are per 1000 applied steps, so a busy machine changes how many steps
run, not the rates.
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games.carcassonne import play as plugin
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.step.lockstep import Lockstep
from gamecert.reference_engine import reference_session

CASES = ("capture", "exchange", "ransom", "ransom at exactly 3", "tower 3+ high",
         "farm tie")


def count(events: list[Any], before: Any) -> list[str]:
    out = []
    for e in events:
        kind = e.get("type")
        if kind == "meeple-captured":
            out.append("capture")
        elif kind == "prisoners-exchanged":
            out.append("exchange")
        elif kind == "ransom-paid":
            out.append("ransom")
            if before.scores[e["player"] - 1] == e["points"]:
                out.append("ransom at exactly 3")
        elif kind == "tower-built" and e["height"] >= 3:
            out.append("tower 3+ high")
        elif kind == "farm-scored" and len(e["scorers"]) >= 2:
            out.append("farm tie")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=30.0)
    ap.add_argument("--rounds", type=int, default=None,
                    help="a fixed number of rounds instead of the budget: the same examples "
                         "on any machine, so two versions compare exactly")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="syncs-2025-tower")
    args = ap.parse_args(argv)
    hits: dict[str, collections.Counter[str]] = {"played": collections.Counter(),
                                                 "crafted": collections.Counter()}
    steps: collections.Counter[str] = collections.Counter()
    step = Lockstep.step

    def counting(self: Lockstep, action: Any) -> Any:
        where = "crafted" if plugin._crafted_start(self) else "played"
        before = self.ref
        events = step(self, action)
        steps[where] += 1
        hits[where].update(count(events, before))
        return events

    Lockstep.step = counting  # type: ignore[method-assign]
    t0 = time.monotonic()
    try:
        result = run_campaign("carcassonne", InProcessEngine(reference_session("carcassonne")),
                              profile_id=args.profile, budget=args.budget, seed=args.seed,
                              rounds=args.rounds)
    finally:
        Lockstep.step = step  # type: ignore[method-assign]
    took = time.monotonic() - t0
    how = f"--rounds {args.rounds}" if args.rounds else f"--budget {args.budget:g}"
    print(f"gamecert certify carcassonne --profile {args.profile} {how} "
          f"--seed {args.seed}: {result.rounds} rounds, {result.coverage.examples} examples, "
          f"{result.coverage.steps} steps in {took:.1f} s")
    print(f"{'case':<22}" + "".join(f"{w + ' (per 1000 steps)':>28}" for w in hits))
    for case in CASES:
        row = "".join(f"{hits[w][case]:>12} ({1000 * hits[w][case] / max(steps[w], 1):7.1f})"
                      f"{'':>6}" for w in hits)
        print(f"{case:<22}{row}")
    print(f"{'steps':<22}" + "".join(f"{steps[w]:>12}{'':>16}" for w in hits))


if __name__ == "__main__":
    main()
