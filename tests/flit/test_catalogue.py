"""The Flit catalogue: complete, tied to oracles and mutants, and strict about bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from examples.engines import load
from examples.engines.flit import MUTANTS
from gamecert.fuzz.cli.main import main
from gamecert.oracles import oracles_for
from gamecert.spec import CatalogueError, load_catalogue, load_catalogue_file

ISSUE_TOPICS = {  # the rule topics issue 2 lists, each must have at least one rule id
    "FLIT-BOARD-SIZE", "FLIT-BOARD-TORUS", "FLIT-SETUP-AVAILABLE", "FLIT-SETUP-ORDER",
    "FLIT-MOVE-VALID", "FLIT-MOVE-NOMOVE", "FLIT-CONVERT", "FLIT-NEUTRAL-ADD",
    "FLIT-TURN-ORDER", "FLIT-TIME-LIMIT", "FLIT-FREEZE", "FLIT-END-TURNCAP",
    "FLIT-END-ALLPASS", "FLIT-END-CATCHUP", "FLIT-WINNER", "FLIT-WINNER-TIE",
}


def test_catalogue_covers_the_source() -> None:
    cat = load_catalogue("flit")
    assert set(cat.rule_ids) >= ISSUE_TOPICS
    neutral = cat.rule("FLIT-NEUTRAL-ADD")
    assert neutral.interpretation is not None
    assert set(neutral.interpretation.variants) == {"square-1-in-16", "list-1-in-6"}
    assert cat.profile("list-neutrals").variant("FLIT-NEUTRAL-ADD") == "list-1-in-6"
    assert cat.profile().param("FLIT-END-CATCHUP", "p_offset") == 4
    assert cat.profile().param("FLIT-FREEZE", "consecutive_timeouts") == 5


def test_every_rule_has_an_oracle_and_a_mutant() -> None:

    rules = set(load_catalogue("flit").rule_ids)
    assert {o.rule for o in oracles_for("flit")} == rules
    broken = {load("flit", m).RULE for m in MUTANTS}
    assert broken == rules


def test_every_variant_is_selected_by_the_default_or_a_profile() -> None:
    cat = load_catalogue("flit")
    for rule in cat.rules:
        if rule.interpretation is None:
            continue
        chosen = {p.variant(rule.id) for p in cat.profiles.values()}
        assert rule.interpretation.chosen in chosen


def write(tmp_path: Path, doc: object | str) -> Path:
    path = tmp_path / "flit.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=1))
    return path


def good() -> dict[str, object]:
    return json.loads((Path(__file__).parents[2] / "spec" / "flit.json").read_text())


@pytest.mark.parametrize("mutate, where", [
    (lambda d: d["rules"][3]["parameters"].update(pieces_per_bot="two"),
     "rules[3].parameters.pieces_per_bot"),
    (lambda d: d["rules"][0].pop("title"), "rules[0]"),
    (lambda d: d["rules"][1].update(id="flit-board"), "rules[1].id"),
    (lambda d: d["rules"][2].update(id="FLIT-BOARD-SIZE"), "rules[2].id: duplicate"),
    (lambda d: d["profiles"][1]["variants"].update({"FLIT-NEUTRAL-ADD": "one-in-ten"}),
     "profiles[1].variants.FLIT-NEUTRAL-ADD"),
    (lambda d: d["profiles"][0].update(parameters={"FLIT-BOARD-SIZE.depth": 3}),
     "profiles[0].parameters.FLIT-BOARD-SIZE.depth"),
    (lambda d: d.update(default_profile="nope"), "default_profile"),
    (lambda d: d["rules"][5]["source"].update(doc="seed-999"), "rules[5].source.doc"),
])
def test_broken_catalogue_names_file_and_place(tmp_path: Path, mutate: object,
                                               where: str) -> None:
    doc = good()
    mutate(doc)  # type: ignore[operator]
    path = write(tmp_path, doc)
    with pytest.raises(CatalogueError) as err:
        load_catalogue_file(path)
    assert str(path) in str(err.value)
    assert where in str(err.value)


def test_catalogue_that_is_not_json_names_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, '{\n  "format": "gamecert-catalogue/1",\n  "game": flit\n}')
    with pytest.raises(CatalogueError, match=r"flit.json: line 3, column 11: not valid JSON"):
        load_catalogue_file(path)


def test_cli_reports_a_broken_catalogue_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = good()
    doc["rules"][0]["parameters"]["width"] = -3  # type: ignore[index]
    path = write(tmp_path, doc)
    assert main(["rules", "flit", "--catalogue", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"{path}" in err and "rules[0]" in err


def test_rules_command_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "flit", "--verbose"]) == 0
    out = capsys.readouterr().out
    for rid in load_catalogue("flit").rule_ids:
        assert rid in out
    assert "variant: square-1-in-16" in out and "(chosen)" in out
