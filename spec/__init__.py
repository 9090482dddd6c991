"""Rule catalogues: each game's rules as data, with ids, sources, parameters and variants.

A catalogue is `spec/<game>.json`, validated by `schemas/catalogue.schema.json` and then by
the cross-reference checks below. Every rule cites a public document by id and section
(docs/sources.md lists them); nothing here reads a file outside the package. Engines read
their parameters from a `Profile`, so a rule change is a data change.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gamecert.schemas import first_error, parse_json, read_text_file

ParamValue = int | bool | str


class CatalogueError(Exception):
    """A catalogue file is malformed; the message names the file and the place."""


@dataclass(frozen=True)
class Interpretation:
    question: str
    chosen: str
    why: str
    variants: dict[str, str]


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    group: str
    text: str
    source_doc: str
    source_section: str
    parameters: dict[str, ParamValue] = field(default_factory=dict)
    interpretation: Interpretation | None = None
    checked_by: str = "certify"
    """Which command checks the rule: "certify" (engines) or "bot-check" (bots only)."""
    parameter_schema: dict[str, Any] = field(default_factory=dict)
    """Each parameter's own JSON Schema (its allowed values), where the catalogue gives one."""


@dataclass(frozen=True)
class ProfileChange:
    """One change a profile file makes to the profile it extends (spec.profile_file)."""

    kind: str  # "reading", "parameter" or "applies" (a rule switched on or off)
    rule: str
    name: str  # the parameter's name; "" for a reading
    was: ParamValue
    value: ParamValue
    title: str
    reason: str


@dataclass(frozen=True, eq=False)
class Profile:
    """A rule set: the catalogue with one variant chosen per open rule and parameter values.

    Compared and hashed by identity, so engines can cache what they derive from one.
    """

    game: str
    id: str
    title: str
    variants: dict[str, str]
    parameters: dict[str, dict[str, ParamValue]]
    off: frozenset[str] = frozenset()
    """Rules this profile switches off (a later stage's rules in an earlier stage)."""
    extends: str | None = None
    """The shipped profile a profile file extends (None: a catalogue's own profile)."""
    changes: tuple[ProfileChange, ...] = ()
    """What a profile file changed from `extends`, each with its title and reason."""

    def param(self, rule_id: str, name: str) -> Any:
        return self.parameters[rule_id][name]

    def variant(self, rule_id: str) -> str:
        return self.variants[rule_id]


@dataclass(frozen=True)
class Catalogue:
    game: str
    title: str
    version: str
    sources: dict[str, dict[str, str]]
    rules: tuple[Rule, ...]
    profiles: dict[str, Profile]
    default_profile: str
    path: str
    phases: tuple[str, ...] = ()
    """Every rule id in the order a step applies the rules (empty: the rules' order); the
    loader puts the rules `phase_order` leaves out after the ones it lists."""

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)

    @property
    def rule_ids(self) -> list[str]:
        return [r.id for r in self.rules]

    @property
    def phase_order(self) -> list[str]:
        """The rule ids in the order a step applies them: within a step, the earliest
        broken one is the cause and the later ones its consequences."""
        return list(self.phases) or self.rule_ids

    def citation(self, rule: Rule) -> str:
        """Where `rule` comes from, for a reader: the public document, its section, and the
        address where the public can get it."""
        src = self.sources[rule.source_doc]
        where = src.get("url") or src["available"]
        return (f"{src['competition']}, {src['edition']}: {src['title']}; "
                f"section {rule.source_section!r} ({where})")

    def profile(self, profile_id: str | None = None) -> Profile:
        pid = profile_id or self.default_profile
        try:
            return self.profiles[pid]
        except KeyError:
            known = ", ".join(sorted(self.profiles))
            raise CatalogueError(
                f"{self.path}: no profile {pid!r} (known: {known})"
            ) from None


_DERIVED: dict[tuple[Any, ...], Profile] = {}


def derived(profile: Profile, *, variants: dict[str, str] | None = None,
            parameters: dict[str, dict[str, ParamValue]] | None = None) -> Profile:
    """`profile` with some readings or parameters changed (the same id: an engine under test
    is not told), one object per value: engines and oracles cache what they derive from a
    profile by its identity, so a profile made again and again (a reading tried on every
    trace, a departure model per parameter) must not be a new object each time."""
    v = profile.variants if variants is None else variants
    p = profile.parameters if parameters is None else parameters
    key = (profile.game, profile.id, profile.title, tuple(sorted(v.items())),
           tuple(sorted((r, tuple(sorted(ps.items()))) for r, ps in p.items())), profile.off)
    made = _DERIVED.get(key)
    if made is None:
        made = _DERIVED[key] = replace(profile, variants=dict(v),
                                       parameters={r: dict(ps) for r, ps in p.items()})
    return made


def _check_param(where: str, schema: dict[str, Any] | None, value: Any) -> None:
    if schema is None:
        return
    from jsonschema import Draft202012Validator

    error = next(iter(Draft202012Validator(schema).iter_errors(value)), None)
    if error is not None:
        raise CatalogueError(f"{where}: {error.message}")


def parse_catalogue(text: str, path: str) -> Catalogue:
    """Parse and check a catalogue; every error names `path` and the place in it."""
    doc = parse_json(text, path, CatalogueError)
    problem = first_error("catalogue", doc)
    if problem:
        raise CatalogueError(f"{path}: {problem}")

    rules: list[Rule] = []
    seen: set[str] = set()
    param_checks: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(doc["rules"]):
        where = f"{path}: at rules[{i}]"
        if raw["id"] in seen:
            raise CatalogueError(f"{where}.id: duplicate rule id {raw['id']!r}")
        seen.add(raw["id"])
        if raw["source"]["doc"] not in doc["sources"]:
            raise CatalogueError(f"{where}.source.doc: unknown source {raw['source']['doc']!r}")
        interp = None
        if "interpretation" in raw:
            ri = raw["interpretation"]
            if ri["chosen"] not in ri["variants"]:
                raise CatalogueError(
                    f"{where}.interpretation.chosen: {ri['chosen']!r} is not one of its variants"
                )
            interp = Interpretation(ri["question"], ri["chosen"], ri.get("why", ""),
                                    dict(ri["variants"]))
        checks = raw.get("parameter_schema", {})
        for name, value in raw.get("parameters", {}).items():
            _check_param(f"{where}.parameters.{name}", checks.get(name), value)
        param_checks[raw["id"]] = checks
        rules.append(Rule(raw["id"], raw["title"], raw["group"], raw["text"],
                          raw["source"]["doc"], raw["source"]["section"],
                          dict(raw.get("parameters", {})), interp,
                          raw.get("checked_by", "certify"), dict(checks)))

    by_id = {r.id: r for r in rules}
    profiles: dict[str, Profile] = {}
    for i, raw in enumerate(doc["profiles"]):
        where = f"{path}: at profiles[{i}]"
        if raw["id"] in profiles:
            raise CatalogueError(f"{where}.id: duplicate profile id {raw['id']!r}")
        variants = {r.id: r.interpretation.chosen for r in rules if r.interpretation}
        for rid, var in raw.get("variants", {}).items():
            rule = by_id.get(rid)
            if rule is None or rule.interpretation is None:
                raise CatalogueError(f"{where}.variants.{rid}: no open rule with that id")
            if var not in rule.interpretation.variants:
                raise CatalogueError(
                    f"{where}.variants.{rid}: {var!r} is not a variant of {rid} "
                    f"(known: {', '.join(rule.interpretation.variants)})"
                )
            variants[rid] = var
        params = {r.id: dict(r.parameters) for r in rules}
        for key, value in raw.get("parameters", {}).items():
            rid, _, name = key.rpartition(".")
            if rid not in params or name not in params[rid]:
                raise CatalogueError(f"{where}.parameters.{key}: no such rule parameter")
            if type(value) is not type(params[rid][name]):
                raise CatalogueError(
                    f"{where}.parameters.{key}: expected {type(params[rid][name]).__name__}"
                )
            _check_param(f"{where}.parameters.{key}", param_checks[rid].get(name), value)
            params[rid][name] = value
        off = frozenset(raw.get("rules_off", []))
        for rid in sorted(off - by_id.keys()):
            raise CatalogueError(f"{where}.rules_off: no rule {rid!r}")
        profiles[raw["id"]] = Profile(doc["game"], raw["id"], raw["title"], variants, params,
                                      off)

    if doc["default_profile"] not in profiles:
        raise CatalogueError(f"{path}: at default_profile: no profile {doc['default_profile']!r}")
    phases = tuple(doc.get("phase_order", ()))
    for rid in phases:
        if rid not in by_id:
            raise CatalogueError(f"{path}: at phase_order: no rule {rid!r}")
    if phases:  # a rule it leaves out (one added later) keeps its place after the others
        phases += tuple(r.id for r in rules if r.id not in phases)
    return Catalogue(doc["game"], doc["title"], doc["version"], dict(doc["sources"]),
                     tuple(rules), profiles, doc["default_profile"], path, phases)


def load_catalogue_file(path: str | Path) -> Catalogue:
    return parse_catalogue(read_text_file(path, CatalogueError), str(path))


@cache
def load_catalogue(game: str) -> Catalogue:
    """The catalogue bundled with gamecert for `game`."""
    ref = resources.files(__package__).joinpath(f"{game}.json")
    if not ref.is_file():
        raise CatalogueError(f"no rule catalogue for game {game!r}")
    return parse_catalogue(ref.read_text("utf-8"), f"spec/{game}.json")


def games() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files(__package__).iterdir()
                  if p.name.endswith(".json"))
