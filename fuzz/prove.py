"""`gamecert prove GAME`: z3 proofs about an engine's own rule code, then the z3 boundary
positions played on the engine beside the reference.

The symbolic part needs the engine's code in this process; the boundary part works on any
engine, subprocess ones included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from gamecert.fuzz.engines import Engine, InProcessEngine
from gamecert.fuzz.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.spec import Profile

Prover = Callable[[Engine, Profile], tuple[bool, list[str]]]


def engine_code(engine: Engine) -> Any | None:
    """The engine's Game object when it runs in this process."""
    return engine.session.game if isinstance(engine, InProcessEngine) else None


def disagreements(game: str, engine: Engine, profile: Profile,
                  positions: Iterable[tuple[str, Any]],
                  actions: Callable[[Any], list[Any]]) -> list[str]:
    """Play `actions(state)` from each (label, state) on the engine beside the reference;
    one line for each position where the engine breaks a rule or leaves the reference."""
    ref, oracles = reference_game(game), oracles_for(game)
    bad = []
    for label, state in positions:
        ls = Lockstep(ref, engine, profile, oracles, coverage=Coverage())
        try:
            ls.start({"kind": "state", "state": state})
            for action in actions(state):
                ls.step(action)
        except Finding as f:
            bad.append(f"  {label}: [{', '.join(f.rules)}] {f.message}")
    return bad


def prove_flit(engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
    from gamecert.oracles.flit.proofs import NotSymbolic, boundary_positions, prove_catchup

    ok, lines = True, []
    code = engine_code(engine)
    if code is None:
        ok = False
        lines.append("FLIT-END-CATCHUP symbolic proof: NOT RUN: the engine runs in another "
                     "process; give it in-process (--engine package.module:attr) to prove it")
    else:
        try:
            result = prove_catchup(code, profile)
        except NotSymbolic as exc:
            ok = False
            lines.append(f"FLIT-END-CATCHUP symbolic proof: NOT POSSIBLE: {exc}")
        else:
            ok &= result.proved
            lines.append(f"FLIT-END-CATCHUP symbolic proof: "
                         f"{'PROVED' if result.proved else 'FAILED'}: {result.message}")
    positions = boundary_positions(profile)
    # one turn that changes no count: a no move, then a neutral step that adds nothing
    bad = disagreements("flit", engine, profile, positions, lambda state: [
        {"type": "pass"}, {"type": "neutral", "at": [0, 0], "hit": False}])
    ok &= not bad
    lines.append(f"FLIT-END-CATCHUP boundary positions from z3 (D = M and D = M + 1 across P): "
                 f"{len(positions)} played, {len(bad)} disagree with the rule")
    lines.extend(bad[:10])
    return ok, lines


def prover_for(game: str) -> Prover | None:
    """A game's prover: its fuzzing plugin's `prove`, when it has one."""
    from gamecert.fuzz.games import plugin_for

    return getattr(plugin_for(game), "prove", None)
