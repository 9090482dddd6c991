"""The conformance corpus: for each game and protocol variant, a whole game as the
competition's engine runs it (tests/botcheck/corpus/, written by build_corpus.py from the
facts of docs/bot-check.md). bot-check's codec must send every seat exactly those bytes, in
that order, through the real transport (named pipes, stdin/stdout, HTTP), and read each
recorded reply into the recorded action."""

from __future__ import annotations

import gzip
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from gamecert.fuzz.botcheck.codecs import codec_for
from gamecert.fuzz.botcheck.findings import Findings, Timing
from gamecert.fuzz.botcheck.runner import RunOptions, ScriptedChooser, play_game
from gamecert.spec import load_catalogue
from tests.botcheck.helpers import BOTS

CORPUS = Path(__file__).resolve().parent / "corpus"
REPLAY = Path(__file__).resolve().parent / "replay_bot.py"
NAMES = sorted(p.name.removesuffix(".json.gz") for p in CORPUS.glob("*.json.gz"))


def load(name: str) -> dict[str, Any]:
    with gzip.open(CORPUS / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


def first_difference(got: list[str], want: list[str]) -> str:
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            at = next(k for k in range(min(len(g), len(w)) + 1)
                      if k == min(len(g), len(w)) or g[k] != w[k])
            return (f"message {i}, character {at}:\n  sent {g[max(0, at - 80):at + 80]!r}\n"
                    f"  want {w[max(0, at - 80):at + 80]!r}")
    return f"{len(got)} messages sent, {len(want)} in the corpus"


def test_every_game_and_variant_has_a_corpus() -> None:
    assert {"carcassonne-syncs-2025", "carcassonne-gamecert-discard", "flit-first-line",
            "flit-argument",
            "kingdomino-legend-2p", "kingdomino-short-lines", "botwars-stdio",
            "botwars-http"} <= set(NAMES)
    for name in NAMES:
        doc = load(name)
        assert doc["variant"] in codec_for(doc["game"]).variants
        assert all(steps for steps in doc["seats"].values())


@pytest.mark.parametrize("name", NAMES)
def test_the_codec_sends_the_corpus_bytes_and_reads_its_replies(name: str,
                                                                 tmp_path: Path) -> None:
    doc = load(name)
    game, mode = doc["game"], doc["mode"]
    commands: dict[int, str] = {}
    for seat, steps in doc["seats"].items():
        script = tmp_path / f"script{seat}.json"
        script.write_text(json.dumps([{"to_bot": s["to_bot"], "from_bot": s["from_bot"]}
                                      for s in steps]), "utf-8")
        record = tmp_path / f"record{seat}.jsonl"
        commands[int(seat)] = shlex.join([sys.executable, str(REPLAY), mode, str(script),
                                          str(record)])
    profile = load_catalogue(game).profile(doc["profile"])
    options = RunOptions(game, profile, commands, 1, seed=doc["seed"], games=1, budget=None,
                         variant=doc["variant"], time_scale=20)
    chooser = ScriptedChooser(doc["choices"])
    findings, timings = Findings(), dict[int, Timing]()
    moves: list[tuple[int, Any]] = []
    result, _ = play_game(codec_for(game), options, 1, chooser, findings, timings,
                          steps_out=moves)
    problems = [f"[{f.rule}] {f.kind}: {f.message}" for f in findings.items]
    for seat, steps in doc["seats"].items():
        lines = (tmp_path / f"record{seat}.jsonl").read_text("utf-8").splitlines()
        seen = [json.loads(line) for line in lines]
        got = [e["got"] for e in seen if "got" in e]
        want = [s["to_bot"] for s in steps]
        assert got == want, f"seat {seat}: " + first_difference(got, want) + f"; {problems}"
        assert all(e.get("rest", "") == "" for e in seen), f"seat {seat} was sent more"
        extra = seen[0]["argv"]
        assert extra == ([seat] if doc["variant"] == "argument" else []), extra
        if mode == "http":
            assert {e["content_type"] for e in seen if "got" in e} == {
                "application/x-www-form-urlencoded"}
        read = [action for who, action in moves if who == int(seat)]
        assert read == [s["action"] for s in steps], f"seat {seat}: replies read otherwise"
    assert not problems, problems
    assert chooser.diverged_at is None and chooser.record == doc["choices"]
    assert result.ended == "over" and result.scores == doc["scores"]


def test_the_carcassonne_corpus_reads_as_the_starter_kit_reads_it() -> None:
    """Each seat's updates, fed to the kit (shaped as the competition's library, as strict),
    follow on index by index, censored for that seat, with the hand in the order the replies
    index it: what the real library's state keeps."""
    sys.path.insert(0, str(BOTS / "carcassonne"))
    try:
        from kit.models import read_query
        from kit.state import ClientState
    finally:
        sys.path.pop(0)
    doc = load("carcassonne-syncs-2025")
    for seat, steps in doc["seats"].items():
        state = ClientState()
        for step in steps:
            count, _, text = step["to_bot"].partition(",")
            assert int(count) == len(text)
            query = read_query(text)
            for index, event in sorted(query.update.items()):
                state.commit(index, event)
            reply = json.loads(step["from_bot"].partition(",")[2])
            if reply["event_type"] == "move_place_tile":
                held = state.my_tiles[reply["player_tile_index"]]
                assert held == reply["tile"]["tile_type"], (seat, state.my_tiles, reply)
        assert state.player_id == int(seat) - 1
        kinds = {e["event_type"] for e in state.event_history}
        assert {"move_place_tile", "public_move_place_tile", "event_player_drew_tiles",
                "public_event_player_drew_tiles", "event_river_phase_completed",
                "event_player_meeple_freed"} <= kinds
