"""The Carcassonne fuzzing plugin: its start positions are valid and are what they claim to be,
its moves are legal, its probes are (nearly always) illegal, its bot replies cover both
sides of the referee, and its strategies are built once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.carcassonne import PLUGIN
from gamecert.fuzz.games.carcassonne.crafted import _completions
from gamecert.fuzz.games.carcassonne.play import _uturns, closes
from gamecert.fuzz.games.carcassonne.proofs import prove_carcassonne
from gamecert.fuzz.games.carcassonne.starts import crafted_ids, pools
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.carcassonne import CarcState
from gamecert.reference_engine.carcassonne.engine import CLAIM, DRAW, PLACE, RIVER_PHASE
from gamecert.reference_engine.carcassonne.protocol import referee
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction

from .helpers import ENGINE, profile

PROF = profile()
KINDS = pools(PROF).by_kind
ALL = [(kind, s) for kind, states in sorted(KINDS.items()) for s in states]


def load(state: dict[str, Any]) -> CarcState:
    return ENGINE.load(PROF, state)


def completions(state: CarcState) -> list[list[dict[str, Any]]]:
    """For each legal placement: the features it completes, through its claim step."""
    out = []
    for action in ENGINE.legal(state):
        if action[0] != "place":
            continue
        after, events = ENGINE.apply(state, action)
        if after.step == CLAIM:
            events = events + ENGINE.apply(after, ("pass",))[1]
        out.append([e for e in events if e["type"] in ("feature-completed", "game-ended")])
    return out


def lockstep(start: dict[str, Any]) -> Lockstep:
    ls = Lockstep(ENGINE, InProcessEngine(reference_session("carcassonne")), PROF,
                  oracles_for("carcassonne"), coverage=Coverage())
    ls.start(start)
    return ls


def test_plugin_is_registered_and_strategies_are_built_once() -> None:
    assert plugin_for("carcassonne") is PLUGIN
    assert PLUGIN.starts(PROF) is PLUGIN.starts(PROF)
    assert PLUGIN.bot_texts(PROF) is PLUGIN.bot_texts(PROF)
    assert pools(PROF) is pools(PROF)


def test_every_start_position_loads_and_round_trips() -> None:
    assert len(ALL) > 300
    for kind, state in ALL:
        loaded = load(state)  # raises BadState if the plugin built an impossible position
        assert ENGINE.observe(loaded) == state, kind


@pytest.mark.parametrize("pid", ["syncs-2025-base-2p", "syncs-2025-base-5p", "official-order",
                                 "syncs-2025-river-alternate"])
def test_start_positions_of_other_profiles_load(pid: str) -> None:
    prof = profile(pid)
    kinds = pools(prof).by_kind
    for kind in ("near-uturn", "lake", "closing", "near-50", "loop", "ties", "final-tie"):
        assert kinds.get(kind), (pid, kind)
    for states in kinds.values():
        for state in states:
            ENGINE.load(prof, state)


@pytest.mark.parametrize("pid", ["syncs-2025-base", "official-order", "syncs-2025-farms",
                                 "syncs-2025-tower"])
def test_best_moves_count_completions_as_playing_them_does(pid: str) -> None:
    """`closes` (what a "best" move asks of a placement: does it complete a feature, a
    monastery?) counted from the open edges around the cell, tells what playing the
    placement through its claim step completes (scored at placement, the SYNCS reading,
    or after the claim, official-order), for every legal placement of the start positions'
    place steps."""
    prof = profile(pid)
    states = [ENGINE.load(prof, s) for kind, of_kind in sorted(pools(prof).by_kind.items())
              for s in of_kind[::3]]
    seen: Counter[tuple[bool, bool]] = Counter()
    for state in states:
        if state.step != PLACE:
            continue
        for a in ENGINE.legal(state):
            if a[0] == "place":
                played = [e["feature"] for e in _completions(state, a[1], a[2], a[3])]
                counted = closes(state, a[1], a[2], a[3])
                assert counted == (bool(played), "monastery" in played), (
                    pid, ENGINE.observe(state), a, played)
                seen[counted] += 1
    assert len(seen) == 3, seen  # nothing, a road or town, a monastery


def test_each_crafted_kind_holds_its_rare_case() -> None:
    river = [load(s) for s in KINDS["near-uturn"]]
    assert all(s.phase == RIVER_PHASE and s.step == PLACE for s in river)
    assert sum(1 for s in river if any(ENGINE.river_problem(s, k, r, s.river.open_pos)
                                       for k in s.hands[s.to_move - 1] for r in range(4)
                                       if s.cfg.t.rot[k][r].code & s.cells[s.river.open_pos][0]
                                       == s.cells[s.river.open_pos][1])) >= len(river) // 3
    for s in KINDS["lake"]:  # the lake to draw, or drawn and in the mover's hand
        assert (s["river_pile"] == {"RE": 1} and s["step"] == "draw") or (
            not s["river_pile"] and s["step"] == "place"
            and s["hands"][s["to_move"] - 1] == ["RE"]), s
    assert any(s["step"] == "place" for s in KINDS["lake"])
    for s in KINDS["loop"]:  # one placement closes a ring of four curves
        done = [e for es in completions(load(s)) for e in es if e["type"] == "feature-completed"]
        assert any(e["feature"] == "road" and len(e["tiles"]) == 4 for e in done)
    checks: list[tuple[str, Callable[[dict[str, Any]], bool]]] = [
        ("monastery", lambda e: e.get("feature") == "monastery"),
        ("banner", lambda e: e.get("feature") == "city" and e["banners"] > 0),
        ("near-50", lambda e: e.get("reason") == "points-limit")]
    for kind, check in checks:
        for s in KINDS[kind]:
            assert len(s["hands"][s["to_move"] - 1]) == 1, kind  # the case's tile alone
            assert any(check(e) for es in completions(load(s)) for e in es), kind
    limit = PROF.param("CARC-END-POINTS", "points")
    assert all(limit - 8 <= min(s["scores"]) for s in KINDS["late-50"])
    for s in KINDS["multi"]:
        assert any(sum(e["type"] == "feature-completed" for e in es) >= 2
                   for es in completions(load(s)))
    for s in KINDS["starved"]:
        state = load(s)
        assert state.step == CLAIM and state.supply[state.to_move - 1] == 0
        assert ENGINE.legal(state) == [("pass",)]
    for s in KINDS["joined"]:
        state = load(s)
        feats = ENGINE._tile_features(state, state.placed).values()
        assert any(any(state.feats[f].meeples) for f in feats)
    for s in KINDS["final-tie"]:
        after = ENGINE.apply(load(s), ("pass",))[0]
        assert ENGINE.current(after) == TERMINAL
        assert after.result is not None and len(after.result["winners"]) == PROF.param(
            "CARC-PLAYERS", "players")
    assert all(not s["deck"] for s in KINDS["final"])


def test_every_profile_has_monasteries_one_tile_from_complete() -> None:
    """Where random play leaves no monastery one gap from complete (the lookahead river),
    the crafted one is there: its one tile in hand completes it."""
    prof = profile("syncs-2025-river-lookahead")
    starts = pools(prof).by_kind["monastery"]
    assert len(starts) >= 2
    for o in starts:
        state = ENGINE.load(prof, o)
        assert len(state.hands[state.to_move - 1]) == 1
        assert any(e.get("feature") == "monastery" for es in completions(state) for e in es)


def test_exchange_starts_offer_an_exchange_on_request() -> None:
    prof = profile("syncs-2025-tower-placed")
    starts = pools(prof).by_kind["exchange"]
    assert starts
    for o in starts:
        state = ENGINE.load(prof, o)
        assert any(a[0] == "exchange" for a in ENGINE.legal(state))


def _states() -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    return st.sampled_from(ALL)


SEEN: Counter[str] = Counter()


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(start=_states(), data=st.data())
def test_moves_are_legal_and_probes_mostly_illegal(start: tuple[str, dict[str, Any]],
                                                   data: st.DataObject) -> None:
    ls = lockstep({"kind": "state", "state": start[1]})
    for _ in range(3):
        if ENGINE.current(ls.ref) == TERMINAL:
            break
        probe = PLUGIN.draw_probe(data, ls)
        assert isinstance(probe, dict)  # traces record actions as objects
        try:
            ENGINE.apply(ls.ref, ENGINE.action_from_json(ls.ref, probe))
            SEEN["probe accepted"] += 1
        except IllegalAction:
            SEEN["probe refused"] += 1
        assert ls.probe(probe) in (True, False)  # the reference engine agrees with itself
        action = PLUGIN.draw_action(data, ls)
        ls.step(action)  # raises InvalidInput if the plugin drew an illegal move
        SEEN["moves"] += 1


def test_probe_statistics() -> None:
    """Run after the property above (pytest keeps file order): most probes are refused."""
    if not SEEN:
        test_moves_are_legal_and_probes_mostly_illegal()
    refused, accepted = SEEN["probe refused"], SEEN["probe accepted"]
    assert SEEN["moves"] > 150
    assert refused > 6 * accepted


def test_bot_texts_reach_both_sides_of_the_referee() -> None:
    claim_step = load(KINDS["starved"][0])  # a claim step: passes with the right id are good
    verdicts: Counter[str] = Counter()

    @settings(max_examples=400, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(PLUGIN.bot_texts(PROF))
    def judge(text: str) -> None:
        assert isinstance(text, str)
        try:
            referee(ENGINE, claim_step, text)
            verdicts["accepted"] += 1
        except IllegalAction as exc:
            assert str(exc)
            verdicts["refused"] += 1
        assert ENGINE.referee(claim_step, text) in (("pass",), ("invalid",))

    judge()
    assert verdicts["accepted"] >= 10 and verdicts["refused"] >= 200


def test_targets_name_rare_cases_reached_in_play_only() -> None:
    tie = KINDS["ties"][0]
    crafted = lockstep({"kind": "state", "state": tie})
    assert id(tie) in crafted_ids() and PLUGIN.targets(crafted) == {}
    played = lockstep({"kind": "new_game"})
    assert PLUGIN.targets(played) == {}
    played.ref = load(tie)  # as if play had got there
    assert PLUGIN.targets(played) == {"players tied on a feature": 2.0}
    played.ref = next(s for s in map(load, KINDS["near-uturn"]) if _uturns(s))
    assert PLUGIN.targets(played) == {"a U-turn in reach": 1.0}
    played.ref = load(KINDS["near-50"][0])
    assert -2 <= PLUGIN.targets(played)["points short of the end"] <= -1
    closed = []
    for s in KINDS["multi"]:
        multi = load(s)
        for action in ENGINE.legal(multi):
            played.ref = ENGINE.apply(multi, action)[0]
            if played.ref.step == CLAIM:
                closed.append(PLUGIN.targets(played).get("features closed by one tile", 0))
    assert closed.count(0) < len(closed) and max(closed) >= 2


def test_chance_draws_follow_the_pile() -> None:
    ls = lockstep({"kind": "state", "state": KINDS["lake"][0]})
    assert ENGINE.current(ls.ref) == CHANCE and ls.ref.step == DRAW

    @settings(max_examples=5, database=None)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        assert PLUGIN.draw_action(data, ls) == {"type": "draw", "tile": "RE"}

    draw()


def test_prove_the_reference_in_process() -> None:
    ok, lines = prove_carcassonne(InProcessEngine(reference_session("carcassonne")), PROF)
    assert ok, lines
    assert lines[0].startswith("CARC-SCORE-MAJORITY symbolic proof: PROVED")
    assert "0 disagree" in lines[1] and "river placements" in lines[1]


def test_benchmark_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """A smoke run of benchmarks/speed/carcassonne_bench.py (tiny sizes; no timing asserted)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "speed" / "carcassonne_bench.py"
    spec = importlib.util.spec_from_file_location("carcassonne_bench", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["--games", "2", "--repeats", "1", "--lockstep-games", "1"])
    out = capsys.readouterr().out
    assert "games/s" in out and "ms/game" in out
    assert "enumerations/s" in out
    assert "lockstep steps/s" in out and "reference steps/s alone; ratio" in out
