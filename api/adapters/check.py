"""A first look at an adapter before `gamecert certify`: play random games in lockstep with
the reference, following the engine's reported draws, and say where the two first differ.

    python -m gamecert.adapters.check GAME path/adapter.py:Name [--profile P] [--games N]
        [--seed S] [--steps K]

This is a maintainer's smoke test of an adapter (does new_game, apply, observe and the draw
reports line up with our canonical states?), not a certificate: no oracles, no probes, no
minimisation. It drives the reference in follow mode exactly as the contract says (started
unseeded, each reported outcome applied, an outcome the reference does not list is a
departure). It must not import the harness.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from gamecert.fuzz.engines import Refused
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL, Game, IllegalAction
from gamecert.spec import load_catalogue

JSON = Any


@dataclass
class Look:
    """What one game in lockstep showed: how far it got and the first difference."""

    seed: int
    steps: int = 0
    draws: int = 0
    finished: bool = False
    departure: str | None = None
    trace: list[JSON] = field(default_factory=list)


def _follow(ref: Game[Any, Any], state: Any, events: list[JSON], look: Look) -> Any:
    """Apply the engine's reported draws to the reference; returns the state after them."""
    for ev in events:
        if not (isinstance(ev, dict) and "chance" in ev):
            continue
        if ref.current(state) != CHANCE:
            look.departure = f"the engine reported a draw {ev['chance']} where no draw is due"
            return state
        listed = [ref.action_to_json(state, o.action) for o in ref.chance(state)
                  if o.probability > 0]
        if ev["chance"] not in listed:
            look.departure = (f"the engine drew {ev['chance']}, which the reference does not "
                              f"list as possible here")
            return state
        state, _ = ref.apply(state, ref.action_from_json(state, ev["chance"]))
        look.draws += 1
        look.trace.append({"chance": ev["chance"]})
    return state


def _differ(ref_json: JSON, eng_json: JSON) -> str:
    if not (isinstance(ref_json, dict) and isinstance(eng_json, dict)):
        return "the engine's state is not an object"
    keys = sorted(set(ref_json) | set(eng_json))
    diffs = [k for k in keys if ref_json.get(k) != eng_json.get(k)]
    return "; ".join(f"{k}: reference {json.dumps(ref_json.get(k))[:160]}, engine "
                     f"{json.dumps(eng_json.get(k))[:160]}" for k in diffs[:4])


def look_at(adapter: Any, profile: str | None, seed: int, steps: int = 400,
            game: str | None = None) -> Look:
    """One random game of `adapter` (a `NativeAdapter`, or any opened engine with `game`
    given) against the reference from new_game(profile, seed)."""
    name = game or adapter.game_name
    ref = reference_game(name)
    prof = load_catalogue(name).profile(profile)
    rng = random.Random(seed)
    look = Look(seed)
    eng_state = adapter.new_game(profile, seed)
    state = _follow(ref, ref.initial(prof, None), adapter.start_events, look)
    while look.departure is None:
        if ref.observe(state) != eng_state:
            look.departure = (f"after {look.steps} actions the states differ: "
                              + _differ(ref.observe(state), eng_state))
            break
        who = ref.current(state)
        if who == TERMINAL:
            look.finished = True
            break
        if who == CHANCE:
            look.departure = "a draw is due but the engine reported none"
            break
        if look.steps >= steps:
            break
        action = ref.action_to_json(state, rng.choice(list(ref.legal(state))))
        look.trace.append(action)
        try:
            eng_state, events = adapter.apply(action)
        except (IllegalAction, Refused) as exc:
            look.departure = f"the engine refused {json.dumps(action)}, a legal action: {exc}"
            break
        state, _ = ref.apply(state, ref.action_from_json(state, action))
        look.steps += 1
        state = _follow(ref, state, events, look)
    return look


def main(argv: list[str] | None = None) -> int:
    from gamecert.adapters.serve import load_adapter
    from gamecert.fuzz.engines import EngineSpecError

    ap = argparse.ArgumentParser(prog="python -m gamecert.adapters.check",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("adapter", help="path/adapter.py:ClassName")
    ap.add_argument("--profile", default=None)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args(argv)
    try:
        adapter = load_adapter(args.adapter)
    except (EngineSpecError, TypeError, RuntimeError) as exc:
        print(f"gamecert.adapters.check: {exc}", file=sys.stderr)
        return 2
    print(f"seed {args.seed}, {args.games} games, profile {args.profile or 'default'}")
    bad = 0
    for i in range(args.games):
        try:
            look = look_at(adapter, args.profile, args.seed + i, args.steps)
        except Exception as exc:  # a native crash is a finding, not a traceback
            print(f"game seed {args.seed + i}: the engine crashed: {type(exc).__name__}: {exc}")
            bad += 1
            continue
        verdict = look.departure or ("finished" if look.finished else "no difference")
        print(f"game seed {look.seed}: {look.steps} actions, {look.draws} draws: {verdict}")
        bad += look.departure is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
