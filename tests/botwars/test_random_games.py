"""Random full games under every profile: they end, states round-trip through JSON, chance
outcomes sum to one, the legal actions are accepted; load refuses states that are not."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.spec import load_catalogue

from .boards import moves, put, state

CAT = load_catalogue("botwars")
ENGINE = BotWars()


@pytest.mark.parametrize("profile", sorted(CAT.profiles))
def test_random_games_run_to_the_end_and_round_trip(profile: str) -> None:
    prof = CAT.profile(profile)
    for game_no in range(3):
        rng = random.Random(f"{profile}-{game_no}")
        s = ENGINE.initial(prof)
        steps = 0
        while ENGINE.current(s) != TERMINAL:
            seen = ENGINE.observe(s)
            if steps % 7 == 0:  # load is schema-checked: round-trip a sample of states
                assert ENGINE.load(prof, seen) == s
            if ENGINE.current(s) == CHANCE:
                outcomes = ENGINE.chance(s)
                assert sum((o.probability for o in outcomes), Fraction(0)) == 1
                action = ENGINE.random_chance(s, rng)
                assert action in [o.action for o in outcomes]
            else:
                assert ENGINE.current(s) == (1 if seen["phase"] == "p1" else 2)
                if steps % 25 == 0:
                    for legal in ENGINE.legal(s):
                        _, events = ENGINE.apply(s, legal)
                        assert not [e for e in events if e["type"] in ("move-invalid",
                                                                       "turn-lost")]
                action = ENGINE.random_action(s, rng, toward=0.4 * game_no)
            s, _ = ENGINE.apply(s, action)
            steps += 1
        end = ENGINE.observe(s)
        assert ENGINE.load(prof, end) == s
        assert end["endReason"] in ("elimination", "turn-limit")
        assert end["turnsElapsed"] <= 200
        n1, n2 = ENGINE.scores(s)
        if end["endReason"] == "turn-limit":
            assert end["turnsElapsed"] == 200 and n1 and n2
        else:
            assert 0 in (n1, n2)
        with pytest.raises(IllegalAction):
            ENGINE.apply(s, ("moves", ()))


def test_energy_comes_every_third_turn_as_a_mirror_pair() -> None:
    prof = CAT.profile()
    rng = random.Random(1)
    s = ENGINE.initial(prof)
    placed_after = []
    while s.turns < 12:
        if ENGINE.current(s) == CHANCE:
            placed_after.append(s.turns)
            s, events = ENGINE.apply(s, ENGINE.random_chance(s, rng))
            (e,) = events
            a, b = e["at"]
            assert a + b == 399 and s.grid[a] == s.grid[b] == ord("*")
        else:
            s, _ = ENGINE.apply(s, ("moves", ()))
    assert placed_after == [3, 6, 9]


def test_port_profile_places_energy_from_the_first_turn_every_five() -> None:
    prof = CAT.profile("port")
    s = ENGINE.initial(prof)
    placed_after = []
    while s.turns < 12:
        if ENGINE.current(s) == CHANCE:
            placed_after.append(s.turns)
            s, _ = ENGINE.apply(s, ("energy", -1) if not ENGINE.free_pairs(s)
                                else ("energy", ENGINE.free_pairs(s)[0]))
        else:
            s, _ = ENGINE.apply(s, ("moves", ()))
    assert placed_after == [1, 6, 11]


def test_first_turn_spawns_the_first_botlets() -> None:
    s = ENGINE.initial(CAT.profile())
    assert ENGINE.scores(s) == [0, 0] and s.energy == (1, 1)
    s, _ = ENGINE.apply(s, ("moves", ()))
    s, events = ENGINE.apply(s, ("moves", ()))
    assert [e["at"] for e in events if e["type"] == "spawned"] == [21, 378]
    assert ENGINE.observe(s)["p1"]["energy"] == 0 and ENGINE.observe(s)["turnsElapsed"] == 1
    alt = ENGINE.initial(CAT.profile("alternate"))
    assert ENGINE.scores(alt) == [1, 1] and alt.energy == (0, 0)


def test_bots_never_see_pending_moves() -> None:
    s = ENGINE.initial(CAT.profile())
    s, _ = ENGINE.apply(s, ("moves", ()))
    s, _ = ENGINE.apply(s, ("moves", ()))
    s, _ = ENGINE.apply(s, ("moves", ((21, 22),)))
    assert ENGINE.observe(s)["pending"] == [{"from": 21, "to": 22}]
    view = ENGINE.bot_view(s, "p2", "g1")
    assert view["player"] == "p2" and "pending" not in view["state"]
    assert view["state"]["grid"] == ENGINE.observe(s)["grid"]
    assert set(view["state"]["p1"]) == {"energy", "spawn", "spawnDisabled"}


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(grid="." * 399), "grid has 399 squares"),
    (lambda d: d.update(rows=10), "the field is 10x20"),
    (lambda d: d.update(phase="p1"), "pending is a list in phase 'p2'"),
    (lambda d: d.update(pending=[{"from": 5, "to": 6}]), "pending must list valid moves"),
    (lambda d: d["p2"].update(spawn=377), "p2.spawn is 377"),
    (lambda d: d.update(grid=put(d["grid"], s21="2")), "stands on p1's spawn"),
    (lambda d: d.update(phase="energy", pending=None), "energy is not due after turn 10"),
    (lambda d: d.update(winner="p1"), "a winner is named"),
    (lambda d: d.update(turnsElapsed=0), "turnsElapsed 0"),
    (lambda d: d.update(grid="?" * 400), "not a Bot Wars state"),
])
def test_load_refuses_what_is_not_a_state(change: object, message: str) -> None:
    doc = state(put("." * 400, s100="1", s300="2"))
    assert ENGINE.load(CAT.profile(), doc)
    change(doc)  # type: ignore[operator]
    with pytest.raises(BadState, match=message):
        ENGINE.load(CAT.profile(), doc)


def test_wrong_phase_actions_are_refused() -> None:
    s = ENGINE.load(CAT.profile(), state(put("." * 400, s100="1", s300="2"), turns=2))
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, ("energy", 0))
    s, _ = ENGINE.apply(s, ("moves", ()))
    assert s.phase == "energy"
    for wrong in [("moves", ()), ("timeout",), ("energy", 100), ("energy", -1)]:
        if wrong == ("energy", 100):
            s_bad = s._replace(grid=put(s.grid.decode(), s100="1").encode())
            with pytest.raises(IllegalAction):
                ENGINE.apply(s_bad, wrong)
            continue
        with pytest.raises(IllegalAction):
            ENGINE.apply(s, wrong)
    with pytest.raises(IllegalAction):
        ENGINE.action_from_json(s, {"type": "energy", "at": [5, 300]})
    assert ENGINE.action_from_json(s, {"type": "energy", "at": [5, 394]}) == ("energy", 5)
    assert ENGINE.action_from_json(s, moves((1, 2))) == ("moves", ((1, 2),))


def test_judges_agree_with_the_reference_on_wrong_phase_actions() -> None:
    from gamecert.oracles.base import NA, OK, Violation
    from gamecert.oracles.botwars import ORACLES

    prof = CAT.profile()
    judges = [o.judge for o in ORACLES if o.judge is not None]
    s = ENGINE.load(prof, state(put("." * 400, s100="1", s300="2"), turns=2))
    s, _ = ENGINE.apply(s, ("moves", ()))
    over = ENGINE.apply(ENGINE.initial(prof), ("bad-format",))[0]
    cases = [(s, {"type": "moves", "moves": []}), (s, {"type": "timeout"}),
             (over, {"type": "moves", "moves": []}), (over, {"type": "energy", "at": None})]
    for st_, action in cases:
        with pytest.raises(IllegalAction):
            ENGINE.apply(st_, ENGINE.action_from_json(st_, action))
        seen = ENGINE.observe(st_)
        answers = [judge(seen, action, False, prof) for judge in judges]
        assert all(a is OK or a is NA for a in answers)
        assert OK in answers
        wrong = [judge(seen, action, True, prof) for judge in judges]
        assert any(isinstance(a, Violation) for a in wrong)
