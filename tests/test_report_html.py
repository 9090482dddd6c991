"""report.html: a real certify of a public mutant per game writes a well-formed, self-contained
page whose every SVG parses, whose boards outline exactly the squares where the two states
differ, and which shows the verdict and every rule; untrusted text comes out escaped; the
page can be rebuilt from the folder (`gamecert report DIR`)."""

from __future__ import annotations

import copy
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.main import main
from gamecert.fuzz.reports.html import render_html
from gamecert.fuzz.reports.pictures import svg_for
from gamecert.schemas import first_error

SVG_NS = "{http://www.w3.org/2000/svg}"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}

# (game, mutant, rounds): each is caught with seed 0 in its first round, with a finding whose
# engine state differs from the reference's on the board; the rounds leave room to spare
CASES = [
    ("flit", "board_short", 2),  # a board one row short from new_game on
    ("botwars", "spawn_when_razed", 6),  # a razed spawn that still spawns
    ("carcassonne", "meeples_kept", 4),  # meeples left on a scored road
    ("kingdomino", "castle_off_centre", 4),  # the castle one square off the centre
]


class StrictParser(HTMLParser):
    """Fails on any end tag that does not close the innermost open element, and records
    the elements seen (tag, attributes, text) for the checks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[str, str] = {}  # id -> text inside that element
        self.open_ids: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag in VOID:
            return
        self.stack.append(tag)
        ident = dict(attrs).get("id")
        if ident:
            self.texts[ident] = ""
            self.open_ids.append((ident, len(self.stack)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack, f"</{tag}> closes nothing"
        assert self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1]}>"
        if self.open_ids and self.open_ids[-1][1] == len(self.stack):
            self.open_ids.pop()
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        for ident, _ in self.open_ids:
            self.texts[ident] += data


def parse_page(text: str) -> StrictParser:
    parser = StrictParser()
    parser.feed(text)
    parser.close()
    assert parser.stack == [], f"left open: {parser.stack}"
    return parser


def svgs(text: str) -> list[ET.Element]:
    found = re.findall(r"<svg\b.*?</svg>", text, flags=re.S)
    return [ET.fromstring(s) for s in found]


def content_at(game: str, state: Any, cell: tuple[int, int]) -> Any:
    """What a square holds, read straight from a canonical state."""
    x, y = cell
    if game == "flit":
        i = y * state["width"] + x
        return state["board"][i] if i < len(state["board"]) else None
    if game == "botwars":
        i = y * state["cols"] + x
        spawns = [(p, state[p]["spawnDisabled"]) for p in ("p1", "p2") if state[p]["spawn"] == i]
        return state["grid"][i] if i < len(state["grid"]) else None, spawns
    if game == "kingdomino":  # kingdoms side by side, a square's gap between them
        p, gx = divmod(x, 10)
        return state["grids"][p][y][2 * gx:2 * gx + 2]
    tiles = [(t["tile"], t["rotation"]) for t in state["board"] if t["at"] == [x, y]]
    meeples = sorted((m["on"], m["player"]) for m in state["meeples"] if m["at"] == [x, y])
    return tiles, meeples


def all_cells(game: str, state: Any) -> set[tuple[int, int]]:
    if game == "flit":
        w = state["width"]
        return {(i % w, i // w) for i in range(len(state["board"]))}
    if game == "botwars":
        c = state["cols"]
        return {(i % c, i // c) for i in range(len(state["grid"]))}
    if game == "kingdomino":
        return {(10 * p + x, y) for p in range(len(state["grids"])) for y in range(9)
                for x in range(9)}
    return {(t["at"][0], t["at"][1]) for t in state["board"]} | {
        (m["at"][0], m["at"][1]) for m in state["meeples"]}


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def certified(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, dict[str, Any]]:
    game, mutant, rounds = request.param
    folder = tmp_path_factory.mktemp(f"report-{game}")
    code = main(["certify", game, "--engine", engine_spec(game, mutant),
                 "--rounds", str(rounds), "--quiet", "--report", str(folder)])
    assert code == 1
    doc = json.loads((folder / "report.json").read_text("utf-8"))
    assert first_error("report", doc) is None
    return game, folder, doc


def test_page_is_well_formed_and_every_svg_parses(
        certified: tuple[str, Path, dict[str, Any]]) -> None:
    _game, folder, doc = certified
    text = (folder / "report.html").read_text("utf-8")
    page = parse_page(text)
    pictures = [f for f in doc["findings"] if "picture" in f]
    assert pictures, "no finding carried the states at its failing step"
    drawn = svgs(text)
    expected = sum(1 + (f["picture"]["engine"] is not None) for f in pictures)
    assert len(drawn) == expected
    for svg in drawn:
        assert svg.tag == f"{SVG_NS}svg"
        assert svg.find(f"{SVG_NS}title") is not None
        assert len(list(svg.iter())) > 20, "a board, not a placeholder"
    # self-contained: nothing is loaded from anywhere, no script at all
    tags = {t for t, _ in page.elements}
    assert not tags & {"script", "link", "img", "iframe", "object"}
    assert not any("src" in a or (a.get("href") or "#").split("#")[0] for _, a in page.elements)


def test_boards_outline_exactly_the_squares_that_differ(
        certified: tuple[str, Path, dict[str, Any]]) -> None:
    game, folder, doc = certified
    text = (folder / "report.html").read_text("utf-8")
    checked = 0
    for finding in doc["findings"]:
        picture = finding.get("picture")
        if not picture or picture["engine"] is None:
            continue
        ref, eng = picture["reference"], picture["engine"]
        section = re.search(rf'<section class="finding" id="finding-{finding["number"]}">'
                            r".*?</section>", text, flags=re.S)
        assert section is not None
        boards = svgs(section.group(0))
        assert len(boards) == 2
        differ = {c for c in all_cells(game, ref) | all_cells(game, eng)
                  if content_at(game, ref, c) != content_at(game, eng, c)}
        for board in boards:
            marked = {tuple(int(v) for v in str(r.get("data-cell")).split(","))
                      for r in board.iter(f"{SVG_NS}rect") if r.get("class") == "diff"}
            assert marked == differ
        if differ:
            checked += 1
            # the diff table below names the fields that differ
            assert '<table class="diff">' in section.group(0)
    assert checked, "no finding had squares that differ"


def test_verdict_rule_rows_and_trace_steps_are_shown(
        certified: tuple[str, Path, dict[str, Any]]) -> None:
    _game, folder, doc = certified
    page = parse_page((folder / "report.html").read_text("utf-8"))
    assert page.texts["verdict"].strip() == "RULES VIOLATED"
    rows = {a["data-rule"]: a for t, a in page.elements if t == "tr" and "data-rule" in a}
    assert set(rows) == {r["id"] for r in doc["rules"]}
    violated = [r for r in doc["rules"] if r["verdict"] == "violated"]
    assert violated
    links = {a.get("href") for t, a in page.elements if t == "a"}
    for r in violated:
        assert all(f"#finding-{n}" in links for n in r["findings"])
    ids = {a.get("id") for _, a in page.elements}
    assert {f"finding-{f['number']}" for f in doc["findings"]} <= ids
    failing = [a for t, a in page.elements if t == "li" and a.get("class") == "failing"]
    assert len(failing) == sum(1 for f in doc["findings"]
                               if f.get("picture", {}).get("op", -1) >= 0)


def test_rebuilt_from_the_folder(certified: tuple[str, Path, dict[str, Any]],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    _game, folder, _doc = certified
    page = folder / "report.html"
    first = page.read_text("utf-8")
    page.unlink()
    assert main(["report", str(folder)]) == 0
    assert page.read_text("utf-8") == first
    assert "report.html" in capsys.readouterr().out


def test_report_command_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path)]) == 2
    assert "report.json: cannot read" in capsys.readouterr().err
    (tmp_path / "report.json").write_text('{"format": "something else"}')
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a gamecert report" in err and "Traceback" not in err


def test_untrusted_text_comes_out_escaped(certified: tuple[str, Path, dict[str, Any]]) -> None:
    _game, folder, doc = certified
    evil = '<script>alert("x")</script>'
    doc = copy.deepcopy(doc)
    finding = doc["findings"][0]
    finding["message"] = f"engine said {evil}"
    finding["signature"] = f"sig {evil}"  # fields the triage adds, shown as they are
    finding["count"] = 3
    finding["also"] = [2, evil]
    doc["fingerprint"] = [{"rule": "X-RULE", "reading": evil, "count": 4}]
    doc["engine"] = evil
    state = next(f["picture"]["reference"] for f in doc["findings"] if "picture" in f)
    for f in doc["findings"]:
        if "picture" in f:  # an engine that puts markup into its state
            f["picture"]["engine"] = {**state, "phase": f"</svg>{evil}", "profile": evil}
    text = render_html(doc, folder)
    assert "<script" not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
    page = parse_page(text)
    for svg in svgs(text):
        assert svg.tag == f"{SVG_NS}svg"
    assert "sig " in text and "X-RULE" in text and 'id="fingerprint"' in text
    assert {t for t, _ in page.elements}.isdisjoint({"script"})


def test_malformed_states_and_games_without_drawings_get_a_placeholder() -> None:
    for game, state in (("flit", {"width": 32}), ("botwars", "garbage"),
                        ("carcassonne", {"board": [{"at": "x"}]}), ("flit", None),
                        ("kingdomino", {"game": "kingdomino"})):
        svg = ET.fromstring(svg_for(game, state, highlight=[(0, 0)]))
        assert svg.tag == f"{SVG_NS}svg"
        words = "".join(svg.itertext())
        assert "cannot be drawn" in words or "no board drawing" in words


def test_engine_values_json_cannot_hold_are_kept_as_text(tmp_path: Path) -> None:
    """An in-process engine may return a state with Python values in it; the report is still
    written, valid, and its page still draws the reference's board."""
    from gamecert.fuzz.findings.triage import Departure
    from gamecert.fuzz.reports.certificate import write_report
    from gamecert.fuzz.search.campaign import CampaignResult
    from gamecert.fuzz.step.lockstep import Coverage, Finding
    from gamecert.reference_engine import reference_game
    from gamecert.spec import load_catalogue

    profile = load_catalogue("flit").profile(None)
    game = reference_game("flit")
    state = game.observe(game.initial(profile, 0))
    odd = {**state, "frozen": {False}, "board": object()}
    finding = Finding(["ENGINE-AGREES"], "divergence", "states differ", -1,
                      {"format": "gamecert-trace/1", "game": "flit", "profile": profile.id,
                       "seed": 0, "start": {"kind": "new_game"}, "ops": []},
                      expected=state, got=odd)
    result = CampaignResult("flit", profile, "odd-engine", 0, None, 1, 0.1, Coverage(),
                            [Departure(finding, "ENGINE-AGREES|divergence|states differ",
                                       "ENGINE-AGREES")])
    write_report(result, tmp_path)
    doc = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert first_error("report", doc) is None
    picture = doc["findings"][0]["picture"]
    assert picture["op"] == -1 and picture["reference"] == state
    assert picture["engine"]["frozen"] == "{False}"
    text = (tmp_path / "report.html").read_text("utf-8")
    parse_page(text)
    reference, engine = svgs(text)
    assert len(list(reference.iter())) > 20
    assert "cannot be drawn" in "".join(engine.itertext())


def test_report_command_draws_from_any_folder(
        certified: tuple[str, Path, dict[str, Any]], tmp_path: Path) -> None:
    """`gamecert report DIR` run as a program from elsewhere, as a user runs it (no source
    folder on the import path), still draws every board."""
    import subprocess
    import sys

    _game, folder, _doc = certified
    page = folder / "report.html"
    first = page.read_text("utf-8")
    page.unlink()
    done = subprocess.run([sys.executable, "-m", "gamecert.fuzz.cli.main", "report", str(folder)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 0, done.stderr
    again = page.read_text("utf-8")
    assert "cannot be drawn" not in again
    assert again == first
