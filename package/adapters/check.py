"""A first look at an adapter before `gamecert certify`: play random games in lockstep with
the reference, following the engine's reported draws, and say where the two first differ.

    python -m gamecert.adapters.check path/adapter.py:Name [--profile P] [--games N]
        [--seed S] [--steps K]
    python -m gamecert.adapters.check --engine-cmd 'node my_adapter.js' [--game G] [...]

The engine is a Python adapter class (run in this process) or any wire-protocol program
(`--engine-cmd`, in any language; its game is the one its `hello` names, or `--game`). This
is a maintainer's smoke test of an adapter (does new_game, apply, observe and the draw
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

from gamecert.fuzz.engines.engine import Refused
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL, Game, IllegalAction
from gamecert.spec import CatalogueError, load_catalogue

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
    eng_state = adapter.new_game(prof, seed)
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


def _open_command(command: str, game: str | None, timeout: float) -> tuple[Any, str]:
    """A wire-protocol engine process and the game it plays (its hello's, checked against
    `game` when given); raises EngineSpecError with what went wrong."""
    from gamecert.fuzz.engines.engine import EngineFault, EngineSpecError
    from gamecert.fuzz.engines.recipes import split_command
    from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
    from gamecert.spec import games

    engine = SubprocessEngine(split_command(command), timeout=timeout,
                              start_timeout=4 * timeout, game=game)
    try:
        hello = engine.hello()
    except (EngineFault, Refused) as exc:
        engine.close()
        raise EngineSpecError(f"the engine failed its hello: {exc}") from None
    said = hello.get("game") if isinstance(hello, dict) else None
    if game is not None and said != game:
        engine.close()
        raise EngineSpecError(f"the engine says it plays {said!r}, not {game!r}")
    if said not in games():
        engine.close()
        raise EngineSpecError(f"the engine's hello names no game gamecert knows: {said!r} "
                              f"(known: {', '.join(games())})")
    engine.game = said  # its new_game requests then carry the profile's rules
    return engine, str(said)


def main(argv: list[str] | None = None) -> int:
    from gamecert.adapters.serve import load_adapter
    from gamecert.fuzz.engines.engine import EngineFault, EngineSpecError

    ap = argparse.ArgumentParser(prog="python -m gamecert.adapters.check",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("adapter", nargs="?", help="path/adapter.py:ClassName (a Python adapter)")
    ap.add_argument("--engine-cmd", default=None, metavar="CMD",
                    help="a wire-protocol engine command, in any language "
                         "(e.g. 'node my_adapter.js')")
    ap.add_argument("--game", default=None, help="with --engine-cmd: the game it must play "
                    "(default: the one its hello names)")
    ap.add_argument("--timeout", type=float, default=5.0,
                    help="with --engine-cmd: seconds allowed for each reply (default 5)")
    ap.add_argument("--profile", default=None)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args(argv)
    if (args.adapter is None) == (args.engine_cmd is None):
        ap.error("name one engine: a Python adapter (path/adapter.py:Name) or --engine-cmd")
    if not (args.timeout > 0 and args.timeout < float("inf")):
        ap.error("--timeout must be a positive number of seconds")
    engine: Any
    try:
        if args.engine_cmd is not None:
            engine, game = _open_command(args.engine_cmd, args.game, args.timeout)
        else:
            engine = load_adapter(args.adapter)
            game = engine.game_name
        load_catalogue(game).profile(args.profile)
    except (EngineSpecError, TypeError, RuntimeError, CatalogueError) as exc:
        print(f"gamecert.adapters.check: {exc}", file=sys.stderr)
        return 2
    print(f"{game}: seed {args.seed}, {args.games} games, profile {args.profile or 'default'}")
    bad = 0
    try:
        for i in range(args.games):
            try:
                look = look_at(engine, args.profile, args.seed + i, args.steps, game=game)
            except Refused as exc:  # new_game refused: the profile, or the seed
                print(f"game seed {args.seed + i}: the engine refused: {exc}")
                bad += 1
                continue
            except EngineFault as exc:  # the process crashed, hung or broke the protocol
                print(f"game seed {args.seed + i}: the engine failed ({exc.kind}): "
                      f"{exc.message}")
                bad += 1
                continue
            except Exception as exc:  # a native crash is a finding, not a traceback
                print(f"game seed {args.seed + i}: the engine crashed: "
                      f"{type(exc).__name__}: {exc}")
                bad += 1
                continue
            verdict = look.departure or ("finished" if look.finished else "no difference")
            print(f"game seed {look.seed}: {look.steps} actions, {look.draws} draws: {verdict}")
            bad += look.departure is not None
    finally:
        engine.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
