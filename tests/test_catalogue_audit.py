"""Every rule of every catalogue is traced to its source (issue 16).

For each game `gamecert.spec.games()` lists (so a new game is audited as soon as its
catalogue lands): every source is a public document (title, competition, edition, and a
URL or a word on where the public can get it; never a local file); every rule cites one of
them and a section of it; every open point names its question, its chosen reading and why,
and carries at least two variants. The audit reads the catalogue JSON itself, so it reports
every problem at once, where the loader stops at the first.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from gamecert.fuzz.cli.args import EXIT_OK
from gamecert.fuzz.cli.main import main
from gamecert.spec import games, load_catalogue

GAMES = games()


def _said(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def audit(doc: dict[str, Any]) -> list[str]:
    """Every way the catalogue `doc` fails to trace a rule to a public source."""
    problems: list[str] = []
    sources = doc.get("sources")
    if not isinstance(sources, dict) or not sources:
        return ["the catalogue lists no sources"]
    for sid, src in sources.items():
        if not isinstance(src, dict):
            problems.append(f"source {sid}: not a document description")
            continue
        for key in ("title", "competition", "edition"):
            if not _said(src.get(key)):
                problems.append(f"source {sid}: no {key}")
        if not (_said(src.get("url")) or _said(src.get("available"))):
            problems.append(f"source {sid}: does not say where the public can get it")
        if "file" in src:
            problems.append(f"source {sid}: names a file, not a public document")
    for i, rule in enumerate(doc.get("rules", [])):
        rid = rule.get("id", f"rules[{i}]")
        src = rule.get("source")
        if not isinstance(src, dict) or src.get("doc") not in sources:
            problems.append(f"{rid}: no source (it must cite one of {sorted(sources)})")
        elif not _said(src.get("section")):
            problems.append(f"{rid}: cites {src['doc']} but no section of it")
        interp = rule.get("interpretation")
        if interp is None:
            continue
        variants = interp.get("variants")
        if not isinstance(variants, dict) or len(variants) < 2:
            problems.append(f"{rid}: an open point with fewer than two variants")
            variants = variants if isinstance(variants, dict) else {}
        if interp.get("chosen") not in variants:
            problems.append(f"{rid}: the chosen reading {interp.get('chosen')!r} is not one "
                            "of its variants")
        for key in ("question", "why"):
            if not _said(interp.get(key)):
                problems.append(f"{rid}: an open point without its {key}")
        for vid, text in variants.items():
            if not _said(text):
                problems.append(f"{rid}: variant {vid} says nothing")
    return problems


def catalogue_doc(game: str) -> dict[str, Any]:
    text = resources.files("gamecert.spec").joinpath(f"{game}.json").read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def test_the_audit_covers_every_game() -> None:
    assert {"flit", "botwars", "carcassonne"} <= set(GAMES)
    for game in GAMES:
        assert catalogue_doc(game)["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_is_traced_to_a_public_source(game: str) -> None:
    doc = catalogue_doc(game)
    assert audit(doc) == []
    cat = load_catalogue(game)  # and the loader agrees: the citations resolve
    for rule in cat.rules:
        line = cat.citation(rule)
        assert rule.source_section in line and cat.sources[rule.source_doc]["title"] in line


@pytest.mark.parametrize("game", GAMES)
def test_rules_verbose_prints_the_public_citation(game: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", game, "-v"]) == EXIT_OK
    out = capsys.readouterr().out
    cat = load_catalogue(game)
    cited = [line.strip() for line in out.splitlines() if line.strip().startswith("source: ")]
    assert len(cited) == len(cat.rules)
    for rule, line in zip(cat.rules, cited, strict=True):
        src = cat.sources[rule.source_doc]
        assert line == f"source: {cat.citation(rule)}"
        assert src["competition"] in line and src["edition"] in line
        assert (src.get("url") or src["available"]) in line
    assert ".txt" not in out and ".md" not in out.replace("README.md", "")


def _broken(change: str) -> dict[str, Any]:
    doc = copy.deepcopy(catalogue_doc("botwars"))
    rules = {r["id"]: r for r in doc["rules"]}
    if change == "no source":
        del rules["BOTWARS-MOVE"]["source"]
    elif change == "unknown source":
        rules["BOTWARS-MOVE"]["source"]["doc"] = "our-notes"
    elif change == "no section":
        rules["BOTWARS-MOVE"]["source"]["section"] = " "
    elif change == "one variant":
        rules["BOTWARS-WINNER"]["interpretation"]["variants"] = {"draw": "Nobody wins."}
    elif change == "chosen elsewhere":
        rules["BOTWARS-WINNER"]["interpretation"]["chosen"] = "coin-toss"
    elif change == "no why":
        del rules["BOTWARS-WINNER"]["interpretation"]["why"]
    elif change == "a local file":
        doc["sources"]["seed-002"] = {"title": "rules", "file": "seeds/002.txt"}
    return doc


@pytest.mark.parametrize(("change", "said"), [
    ("no source", "BOTWARS-MOVE: no source"),
    ("unknown source", "BOTWARS-MOVE: no source"),
    ("no section", "BOTWARS-MOVE: cites seed-002 but no section"),
    ("one variant", "BOTWARS-WINNER: an open point with fewer than two variants"),
    ("chosen elsewhere", "BOTWARS-WINNER: the chosen reading 'coin-toss' is not one"),
    ("no why", "BOTWARS-WINNER: an open point without its why"),
    ("a local file", "source seed-002: names a file"),
])
def test_the_audit_fails_a_catalogue_that_breaks_it(change: str, said: str) -> None:
    problems = audit(_broken(change))
    assert any(p.startswith(said) for p in problems), problems
