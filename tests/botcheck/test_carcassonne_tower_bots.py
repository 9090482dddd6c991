"""bot-check on Carcassonne's stages 2 and 3 through gamecert's protocol extension
(schemas/carcassonne-bot-ext.schema.json): farmers, tower floors with captures, caps,
ransoms and on-request exchanges cross the real pipes, a correct bot plays them clean, and
each faulty bot is banned under the rule it breaks."""

from __future__ import annotations

import collections
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from examples.bots import path_of
from gamecert.fuzz.botcheck.codecs import carcassonne as codec_module
from gamecert.schemas import first_error
from tests.botcheck.helpers import check, gamecert

PlayedBy = collections.Counter[str]


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> Iterator[PlayedBy]:
    """What seat 1 did, counted by the engine's event types, as the games run."""
    seen: PlayedBy = collections.Counter()
    after = codec_module.CarcTable.after

    def counting(self: Any, before: Any, action: Any, new: Any, events: list[Any]) -> None:
        for e in events:
            if e.get("player") == 1:
                seen[e["type"] + ("/" + e["feature"] if "feature" in e else "")] += 1
                if e["type"] == "meeple-captured":
                    seen["captured/" + e["on"]] += 1
        after(self, before, action, new, events)

    monkeypatch.setattr(codec_module.CarcTable, "after", counting)
    yield seen


def test_the_correct_bot_claims_fields_in_the_farms_stage(played: PlayedBy) -> None:
    result = check("carcassonne", "good_tower.py", profile="syncs-2025-farms", games=3,
                   max_queries=None, time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]
    assert all(g.ended == "over" for g in result.games)
    assert played["meeple-placed/field"] >= 3


def test_the_correct_bot_builds_captures_and_caps_in_the_tower_stage(played: PlayedBy
                                                                      ) -> None:
    result = check("carcassonne", "good_tower.py", profile="syncs-2025-tower", games=4,
                   max_queries=None, time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]
    assert all(g.ended == "over" for g in result.games)
    assert played["tower-built"] >= 5 and played["tower-capped"] >= 1
    assert played["captured/tower"] >= 1  # a capping meeple taken, its tower reopened
    assert played["meeple-placed/field"] >= 1


def test_the_correct_bot_under_the_placed_tile_readings() -> None:
    result = check("carcassonne", "good_tower.py --placed", profile="syncs-2025-tower-placed",
                   games=2, max_queries=None, time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]


@pytest.mark.parametrize(("name", "profile", "rule", "query"), [
    ("farmer_anywhere.py", "syncs-2025-farms", "CARC-FARM-CLAIM", 4),
    ("farmer_anywhere.py", "syncs-2025-tower", "CARC-FARM-CLAIM", 4),
    ("floor_on_capped.py", "syncs-2025-tower", "CARC-TOWER-ACTION", 20),
    ("ransom_broke.py", "syncs-2025-tower", "CARC-TOWER-RANSOM", 15),
    ("exchange_one_sided.py --placed", "syncs-2025-tower-placed", "CARC-TOWER-EXCHANGE", None),
])
def test_faulty_extension_bots_are_banned(name: str, profile: str, rule: str,
                                          query: int | None) -> None:
    result = check("carcassonne", name, profile=profile, games=6, max_queries=None,
                   time_scale=4)
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict) == (rule, "bad-move", "ban"), f.message
    assert f"({rule})" in f.message
    if query is not None:
        assert f.query == query
    assert any(g.ended == "stopped" for g in result.games) and "banned" in f.next_step


def _recorded(tmp_path: Path, profile: str, bot_args: str = "") -> list[dict[str, Any]]:
    from gamecert.fuzz.botcheck.codecs import codec_for
    from gamecert.fuzz.botcheck.runner import RunOptions, run
    from gamecert.spec import load_catalogue

    record = tmp_path / "seen.jsonl"
    os.environ["RECORD"] = str(record)
    try:
        bot = f"{sys.executable} {Path(__file__).parent / 'record_tower_bot.py'} {bot_args}"
        options = RunOptions("carcassonne", load_catalogue("carcassonne").profile(profile),
                             {1: bot, 3: bot}, 1, seed=3, games=2, budget=None, time_scale=4)
        result = run(codec_for("carcassonne"), options)
        assert result.status == "clean", [f.message for f in result.findings.items]
    finally:
        del os.environ["RECORD"]
    return [json.loads(line) for line in record.read_text().splitlines()]


def test_every_tower_stage_message_matches_the_extension_schema(tmp_path: Path) -> None:
    lines = _recorded(tmp_path, "syncs-2025-tower")
    queries = [m["query"] for m in lines if "query" in m]
    replies = [m["reply"] for m in lines if "reply" in m]
    for q in queries:
        assert first_error("carcassonne-bot-ext", q) is None, q
    for r in replies:
        if r["event_type"] not in ("move_place_tile", "move_discard_tile",
                                   "move_place_meeple_pass"):  # those are the 2025 schema's
            assert first_error("carcassonne-bot-ext", r) is None, r
    events = [e for q in queries for e in q["update"].values()]
    kinds = {e["event_type"] for e in events}
    assert {"public_move_tower_floor", "event_meeple_captured", "public_move_tower_cap",
            "move_place_meeple"} <= kinds
    start = next(e for e in events if e["event_type"] == "public_event_game_started")
    assert start["expansions"] == ["farms", "tower"]
    assert start["you"]["num_floors"] == 7 and start["you"]["prisoners"] == [0, 0, 0, 0]
    farmers = [e for e in events if e["event_type"] == "move_place_meeple"
               and e["placed_on"].endswith("_field")]
    assert farmers
    # hidden information stays censored: other players' draws are counts only
    assert all("tiles" not in e for e in events
               if e["event_type"] == "public_event_player_drew_tiles")
    assert {r["event_type"] for r in replies} >= {"move_tower_floor", "move_place_meeple"}


def test_stage_1_sends_the_2025_game_start_unchanged(tmp_path: Path) -> None:
    lines = _recorded(tmp_path, "syncs-2025-base")
    start = next(e for m in lines if "query" in m for e in m["query"]["update"].values()
                 if e["event_type"] == "public_event_game_started")
    assert "expansions" not in start and "num_floors" not in start["you"]
    assert first_error("carcassonne-bot", {"query_type": "query_place_tile",
                                           "update": {"0": start}}) is None


def test_bot_check_command_takes_the_stage_profiles() -> None:
    bot = f"{sys.executable} {path_of('carcassonne', 'ransom_broke.py')}"
    out = gamecert("bot-check", "carcassonne", "--profile", "syncs-2025-tower", "--bot-cmd",
                   bot, "--games", "2", "--seed", "0", "--time-scale", "4")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "CARC-TOWER-RANSOM" in out.stdout
