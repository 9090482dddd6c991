"""The `rules` object a `new_game` request carries: a rule profile as plain JSON, so an
engine in any language plays the parameters the harness runs under, not its own reading of
a profile id.

    {"profile": "legend-2p", "title": "...", "players": 2,
     "parameters": {"KD-PLAYERS.players": 2, ...},   # every parameter, keyed RULE-ID.name
     "readings": {"KD-SCORE-TIE": "shared", ...},     # the reading taken of each open rule
     "off": ["..."]}                                  # rules the profile switches off

`rules_json` makes it from a `Profile`; `profile_from_rules` makes a `Profile` back from it
(checked against the game's catalogue: names it knows, values of the catalogue's types), for
an adapter served as a process (`gamecert.adapters.serve`). `players_of` is the number of
players a profile seats, as the reference engine seats them.

This module only converts; it must not import the harness.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gamecert.spec import Catalogue, Profile

JSON = Any


@lru_cache(maxsize=256)  # Profiles hash by identity: one entry per profile object
def players_of(profile: Profile) -> int:
    """How many players a game under `profile` seats: the reference engine's new game,
    counted by its scores (one per player)."""
    from gamecert.reference_engine import reference_game

    game = reference_game(profile.game)
    return len(game.scores(game.initial(profile, 0)))


@lru_cache(maxsize=256)
def _rules(profile: Profile) -> JSON:
    return {
        "profile": profile.id,
        "title": profile.title,
        "players": players_of(profile),
        "parameters": {f"{rule}.{name}": value
                       for rule, params in sorted(profile.parameters.items())
                       for name, value in sorted(params.items())},
        "readings": dict(sorted(profile.variants.items())),
        "off": sorted(profile.off),
    }


def rules_json(profile: Profile) -> JSON:
    """The wire's `rules` object for `profile` (a fresh copy: the caller may keep it)."""
    out = _rules(profile)
    return {**out, "parameters": dict(out["parameters"]), "readings": dict(out["readings"]),
            "off": list(out["off"])}


class RulesError(ValueError):
    """A `rules` object that does not fit the game's catalogue; the message says where."""


def profile_from_rules(catalogue: Catalogue, rules: JSON,
                       profile_id: str | None = None) -> Profile:
    """The `Profile` a `rules` object describes. Starts from the catalogue's profile of the
    same id (its default when the id is unknown to it: a profile made elsewhere) and takes
    every parameter, reading and switched-off rule the object gives; each must be one the
    catalogue knows, with a value of the catalogue's type."""
    if not isinstance(rules, dict):
        raise RulesError(f"rules must be an object, not {rules!r:.60}")
    pid = rules.get("profile", profile_id)
    if pid is None:
        pid = catalogue.default_profile
    if not isinstance(pid, str) or not pid:
        raise RulesError(f"rules.profile must be a profile name, not {pid!r:.60}")
    if profile_id is not None and pid != profile_id:
        raise RulesError(f"rules.profile {pid!r} is not the request's profile {profile_id!r}")
    base = catalogue.profiles.get(pid) or catalogue.profile()
    params = {rule: dict(values) for rule, values in base.parameters.items()}
    given = rules.get("parameters", {})
    if not isinstance(given, dict):
        raise RulesError("rules.parameters must be an object keyed RULE-ID.name")
    for key, value in given.items():
        rule, _, name = key.rpartition(".")
        if rule not in params or name not in params[rule]:
            raise RulesError(f"rules.parameters.{key}: no such parameter in "
                             f"{catalogue.path}")
        want = type(params[rule][name])
        if type(value) is not want:
            raise RulesError(f"rules.parameters.{key}: expected {want.__name__}, not "
                             f"{value!r:.60}")
        params[rule][name] = value
    variants = dict(base.variants)
    readings = rules.get("readings", {})
    if not isinstance(readings, dict):
        raise RulesError("rules.readings must be an object keyed by rule id")
    open_rules = {r.id: r.interpretation for r in catalogue.rules if r.interpretation}
    for rule, reading in readings.items():
        interp = open_rules.get(rule)
        if interp is None:
            raise RulesError(f"rules.readings.{rule}: no open rule with that id in "
                             f"{catalogue.path}")
        if reading not in interp.variants:
            raise RulesError(f"rules.readings.{rule}: {reading!r:.60} is not one of its "
                             f"readings ({', '.join(interp.variants)})")
        variants[rule] = reading
    off = rules.get("off", sorted(base.off))
    known = set(catalogue.rule_ids)
    if not isinstance(off, list) or not all(isinstance(r, str) and r in known for r in off):
        raise RulesError("rules.off must list rule ids of the catalogue")
    title = rules.get("title", base.title if base.id == pid else pid)
    if not isinstance(title, str):
        raise RulesError("rules.title must be a string")
    made = Profile(catalogue.game, pid, title, variants, params, frozenset(off))
    if base.id == pid and (title, variants, params, made.off) == (
            base.title, base.variants, base.parameters, base.off):
        made = base  # the catalogue's own profile: what engines cached for it still holds
    players = rules.get("players")
    if players is not None and players != players_of(made):
        raise RulesError(f"rules.players is {players!r:.20}, but its parameters seat "
                         f"{players_of(made)}")
    return made
