"""What BOTWARS-GRID's look at the edge costs: the median time of its check hook over the
same transitions of random reference games, the edge-aware hook (oracles.botwars.edges)
against the shape-and-moves check it wraps (oracles.botwars.game), as a ratio measured in
the same run.

Run: python benchmarks/speed/grid_edges_bench.py [--transitions N] [--repeats K]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from gamecert.oracles.base import Transition, Verdict
from gamecert.oracles.botwars import edges, game
from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue


def transitions(profile: Profile, n: int, seed: int = 1) -> list[Transition]:
    """`n` transitions of random reference games (moves and energy draws)."""
    g, rng, out = BotWars(), random.Random(seed), []
    while len(out) < n:
        s = g.initial(profile, 0)
        while g.current(s) != TERMINAL and len(out) < n:
            a = g.random_chance(s, rng) if g.current(s) == CHANCE else g.random_action(s, rng)
            before, action = g.observe(s), g.action_to_json(s, a)
            s, events = g.apply(s, a)
            out.append(Transition(before, action, g.observe(s), events))
    return out


def timed(hook: Callable[[Transition, Profile], Verdict], ts: list[Transition],
          profile: Profile) -> float:
    start = time.perf_counter()
    for t in ts:
        hook(t, profile)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--transitions", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    profile = load_catalogue("botwars").profile()
    ts = transitions(profile, args.transitions)
    base, edge = [], []
    for _ in range(args.repeats):
        base.append(timed(game.grid_check, ts, profile))
        edge.append(timed(edges.grid_check, ts, profile))
    b, e = statistics.median(base), statistics.median(edge)
    print(f"{len(ts)} transitions, median of {args.repeats}: shape-and-moves check "
          f"{b * 1e6 / len(ts):.1f} us, edge-aware check {e * 1e6 / len(ts):.1f} us; "
          f"ratio {e / b:.2f}")


if __name__ == "__main__":
    main()
