"""What a lockstep asks its oracles, worked out once per game, profile and oracle list.

A `HookPlan` holds the oracles a profile plays, their hooks as the step loop runs them
(rules and functions in parallel lists), where a game's shared looks (`PREJUDGE`,
`STATE_PREJUDGE`) answer for them, and the memos the loop fills as it goes (the checks of
each kind of step, what a pattern of verdicts counts). All of it is a pure function of the
game, the profile and the oracles, so locksteps built on the same three share one plan
(`plan_for`): a campaign builds a lockstep for every round and a benchmark one for every
game, and each would otherwise work all of this out again.

This module judges nothing and calls no hook: it only sorts them. The memos hold nothing
of any one example: patterns of OK and NA, and lists of rules and checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamecert.oracles import action_kind_for, oracles_for, prejudge_for, state_prejudge_for
from gamecert.oracles.base import CheckFn, Oracle, checks_by_kind
from gamecert.spec import Profile

CheckLists = tuple[list[str], list[CheckFn], list[int]]
PLANS_KEPT = 64  # (game, profile, oracle list) combinations remembered (`plan_for`)


@dataclass
class HookPlan:
    oracles: list[Oracle]  # those of a stage the profile plays
    # (rule, hook) pairs of each kind, and the state hooks' rules and functions apart
    state_hooks: list[tuple[str, Any]]
    state_rules: list[str]
    state_fns: list[Any]
    check_hooks: list[tuple[str, CheckFn]]
    judge_hooks: list[tuple[str, Any]]
    referee_hooks: list[tuple[str, Any]]
    listed_hooks: list[tuple[str, Any]]
    weights_hooks: list[tuple[str, Any]]
    # the game's shared looks, or None; `state_where[i]` is where the state look's answer
    # for `state_fns[i]` is (-1: it gives none); `prejudged` maps (rule, check) likewise
    state_prejudge: Any
    state_where: list[int]
    prejudge: Any
    prejudged: dict[tuple[str, Any], int]
    # the game's `action_kind` where some check judges only some kinds of step, else None
    action_kind: Callable[[Any], str] | None
    every_check: CheckLists
    # memos the step loop fills: the checks of each kind of step; what a pattern of
    # verdicts counts (`Lockstep._count_step`); what the looks' answers count (the lane,
    # for a game with a step look)
    checks_on: dict[str, CheckLists] = field(default_factory=dict)
    counted: dict[tuple[int, ...], list[str]] = field(default_factory=dict)
    lane: dict[tuple[int, ...], tuple[Any, Any, Any, list[str]]] | None = None

    def checks_for(self, action: Any) -> CheckLists:
        """The rules, checks and look positions to ask about a step made by `action`."""
        if self.action_kind is None:
            return self.every_check
        try:
            kind = self.action_kind(action)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return self.every_check  # an action it cannot name: every check is asked
        checks = self.checks_on.get(kind)
        return checks if checks is not None else self.checks_of_kind(kind)

    def checks_of_kind(self, kind: str) -> CheckLists:
        """The rules, checks and look positions for a step of `kind` (remembered)."""
        checks = self.checks_on.get(kind)
        if checks is None:
            checks = self.checks_on[kind] = self.check_lists(
                checks_by_kind(self.oracles, [kind])[kind])
        return checks

    def check_lists(self, pairs: list[tuple[str, CheckFn]]) -> CheckLists:
        """Rules, checks, and where the step look answers each (-1: it does not)."""
        return ([rule for rule, _ in pairs], [fn for _, fn in pairs],
                [self.prejudged.get((rule, fn), -1) for rule, fn in pairs])


def build_plan(game: str, profile: Profile, oracles: list[Oracle],
               game_looks: tuple[Any, Any, Any] | None = None) -> HookPlan:
    """The plan for `oracles` of `game` played at `profile` (an oracle of a stage the
    profile does not play would answer NA to everything: it is left out). `game_looks`:
    the game's (`PREJUDGE`, `STATE_PREJUDGE`, `action_kind`), when the caller has them."""
    found_pj, found_state, kind_fn = game_looks or _game_looks(game)
    mine = [o for o in oracles if o.within is None or o.within(profile)]
    state_hooks = [(o.rule, o.state) for o in mine if o.state]
    check_hooks = [(o.rule, o.check) for o in mine if o.check]
    state_prejudge, state_at = looks(game, found_state, "state", state_hooks)
    # A game's shared look at a step answers for some rules' checks at once; it stands in
    # only for the game's own check of a rule (an oracle list with another check for that
    # rule, a test's or a benchmark's, is asked as it is).
    prejudge, prejudged = looks(game, found_pj, "check", check_hooks)
    plan = HookPlan(
        oracles=mine, state_hooks=state_hooks, state_rules=[r for r, _ in state_hooks],
        state_fns=[h for _, h in state_hooks], check_hooks=check_hooks,
        judge_hooks=[(o.rule, o.judge) for o in mine if o.judge],
        referee_hooks=[(o.rule, o.referee) for o in mine if o.referee],
        listed_hooks=[(o.rule, o.listed) for o in mine if o.listed],
        weights_hooks=[(o.rule, o.weights) for o in mine if o.weights],
        state_prejudge=state_prejudge,
        state_where=[state_at.get(pair, -1) for pair in state_hooks],
        prejudge=prejudge, prejudged=prejudged,
        action_kind=kind_fn if any(o.on is not None for o in mine) else None,
        every_check=([], [], []),
        lane={} if prejudge is not None else None)
    plan.every_check = plan.check_lists(check_hooks)
    return plan


def _game_looks(game: str) -> tuple[Any, Any, Any]:
    return prejudge_for(game), state_prejudge_for(game), action_kind_for(game)


def looks(game: str, found: Any, hook: str, pairs: list[tuple[str, Any]]
          ) -> tuple[Any, dict[tuple[str, Any], int]]:
    """A game's shared look (`PREJUDGE` or `STATE_PREJUDGE`, `found`) for its `hook`s
    ("check" or "state"): (its function, or None when it answers none of `pairs`;
    (rule, hook function) -> where its answer is). It stands in only for the game's own
    hook of a rule: another function for that rule (a test's, a benchmark's wrapper) is
    asked as it is."""
    if found is None:
        return None, {}
    rules, fn = found
    own = {o.rule: getattr(o, hook) for o in oracles_for(game)
           if getattr(o, hook) is not None}
    ours = set(pairs)
    where = {(rule, own[rule]): i for i, rule in enumerate(rules)
             if (rule, own.get(rule)) in ours}
    return (fn if where else None), where


# (game, the identities of the profile, of the game's looks and of the oracles) -> (those
# objects, the plan): each object is held, so an identity in a key is never another's
_PLANS: dict[tuple[Any, ...], tuple[tuple[Any, ...], HookPlan]] = {}


def plan_for(game: str, profile: Profile, oracles: tuple[Oracle, ...]) -> HookPlan:
    """The shared plan for these very oracles of `game` at this very `profile`, with the
    game's looks as its module has them now."""
    game_looks = _game_looks(game)
    held = (profile, *game_looks, *oracles)
    key = (game, *map(id, held))
    hit = _PLANS.get(key)
    if hit is not None:
        return hit[1]
    plan = build_plan(game, profile, list(oracles), game_looks)
    if len(_PLANS) >= PLANS_KEPT:
        del _PLANS[next(iter(_PLANS))]  # the oldest
    _PLANS[key] = (held, plan)
    return plan
