"""The harness overhead, measured the same way for every game (a helper the game benchmarks
import; `python benchmarks/speed/overhead.py GAME` runs it alone).

    harness overhead = wall time of the lockstep over a fixed set of recorded games
                       / time the engine under test itself spent answering the same requests

Both sides are measured in the same run: the engine under test is wrapped so that each call
(new_game, apply, observe, legal, ...) adds its own time to a counter, and the lockstep's wall
time is taken around the same calls. The engine is the game's reference as an in-process
`Session` unless a benchmark passes another one.

What the engine and the harness find already worked out is what a campaign would find (`run`):

- the engine under test is the reference's code loaded a second time, a module of its own
  (`private_reference`): it keeps its own caches, as an engine that is not ours does. Sharing
  the lockstep's reference's caches would hand it, at every step, what the reference had just
  worked out on the same position (the reference is asked first), and so charge part of the
  engine's own work to the harness;
- each repeat replays its own set of recorded games, recorded in a child process
  (`record_sets`): a campaign's positions are new to every cache, and games this process had
  already played (recording them, or an earlier repeat) would be found there.

Three passes:

1. overhead: the recorded games through `Lockstep.start` + `Lockstep.step`, only the engine
   timed (two clock reads a call), median of the repeats;
2. parts: the same games with the reference, the engine and the oracles each timed, the
   oracles as they run (the game's shared looks, the hooks they leave to be asked, and their
   counting when the lane does not count a step: `time_oracles_of`); what is left of the
   wall time is the lockstep's own comparison and bookkeeping. The extra clock reads make
   this pass slower than pass 1: its figures are shares, not rates. Then once more with each
   oracle's hooks timed alone, for the costliest rules: a look answers only for the game's
   own hook functions, so with every hook wrapped the looks stand aside and each rule's
   hooks are asked (these shares rank the rules; they are not the lockstep's);
3. campaign: a short real Hypothesis run of the game's state machine (`fuzz.search.machine`, all
   its rules: play, probe, bot text, legal sets, observe, reload) with the same timers, plus
   one around every lockstep operation; what is left of the wall time is Hypothesis (drawing
   data, its own bookkeeping) and the machine's glue.

Nothing here changes what the lockstep checks: it is the real `Lockstep` with the real
oracles, only observed.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.search.machine import make_machine
from gamecert.fuzz.step.lockstep import AGREED_BATCH, Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import Oracle
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL, Game, Session
from gamecert.spec import Profile, load_catalogue

JSON = Any
GOAL = 3.0  # issue 15: at most 3x for every game
# Short games (Kingdomino's are about 100 steps) get more of them: a figure over a few
# hundred steps is a few milliseconds, within a scheduler tick of noise.
MIN_STEPS = 3000
RECORD_TIMEOUT = 600  # seconds for the child process recording the games (`record_sets`)
# The clock every timer reads: wall time (the definition), or with `--clock cpu` this
# process's CPU time, which other work on a shared machine does not inflate. In process, the
# engine, the reference and the oracles all run on this thread, so both measure the same
# work when the machine is idle; an engine in another process needs the wall clock.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
now = CLOCKS["wall"]


@dataclass
class Clock:
    """Seconds per part, added up by the timed wrappers."""

    parts: dict[str, float] = field(default_factory=dict)
    depth: dict[str, int] = field(default_factory=dict)

    def wrap(self, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn`, its time added to `part`. Functions of one part may call each other (the
        lockstep's oracle entries do): only the outermost call of a part adds its time."""
        parts, depth = self.parts, self.depth
        parts.setdefault(part, 0.0)
        depth.setdefault(part, 0)
        clock = now

        def timed(*args: Any, **kwargs: Any) -> Any:
            depth[part] += 1
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                depth[part] -= 1
                if not depth[part]:
                    parts[part] += clock() - t0

        return timed

    def flat(self, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn`, its time added to `part`, for a part whose functions never call each other
        (the engine's operations): `wrap` without its nesting count, so the timer adds
        as little as it can to the wall time it is compared with."""
        parts = self.parts
        parts.setdefault(part, 0.0)
        clock = now

        def timed(*args: Any) -> Any:
            t0 = clock()
            try:
                return fn(*args)
            finally:
                parts[part] += clock() - t0

        return timed


# The lockstep's own entry points to its oracles: the shared looks, the hooks asked one by
# one, with their counting when a step is not counted from the lane (`fuzz.step.lockstep`)
ORACLE_ENTRIES = ("prejudge", "state_prejudge", "_judge_step", "_state_verdicts")


def time_oracles_of(ls: Lockstep, clock: Clock) -> Lockstep:
    """`ls` with its oracles timed as one part, `oracles`, as they run: the game's shared
    looks standing in for the hooks they answer (wrapping each hook instead would leave
    the looks out, since a look stands in only for the game's own hook functions)."""
    for name in ORACLE_ENTRIES:
        fn = getattr(ls, name)
        if fn is not None:
            setattr(ls, name, clock.wrap("oracles", fn))
    return ls


class TimedEngine:
    """An engine under test whose every call is timed into the part "engine" (`flat`:
    the engine's operations never call each other)."""

    OPS = ("hello", "new_game", "load_state", "apply", "legal", "observe", "bot_output")

    def __init__(self, engine: Engine, clock: Clock) -> None:
        self.inner = engine
        self.name = getattr(engine, "name", "engine")
        for op in self.OPS:
            setattr(self, op, clock.flat("engine", getattr(engine, op)))

    def close(self) -> None:
        self.inner.close()


class TimedGame:
    """The reference `Game` with its calls timed into `clock.parts["reference"]`."""

    def __init__(self, game: Game[Any, Any], clock: Clock) -> None:
        self._game = game
        self._clock = clock
        self.name = game.name

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._game, name)
        if callable(attr):
            attr = self._clock.wrap("reference", attr)
            setattr(self, name, attr)  # wrap once
        return attr


def timed_oracles(oracles: Iterable[Oracle], clock: Clock) -> list[Oracle]:
    """The oracles with every hook timed, each rule in its own part `oracle RULE`."""
    hooks = ("state", "check", "judge", "referee", "listed")
    return [replace(o, **{h: clock.wrap(f"oracle {o.rule}", getattr(o, h))
                          for h in hooks if getattr(o, h) is not None}) for o in oracles]


def _fold_oracles(parts: dict[str, float]) -> tuple[dict[str, float], list[tuple[str, float]]]:
    """(parts with the oracles added up as `oracles`, the oracle rules by time)."""
    rules = sorted(((k[7:], v) for k, v in parts.items() if k.startswith("oracle ")),
                   key=lambda kv: -kv[1])
    out = {k: v for k, v in parts.items() if not k.startswith("oracle ")}
    out["oracles"] = sum(v for _, v in rules)
    return out, rules


def record_games(game: Game[Any, Any], profile: Profile, games: int, seed: int,
                 max_steps: int = 2000,
                 choose: Callable[[Any, random.Random], Any] | None = None,
                 min_steps: int = 0) -> list[list[JSON]]:
    """`games` random games (at most `max_steps` steps each), and more while they add up to
    fewer than `min_steps` steps, as wire-protocol action documents, to replay identically
    through every pass. The same seed gives the same set."""
    rng = random.Random(seed)
    out: list[list[JSON]] = []
    while len(out) < games or sum(map(len, out)) < min_steps:
        state, script = game.initial(profile), []
        while len(script) < max_steps and (who := game.current(state)) != TERMINAL:
            if who == CHANCE:
                action = game.random_chance(state, rng)  # type: ignore[attr-defined]
            elif choose is not None:
                action = choose(state, rng)
            else:
                action = game.random_action(state, rng)  # type: ignore[attr-defined]
            script.append(game.action_to_json(state, action))
            state, _ = game.apply(state, action)
        out.append(script)
    return out


def record_sets(game_name: str, profile: Profile, sets: int, games: int, max_steps: int = 2000,
                choose: Callable[[Any, random.Random], Any] | None = None,
                min_steps: int = 0) -> list[list[list[JSON]]]:
    """`sets` sets of recorded games (`record_games` with seeds 11, 12, ...), played in a
    child process where the platform can fork: the positions they reach are then in no
    cache of this one (neither the lockstep's reference's, the oracles' nor the engine's).
    The child is ours: it is waited for, and killed if anything goes wrong."""
    def play() -> list[list[list[JSON]]]:
        from gamecert.reference_engine import reference_game

        game = reference_game(game_name)
        return [record_games(game, profile, games, seed=11 + i, max_steps=max_steps,
                             choose=choose, min_steps=min_steps) for i in range(sets)]

    if "fork" not in multiprocessing.get_all_start_methods():
        return play()  # no fork (Windows): recorded here, the caches warm
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=lambda: send.send(play()), daemon=True)
    child.start()
    try:
        send.close()
        if not receive.poll(RECORD_TIMEOUT):  # True as well when the child died (EOFError)
            raise TimeoutError(f"recording the games took over {RECORD_TIMEOUT} s")
        out: list[list[list[JSON]]] = receive.recv()
        child.join(timeout=60)
        return out
    finally:
        if child.is_alive():
            child.kill()
            child.join()


def private_reference(game_name: str) -> Any:
    """The game's reference engine package loaded once more as modules of its own (`ENGINE`
    to make its `Game`): its module-level caches are not the lockstep's reference's. The
    modules already loaded stay as they were, under their names."""
    prefix = f"gamecert.reference_engine.{game_name}"

    def ours(name: str) -> bool:
        return name == prefix or name.startswith(prefix + ".")

    saved = {name: module for name, module in sys.modules.items() if ours(name)}
    package = importlib.import_module("gamecert.reference_engine")
    for name in saved:
        del sys.modules[name]
    try:
        return importlib.import_module(prefix)
    finally:
        for name in [name for name in sys.modules if ours(name)]:
            del sys.modules[name]
        sys.modules.update(saved)
        if prefix in saved:  # the import set the package's attribute to the copy
            setattr(package, game_name, saved[prefix])


def _replay(game: Any, engine: Any, profile: Profile, oracles: list[Oracle],
            scripts: list[list[JSON]],
            prepare: Callable[[Lockstep], Lockstep] | None = None) -> int:
    """Every recorded game through a fresh lockstep. The garbage collector is off meanwhile:
    a collection would be charged to whichever part happened to allocate last (often the
    engine), so the parts' times would depend on the others' garbage. The caller collects
    before it starts its clock (`collect`): a collection of the benchmark's own heap is no
    part of the lockstep."""
    gc.disable()
    try:
        return _replay_games(game, engine, profile, oracles, scripts, prepare)
    finally:
        gc.enable()


def collect() -> None:
    """A full collection, outside every timed region."""
    gc.collect()


def _replay_games(game: Any, engine: Any, profile: Profile, oracles: list[Oracle],
                  scripts: list[list[JSON]],
                  prepare: Callable[[Lockstep], Lockstep] | None = None) -> int:
    steps = 0
    for script in scripts:
        # as a campaign's rounds make it: the agreed steps' oracles asked in batches
        ls = Lockstep(game, engine, profile, oracles, coverage=Coverage(), defer=AGREED_BATCH)
        if prepare is not None:
            ls = prepare(ls)
        ls.start({"kind": "new_game"})
        for action in script:
            ls.step(action)
        ls.finish()  # the game's end: its last steps judged, as at an example's end
        steps += len(script)
    return steps


@dataclass
class Figures:
    steps: int
    wall: float  # median seconds of the lockstep over the recorded games
    engine: float  # the engine's own seconds in that same run
    shares: dict[str, float]  # part -> fraction of the parts pass's wall time
    campaign: dict[str, float]  # part -> fraction of the campaign pass's wall time
    campaign_steps: int
    campaign_wall: float
    costly: list[tuple[str, float]]  # the costliest oracles: (rule, share of pass 2's time)

    @property
    def overhead(self) -> float:
        return self.wall / self.engine


def measure(game_name: str, game: Game[Any, Any], profile: Profile,
            sets: list[list[list[JSON]]], *, repeats: int = 3,
            engine: Callable[[], Engine] | None = None,
            campaign_examples: int = 30, campaign_steps: int = 50) -> Figures:
    """The figures. `sets`: sets of recorded games, repeat i of pass 1 replaying set i
    (in turn when there are fewer) and passes 2 the last set."""
    make_engine = engine or (lambda: InProcessEngine(reference_session(game_name)))
    oracles = oracles_for(game_name)
    runs: list[tuple[float, float, int]] = []
    for i in range(repeats):  # pass 1: only the engine timed
        clock = Clock()
        eng = TimedEngine(make_engine(), clock)
        collect()
        t0 = now()
        steps = _replay(game, eng, profile, oracles, sets[i % len(sets)])
        runs.append((now() - t0, clock.parts["engine"], steps))
        eng.close()
    wall, eng_s, steps = min(runs, key=lambda r: r[0] / r[1]) if repeats < 3 else sorted(
        runs, key=lambda r: r[0] / r[1])[len(runs) // 2]
    scripts = sets[-1]

    clock = Clock()  # pass 2: every part timed, the oracles as they run
    eng = TimedEngine(make_engine(), clock)
    collect()
    t0 = now()
    _replay(TimedGame(game, clock), eng, profile, oracles, scripts,
            lambda ls: time_oracles_of(ls, clock))
    total = now() - t0
    eng.close()
    shares = _shares(clock.parts, total, "comparison + bookkeeping")

    clock = Clock()  # pass 2b: each oracle's hooks timed alone (no shared look)
    eng = TimedEngine(make_engine(), clock)
    collect()
    t0 = now()
    _replay(game, eng, profile, timed_oracles(oracles, clock), scripts)
    alone = now() - t0
    eng.close()
    _, by_rule = _fold_oracles(clock.parts)
    costly = [(rule, v / alone) for rule, v in by_rule[:5]]

    c_steps, c_wall, campaign = _campaign(game_name, game, profile, make_engine,
                                          campaign_examples, campaign_steps)
    return Figures(steps, wall, eng_s, shares, campaign, c_steps, c_wall, costly)


def _shares(parts: dict[str, float], total: float, rest: str) -> dict[str, float]:
    out = {k: v / total for k, v in parts.items()}
    out[rest] = max(0.0, 1.0 - sum(out.values()))
    return out


def _campaign(game_name: str, game: Game[Any, Any], profile: Profile,
              make_engine: Callable[[], Engine], examples: int,
              steps_per_example: int) -> tuple[int, float, dict[str, float]]:
    """A short Hypothesis run of the real state machine, every part timed."""
    clock = Clock()
    eng = TimedEngine(make_engine(), clock)
    timed_game = TimedGame(game, clock)
    oracles = oracles_for(game_name)
    coverage = Coverage()
    ops = ("start", "step", "probe", "referee", "compare_legal", "observe", "reload",
           "finish")

    def new_lockstep() -> Lockstep:
        ls = Lockstep(timed_game, eng, profile, oracles, coverage=coverage,  # type: ignore[arg-type]
                      defer=AGREED_BATCH)
        for op in ops:  # time the whole operation: the harness's share is what is left
            setattr(ls, op, clock.wrap("lockstep", getattr(ls, op)))
        return time_oracles_of(ls, clock)

    machine = make_machine(plugin_for(game_name), profile, new_lockstep)
    how = settings(max_examples=examples, stateful_step_count=steps_per_example,
                   derandomize=True, database=None, deadline=None, print_blob=False,
                   suppress_health_check=list(HealthCheck))
    t0 = now()
    run_state_machine_as_test(machine, settings=how)
    total = now() - t0
    eng.close()
    parts = dict(clock.parts)
    inside = parts.pop("lockstep")
    parts["comparison + bookkeeping"] = max(
        0.0, inside - sum(v for k, v in parts.items()))
    shares = _shares(parts, total, "Hypothesis + machine")
    return coverage.steps, total, shares


def report(figures: Figures, label: str = "") -> None:
    """Print the figures: the headline line first, in the issue's words."""
    f = figures
    kind = "wall" if now is CLOCKS["wall"] else "CPU"
    print(f"harness overhead: {f.overhead:.1f}x{label} (lockstep {kind} time "
          f"{f.wall:.3f} s over {f.steps} recorded steps / {f.engine:.3f} s inside the engine "
          f"under test; goal <= {GOAL:.0f}x)")
    print(f"lockstep steps/s: {f.steps / f.wall:,.0f} (engine alone answered at "
          f"{f.steps / f.engine:,.0f} steps/s)")
    print("time per part, recorded games (every part timed): " + _fmt(f.shares))
    print("costliest oracles, each one's hooks asked alone (no shared look): " + ", ".join(
        f"{rule} {100 * share:.0f}%" for rule, share in f.costly))
    print(f"time per part, Hypothesis campaign ({f.campaign_steps} steps, "
          f"{f.campaign_steps / f.campaign_wall:,.0f} steps/s with the timers on): "
          + _fmt(f.campaign))


def _fmt(shares: dict[str, float]) -> str:
    order = ["engine", "reference", "oracles", "comparison + bookkeeping",
             "Hypothesis + machine"]
    return ", ".join(f"{k} {100 * shares[k]:.0f}%" for k in order if k in shares)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--profile", default=None)
    ap.add_argument("--games", type=int, default=3, help="recorded games (at least)")
    ap.add_argument("--min-steps", type=int, default=MIN_STEPS,
                    help="more recorded games while they have fewer steps than this")
    ap.add_argument("--max-steps", type=int, default=2000, help="steps per recorded game")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="wall time (default), or this process's CPU time on a busy machine")
    args = ap.parse_args(argv)
    use_clock(args.clock)
    run(args.game, args.profile, args.games, args.repeats, args.max_steps, args.min_steps)


def use_clock(name: str) -> None:
    """Time every part with the clock named (`wall` or `cpu`)."""
    global now
    now = CLOCKS[name]


def run(game_name: str, profile_id: str | None, games: int, repeats: int,
        max_steps: int = 2000, min_steps: int = MIN_STEPS,
        choose: Callable[[Any, random.Random], Any] | None = None) -> Figures:
    """Record a set of `games` games for each repeat and one more for the parts, and print
    the figures for the in-process reference as the engine under test (a private copy of
    its modules, `private_reference`)."""
    from gamecert.reference_engine import reference_game

    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile(profile_id)
    sets = record_sets(game_name, profile, repeats + 1, games, max_steps=max_steps,
                       choose=choose, min_steps=min_steps)
    private = private_reference(game_name)

    def engine() -> Engine:
        return InProcessEngine(Session(private.ENGINE(), name=f"gamecert-reference-{game_name}"))

    figures = measure(game_name, game, profile, sets, repeats=repeats, engine=engine)
    report(figures, f" ({game_name}, {profile.id}, in-process reference as the engine, its "
                    "own modules)")
    return figures


if __name__ == "__main__":
    main(sys.argv[1:])
