"""The readings the original game's README adds, and the `original` profile that follows it:
two botlets moving onto one square die there (BOTWARS-MOVE-SAME-TARGET and -COLLIDE at
die-there), energy on spawn points (BOTWARS-ENERGY-SQUARES), numbers read by their value
(BOTWARS-FORMAT-DQ at integer-value). Each reading is played by the engine, judged by its
oracle, and an engine that follows another reading is caught."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import Any

import pytest

from examples.engines import engine_spec
from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation
from gamecert.oracles.botwars import ORACLES
from gamecert.reference_engine.botwars import BotWars, BotWarsConfig, BotWarsState
from gamecert.spec import Profile, load_catalogue

from .boards import COLS, ROWS, place, put, seed_pictures, state

CAT = load_catalogue("botwars")
ENGINE = BotWars()
EMPTY = "." * 400
BY_RULE = {o.rule: o for o in ORACLES}
ORIGINAL = CAT.profile("original")


def variant_of(base: str, **variants: str) -> Profile:
    """A profile like `base` with some readings changed (for combinations no bundled
    profile plays). Its id stays `base`'s, so states load under it."""
    p = CAT.profile(base)
    chosen = dict(p.variants)
    chosen.update({k.replace("_", "-"): v for k, v in variants.items()})
    return dataclasses.replace(p, variants=chosen)


def turn_steps(profile: Profile, grid: str, p1: tuple[tuple[int, int], ...] = (),
               p2: tuple[tuple[int, int], ...] = (), **kw: Any) -> list[Transition]:
    """A whole turn from phase p1, as the two transitions it takes."""
    s: BotWarsState = ENGINE.load(profile, state(grid, phase="p1", profile=profile.id, **kw))
    out = []
    for moves in (p1, p2):
        before = ENGINE.observe(s)
        action = ("moves", moves)
        action_json = ENGINE.action_to_json(s, action)
        s, events = ENGINE.apply(s, action)
        out.append(Transition(before, action_json, ENGINE.observe(s), events))
    return out


def all_verdicts(steps: list[Transition], profile: Profile) -> dict[str, list[Verdict]]:
    out: dict[str, list[Verdict]] = {}
    for o in ORACLES:
        if o.check is not None:
            out[o.rule] = [o.check(t, profile) for t in steps]
    return out


def assert_clean(steps: list[Transition], profile: Profile, *applied: str) -> None:
    verdicts = all_verdicts(steps, profile)
    bad = {rule: v for rule, vs in verdicts.items() for v in vs if v is not OK and v is not NA}
    assert not bad, bad
    for rule in applied:
        assert OK in verdicts[rule], rule


def caught(steps: list[Transition], profile: Profile, rule: str) -> bool:
    check = BY_RULE[rule].check
    assert check is not None
    return any(isinstance(check(t, profile), Violation) for t in steps)


def died(steps: list[Transition]) -> list[tuple[str, Any, int]]:
    return sorted((e["rule"], e.get("from"), e["at"]) for e in steps[-1].events
                  if e["type"] == "died")


# --- the original profile -----------------------------------------------------------------
def test_the_original_profile_follows_the_readme() -> None:
    want = {"BOTWARS-MOVE-SAME-TARGET": "die-there", "BOTWARS-MOVE-COLLIDE": "die-there",
            "BOTWARS-BATTLE": "lose-any-fight", "BOTWARS-MOVE-INVALID": "drop-move",
            "BOTWARS-TIME-LIMIT": "disqualify", "BOTWARS-ENERGY-SQUARES": "any-empty",
            "BOTWARS-FORMAT-DQ": "integer-value"}
    assert {rid: ORIGINAL.variant(rid) for rid in want} == want
    assert ORIGINAL.param("BOTWARS-TIME-LIMIT", "limit_ms") == 2000
    readme = CAT.sources["original-readme"]
    # pinned: the early revision (2 s, invalid moves simply ignored), not the later HTTP one
    assert readme["url"] == ("https://github.com/method-inc/bots/blob/"
                             "2e7edd99586d629502c2354ca31191c1d8be81c2/README.md")
    assert "5 s" not in readme["edition"] and "two seconds" in readme["edition"]
    assert "five seconds" in CAT.sources["original-readme-http"]["edition"]
    for rid in ("BOTWARS-MOVE-SAME-TARGET", "BOTWARS-MOVE-COLLIDE", "BOTWARS-TIME-LIMIT"):
        assert CAT.rule(rid).source_doc == "original-readme"


@pytest.mark.parametrize("index", range(4))
def test_the_battle_rule_as_the_readme_words_it_draws_the_four_pictures(index: int) -> None:
    """'The unit with the most opposing units adjacent will die; the same number: both die',
    battle by battle: the original profile's reading reproduces every picture."""
    before, after = seed_pictures()[index]
    grid = place(before, 8, 7)
    dead = {(8 + r) * COLS + 7 + c for r, row in enumerate(after)
            for c, ch in enumerate(row) if ch == "x"}
    got = {sq for sq, _ in ENGINE.battle_deaths(BotWarsConfig.of(ORIGINAL), grid.encode())}
    assert got == dead and len(grid) == ROWS * COLS


# --- BOTWARS-MOVE-SAME-TARGET = die-there --------------------------------------------------
TWO_ONTO_80 = put(EMPTY, s100="1", s81="1", s300="2")


def test_two_own_botlets_onto_one_square_both_die_there() -> None:
    steps = turn_steps(ORIGINAL, TWO_ONTO_80, ((100, 80), (81, 80)))
    after = steps[-1].after["grid"]
    assert after[80] == "x" and after[100] == "." and after[81] == "."
    assert died(steps) == [("BOTWARS-MOVE-SAME-TARGET", 81, 80),
                           ("BOTWARS-MOVE-SAME-TARGET", 100, 80)]
    assert_clean(steps, ORIGINAL, "BOTWARS-MOVE-SAME-TARGET", "BOTWARS-DEAD-MARKERS")


@pytest.mark.parametrize("other", ["first-wins", "all-invalid"])
def test_an_engine_reading_same_target_otherwise_is_caught(other: str) -> None:
    wrong = variant_of("original", **{"BOTWARS-MOVE-SAME-TARGET": other})
    steps = turn_steps(wrong, TWO_ONTO_80, ((100, 80), (81, 80)))
    assert caught(steps, ORIGINAL, "BOTWARS-MOVE-SAME-TARGET")
    # and the other way round: dying there is wrong under the other readings
    there = turn_steps(ORIGINAL, TWO_ONTO_80, ((100, 80), (81, 80)))
    assert caught(there, wrong, "BOTWARS-MOVE-SAME-TARGET")


def test_a_crowd_onto_energy_gathers_nothing() -> None:
    gather = variant_of("original", **{"BOTWARS-MOVE-ENERGY": "gather"})
    grid = put(EMPTY, s100="1", s81="1", s80="*", s300="2")
    steps = turn_steps(gather, grid, ((100, 80), (81, 80)), razed=(True, True))
    assert steps[-1].after["grid"][80] == "x" and steps[-1].after["p1"]["energy"] == 0
    assert_clean(steps, gather, "BOTWARS-MOVE-ENERGY", "BOTWARS-MOVE-SAME-TARGET")


def test_a_botlet_may_follow_one_that_dies_ahead() -> None:
    follow = variant_of("original", **{"BOTWARS-MOVE-OCCUPIED": "follow-own"})
    grid = put(EMPTY, s100="1", s81="1", s120="1", s300="2")
    steps = turn_steps(follow, grid, ((100, 80), (81, 80), (120, 100)))
    after = steps[-1].after["grid"]
    assert after[80] == "x" and after[100] == "1" and after[120] == "."
    assert_clean(steps, follow, "BOTWARS-MOVE-SAME-TARGET", "BOTWARS-MOVE-OCCUPIED")


# --- BOTWARS-MOVE-COLLIDE = die-there ------------------------------------------------------
MEET_AT_101 = put(EMPTY, s100="1", s102="2", s300="2", s50="1")


@pytest.mark.parametrize(("profile", "grid_101", "dead"), [
    ("original", "x", [("BOTWARS-MOVE-COLLIDE", 100, 101), ("BOTWARS-MOVE-COLLIDE", 102, 101)]),
    ("standard", ".", []),  # bounce
    ("alternate", ".", [("BOTWARS-MOVE-COLLIDE", None, 100),
                        ("BOTWARS-MOVE-COLLIDE", None, 102)]),  # both-die, where they stand
])
def test_enemies_moving_onto_one_square(profile: str, grid_101: str,
                                        dead: list[tuple[str, Any, int]]) -> None:
    prof = CAT.profile(profile)
    steps = turn_steps(prof, MEET_AT_101, ((100, 101),), ((102, 101),))
    assert steps[-1].after["grid"][101] == grid_101
    assert died(steps) == dead
    assert_clean(steps, prof, "BOTWARS-MOVE-COLLIDE")


def test_three_botlets_onto_one_square_all_die_there() -> None:
    grid = put(EMPTY, s100="1", s81="1", s102="2", s300="2", s50="1")
    steps = turn_steps(ORIGINAL, grid, ((100, 101), (81, 101)), ((102, 101),))
    assert steps[-1].after["grid"][101] == "x"
    assert [(p, f) for p, f in sorted((e["player"], e["from"]) for e in steps[-1].events
                                      if e["type"] == "died")] == [("p1", 81), ("p1", 100),
                                                                   ("p2", 102)]
    assert_clean(steps, ORIGINAL, "BOTWARS-MOVE-COLLIDE", "BOTWARS-MOVE-SAME-TARGET")


@pytest.mark.parametrize("other", ["bounce", "both-die"])
def test_an_engine_reading_collisions_otherwise_is_caught(other: str) -> None:
    wrong = variant_of("original", **{"BOTWARS-MOVE-COLLIDE": other})
    steps = turn_steps(wrong, MEET_AT_101, ((100, 101),), ((102, 101),))
    assert caught(steps, ORIGINAL, "BOTWARS-MOVE-COLLIDE")
    there = turn_steps(ORIGINAL, MEET_AT_101, ((100, 101),), ((102, 101),))
    assert caught(there, wrong, "BOTWARS-MOVE-COLLIDE")


# --- BOTWARS-ENERGY-SQUARES ----------------------------------------------------------------
def energy_phase(profile: Profile, grid: str) -> BotWarsState:
    return ENGINE.load(profile, state(grid, phase="energy", turns=3, profile=profile.id))


@pytest.mark.parametrize(("profile", "offered"), [("original", True), ("standard", False)])
def test_energy_on_the_spawn_points(profile: str, offered: bool) -> None:
    prof = CAT.profile(profile)
    s = energy_phase(prof, put(EMPTY, s100="1", s300="2"))
    pairs = {o.action[1] for o in ENGINE.chance(s)}
    assert (21 in pairs) is offered and len(pairs) == 197 + offered  # 100, 300 taken
    judge = BY_RULE["BOTWARS-ENERGY-SQUARES"].judge
    assert judge is not None
    on_spawn = {"type": "energy", "at": [21, 378]}
    assert judge(ENGINE.observe(s), on_spawn, offered, prof) is OK
    assert isinstance(judge(ENGINE.observe(s), on_spawn, not offered, prof), Violation)
    if offered:
        before = ENGINE.observe(s)
        after, events = ENGINE.apply(s, ("energy", 21))
        t = Transition(before, on_spawn, ENGINE.observe(after), events)
        assert after.grid[21] == after.grid[378] == ord("*")
        check = BY_RULE["BOTWARS-ENERGY-SQUARES"].check
        assert check is not None and check(t, prof) is OK
        assert isinstance(check(t, CAT.profile("standard")), Violation)


def test_only_the_spawn_pair_free_means_energy_there_or_none() -> None:
    grid = "".join("." if sq in (21, 378) else ("1" if sq < 200 else "2")
                   for sq in range(400))
    for profile, want in (("original", [("energy", 21)]), ("standard", [("energy", -1)])):
        s = energy_phase(CAT.profile(profile), grid)
        assert [o.action for o in ENGINE.chance(s)] == want


def test_energy_on_a_spawn_point_holds_it_until_collected() -> None:
    # p1 owns energy but its spawn holds energy: the spawn waits; the botlet beside collects
    grid = put(EMPTY, s21="*", s378="*", s100="1", s300="2")
    steps = turn_steps(ORIGINAL, grid, energy=(1, 0))
    assert steps[-1].after["grid"][21] == "*" and steps[-1].after["p1"]["energy"] == 1
    assert_clean(steps, ORIGINAL, "BOTWARS-SPAWN")
    grid = put(EMPTY, s21="*", s378="*", s22="1", s300="2")
    steps = turn_steps(ORIGINAL, grid, energy=(1, 0))
    assert steps[-1].after["grid"][21] == "." and steps[-1].after["p1"]["energy"] == 2
    assert_clean(steps, ORIGINAL, "BOTWARS-ENERGY-COLLECT")


# --- BOTWARS-FORMAT-DQ: number formats ----------------------------------------------------
@pytest.mark.parametrize(("text", "literal", "value"), [
    ('[{"from": 100, "to": 101}]', ((100, 101),), ((100, 101),)),
    ('[{"from": 100.0, "to": 101}]', None, ((100, 101),)),
    ('[{"from": 1e2, "to": 101}]', None, ((100, 101),)),
    ('[{"from": 100, "to": 1.01E2}]', None, ((100, 101),)),
    ('[{"from": 100, "to": -0.0}]', None, ((100, 0),)),
    ('[{"from": 100.5, "to": 101}]', None, None),
    ('[{"from": 1e400, "to": 101}]', None, None),
    ('[{"from": true, "to": 101}]', None, None),
])
def test_numbers_written_with_a_fraction_or_an_exponent(
        text: str, literal: tuple[tuple[int, int], ...] | None,
        value: tuple[tuple[int, int], ...] | None) -> None:
    referee = BY_RULE["BOTWARS-FORMAT-DQ"].referee
    assert referee is not None
    for profile, want in (("standard", literal), ("original", value)):
        prof = CAT.profile(profile)
        s = ENGINE.load(prof, state(put(EMPTY, s100="1", s300="2"), phase="p1",
                                    profile=profile))
        action = ENGINE.referee(s, text)
        assert action == (("bad-format",) if want is None else ("moves", want)), profile
        got = ENGINE.action_to_json(s, action)
        assert referee(ENGINE.observe(s), text, got, prof) is OK
        other = CAT.profile("original" if profile == "standard" else "standard")
        if literal != value:  # the other reading's referee is caught
            assert isinstance(referee(ENGINE.observe(s), text, got, other), Violation)


# --- the command the issue names -----------------------------------------------------------
def test_the_reference_certifies_clean_under_the_original_profile() -> None:
    out = subprocess.run([sys.executable, "-m", "gamecert", "certify", "botwars", "--engine",
                          "reference", "--profile", "original", "--rounds", "12"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "CERTIFIED: 25 rules passed, 0 violated, 0 not exercised" in out.stdout


# --- BOTWARS-MOVE: a botlet named twice (an open point the audit found) --------------------
NAMED_TWICE = ((100, 80), (100, 101))


@pytest.mark.parametrize(("profile", "invalid"), [("standard", [1]), ("alternate", [0, 1])])
def test_a_botlet_named_twice(profile: str, invalid: list[int]) -> None:
    prof = variant_of(profile, **{"BOTWARS-MOVE-INVALID": "drop-move"})
    steps = turn_steps(prof, put(EMPTY, s100="1", s300="2"), NAMED_TWICE)
    said = sorted(e["index"] for e in steps[0].events if e["type"] == "move-invalid")
    assert said == invalid
    assert steps[0].after["pending"] == ([] if 0 in invalid else [{"from": 100, "to": 80}])
    assert_clean(steps, prof, "BOTWARS-MOVE")
    other = variant_of("alternate" if profile == "standard" else "standard",
                       **{"BOTWARS-MOVE-INVALID": "drop-move"})
    assert caught(steps, other, "BOTWARS-MOVE")


# --- BOTWARS-DEAD-MARKERS: does a marker hold its square? (an open point the audit found) --
@pytest.mark.parametrize(("reading", "spawned"), [("holds", False), ("empty", True)])
def test_a_botlet_dying_on_its_own_spawn(reading: str, spawned: bool) -> None:
    # 1 on its spawn (21) against 2 on 22: both die; then p1 could pay for a botlet on 21
    prof = variant_of("standard", **{"BOTWARS-DEAD-MARKERS": reading})
    grid = put(EMPTY, s21="1", s22="2", s100="1", s300="2")
    steps = turn_steps(prof, grid, energy=(1, 0))
    after = steps[-1].after
    assert after["grid"][21] == ("1" if spawned else "x")
    assert after["p1"]["energy"] == (0 if spawned else 1)
    assert_clean(steps, prof, "BOTWARS-SPAWN", "BOTWARS-DEAD-MARKERS", "BOTWARS-BATTLE")
    other = variant_of("standard", **{"BOTWARS-DEAD-MARKERS": "holds" if spawned else "empty"})
    assert caught(steps, other, "BOTWARS-SPAWN")


@pytest.mark.parametrize(("reading", "offered"), [("holds", False), ("empty", True)])
def test_energy_on_this_turns_dead(reading: str, offered: bool) -> None:
    prof = variant_of("standard", **{"BOTWARS-DEAD-MARKERS": reading})
    s = energy_phase(prof, put(EMPTY, s100="1", s300="2", s150="x", s249="X"))
    assert (150 in {o.action[1] for o in ENGINE.chance(s)}) is offered
    judge = BY_RULE["BOTWARS-ENERGY-SPAWN"].judge
    assert judge is not None
    on_dead = {"type": "energy", "at": [150, 249]}
    assert judge(ENGINE.observe(s), on_dead, offered, prof) is OK
    assert isinstance(judge(ENGINE.observe(s), on_dead, not offered, prof), Violation)
    if offered:
        before = ENGINE.observe(s)
        after, events = ENGINE.apply(s, ("energy", 150))
        t = Transition(before, on_dead, ENGINE.observe(after), events)
        assert t.after["grid"][150] == t.after["grid"][249] == "*"
        for rule in ("BOTWARS-ENERGY-SPAWN", "BOTWARS-DEAD-MARKERS"):
            check = BY_RULE[rule].check
            assert check is not None and check(t, prof) is OK, rule
        held = variant_of("standard", **{"BOTWARS-DEAD-MARKERS": "holds"})
        check = BY_RULE["BOTWARS-DEAD-MARKERS"].check
        assert check is not None and isinstance(check(t, held), Violation)


@pytest.mark.parametrize("spec", [engine_spec("botwars", "start_without_botlets"),
                                  engine_spec("botwars", "start_without_botlets", "bare")])
def test_a_departure_in_the_start_state_does_not_stop_the_examples(spec: str) -> None:
    """Issue 26: under `original` an engine whose new game differs from the reference's
    played no step at all. With load_state it is put back on the reference's state; behind
    `bare:` the reference takes on its start (a turn-0 field the readings allow) and plays
    on: steps run past the departure, charged to BOTWARS-FIRST-BOTLETS alone."""
    from gamecert.fuzz.engines.recipes import engine_recipe
    from gamecert.fuzz.search.campaign import run_campaign

    result = run_campaign("botwars", engine_recipe("botwars", spec), profile_id="original",
                          rounds=2, seed=1)
    assert [d.primary for d in result.departures] == ["BOTWARS-FIRST-BOTLETS"]
    assert {r for d in result.departures for r in d.finding.rules} == {
        "BOTWARS-FIRST-BOTLETS"}
    assert result.coverage.steps > 100 and result.coverage.past_steps > 100
