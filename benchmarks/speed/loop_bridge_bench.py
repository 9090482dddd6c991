"""What the adapter kit's loop bridge (gamecert.adapters.loop) costs per move.

    python benchmarks/speed/loop_bridge_bench.py [--games N] [--repeats R] [--seed S]

The same Kingdomino match engine (examples/adapters/own_loop/own_loop_match.py: our rules,
its own seeded RNG) is driven two ways over the same games, in the same run:

* bridged: `OwnLoop`, the engine's own loop in a thread, each move handed to the bot it
  asks (`LoopAdapter`);
* direct: a plain `NativeAdapter` that plays each move on the same match object itself
  (what an adapter would do if the engine offered a move-by-move call).

Both play the reference's random moves through `gamecert.adapters.check.look_at` (the
reference's own work is in both). Prints the median time per move of each, their ratio and
the bridge's own cost per move (the difference). Timings on a shared machine are noisy:
compare the two figures of one run, not figures across runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from examples.adapters.own_loop.adapter import OwnLoop  # noqa: E402
from gamecert.adapters import NativeAdapter, NativeRefusal  # noqa: E402
from gamecert.adapters.check import look_at  # noqa: E402
from gamecert.spec import Profile  # noqa: E402

JSON = Any


class Direct(NativeAdapter):
    """The same match, moved by hand (no loop, no thread)."""

    game_name = "kingdomino"
    engine = "own-loop match, driven directly"

    def start(self, profile: Profile, seed: int) -> Any:
        from own_loop_match import Match

        match = Match(profile, seed)
        match._deal()
        return match

    def play(self, native: Any, action: JSON) -> Any:
        from own_loop_match import Move

        put = action.get("put")
        error = native._play(Move(tuple(put) if put else None, action.get("pick")))
        if error:
            raise NativeRefusal(error)
        native._deal()
        return native

    def canonical(self, native: Any) -> JSON:
        return native.view()

    def drawn(self, native: Any) -> list[JSON]:
        out, native.drawn = native.drawn, []
        return out


def per_move(adapter: NativeAdapter, seeds: list[int]) -> float:
    steps = 0
    t0 = time.perf_counter()
    for seed in seeds:
        look = look_at(adapter, None, seed, steps=400)
        if look.departure is not None:
            raise SystemExit(f"{adapter.engine}, seed {seed}: {look.departure}")
        steps += look.steps
    return (time.perf_counter() - t0) / steps


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"seed {args.seed}, {args.games} games of Kingdomino (4 players), "
          f"{args.repeats} repeats")
    seeds = list(range(args.seed, args.seed + args.games))
    bridged, direct = OwnLoop(), Direct()
    bridged_t, direct_t = [], []
    try:
        for _ in range(args.repeats):  # interleaved: the machine's load falls on both
            bridged_t.append(per_move(bridged, seeds))
            direct_t.append(per_move(direct, seeds))
    finally:
        bridged.close()
    b, d = statistics.median(bridged_t), statistics.median(direct_t)
    print(f"direct:  {d * 1e6:8.1f} us per move (median of {args.repeats})")
    print(f"bridged: {b * 1e6:8.1f} us per move (median of {args.repeats})")
    print(f"ratio bridged / direct: {b / d:.2f}; the bridge's own cost: "
          f"{(b - d) * 1e6:.1f} us per move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
