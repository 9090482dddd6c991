"""Speed of the JavaScript Flit engine, measured as benchmarks/speed/flit_bench.py measures the
Python reference over the wire (and beside it, for comparison, in the same run).

    python examples/engines/flit-js/bench.py [--repeats 5] [--steps 4000]

Prints medians over repeats: wire round trips per second (hello: the bare protocol; observe:
a full state each), and differential steps per second on the same scripted random game:
  bare    = the engine's apply + the reference's apply, nothing else;
  harness = Lockstep.step (both applies, canonical JSON compared, every oracle run).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from benchmarks.speed.flit_bench import (  # noqa: E402
    action_script,
    bare_steps,
    harness_steps,
    median_of,
    round_trips,
)
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine  # noqa: E402

ENGINE_JS = Path(__file__).resolve().parent / "flit.js"


def measure(label: str, engine: SubprocessEngine, script: list[object], repeats: int) -> None:
    engine.start()
    engine.hello()
    engine.new_game()
    try:
        hello = median_of(repeats, lambda: round_trips(engine, 5000, "hello"))
        observe = median_of(repeats, lambda: round_trips(engine, 5000, "observe"))
        legal = median_of(repeats, lambda: round_trips(engine, 500, "legal"))
        bare = median_of(repeats, lambda: bare_steps(engine, script))
        harness = median_of(repeats, lambda: harness_steps(engine, script))
    finally:
        engine.close()
    print(f"{label:<26}: round trips {hello:8.0f} /s (hello), {observe:7.0f} /s (observe), "
          f"{legal:6.0f} /s (legal, setup chance list); differential {harness:6.0f} steps/s, "
          f"bare {bare:6.0f} steps/s, harness/bare time {bare / harness:4.2f}x")


def node_version(node: str) -> str:
    return subprocess.run([node, "--version"], capture_output=True, text=True,
                          check=False).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--steps", type=int, default=4000)
    args = ap.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("node is not on PATH")
    script = action_script(args.steps, seed=1)
    print(f"Flit wire benchmarks: medians of {args.repeats} repeats over {len(script)} steps; "
          f"Python {sys.version.split()[0]}, "
          f"Node {node_version(node)}")
    measure("JavaScript engine (node)", SubprocessEngine([node, str(ENGINE_JS)]), script,
            args.repeats)
    measure("Python reference (serve)",
            SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "flit"], cwd=str(ROOT)),
            script, args.repeats)


if __name__ == "__main__":
    main()
