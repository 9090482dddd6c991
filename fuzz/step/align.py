"""Keeping the two sides together: after a departure the engine is put back on the
reference's state (resync), or the reference takes the engine's (adopt), or an accepted
probe is taken back (rewind); in follow mode the reference follows the draws the engine
reports.

`Aligning` is part of the lockstep (fuzz.step.lockstep); what it does is recorded in the
trace (`MARKERS`), so a replay does it again at the same place. It judges nothing but the
draws it follows.
"""

from __future__ import annotations

import contextlib
from typing import Any

from gamecert.fuzz.engines.capabilities import (
    UNDO,
    chance_rule,
    is_chance_report,
)
from gamecert.fuzz.engines.engine import Engine, EngineFault, Refused
from gamecert.fuzz.step.fast import FastPaths
from gamecert.fuzz.step.finding import JSON, canon, diff
from gamecert.reference_engine.contract import (
    CHANCE,
    BadState,
    IllegalAction,
)
from gamecert.spec import Profile


class Aligning(FastPaths):
    """Resync, adopt, rewind, and following the engine's draws."""

    engine: Engine
    engine_profile: Profile
    caps: frozenset[str]
    can_load: bool
    dead: bool
    chance_stats: Any
    example_seed: int | None
    draws: int
    observe_next: Any
    _settled: bool

    def _settle(self, engine_state: JSON) -> str:
        """After a departure (found or passed over), bring the two sides together again so
        the example goes on and every later step is judged on its own: an engine that loads
        states is put back on the reference's (resync); for any other, the reference takes
        the engine's state (adoption: the reference loads any canonical state). Recorded in
        the trace: a replay with the same muted causes does the same at the same place.
        Returns what a finding must add when the example cannot go on ("" when it can)."""
        self._settled = True
        if self.dead:
            return ""
        if self.can_load:
            return self._resync()
        return self._adopt(engine_state)

    def _resync(self) -> str:
        """Put the engine back on the reference's state (it loads states)."""
        self.ops.append({"op": "resync"})
        if not self.can_load or (self.follow and self.game.current(self.ref) == CHANCE):
            self.dead = True  # nothing to put it back with: this example ends here
            return ""
        try:
            self.engine.load_state(self.ref_json)
        except (Refused, EngineFault):
            self.dead = True
        return ""

    def _adopt(self, engine_state: JSON) -> str:
        """Put the reference on the engine's state (an engine without load_state)."""
        self.ops.append({"op": "adopt"})
        ref, why = self._adoptable(engine_state)
        if ref is None:
            self.dead = True
            return (f"; the reference cannot take on the engine's state ({why}), so this "
                    "example ends here")
        self.adopted.append(len(self.ops) - 1)
        self.ref = self.json_of = ref
        self.ref_json = engine_state
        return ""

    def _adoptable(self, state: JSON) -> tuple[Any, str]:
        """(the reference's state for the engine's canonical `state`, "") or (None, why)."""
        if not isinstance(state, dict):
            return None, "the engine gave no state"
        try:  # any well-formed state, whether or not the rules reach it (`adopt`)
            ref = getattr(self.game, "adopt", self.game.load)(self.profile, state)
            again = self.game.observe(ref)
        except (BadState, IllegalAction, KeyError, TypeError, ValueError, IndexError,
                AttributeError) as exc:
            return None, f"not a valid canonical state: {exc}"
        if again != state:  # loading it changes it: it is not canonical as sent
            return None, f"not a canonical state as sent: {diff(state, again)[:300]}"
        if self.follow and self.game.current(ref) == CHANCE:
            return None, "it waits for a draw the engine did not report"
        return ref, ""

    def _rewind(self) -> str:
        """Take back an illegal action the engine accepted (a probe), for an engine without
        load_state: `undo` where it offers it, else a new game from the example's seed with
        every move applied again (engines are deterministic given their seed). The engine
        must then stand where the reference does."""
        if self.dead:
            return ""
        self._settled = True
        if self.can_load:
            return self._resync()
        self.ops.append({"op": "rewind"})
        try:
            now = self.engine.undo() if UNDO in self.caps else self._replay_moves()
        except (Refused, EngineFault) as exc:
            self.dead = True
            return f"; the engine could not be taken back ({exc}), so this example ends here"
        if now != self.ref_json:
            self.dead = True
            return ("; taken back, the engine does not stand where it stood ("
                    f"{diff(self.ref_json, now)[:200]}), so this example ends here")
        return ""

    def _replay_moves(self) -> JSON:
        """A new game from this example's seed, then every move of the example again."""
        self.engine.new_game(self.engine_profile, self.example_seed)
        for op in self.ops:
            if op.get("op") == "apply":
                # a move it refused the first time is refused again: its state did not move
                with contextlib.suppress(Refused):
                    self.engine.apply(op["action"])
        return self.engine.observe()

    def _follow(self, ref: Any, want: list[JSON], reported: list[JSON],
                bad: list[tuple[str, str]]) -> tuple[Any, list[JSON], list[JSON]]:
        """Apply the engine's reported draws to the reference (follow mode). Returns the
        reference's state after them, the events the engine should have sent (`want`, the
        reference's own, then each draw's report and its events, in order) and the draws
        followed. A draw the reference does not list, or a draw the rules call for that
        the engine did not report, is a violation of the game's chance rule (in `bad`)."""
        game, drawn = self.game, []
        for event in reported:
            if not is_chance_report(event):
                continue
            if game.current(ref) != CHANCE:
                break  # a draw the rules do not call for: the events comparison shows it
            outcome = event["chance"]
            listing = game.chance(ref)
            try:
                act = game.action_from_json(ref, outcome)
                p = next((o.probability for o in listing if o.action == act), None)
            except (IllegalAction, KeyError, TypeError, ValueError, IndexError):
                act, p = None, None
            rule = chance_rule(game.name, act if act is not None else listing[0].action
                               if listing else None)
            self.coverage.applied[rule] += 1
            if act is None or not p:
                # the rule that forbids this draw, where an oracle's judge knows it (the
                # lake drawn early is CARC-RIVER-LAKE-ENDS's); else the game's chance rule
                judged: list[tuple[str, str]] = []
                self._judge(game.observe(ref), outcome, True, judged)
                bad.extend(judged or [(rule, f"the engine reported the draw "
                                             f"{canon(outcome)[:200]}, which the reference "
                                             "does not list as a chance outcome here")])
                break
            if self.chance_stats is not None:
                self.chance_stats.add(game.name, rule, (self.example_seed, self.draws),
                                      listing, act)
            self.draws += 1
            canonical = game.action_to_json(ref, act)
            ref, events = game.apply(ref, act)
            want += [{"chance": canonical}, *events]
            drawn.append(canonical)
        # A draw the rules call for that the engine did not report: its state differs from
        # the reference's (still waiting for the draw), and the oracles that judge the step
        # name the rule where they can; the message says what is missing.
        self.unreported = game.current(ref) == CHANCE and not bad
        return ref, want, drawn

    def _observe(self, ref_next: Any) -> JSON:
        """The reference's canonical JSON of `ref_next`, a state its `apply` reached from
        `self.ref`: built from `self.ref_json` where the game can, else observed in full."""
        if self.observe_next is not None and self.json_of is self.ref:
            return self.observe_next(self.ref, self.ref_json, ref_next)
        return self.game.observe(ref_next)

    def _advance(self, ref_next: Any, ref_after: JSON) -> None:
        self.ref = self.json_of = ref_next
        self.ref_json = ref_after
        if self.follow and self.game.current(ref_next) == CHANCE:
            self.dead = True  # a draw left unfollowed: never send a chance action to it
