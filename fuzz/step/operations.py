"""The lockstep's operations besides a step: a probe (an action the reference refuses), a
bot's raw reply (both referees), observe, reload (save and load back) and the legal sets.

Part of the lockstep (fuzz.step.lockstep): each asks the engine, judges what it answered
(fuzz.step.judge) and raises a finding through the lockstep.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from gamecert.fuzz.engines.engine import EngineFault, Refused
from gamecert.fuzz.step.align import Aligning
from gamecert.fuzz.step.finding import JSON, canon, diff, finding_kind
from gamecert.fuzz.step.judge import guarded
from gamecert.oracles.base import (
    cause,
)
from gamecert.reference_engine.contract import (
    CHANCE,
    TERMINAL,
    IllegalAction,
    legal_json,
)


class Operations(Aligning):
    """probe, referee, observe, reload and compare_legal."""

    referee_hooks: list[tuple[str, Any]]

    if TYPE_CHECKING:  # the driving side's (fuzz.step.lockstep)
        def _fail(self, bad: list[tuple[str, str]], kind: str, fallback: str,
                  fallback_rule: str = "ENGINE-AGREES", related: Iterable[str] = (), *,
                  expected: JSON = None, got: JSON = None, at: int | None = None) -> bool: ...

        def _fault(self, fault: EngineFault) -> None: ...

        def _ask(self, what: str, call: Callable[..., Any], *args: Any,
                 rule: str = "ENGINE-AGREES") -> tuple[bool, Any]: ...

    def probe(self, action: JSON, rule: str | None = None) -> bool:
        """Offer an action the reference refuses; the engine must refuse it too. Returns
        False (and does nothing) when the reference accepts it. `rule`: the one rule the
        probe was built to break (counted per rule: a rule "passed" its probes only where
        they were tried and refused), charged when the engine accepts it and no judge
        names another."""
        try:
            self.game.apply(self.ref, self.game.action_from_json(self.ref, action))
            return False
        except IllegalAction:
            pass
        before = self.ref_json
        if self.muted and not self.can_load and self._known_acceptance(before, action, rule):
            return False  # accepted, it would only repeat a known cause (and cost a rewind)
        self.ops.append({"op": "probe", "action": action})
        if rule is not None:
            self.coverage.probes[rule] += 1
        bad: list[tuple[str, str]] = []
        try:
            reply = self.engine.apply(action)
        except Refused:
            self._judge(before, action, False, bad)
            if bad:  # an oracle says the action was legal after all
                self._fail(bad, "violation", f"refused {canon(action)}", expected=before)
            self._check_unchanged(before)
            return True
        except EngineFault as exc:
            self._fault(exc)
            return True
        self._judge(before, action, True, bad)
        got = _state_of(reply)
        if not bad:  # no judge names it: the models under which it is legal, if any
            bad = self._charge(bad, self.blame.acceptance(before, action, got, self.muted),
                               None, None, f"accepted {canon(action)}")
        if not bad and rule is not None:  # built to break that rule and no other
            bad = [(rule, cause("accepted-probe", f"the engine accepted {canon(action)[:300]}, "
                                f"which breaks {rule} and no other rule"))]
        note = self._rewind()  # the reference never played it: take the engine back
        self._fail(bad, "accepted-illegal",
                   f"engine accepted illegal action {canon(action)}{note}", expected=before,
                   got=got)
        return True

    def _check_unchanged(self, before: JSON) -> None:
        try:
            now = self.engine.observe()
        except Refused as exc:
            self._fail([], "fault", f"observe failed after a refusal: {exc}", "ENGINE-ALIVE",
                       expected=before)
            return
        except EngineFault as exc:  # its process is gone: nothing more is asked of it
            self._fault(exc)
            return
        if now != before:
            bad = self._state_departure(before, now, "after a refusal")
            note = self._settle(now)
            self._fail(bad, finding_kind(bad), "a refused action changed the engine's state: "
                       + diff(before, now) + note, expected=before, got=now)

    def referee(self, text: str) -> None:
        """Ask both referees what a bot's raw reply amounts to."""
        who = self.game.current(self.ref)
        if who in (CHANCE, TERMINAL):
            return
        want = self.game.action_to_json(self.ref, self.game.referee(self.ref, text))
        self.ops.append({"op": "bot_output", "text": text})
        bad: list[tuple[str, str]] = []
        ok, got = self._ask(f"bot_output {text!r}", self.engine.bot_output, text)
        if not ok:
            return
        for rule, hook in self.referee_hooks:
            self._count(rule, guarded(hook, self.ref_json, text, got, self.profile), bad)
        if bad or got != want:
            self._fail(bad, "violation" if bad else "divergence",
                       f"bot output {text!r}: reference makes it {canon(want)}, "
                       f"engine {canon(got)}", expected=self.ref_json)

    def observe(self) -> None:
        """The engine's observed state must equal the reference's."""
        if self.dead or self.ref is None:
            return
        self.ops.append({"op": "observe"})
        ok, now = self._ask("observe", self.engine.observe)
        if ok and now != self.ref_json:
            want = self.ref_json
            bad = self._state_departure(want, now, "on observe")
            note = self._settle(now)
            self._fail(bad, finding_kind(bad), "observe differs from the reference: "
                       + diff(want, now) + note, expected=want, got=now)

    def reload(self) -> None:
        """Save the engine's state and load it back: nothing may change."""
        self.ops.append({"op": "reload"})
        self.coverage.applied["ENGINE-STATE-ROUNDTRIP"] += 1
        try:
            saved = self.engine.observe()
            again = self.engine.load_state(saved)
        except Refused as exc:
            self._fail([], "refused-load", f"the engine refused its own state: {exc}",
                       "ENGINE-STATE-ROUNDTRIP", expected=self.ref_json)
            self._settle(None)
            return
        except EngineFault as exc:
            self._fault(exc)
            return
        if saved != self.ref_json:
            self._settle(None)
            self._fail([], "divergence", "observe differs from the reference: "
                       + diff(self.ref_json, saved), expected=self.ref_json, got=saved)
        elif again != saved:
            self._settle(None)
            self._fail([], "divergence", "load_state(observe()) changed the state: "
                       + diff(saved, again), "ENGINE-STATE-ROUNDTRIP", expected=saved, got=again)

    def compare_legal(self) -> None:
        """The engine's legal set (or chance outcomes) must equal the reference's."""
        self.ops.append({"op": "legal"})
        state = self.ref_json
        want = legal_json(self.game, self.ref)
        ok, got = self._ask("legal", self.engine.legal)
        if not ok or got == want:  # the common case, and far cheaper than comparing as sets
            return
        bad: list[tuple[str, str]] = []
        if not isinstance(got, dict):
            self._fail([], "protocol", f"legal reply is not an object: {str(got)[:200]}",
                       "ENGINE-ALIVE", expected=state)
            return
        if "outcomes" in want:
            w = {canon(o["action"]): o["p"] for o in want["outcomes"]}
            try:
                g = {canon(o["action"]): str(o["p"]) for o in got.get("outcomes") or []}
            except (KeyError, TypeError):
                self._fail([], "protocol", "legal outcomes are not {action, p} objects",
                           "ENGINE-ALIVE", expected=state)
                return
            for key in w.keys() - g.keys():
                self._judge(state, json.loads(key), False, bad)
            for key in g.keys() - w.keys():
                self._judge(state, json.loads(key), True, bad)
            same = w == g
            if not same and self.weights_hooks:
                self._weights(state, got["outcomes"], bad)
        else:
            wa = {canon(a) for a in want["actions"]}
            try:
                ga = {canon(a) for a in got.get("actions") or []}
            except TypeError:
                ga = set()
            for key in wa - ga:
                self._listed(state, json.loads(key), False, bad)
            for key in ga - wa:
                self._listed(state, json.loads(key), True, bad)
            same = wa == ga and got.get("to_move") == want["to_move"]
        if bad or not same:
            self._fail(bad, "violation" if bad else "divergence",
                       "legal sets differ from the reference's", expected=state)


def _state_of(reply: Any) -> JSON:
    """The state in an engine's apply reply (state, events), or None."""
    return reply[0] if isinstance(reply, tuple) and len(reply) == 2 else None
