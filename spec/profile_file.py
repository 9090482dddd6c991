"""Profile files: a season's rules, written by an organiser or maintainer, and their records.

A profile file (TOML or JSON, `schemas/profile.schema.json`) extends a shipped profile and
changes readings, parameters and the player count, each change with a title and a reason.
`read_profile_file` checks it against the game's catalogue (every value against the rule's
own parameter schema) and makes a `Profile`; every error names the file, the line of the
offending key where it can be found, and the allowed values.

A profile that is not a catalogue's own travels as its *record* (`profile_record`): plain
JSON with every reading and parameter, so worker processes, traces, reports and checkpoints
carry the whole profile and a replay plays what the campaign played, whatever the files on
disk say now. `profile_from_record` makes the same `Profile` object back (one per record and
process: engines cache by identity). `diff_profiles` says what changes between two profiles.

This module reads the catalogue and the file only; it must not import the engines or the
harness.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gamecert.schemas import read_text_file, validator
from gamecert.spec import (
    Catalogue,
    CatalogueError,
    ParamValue,
    Profile,
    ProfileChange,
    games,
    load_catalogue,
)

JSON = Any
PLAYER_PARAMETERS = ("players", "bots")  # a catalogue parameter by these names seats players


class ProfileFileError(CatalogueError):
    """A profile file (or a recorded profile) that does not fit its game's catalogue."""


# --- where a key sits in the file's text -----------------------------------------------------

def key_line(text: str, path: list[str | int]) -> int | None:
    """The line (1-based) of the last key of `path` in a TOML or JSON text, found by walking
    the keys in order from the top; None when not even the first is found."""
    line, found = 0, None
    lines = text.splitlines()
    for part in path:
        if isinstance(part, int):
            continue
        pat = re.compile(r'(^|[\s.{,\[])"?' + re.escape(part) + r'"?\s*[=:\].]')
        for i in range(line, len(lines)):
            if pat.search(lines[i]):
                line, found = i, i + 1
                break
        else:
            break
    return found


@dataclass
class _Place:
    path: str  # the file as given
    text: str

    def error(self, keys: list[str | int], message: str) -> ProfileFileError:
        line = key_line(self.text, keys)
        where = ".".join(str(k) for k in keys) or "(top level)"
        at = f"line {line}: " if line else ""
        return ProfileFileError(f"{self.path}: {at}at {where}: {message}")


# --- reading a file ------------------------------------------------------------------------

def _parse(text: str, path: str) -> JSON:
    if path.endswith(".toml"):
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ProfileFileError(f"{path}: not valid TOML: {exc}") from None
    if path.endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ProfileFileError(f"{path}: line {exc.lineno}, column {exc.colno}: not valid "
                                   f"JSON: {exc.msg}") from None
    raise ProfileFileError(f"{path}: a profile file is .toml or .json")


def player_parameter(catalogue: Catalogue) -> tuple[str, str] | None:
    """The (rule, parameter) that sets how many players a game seats, if it has one."""
    for rule in catalogue.rules:
        for name in rule.parameters:
            if name in PLAYER_PARAMETERS:
                return rule.id, name
    return None


def _allowed(schema: dict[str, Any] | None, value: ParamValue) -> str:
    """The allowed values of a parameter, for a reader."""
    names = {"int": "integer", "bool": "boolean", "str": "string"}
    if not schema:
        return f"a value of type {names[type(value).__name__]}"
    if "const" in schema:
        return f"only {schema['const']!r}"
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    low, high = schema.get("minimum"), schema.get("maximum")
    kind = str(schema.get("type", names[type(value).__name__]))
    kind = ("an " if kind[0] in "aeiou" else "a ") + kind
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}"
    if low is not None:
        return f"{kind} of at least {low}"
    if high is not None:
        return f"{kind} of at most {high}"
    return kind


def _check_value(place: _Place, keys: list[str | int], catalogue: Catalogue, rule_id: str,
                 name: str, value: Any) -> None:
    rule = catalogue.rule(rule_id)
    default = rule.parameters[name]
    schema = rule.parameter_schema.get(name)
    allowed = _allowed(schema, default)
    if type(value) is not type(default):
        raise place.error(keys, f"{rule_id}.{name} takes {allowed}, not {value!r:.60}")
    if schema is not None:
        from jsonschema import Draft202012Validator

        if next(iter(Draft202012Validator(schema).iter_errors(value)), None) is not None:
            raise place.error(keys, f"{value!r:.60} is out of range: {rule_id}.{name} takes "
                                    f"{allowed}")


def _switched(place: _Place, doc: JSON, catalogue: Catalogue, base_off: frozenset[str],
              changes: list[ProfileChange]) -> frozenset[str]:
    """The rules off in the season: the extended profile's, less `rules_on`, plus
    `rules_off` (each switch recorded as an "applies" change)."""
    off = set(base_off)
    for key, applies in (("rules_on", True), ("rules_off", False)):
        if key not in doc:
            continue
        switch = doc[key]
        for i, rid in enumerate(switch["rules"]):
            if rid not in catalogue.rule_ids:
                raise place.error([key, "rules", i], f"no rule {rid!r} in {catalogue.path}")
            if (rid in off) != applies:
                state = "already applies" if applies else "is already off"
                raise place.error([key, "rules", i], f"{rid} {state} in {doc['extends']} or is "
                                  f"listed twice (rules {doc['extends']} switches off: "
                                  f"{', '.join(sorted(base_off)) or 'none'})")
            if applies:
                off.discard(rid)
            else:
                off.add(rid)
            changes.append(ProfileChange("applies", rid, "", not applies, applies,
                                         switch["title"], switch["reason"]))
    return frozenset(off)


def _check_on(place: _Place, keys: list[str | int], rule: str, off: frozenset[str],
              base: str) -> None:
    """A change to a rule the season switches off would change nothing: refused."""
    if rule in off:
        raise place.error(keys, f"{rule} does not apply in this season ({base} switches it "
                                f"off): list it in rules_on to change it")


# --- parameters the rules derive from others ------------------------------------------------

def derived_parameters(profile: Profile) -> list[tuple[str, str, ParamValue, str]]:
    """The parameters whose value the rules derive from other parameters and that `profile`
    sets otherwise: (rule, name, the value they must have, why). Kingdomino: the tiles in
    play are the line size times the turns that draw a line (KD-TILES-IN-PLAY's text), for
    the number of players seated."""
    out: list[tuple[str, str, ParamValue, str]] = []
    if profile.game == "kingdomino":
        n = profile.param("KD-PLAYERS", "players")
        line = profile.param("KD-TILES-IN-PLAY", f"line_{n}p")
        turns = profile.param("KD-GAME-LENGTH", f"turns_{n}p")
        if line * (turns - 1) != profile.param("KD-TILES-IN-PLAY", f"in_play_{n}p"):
            out.append(("KD-TILES-IN-PLAY", f"in_play_{n}p", line * (turns - 1),
                        f"{turns - 1} lines of {line} tiles (KD-TILES-IN-PLAY.line_{n}p, "
                        f"KD-GAME-LENGTH.turns_{n}p - 1) with {n} players"))
    return out


def too_few(profile: Profile) -> list[tuple[str, str, int, str]]:
    """Parameters below the least value the other parameters leave them: (rule, name, the
    least value, why). Bot Wars: the first botlets, when on the field at the start, are
    paid from the initial energy. Flit: the board holds the set-up pieces whatever squares they are
    dealt. Kingdomino: every king picks a tile of the line, so a line holds at least one
    tile per king in play."""
    out: list[tuple[str, str, int, str]] = []
    if profile.game == "botwars" and (profile.variant("BOTWARS-FIRST-BOTLETS")
                                      == "on-field-at-start"):
        cost = profile.param("BOTWARS-SPAWN", "cost")
        if profile.param("BOTWARS-FIRST-BOTLETS", "initial_energy") < cost:
            out.append(("BOTWARS-FIRST-BOTLETS", "initial_energy", cost,
                        f"the first botlets, on the field at the start, are paid from it "
                        f"(BOTWARS-SPAWN.cost {cost})"))
    if profile.game == "flit":
        # a set-up piece goes on a square whose four neighbours are empty, and each piece
        # takes at most five squares out: the last piece must still find one
        pieces = 4 * profile.param("FLIT-SETUP-ORDER", "pieces_per_bot")
        width = profile.param("FLIT-BOARD-SIZE", "width")
        need = 5 * (pieces - 1) + 1
        if width * profile.param("FLIT-BOARD-SIZE", "height") < need:
            out.append(("FLIT-BOARD-SIZE", "height", -(-need // width),
                        f"the {pieces} set-up pieces (FLIT-SETUP-ORDER.pieces_per_bot) need "
                        f"{need} squares, each on a square with four empty neighbours"))
    if profile.game == "kingdomino":
        n = profile.param("KD-PLAYERS", "players")
        kings = n * (profile.param("KD-KINGS", "kings_2p") if n == 2 else 1)
        if profile.param("KD-TILES-IN-PLAY", f"line_{n}p") < kings:
            out.append(("KD-TILES-IN-PLAY", f"line_{n}p", kings,
                        f"each of the {kings} kings with {n} players picks a tile of the line"))
    return out


def _where(doc: JSON, rule: str, name: str) -> list[str | int]:
    """The place to name for a parameter the others bound: the file's own key for it, else
    its player count (which picked the parameter), else its parameters."""
    if name in doc.get("parameters", {}).get(rule, {}):
        return ["parameters", rule, name]
    return ["players"] if "players" in doc else ["parameters"]


def _check_derived(place: _Place, doc: JSON, profile: Profile) -> None:
    for rid, name, least, why in too_few(profile):
        raise place.error(_where(doc, rid, name), f"{rid}.{name} must be at least {least}: "
                                                  f"{why}")
    for rid, name, value, why in derived_parameters(profile):
        raise place.error(_where(doc, rid, name), f"{rid}.{name} must be {value}: {why} "
                                                  f"(set it, or change the line size or "
                                                  f"the game length)")


def parse_profile(text: str, path: str, game: str | None = None,
                  derived: bool = True) -> Profile:
    """The `Profile` a profile file's text describes (see the module docstring); with
    `derived` False, parameters the rules derive from others are not checked (for a
    caller that then sets them: fuzz.season_draw)."""
    doc = _parse(text, path)
    place = _Place(path, text)
    errors = sorted(validator("profile").iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        best = errors[0]
        at: list[str | int] = list(best.absolute_path)
        if best.validator == "additionalProperties" and isinstance(best.instance, dict):
            allowed = sorted(best.schema.get("properties", {}))
            extra = sorted(set(best.instance) - set(allowed))
            if extra and allowed:
                raise place.error([*at, extra[0]],
                                  f"unknown key {extra[0]!r} (allowed: {', '.join(allowed)})")
        raise place.error(at, best.message)
    if doc["game"] not in games():
        raise place.error(["game"], f"no game {doc['game']!r} (known: {', '.join(games())})")
    if game is not None and doc["game"] != game:
        raise place.error(["game"], f"this is a {doc['game']} profile, not {game}")
    catalogue = load_catalogue(doc["game"])
    base = catalogue.profiles.get(doc["extends"])
    if base is None:
        raise place.error(["extends"], f"no shipped profile {doc['extends']!r} (known: "
                                       f"{', '.join(sorted(catalogue.profiles))})")
    if doc["id"] in catalogue.profiles:
        raise place.error(["id"], f"{doc['id']!r} is a shipped profile's name; give the "
                                  f"season its own")
    variants = dict(base.variants)
    params = {rid: dict(ps) for rid, ps in base.parameters.items()}
    changes: list[ProfileChange] = []
    off = _switched(place, doc, catalogue, base.off, changes)
    open_rules = sorted(r.id for r in catalogue.rules if r.interpretation)
    keys: list[str | int]
    for rid, change in doc.get("variants", {}).items():
        keys = ["variants", rid]
        if rid not in catalogue.rule_ids:
            raise place.error(keys, f"no rule {rid!r} in {catalogue.path} (rules with "
                                    f"readings: {', '.join(open_rules)})")
        _check_on(place, keys, rid, off, base.id)
        interp = catalogue.rule(rid).interpretation
        if interp is None:
            raise place.error(keys, f"{rid} has no readings to choose from (rules with "
                                    f"readings: {', '.join(open_rules)})")
        if change["reading"] not in interp.variants:
            raise place.error([*keys, "reading"],
                              f"{change['reading']!r:.60} is not a reading of {rid} "
                              f"(readings: {', '.join(interp.variants)})")
        changes.append(ProfileChange("reading", rid, "", variants[rid], change["reading"],
                                     change["title"], change["reason"]))
        variants[rid] = change["reading"]
    with_params = sorted(rid for rid, ps in params.items() if ps)
    seat = player_parameter(catalogue)
    wanted: list[tuple[list[str | int], str, str, Any, str, str]] = []
    for rid, named in doc.get("parameters", {}).items():
        if rid not in params:
            raise place.error(["parameters", rid],
                              f"no rule {rid!r} in {catalogue.path} (rules with parameters: "
                              f"{', '.join(with_params)})")
        for name, change in named.items():
            keys = ["parameters", rid, name]
            if name not in params[rid]:
                known = ", ".join(params[rid]) or "none"
                raise place.error(keys, f"{rid} has no parameter {name!r} (its parameters: "
                                        f"{known})")
            _check_on(place, keys, rid, off, base.id)
            if seat == (rid, name) and "players" in doc:
                raise place.error(keys, "the player count is set twice: here and in "
                                        "[players]")
            wanted.append(([*keys, "value"], rid, name, change["value"], change["title"],
                           change["reason"]))
    if "players" in doc:
        change = doc["players"]
        if seat is None:
            raise place.error(["players"], f"{catalogue.game} has no player-count parameter: "
                                           f"the number of players is fixed")
        wanted.append((["players", "value"], *seat, change["value"], change["title"],
                       change["reason"]))
    for keys, rid, name, value, title, reason in wanted:
        _check_value(place, keys, catalogue, rid, name, value)
        changes.append(ProfileChange("parameter", rid, name, params[rid][name], value, title,
                                     reason))
        params[rid][name] = value
    made = Profile(catalogue.game, doc["id"], doc["title"], variants, params, off,
                   base.id, tuple(changes))
    if derived:
        _check_derived(place, doc, made)
    return _interned(made)


_SOURCES: dict[Profile, str] = {}  # the file each profile was read from, for a replay line


def read_profile_file(path: str | Path, game: str | None = None) -> Profile:
    """The profile a file describes; `game`, if given, is the game it must be for."""
    made = parse_profile(read_text_file(path, ProfileFileError), str(path), game)
    _SOURCES[made] = str(path)
    return made


def profile_option(profile: Profile) -> str:
    """The command-line option that names `profile` again: --profile for a shipped one,
    --profile-file (the file it was read from) for a season's."""
    if is_shipped(profile):
        return f"--profile {profile.id}"
    return f"--profile-file {_SOURCES.get(profile, profile.id + '.toml')}"


# --- records: the whole profile as plain JSON --------------------------------------------------

def is_shipped(profile: Profile) -> bool:
    """Is `profile` the bundled catalogue's own profile of its id (not one made elsewhere)?"""
    try:
        return load_catalogue(profile.game).profiles.get(profile.id) is profile
    except CatalogueError:
        return False


def profile_record(profile: Profile) -> JSON:
    """Every reading, parameter and change of `profile`, as plain JSON (a fresh copy)."""
    return {
        "game": profile.game, "id": profile.id, "title": profile.title,
        "extends": profile.extends,
        "variants": dict(sorted(profile.variants.items())),
        "parameters": {f"{rid}.{name}": value for rid, ps in sorted(profile.parameters.items())
                       for name, value in sorted(ps.items())},
        "off": sorted(profile.off),
        "changes": [{"kind": c.kind, "rule": c.rule, "name": c.name, "was": c.was,
                     "value": c.value, "title": c.title, "reason": c.reason}
                    for c in profile.changes],
    }


def record_of(profile: Profile) -> JSON | None:
    """The record to carry with work done under `profile`: None for a shipped profile (its
    id says it all), else the whole profile."""
    return None if is_shipped(profile) else profile_record(profile)


def record_key(profile: Profile) -> str:
    """A short stable name for a profile's rules: its id, and for a profile that is not
    shipped a digest of its record (one example database corpus per set of rules)."""
    record = record_of(profile)
    if record is None:
        return profile.id
    text = json.dumps({k: v for k, v in record.items() if k != "changes"}, sort_keys=True)
    return f"{profile.id}@{hashlib.sha256(text.encode()).hexdigest()[:12]}"


_INTERNED: dict[str, Profile] = {}


def _interned(profile: Profile) -> Profile:
    key = json.dumps(profile_record(profile), sort_keys=True)
    return _INTERNED.setdefault(key, profile)


def profile_from_record(record: JSON, where: str = "profile record") -> Profile:
    """The `Profile` a record describes, checked against today's catalogue; the same object
    for the same record within a process."""
    def bad(message: str) -> ProfileFileError:
        return ProfileFileError(f"{where}: {message}")

    if not isinstance(record, dict):
        raise bad("the profile record is not an object")
    try:
        catalogue = load_catalogue(str(record["game"]))
        pid, title = str(record["id"]), str(record["title"])
        variants, given = dict(record["variants"]), dict(record["parameters"])
        off = frozenset(str(r) for r in record.get("off", []))
        raw_changes = list(record.get("changes", []))
    except (KeyError, TypeError, ValueError) as exc:
        raise bad(f"the profile record is malformed ({exc})") from None
    base = catalogue.profiles.get(str(record.get("extends") or pid)) or catalogue.profile()
    params = {rid: dict(ps) for rid, ps in base.parameters.items()}
    for key, value in given.items():
        rid, _, name = str(key).rpartition(".")
        if rid not in params or name not in params[rid]:
            raise bad(f"parameters.{key}: no such rule parameter in {catalogue.path}")
        schema = catalogue.rule(rid).parameter_schema.get(name)
        default = catalogue.rule(rid).parameters[name]
        if type(value) is not type(default):
            raise bad(f"parameters.{key}: expected {type(default).__name__}")
        if schema is not None:
            from jsonschema import Draft202012Validator

            if next(iter(Draft202012Validator(schema).iter_errors(value)), None) is not None:
                raise bad(f"parameters.{key}: {value!r} is out of range "
                          f"({_allowed(schema, default)})")
        params[rid][name] = value
    full = dict(base.variants)
    for rid, reading in variants.items():
        interp = catalogue.rule(rid).interpretation if rid in catalogue.rule_ids else None
        if interp is None or reading not in interp.variants:
            raise bad(f"variants.{rid}: {reading!r} is not a reading of an open rule")
        full[rid] = reading
    if off - set(catalogue.rule_ids):
        raise bad(f"off: no rule {sorted(off - set(catalogue.rule_ids))[0]!r}")
    try:
        changes = tuple(ProfileChange(str(c["kind"]), str(c["rule"]), str(c["name"]), c["was"],
                                      c["value"], str(c["title"]), str(c["reason"]))
                        for c in raw_changes)
    except (KeyError, TypeError) as exc:
        raise bad(f"changes: malformed ({exc})") from None
    shipped = catalogue.profiles.get(pid)
    if (shipped is not None and not changes and record.get("extends") is None
            and (title, full, params, off) == (shipped.title, shipped.variants,
                                                shipped.parameters, shipped.off)):
        return shipped
    extends = record.get("extends")
    return _interned(Profile(catalogue.game, pid, title, full, params, off,
                             None if extends is None else str(extends), changes))


def resolve_profile(game: str, profile_id: str | None, record: JSON | None,
                    where: str = "profile record") -> Profile:
    """The profile work is done under: the record's when there is one, else the shipped
    profile of that id (the catalogue's default for None)."""
    if record is not None:
        made = profile_from_record(record, where)
        if made.game != game:
            raise ProfileFileError(f"{where}: a {made.game} profile, not {game}")
        return made
    return load_catalogue(game).profile(profile_id)


@cache  # one profile per (profile, value): engines cache what they derive by identity
def with_parameter(profile: Profile, rule: str, name: str, value: ParamValue) -> Profile:
    """`profile` with `rule`'s parameter `name` set to `value`, unchecked (same id, readings
    and changes): what an engine that ignores a season's value for one parameter plays (the
    season mutants of examples/engines/)."""
    if profile.parameters[rule][name] == value:
        return profile
    params = {rid: dict(ps) for rid, ps in profile.parameters.items()}
    params[rule][name] = value
    return dataclasses.replace(profile, parameters=params)


# --- what changes between two profiles ------------------------------------------------------

@dataclass(frozen=True)
class RuleChange:
    """One difference between two profiles under one rule."""

    rule: str
    what: str  # "reading" or the parameter's name
    old: ParamValue
    new: ParamValue
    reason: str  # the reason the new profile (or else the old one) gives, or ""


def diff_profiles(old: Profile, new: Profile, catalogue: Catalogue) -> list[RuleChange]:
    """What changes from `old` to `new`, rule by rule in catalogue order."""
    def reason(rule: str, name: str) -> str:
        for profile in (new, old):
            for c in profile.changes:
                if c.rule == rule and c.name == name and c.kind != "applies":
                    return c.reason
        return ""

    out: list[RuleChange] = []
    for rule in catalogue.rules:
        a, b = old.variants.get(rule.id), new.variants.get(rule.id)
        if a is not None and b is not None and a != b:
            out.append(RuleChange(rule.id, "reading", a, b, reason(rule.id, "")))
        for name, value in new.parameters.get(rule.id, {}).items():
            was = old.parameters.get(rule.id, {}).get(name, value)
            if was != value:
                out.append(RuleChange(rule.id, name, was, value, reason(rule.id, name)))
        if (rule.id in old.off) != (rule.id in new.off):
            why = [c.reason for p in (new, old) for c in p.changes
                   if (c.kind, c.rule) == ("applies", rule.id)]
            out.append(RuleChange(rule.id, "applies", rule.id not in old.off,
                                  rule.id not in new.off, why[0] if why else ""))
    return out
