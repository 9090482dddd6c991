"""Every seat is the same to bot-check: for Flit and Kingdomino (Carcassonne and Bot Wars
have their own files), the correct example bots pass in every seat, and each faulty one gets
its own rule and the competition's verdict in every seat."""

from __future__ import annotations

import shutil

import pytest

from tests.botcheck.helpers import check


@pytest.mark.parametrize("seat", (1, 2, 3, 4))
@pytest.mark.parametrize("name", ["good.py", "good.js"])
def test_correct_flit_bots_pass_in_every_seat(name: str, seat: int) -> None:
    if name.endswith(".js") and shutil.which("node") is None:
        pytest.fail("node is needed for the JavaScript bot")
    result = check("flit", name, seat=seat, max_queries=60, time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]
    assert result.timings[seat].to_json()["queries"] == 60


@pytest.mark.parametrize("seat", (1, 2, 3, 4))
@pytest.mark.parametrize(("name", "rule", "kind", "verdict", "query"), [
    ("slow_once.py", "FLIT-TIME-LIMIT", "late", "lost turn", 3),
    ("debug_print.py", "FLIT-PROTO-REPLY", "not-a-move", "lost turn", 7),
    ("crash.py", "BOT-ALIVE", "crash", "frozen", 10),
    ("foreign_piece.py", "FLIT-MOVE-VALID", "illegal-move", "lost turn", 5),
])
def test_faulty_flit_bots_in_every_seat(name: str, rule: str, kind: str, verdict: str,
                                        query: int, seat: int) -> None:
    result = check("flit", name, seat=seat, max_queries=12, time_scale=2)
    found = [f for f in result.findings.failures if f.seat == seat]
    first = min(found, key=lambda f: f.query)  # (a debug line shifts the later replies too)
    assert (first.rule, first.kind, first.verdict, first.query) == (rule, kind, verdict,
                                                                    query), first.message


@pytest.mark.parametrize("seat", (1, 2, 3, 4))
def test_correct_kingdomino_bot_passes_in_every_seat(seat: int) -> None:
    result = check("kingdomino", "good.py", seat=seat, max_queries=None, time_scale=4)
    assert result.status == "clean", [f.message for f in result.findings.items]
    assert result.games[0].ended == "over" and result.games[0].queries == 13


@pytest.mark.parametrize("seat", (1, 2, 3, 4))
@pytest.mark.parametrize(("name", "rule", "kind", "query"), [
    ("slow_once.py", "KD-PROTO-LIMITS", "late", 3),
    ("debug_print.py", "KD-PROTO-OUTPUT", "not-a-command", 6),
    ("crash.py", "BOT-ALIVE", "crash", 7),
    ("bad_pick.py", "KD-PICK", "invalid-pick", 3),
])
def test_faulty_kingdomino_bots_in_every_seat(name: str, rule: str, kind: str, query: int,
                                              seat: int) -> None:
    result = check("kingdomino", name, seat=seat, max_queries=None, time_scale=2)
    (f,) = result.findings.failures
    assert (f.rule, f.kind, f.verdict, f.query, f.seat) == (rule, kind, "deactivated", query,
                                                             seat), f.message
