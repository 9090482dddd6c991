"""bot-check on Carcassonne as SYNCS 2025 runs it: named pipes in the bot's own folder,
'<count>,<json>' frames, censored updates, per-reply and per-game time limits, bans."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from gamecert.fuzz.botcheck.carcassonne import frame_complete
from gamecert.reference_engine.carcassonne.engine import EDGE_KINDS, CarcConfig
from gamecert.spec import load_catalogue
from tests.botcheck.helpers import BOTS, check

sys.path.insert(0, str(BOTS / "carcassonne"))
from syncsbot import EDGES, edges


def test_example_bot_knows_the_tiles_as_the_engine_does() -> None:
    t = CarcConfig.of(load_catalogue("carcassonne").profile()).t
    short = {"field": "F", "road": "R", "city": "C", "river": "W"}
    in_game = [(k, name) for k, name in enumerate(t.ids) if t.counts[k]]  # not the Tower's
    for k, name in in_game:
        for r in range(4):
            want = "".join(short[EDGE_KINDS[e]] for e in t.rot[k][r].edges)
            assert edges(name, r) == want, (name, r)
    assert set(EDGES) == {name for _, name in in_game}


def test_frame_reader() -> None:
    assert frame_complete(b"2,{}") == 4
    assert frame_complete(b"2,{") is None and frame_complete(b"12") is None
    assert frame_complete(b'3,"\xc3\xa9"rest') == 6  # a count of characters, not bytes
    assert frame_complete(b"debug: 2,{}") == 11  # garbage is one malformed message
    assert frame_complete(b"\n2,{}") == 5


def test_correct_bot_passes_full_games_in_any_seat() -> None:
    for seat in (1, 3):
        result = check("carcassonne", "good.py", seat=seat, games=3, max_queries=None,
                       time_scale=4)
        assert result.status == "clean", [f.message for f in result.findings.items]
        assert all(g.ended == "over" for g in result.games)
        assert result.timings[seat].to_json()["max_game_total_ms"] > 0


def test_four_bots_through_real_pipes() -> None:
    result = check("carcassonne", "good.py", others=["good.py"] * 3, games=2,
                   max_queries=None, time_scale=4)
    assert result.status == "clean" and set(result.timings) == {1, 2, 3, 4}
    assert all(g.ended == "over" for g in result.games)


@pytest.mark.parametrize(("name", "rule", "kind", "query", "scale"), [
    ("slow_once.py", "CARC-PROTO-LIMITS", "late", 3, 1.0),
    ("over_budget.py", "CARC-PROTO-LIMITS", "game-budget", None, 0.25),
    ("short_count.py", "CARC-PROTO-FRAME", "bad-move", 4, 1.0),
    ("debug_to_pipe.py", "CARC-PROTO-FRAME", "bad-move", 6, 1.0),
    ("crash.py", "CARC-PROTO-LIMITS", "broken-pipe", 12, 1.0),
    ("wrong_query.py", "CARC-PROTO-REPLY", "bad-move", 5, 1.0),
    ("pipes_reversed.py", "CARC-PROTO-LIMITS", "pipes", 0, 1.0),
])
def test_faulty_bots_are_banned(name: str, rule: str, kind: str, query: int | None,
                                scale: float) -> None:
    result = check("carcassonne", name, max_queries=None, time_scale=scale)
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict) == (rule, kind, "ban"), f.message
    if query is not None:
        assert f.query == query
    else:  # late in the game, after a warning at 80 % of the budget
        assert f.query > 20
        assert [w.kind for w in result.findings.warnings] == ["near-budget"]
    assert result.games[0].ended == "stopped" and "banned" in f.next_step


@pytest.mark.parametrize(("name", "rule"), [("claims_city.py", "CARC-CLAIM-UNCLAIMED"),
                                            ("uturn.py", "CARC-RIVER-NO-UTURN")])
def test_rare_illegal_moves_are_found_over_several_games(name: str, rule: str) -> None:
    result = check("carcassonne", name, games=6, max_queries=None, time_scale=4)
    found = [f for f in result.findings.failures if f.rule == rule]
    assert found and found[0].verdict == "ban"
    # rare: some games end with no finding at all
    assert any(g.ended == "over" for g in result.games), [g.ended for g in result.games]


def test_updates_are_censored_and_indexed(tmp_path: Path) -> None:
    record = tmp_path / "seen.jsonl"
    os.environ["RECORD"] = str(record)
    try:
        bot = f"{sys.executable} {Path(__file__).parent / 'record_bot.py'}"
        from gamecert.fuzz.botcheck.protocols import codec_for
        from gamecert.fuzz.botcheck.runner import RunOptions, run
        options = RunOptions("carcassonne", load_catalogue("carcassonne").profile(),
                             {2: bot}, 2, games=1, budget=None, time_scale=4)
        result = run(codec_for("carcassonne"), options)
    finally:
        del os.environ["RECORD"]
    assert result.status == "clean"
    seen = [json.loads(line) for line in record.read_text().splitlines()]
    kinds = [e["event_type"] for e in seen]
    assert kinds[0] == "public_event_game_started" and seen[0]["you"]["player_id"] == 1
    assert kinds[1] == "event_starting_tile_placed"
    assert seen[1]["tile_placed"] == {"tile_type": "RS", "pos": [85, 85], "rotation": 0}
    own = [e for e in seen if e["event_type"] == "event_player_drew_tiles"]
    others = [e for e in seen if e["event_type"] == "public_event_player_drew_tiles"]
    assert own and all(e["player_id"] == 1 and e["tiles"] for e in own)
    assert others and all(e["player_id"] != 1 and "tiles" not in e for e in others)
    assert "event_river_phase_completed" in kinds and "event_player_turn_started" in kinds
    assert {"public_move_place_tile", "move_place_meeple_pass"} <= set(kinds)


def test_every_event_sent_matches_the_protocol_schema(tmp_path: Path) -> None:
    from gamecert.fuzz.botcheck.protocols import codec_for
    from gamecert.fuzz.botcheck.runner import RunOptions, run
    from gamecert.schemas import first_error

    record = tmp_path / "seen.jsonl"
    os.environ["RECORD"] = str(record)
    try:
        bot = f"{sys.executable} {Path(__file__).parent / 'record_bot.py'}"
        options = RunOptions("carcassonne", load_catalogue("carcassonne").profile(),
                             {1: bot, 2: bot}, 1, games=2, budget=None, time_scale=4)
        assert run(codec_for("carcassonne"), options).status == "clean"
    finally:
        del os.environ["RECORD"]
    events = [json.loads(line) for line in record.read_text().splitlines()]
    assert len({e["event_type"] for e in events}) >= 10
    for e in events:
        query = {"query_type": "query_place_tile", "update": {"7": e}}
        assert first_error("carcassonne-bot", query) is None, e
    good = {"event_type": "move_place_tile", "player_id": 0, "player_tile_index": 1,
            "tile": {"tile_type": "R2", "pos": [85, 84], "rotation": 0}}
    assert first_error("carcassonne-bot", good) is None
    assert first_error("carcassonne-bot", {**good, "event_type": "move_fly"}) is not None
    assert first_error("carcassonne-bot", {"query_type": "query_place_tile",
                                           "update": {"x": {}}}) is not None
