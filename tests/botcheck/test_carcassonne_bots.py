"""bot-check on Carcassonne as SYNCS 2025 runs it: named pipes in the bot's own folder,
'<count>,<json>' frames read as the engine reads them, censored updates, per-reply and
per-game time limits, bans. Bots written on the starter kit (examples/bots/carcassonne/kit,
shaped as the competition's library) pass in every seat; each faulty one is named by its own
rule, with the competition's verdict, in every seat. (The 40-game run of every bot in every
seat is `python benchmarks/speed/bot_check_bench.py --matrix 40`.)"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from gamecert.fuzz.botcheck.codecs.carcassonne import CarcTable, frame_end
from gamecert.reference_engine.carcassonne.engine import EDGE_KINDS, CarcConfig
from gamecert.spec import load_catalogue
from tests.botcheck.helpers import BOTS, check

sys.path.insert(0, str(BOTS / "carcassonne"))
from kit import tiles as kit_tiles
from syncsbot import EDGES, edges

CFG = CarcConfig.of(load_catalogue("carcassonne").profile())
KIT_BOTS = ["random_player.py", "greedy_scorer.py", "meeple_hoarder.py"]
SEATS = (1, 2, 3, 4)


def test_example_bots_know_the_tiles_as_the_engine_does() -> None:
    t = CFG.t
    short = {"field": "F", "road": "R", "city": "C", "river": "W"}
    in_game = [(k, name) for k, name in enumerate(t.ids) if t.counts[k]]  # not the Tower's
    for k, name in in_game:
        for r in range(4):
            want = "".join(short[EDGE_KINDS[e]] for e in t.rot[k][r].edges)
            assert edges(name, r) == want, (name, r)
            assert kit_tiles.edges(name, r) == want, (name, r)
            rt = t.rot[k][r]
            mine = {(f.kind, f.sides) for f in kit_tiles.features(name, r)}
            theirs = {("M", ()) if rt.monastery == i else
                      ({1: "R", 2: "C"}.get(seg.kind, "?"),
                       tuple(s for s in range(4) if rt.side_seg[s] == i))
                      for i, seg in enumerate(rt.segs)}
            assert mine == theirs, (name, r, mine, theirs)
    assert set(EDGES) == {name for _, name in in_game}


def test_messages_are_cut_where_the_engine_cuts_them() -> None:
    assert frame_end(b"2,{}", CFG) == 4
    assert frame_end(b"2,{", CFG) is None and frame_end(b"12", CFG) is None
    assert frame_end(b'3,"\xc3\xa9"rest', CFG) == 6  # a count of characters, not bytes
    assert frame_end(b'3,"\xc3', CFG) is None  # half a character: more must come
    assert frame_end(b"debug: 2,{}", CFG) == 4  # no comma in 4 characters: malformed there
    assert frame_end(b"\n2,{}", CFG) == 5  # int("\n2") is 2: the engine reads on
    assert frame_end(b"\n121,{", CFG) == 4  # but "\n121" has no room for the comma
    assert frame_end(b"1000,{}", CFG) == 4  # a four-digit count is never read


@pytest.mark.parametrize("seat", SEATS)
@pytest.mark.parametrize("name", KIT_BOTS)
def test_starter_kit_bots_pass_in_every_seat(name: str, seat: int) -> None:
    result = check("carcassonne", name, seat=seat, games=2, max_queries=None, time_scale=4,
                   seed=seat)
    assert result.status == "clean", [f.message for f in result.findings.failures]
    assert all(g.ended in ("over", "open point") for g in result.games)
    assert any(g.ended == "over" for g in result.games)


@pytest.mark.parametrize("seat", SEATS)
@pytest.mark.parametrize(("name", "rule", "kind", "query", "scale"), [
    ("river_unconnected.py", "CARC-RIVER-CONTIGUOUS", "bad-move", 1, 4.0),
    ("late_reply.py 0.8", "CARC-PROTO-LIMITS", "late", 3, 0.25),
    ("crash_mid_game.py", "CARC-PROTO-LIMITS", "crash", 7, 4.0),
    ("debug_to_pipe.py", "CARC-PROTO-FRAME", "bad-move", 6, 4.0),  # a print into the pipe
])
def test_faulty_kit_bots_are_banned_by_their_own_rule_in_every_seat(
        name: str, rule: str, kind: str, query: int, scale: float, seat: int) -> None:
    result = check("carcassonne", name, seat=seat, max_queries=None, time_scale=scale)
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict, f.query) == (rule, kind, "ban", query), f.message
    assert result.games[0].ended == "stopped" and "banned" in f.next_step


@pytest.mark.parametrize("seat", SEATS)
def test_printing_to_stdout_is_harmless_in_every_seat(seat: int) -> None:
    """Stdout is not the SYNCS protocol (the competition's own helper prints there)."""
    result = check("carcassonne", "stdout_chatter.py", seat=seat, max_queries=None,
                   time_scale=4)
    assert result.status == "clean" and not result.findings.items


def test_printing_more_than_a_pipe_holds_is_a_warning() -> None:
    result = check("carcassonne", "stdout_chatter.py 70000", max_queries=None, time_scale=4)
    assert result.status == "clean"
    assert [(w.rule, w.kind) for w in result.findings.warnings] == [("BOT-ALIVE",
                                                                     "stdout-volume")]


def test_four_kit_bots_through_real_pipes() -> None:
    result = check("carcassonne", "greedy_scorer.py",
                   others=["random_player.py", "meeple_hoarder.py", "stdout_chatter.py"],
                   games=2, max_queries=None, time_scale=4)
    assert result.status == "clean" and set(result.timings) == set(SEATS)
    assert any(g.ended == "over" for g in result.games)


@pytest.mark.parametrize(("name", "rule", "kind", "query", "scale"), [
    ("slow_once.py", "CARC-PROTO-LIMITS", "late", 3, 1.0),
    ("over_budget.py", "CARC-PROTO-LIMITS", "game-budget", None, 0.25),
    ("short_count.py", "CARC-PROTO-FRAME", "bad-move", 4, 1.0),
    ("debug_to_pipe.py", "CARC-PROTO-FRAME", "bad-move", 6, 1.0),
    ("crash.py", "CARC-PROTO-LIMITS", "crash", 12, 1.0),
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


def test_a_kit_bot_fails_when_the_mover_is_sent_the_public_placement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the issue saw: sent its own placement as the public event, a bot on the kit
    keeps the tile in its hand (as the real library does) and plays it again."""
    real = CarcTable._translate

    def public_to_all(self: CarcTable, before: object, action: object, state: object,
                      e: dict[str, object]) -> list[object]:
        views = real(self, before, action, state, e)  # type: ignore[arg-type]
        if e["type"] != "tile-placed" or self.lake_turn or not views:
            return views  # type: ignore[return-value]
        public = views[0](-1)  # what a player other than the mover sees
        return [lambda _p: public]

    monkeypatch.setattr(CarcTable, "_translate", public_to_all)
    result = check("carcassonne", "greedy_scorer.py", max_queries=None, time_scale=4)
    assert result.findings.failures, "the kit bot should have stumbled"


def test_updates_are_censored_and_indexed(tmp_path: Path) -> None:
    record = tmp_path / "seen.jsonl"
    os.environ["RECORD"] = str(record)
    try:
        bot = f"{sys.executable} {Path(__file__).parent / 'record_bot.py'}"
        from gamecert.fuzz.botcheck.codecs import codec_for
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
    assert all(t["tile_type"] != "RE" for e in own for t in e["tiles"])  # the engine's lake
    mine = [e for e in seen if e["event_type"] == "move_place_tile"]
    theirs = [e for e in seen if e["event_type"] == "public_move_place_tile"]
    assert mine and all(e["player_id"] == 1 and "player_tile_index" in e for e in mine)
    assert theirs and all(e["player_id"] != 1 for e in theirs)
    (river,) = [e for e in seen if e["event_type"] == "event_river_phase_completed"]
    assert river["end_tile"]["tile_type"] == "RE"
    freed = [e for e in seen if e["event_type"] == "event_player_meeple_freed"]
    assert all(set(e) == {"event_type", "player_id", "reward", "tile", "placed_on"}
               for e in freed)
    assert "event_player_turn_started" in kinds and "move_place_meeple_pass" in kinds


def test_every_event_sent_matches_the_protocol_schema(tmp_path: Path) -> None:
    from gamecert.fuzz.botcheck.codecs import codec_for
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
