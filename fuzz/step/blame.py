"""Blame by counterfactual: which one-rule change explains what an engine did at a step.

When an engine's state after a step differs from the reference's, the rule to blame is the
one whose change reproduces the engine's state, not the first oracle that objects to a
state it was never meant to judge. The step is replayed, from the state before it, under
each *departure model* of the game:

* every other reading of each open rule of the catalogue (the variants a profile can pick);
* each rule parameter moved to a nearby value (`interval` 3 -> 2 or 4, `points` 50 -> 49);
* the game's own library of one-rule departures, when it has one
  (`reference_engine.<game>.departures.MODELS`: each breaks exactly one rule, in a named way).

A model whose state after the step equals the engine's (and differs from the reference's)
explains it: its rule is the one broken, its kind names the departure (the cause a campaign
counts repeats of).

A game whose canonical state leaves out what its engine derives and keeps (Carcassonne's
features: which tiles a town joins, its banners) can depart at one step and show it only at
a later one (a town that lost a banner when it joined another scores one point short at the
end). For such a game (`hidden_state`), the step is also replayed under each model from the
last point where both sides were brought together (`History`): a model that gives every
state the engine showed on the way and its state after this step explains it as well. When
a replayed model and a model of this step alone name different rules, one example cannot
tell them apart: the departure is marked ambiguous among them, for the triage to settle
(another example, or the game played on past the trace's prefix, shows one of them alone).

Several models that explain one step are ordered by the catalogue's
`phase_order` (the first is charged, the others are "also explained by"). A refusal is
explained by the models under which the action is illegal; an accepted action the reference
refuses, by the models under which it is legal and gives the engine's state.

This module replays single steps on reference-engine models; it must not drive engines
under test, raise findings or write reports.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, BadState, Game, IllegalAction
from gamecert.spec import Catalogue, Profile, derived, load_catalogue

JSON = Any
# A model's code meets states no game of its own would reach (the engine's): whatever it
# raises on one means only "this model does not explain the step"
_MODEL_ERRORS = (IllegalAction, BadState, KeyError, TypeError, ValueError, IndexError,
                 AttributeError, AssertionError, ZeroDivisionError, RecursionError)
READING, PARAMETER, LIBRARY = "reading", "parameter", "model"
_KIND_ORDER = {READING: 0, PARAMETER: 1, LIBRARY: 2}


@dataclass(frozen=True, eq=False)
class Model:
    """One departure model: the reference (or a one-rule change of it) under a profile."""

    rule: str
    kind: str  # the cause tag: lowercase words and dashes ("reading-from-first")
    text: str  # for a reader: "BOTWARS-ENERGY-SPAWN read as from-first"
    source: str  # READING, PARAMETER or LIBRARY
    game: Game[Any, Any]
    profile: Profile
    variant: str | None = None  # the reading, for a READING model


@dataclass(frozen=True)
class Explanation:
    """A model that reproduces what the engine did."""

    rule: str
    kind: str
    text: str
    variant: str | None = None  # set when the model is a reading of `rule`
    # explained only when replayed from the last point both sides agreed on (`History`)
    replayed: bool = False

    @property
    def key(self) -> str:
        return f"{self.rule}|{self.kind}"


@dataclass
class History:
    """The steps of a game since both sides last stood on one state the reference loaded
    (`start`, canonical JSON: a new game, a loaded state), for a game with hidden state:
    per step, the action, the engine's reported draws (follow mode; None otherwise), the
    state the engine showed after it and whether that was a departure the reference took
    over (`departed`). `at` is the reference's state JSON after the last step (the object:
    a step from any other state starts a history anew)."""

    start: JSON
    steps: list[tuple[JSON, list[JSON] | None, JSON, bool]]
    at: JSON = None

    def __post_init__(self) -> None:
        if self.at is None:
            self.at = self.start


def tag(*words: object) -> str:
    """A cause tag from words: lowercase, dashes, nothing else."""
    text = "-".join(str(w) for w in words).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "x"


def _nearby(value: Any, schema: dict[str, Any]) -> list[Any]:
    """Values a parameter could wrongly have: its neighbours for a whole number (within its
    schema's bounds), the other truth value for a flag; nothing for text."""
    if isinstance(value, bool):
        return [not value]
    if not isinstance(value, int):
        return []
    low = schema.get("minimum", 0)
    high = schema.get("maximum")
    out = [v for v in (value - 1, value + 1) if v >= low and (high is None or v <= high)]
    if "const" in schema or "enum" in schema:
        return [v for v in out if v in schema.get("enum", [schema.get("const")])]
    return out


def _library(game: str) -> Sequence[Any]:
    """The game's hand-written one-rule departures, if it has a library."""
    try:
        module = importlib.import_module(f"gamecert.reference_engine.{game}.departures")
    except ModuleNotFoundError:
        return ()
    models: Sequence[Any] = module.MODELS
    return models


@lru_cache(maxsize=32)  # per profile object: a few per campaign (readings tried, seasons)
def models_for(game: str, profile: Profile) -> tuple[Model, ...]:
    """Every departure model of `game` under `profile`, made once per profile (the engines
    cache what they derive from a profile by its identity, so each model's profile is made
    once and kept)."""
    catalogue = load_catalogue(game)
    base = reference_game(game)
    out: list[Model] = []
    for rule in catalogue.rules:
        if rule.id in profile.off:
            continue
        if rule.interpretation is not None:
            for variant in rule.interpretation.variants:
                if variant == profile.variants.get(rule.id):
                    continue
                out.append(Model(rule.id, tag("reading", variant),
                                 f"{rule.id} read as {variant}", READING, base,
                                 derived(profile, variants={**profile.variants,
                                                            rule.id: variant}), variant))
        for name, value in profile.parameters.get(rule.id, {}).items():
            # a season's engine may have kept the value the season changed (its `was`)
            kept = [c.was for c in profile.changes if (c.kind, c.rule, c.name)
                    == ("parameter", rule.id, name) and c.was != value]
            nearby = _nearby(value, rule.parameter_schema.get(name, {}))
            for other in nearby + [v for v in kept if v not in nearby]:
                params = {**profile.parameters, rule.id: {**profile.parameters[rule.id],
                                                          name: other}}
                out.append(Model(rule.id, tag("parameter", name, other),
                                 f"{rule.id} with {name} = {other} (the profile says {value})",
                                 PARAMETER, base, derived(profile, parameters=params)))
    for rule_id, kind, text, make in _library(game):
        if rule_id not in profile.off:
            out.append(Model(rule_id, tag("model", kind), text, LIBRARY, make(), profile))
    return tuple(out)


def _after(model: Model, before: JSON, action: JSON,
           draws: Sequence[JSON] | None) -> JSON | None:
    """The model's canonical state after `action` from `before` (then the engine's reported
    `draws`, in follow mode), or None where the step means nothing under it (the state does
    not load, the action is illegal, the draws are not the ones it would make)."""
    game = model.game
    try:
        # draws that do not fit (the engine drew where this model does not, or the model
        # draws where the engine did not): the step means nothing under it
        state = _applied(game, _load(game, model.profile, before), action, draws)
        return None if state is None else game.observe(state)
    except _MODEL_ERRORS:
        return None


def _replays(model: Model, history: History, action: JSON, draws: Sequence[JSON] | None,
             engine_after: JSON) -> bool:
    """Whether `model`, replayed from `history.start` over its steps (each giving the state
    the engine showed) and then `action`, gives `engine_after`: the model explains a
    departure made at an earlier step and seen only now. At a step where the engine
    departed otherwise (another cause, taken over by the reference) the model takes the
    engine's state too, as the reference did, and goes on from there; elsewhere a state
    the engine did not show rules the model out."""
    game = model.game
    # each state observed from the one before where the game can (`observe_next`: the
    # parts a step left alone shared, not rebuilt); `seen` is the model's last state's JSON,
    # equal to what both sides showed there
    observe_next = getattr(game, "observe_next", None)
    try:
        state = _load(game, model.profile, history.start)
        seen = game.observe(state)
        for past, past_draws, shown, departed in history.steps:
            after = _applied(game, state, past, past_draws)
            got = None if after is None else observe_next(state, seen, after) \
                if observe_next is not None else game.observe(after)
            if got != shown:
                if not departed:
                    return False
                after = _load(game, model.profile, shown)
                shown = game.observe(after)
            state, seen = after, shown
        after = _applied(game, state, action, draws)
        return after is not None and game.observe(after) == engine_after
    except _MODEL_ERRORS:
        return False


def _applied(game: Game[Any, Any], state: Any, action: JSON,
             draws: Sequence[JSON] | None) -> Any:
    """`state` after `action` (then `draws`), or None where the draws do not fit."""
    state, _ = game.apply(state, game.action_from_json(state, action))
    if draws is not None:
        for outcome in draws:
            if game.current(state) != CHANCE:
                return None
            state, _ = game.apply(state, game.action_from_json(state, outcome))
        if game.current(state) == CHANCE:
            return None
    return state


def _load(game: Game[Any, Any], profile: Profile, state: JSON) -> Any:
    """`state` under `profile`: as the engine's, well formed whether or not the rules reach
    it (the state before a step may be one the reference took from the engine)."""
    return getattr(game, "adopt", game.load)(profile, state)


def _refuses(model: Model, before: JSON, action: JSON) -> bool:
    game = model.game
    try:
        state = _load(game, model.profile, before)
    except _MODEL_ERRORS:
        return False
    try:
        game.apply(state, game.action_from_json(state, action))
    except IllegalAction:
        return True
    except _MODEL_ERRORS:
        return False
    return False


class Blame:
    """The departure models of one game and profile, asked about single steps."""

    def __init__(self, game: str, profile: Profile,
                 catalogue: Catalogue | None = None) -> None:
        self.game = game
        self.profile = profile
        catalogue = catalogue or load_catalogue(game)
        self.order = {rid: i for i, rid in enumerate(catalogue.phase_order)}

    @property
    def models(self) -> tuple[Model, ...]:
        return models_for(self.game, self.profile)

    def _ordered(self, found: Iterable[Model], replayed: Iterable[Model] = ()
                 ) -> list[Explanation]:
        late = set(replayed)
        ranked = sorted([*found, *late], key=lambda m: (
            self.order.get(m.rule, len(self.order)), _KIND_ORDER[m.source]))
        return [Explanation(m.rule, m.kind, m.text, m.variant, m in late) for m in ranked]

    def _search(self, explains: Callable[[Model], bool], known: Iterable[str],
                objecting: Iterable[str] = (), exclusive: bool = False
                ) -> list[Explanation]:
        """The models that explain, in charge order. When a known cause (`known`: cause
        keys, RULE|kind) explains, only it (a repeat is counted, not searched again); else
        when models of the rules whose own oracles object (`objecting`) explain, only
        those (they go first in any case); else every model that explains (none, when
        `exclusive`: the objecting oracles are the better witnesses)."""
        models = self.models
        keys = set(known)
        if keys:
            first = [m for m in models if f"{m.rule}|{m.kind}" in keys]
            hit = next((m for m in first if explains(m)), None)
            if hit is not None:
                return self._ordered([hit])
        rules = set(objecting)
        if rules:
            own = [m for m in models if m.rule in rules and explains(m)]
            if own or exclusive:
                return self._ordered(own)
        return self._ordered(m for m in models if m.rule not in rules and explains(m))

    def step(self, before: JSON, action: JSON, engine_after: JSON, reference_after: JSON,
             draws: Sequence[JSON] | None = None, known: Iterable[str] = (),
             objecting: Iterable[str] = (), history: History | None = None
             ) -> list[Explanation]:
        """The models under which `action` from `before` (then `draws`, the engine's own
        reported draws in follow mode) gives the engine's state, where it differs from the
        reference's; with `history` (a game with hidden state, `before` its last state),
        also the models that give it replayed over the history, each marked `replayed`."""
        if engine_after == reference_after or not isinstance(engine_after, dict):
            return []

        def alone(m: Model) -> bool:
            return _after(m, before, action, draws) == engine_after

        if history is None or not history.steps:
            return self._search(alone, known, objecting)

        def replayed(m: Model) -> bool:
            return _replays(m, history, action, draws, engine_after)

        keys = set(known)
        for m in self.models:  # a known cause met again, either way
            if f"{m.rule}|{m.kind}" in keys:
                if alone(m):
                    return self._ordered([m])
                if replayed(m):
                    return self._ordered([], [m])
        found = self._search(alone, (), objecting)
        seen = {e.key for e in found}
        later = [m for m in self.models
                 if f"{m.rule}|{m.kind}" not in seen and replayed(m)]
        if not later:
            return found
        by_key = {f"{m.rule}|{m.kind}": m for m in self.models}
        return self._ordered([by_key[e.key] for e in found], later)

    def refusal(self, before: JSON, action: JSON, known: Iterable[str] = (),
                objecting: Iterable[str] = ()) -> list[Explanation]:
        """The models under which `action` (which the reference accepts) is illegal. Where
        judges say which rule allows it (`objecting`), only that rule's models: a model of
        another rule that forbids the action (a smaller board refuses a move at its edge)
        is a coincidence, the judge a direct witness."""
        return self._search(lambda m: _refuses(m, before, action), known, objecting,
                            exclusive=True)

    def acceptance(self, before: JSON, action: JSON, engine_after: JSON | None,
                   known: Iterable[str] = ()) -> list[Explanation]:
        """The models under which `action` (which the reference refuses) is legal and, when
        the engine's state after it is known, gives that state."""
        def explains(m: Model) -> bool:
            after = _after(m, before, action, None)
            return after is not None and (engine_after is None or after == engine_after)

        return self._search(explains, known)

    def start(self, seed: int | None, engine_start: JSON, reference_start: JSON,
              draws: Sequence[JSON] | None = None, known: Iterable[str] = ()
              ) -> list[Explanation]:
        """The models whose new game (from `seed`, then the engine's reported set-up
        `draws` in follow mode) is the engine's, where it differs from the reference's."""
        if engine_start == reference_start or not isinstance(engine_start, dict):
            return []

        def explains(m: Model) -> bool:
            game = m.game
            try:
                state = game.initial(m.profile, None if draws is not None else seed)
                for outcome in draws or ():
                    if game.current(state) != CHANCE:
                        return False
                    state, _ = game.apply(state, game.action_from_json(state, outcome))
                if draws is not None and game.current(state) == CHANCE:
                    return False
                return bool(game.observe(state) == engine_start)
            except _MODEL_ERRORS:
                return False

        return self._search(explains, known)


@lru_cache(maxsize=32)
def blame_for(game: str, profile: Profile) -> Blame:
    return Blame(game, profile)
