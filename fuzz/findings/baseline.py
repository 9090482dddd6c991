"""Baselines: departures already known and accepted, each with a reason.

A baseline is a maintainer's regression mode ("did my change add a departure?") and an
organiser's "certified with documented departures". It is read from a previous report.json
(every departure in it accepted) or from a short hand-written JSON or TOML file:

    {"format": "gamecert-baseline/1", "accepted": [
        {"rule": "CARC-RIVER-NO-UTURN", "reason": "we follow the alternate reading"},
        {"rule": "FLIT-FREEZE", "id": "3fa2c1d0", "reason": "fixed in 2.1, not yet shipped"}]}

An entry matches a departure by its primary rule, and where given also by its `id` (the
stable short name of one cause), `kind` or `reading` (the variant it follows).

A baseline is checked against the catalogue of the run it is given to (`check_baseline`):
an entry naming a rule the game does not have (a typo, another game's rule), a reading the
rule does not have, or a file written for another game would accept nothing, silently; it
is an error naming the file and the entry instead.

This module reads and writes baseline files and matches entries; it must not run anything.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.fuzz.atomic_write import write_json
from gamecert.fuzz.findings.triage import Departure
from gamecert.fuzz.step.lockstep import HARNESS_RULES
from gamecert.schemas import first_error, parse_json, read_text_file
from gamecert.spec import Catalogue, CatalogueError, games, load_catalogue


class BaselineError(Exception):
    """A baseline file is unreadable or malformed; the message names the file and place."""


@dataclass(frozen=True)
class Accepted:
    rule: str
    reason: str
    id: str | None = None
    kind: str | None = None
    reading: str | None = None

    def matches(self, dep: Departure) -> bool:
        if dep.primary != self.rule:
            return False
        if self.id is not None and dep.id != self.id:
            return False
        if self.kind is not None and dep.finding.kind != self.kind:
            return False
        if self.reading is not None:
            return dep.reading is not None and dep.reading.variant == self.reading
        return True


@dataclass(frozen=True)
class Baseline:
    path: str
    accepted: tuple[Accepted, ...]
    game: str | None = None  # the game it was written for, when it says

    def reason_for(self, dep: Departure) -> str | None:
        for entry in self.accepted:
            if entry.matches(dep):
                return entry.reason
        return None


def load_baseline(path: str | Path, catalogue: Catalogue | None = None) -> Baseline:
    """Read a baseline; with `catalogue`, also check it names that game's rules and
    readings (`check_baseline`)."""
    baseline = _read_baseline(path)
    if catalogue is not None:
        check_baseline(baseline, catalogue)
    return baseline


def check_baseline(baseline: Baseline, catalogue: Catalogue) -> None:
    """A `BaselineError` naming the file and the entry when the baseline was written for
    another game, or an entry names a rule or a reading `catalogue` does not have."""
    where, game = baseline.path, catalogue.game
    if baseline.game is not None and baseline.game != game:
        raise BaselineError(f"{where}: a baseline for {baseline.game!r}, not for this "
                            f"{game!r} run")
    known = set(catalogue.rule_ids) | set(HARNESS_RULES)
    for i, entry in enumerate(baseline.accepted, 1):
        place = f"{where}: accepted entry {i} (rule {entry.rule!r})"
        if entry.rule not in known:
            other = _game_of(entry.rule, game)
            raise BaselineError(f"{place}: " + (f"a {other} rule, not a {game} one"
                                                if other else f"no such rule in {game}'s "
                                                f"catalogue"))
        if entry.reading is None:
            continue
        rule = catalogue.rule(entry.rule) if entry.rule in catalogue.rule_ids else None
        variants = sorted(rule.interpretation.variants) if rule and rule.interpretation \
            else []
        if not variants:
            raise BaselineError(f"{place}: reading {entry.reading!r}, but the rule has no "
                                f"readings (it is not an open rule)")
        if entry.reading not in variants:
            raise BaselineError(f"{place}: {entry.reading!r} is not one of its readings "
                                f"({', '.join(variants)})")


def _game_of(rule: str, besides: str) -> str | None:
    """The other game whose catalogue has `rule`, if any."""
    for game in games():
        if game == besides:
            continue
        try:
            if rule in load_catalogue(game).rule_ids:
                return game
        except CatalogueError:
            continue
    return None


def _read_baseline(path: str | Path) -> Baseline:
    where = str(path)
    text = read_text_file(path, BaselineError)
    if where.endswith(".toml"):
        try:
            doc: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise BaselineError(f"{where}: not valid TOML: {exc}") from None
        doc.setdefault("format", "gamecert-baseline/1")
    else:
        doc = parse_json(text, where, BaselineError)
    if isinstance(doc, dict) and doc.get("format") == "gamecert-report/1":
        return Baseline(where, tuple(_from_report(doc, where)), str(doc["game"]))
    problem = first_error("baseline", doc)
    if problem:
        raise BaselineError(f"{where}: not a gamecert baseline: {problem}")
    return Baseline(where, tuple(Accepted(e["rule"], e["reason"], e.get("id"), e.get("kind"),
                                          e.get("reading")) for e in doc["accepted"]),
                    doc.get("game"))


def _from_report(doc: dict[str, Any], where: str) -> list[Accepted]:
    problem = first_error("report", doc)
    if problem:
        raise BaselineError(f"{where}: not a gamecert report: {problem}")
    return [Accepted(f.get("primary", f["rules"][0]),
                     f"accepted from {Path(where).name} ({doc['engine']}, seed {doc['seed']})",
                     f.get("id"))
            for f in doc["findings"]]


def baseline_document(report: dict[str, Any], source: str) -> dict[str, Any]:
    """A hand-editable baseline accepting every departure of a report."""
    entries = []
    for f in report["findings"]:
        entry: dict[str, Any] = {"rule": f.get("primary", f["rules"][0])}
        if f.get("id"):
            entry["id"] = f["id"]
        reading = f.get("reading") or {}
        if reading.get("variant") and reading.get("rule") == entry["rule"]:
            entry["reading"] = reading["variant"]
        entry["reason"] = f"accepted from {source}: {f['message'][:160]} (say why)"
        entries.append(entry)
    return {"format": "gamecert-baseline/1", "game": report["game"], "accepted": entries}


def write_baseline(report_path: str | Path, out: str | Path) -> int:
    """Write a baseline accepting every departure of `report_path`; returns how many."""
    doc = parse_json(read_text_file(report_path, BaselineError), str(report_path), BaselineError)
    if not isinstance(doc, dict) or doc.get("format") != "gamecert-report/1":
        raise BaselineError(f"{report_path}: not a gamecert report.json")
    problem = first_error("report", doc)
    if problem:
        raise BaselineError(f"{report_path}: not a gamecert report: {problem}")
    base = baseline_document(doc, Path(report_path).name)
    target = Path(out)
    try:
        write_json(target, base)
    except OSError as exc:
        raise BaselineError(f"{target}: cannot write: {exc.strerror}") from None
    return len(base["accepted"])
