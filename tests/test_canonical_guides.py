"""docs/canonical/<game>.md, the minimal canonical state guides: each table names every
field of the game's state schema and no other, says which fields the rule oracles read
exactly as oracles/<game>/ reads them, and every schema field is described."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("carcassonne", "kingdomino", "flit", "botwars")
ROW = re.compile(r"^\|\s*`([A-Za-z0-9_]+)`\s*\|\s*(yes|no)\s*\|(.+)\|\s*$")


def guide(game: str) -> dict[str, bool]:
    rows = [ROW.match(line) for line in
            (ROOT / "docs" / "canonical" / f"{game}.md").read_text().splitlines()]
    table = {m.group(1): m.group(2) == "yes" for m in rows if m}
    assert table, f"docs/canonical/{game}.md has no field table"
    return table


def schema_fields(game: str) -> dict[str, dict[str, object]]:
    doc = json.loads((ROOT / "schemas" / f"{game}-state.schema.json").read_text())
    props: dict[str, dict[str, object]] = doc["properties"]
    return props


def oracle_reads(game: str, fields: list[str]) -> set[str]:
    """The state fields oracles/<game>/ reads: `x["field"]` or `x.get("field")`."""
    src = "\n".join(p.read_text() for p in (ROOT / "oracles" / game).rglob("*.py"))
    def pattern(f: str) -> str:
        quoted = r"""["']""" + re.escape(f) + r"""["']"""
        return r"\[\s*" + quoted + r"\s*\]|\.get\(\s*" + quoted

    return {f for f in fields if re.search(pattern(f), src)}


@pytest.mark.parametrize("game", GAMES)
def test_the_guide_names_every_schema_field_and_no_other(game: str) -> None:
    assert sorted(guide(game)) == sorted(schema_fields(game))


@pytest.mark.parametrize("game", GAMES)
def test_the_guide_says_which_fields_the_oracles_read(game: str) -> None:
    table = guide(game)
    read = oracle_reads(game, list(table))
    assert {f for f, yes in table.items() if yes} == read


@pytest.mark.parametrize("game", GAMES)
def test_every_state_field_is_described(game: str) -> None:
    undocumented = [k for k, v in schema_fields(game).items() if not v.get("description")]
    assert undocumented == []


def test_the_oracle_scan_sees_a_read_and_a_miss() -> None:
    # the scan the guides are checked against finds what is read and only that
    assert "board" in oracle_reads("flit", ["board", "no_such_field"])
    assert "no_such_field" not in oracle_reads("flit", ["board", "no_such_field"])
