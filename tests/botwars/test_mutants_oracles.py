"""Each example mutant breaks one rule: on a concrete position and action its transition
makes the oracle of that rule answer a violation, while the reference's transition on the
same input passes every oracle. A mutant that differs in the chance outcomes it offers is
shown by judging every energy outcome of the position as it accepts or refuses it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from examples.engines import load
from examples.engines.botwars import MUTANTS
from gamecert.oracles.base import NA, OK, Oracle, Transition, Violation
from gamecert.oracles.botwars import ORACLES
from gamecert.reference_engine.botwars import BotWars
from gamecert.spec import load_catalogue

from .boards import moves, place, put, state

CAT = load_catalogue("botwars")
BY_RULE = {o.rule: o for o in ORACLES}
EMPTY = "." * 400


@dataclass(frozen=True)
class Case:
    position: dict[str, Any]
    action: dict[str, Any] | None = None  # applied as is
    text: str | None = None  # or a bot's reply, through the engine's referee
    chance: bool = False  # or: the energy outcomes it offers in the position, judged


CASES: dict[str, Case] = {
    # the seed's "multiple battles" picture: one pair at a time, the p2 botlet below the
    # middle p1 one dies too, though the seed shows it alive
    "battle_pairwise": Case(state(place(["...12", ".121.", "...2."], 8, 7)), moves()),
    # p2 steps onto p1's spawn (21) between two p1 botlets and dies there: no razing
    "raze_before_battle": Case(state(put(EMPTY, s1="1", s20="1", s22="2", s300="2")),
                               moves((22, 21))),
    # energy on 205 between a p1 botlet (204) and a p2 botlet (206): removed, nobody gains
    "contested_to_p1": Case(state(put(EMPTY, s204="1", s205="*", s206="2")), moves()),
    # after turn 2 no energy is due (3, 6, 9, ...)
    "energy_every_2": Case(state(put(EMPTY, s100="1", s300="2"), turns=1), moves()),
    # p1's spawn is razed; its energy must wait for ever
    "spawn_when_razed": Case(state(put(EMPTY, s100="1", s300="2"), energy=(1, 0),
                                   razed=(True, False)), moves()),
    # the last turn: p1 has more botlets, p2 more energy (and a razed spawn, so it keeps it)
    "winner_by_energy": Case(state(put(EMPTY, s100="1", s101="1", s140="1", s300="2",
                                       s301="2"), turns=199, energy=(0, 5),
                                   razed=(False, True)), moves()),
    # p1's list has one valid and one invalid move: by default the whole turn is lost
    "invalid_drops_move": Case(state(put(EMPTY, s100="1", s102="1", s300="2"), phase="p1"),
                               moves((100, 80), (102, 102))),
    # energy diagonal to a p1 botlet only: nobody collects it
    "collect_diagonal": Case(state(put(EMPTY, s184="1", s205="*", s300="2")), moves()),
    # a single object, not a list: disqualification
    "lenient_format": Case(state(put(EMPTY, s100="1", s300="2"), phase="p1"),
                           text='{"from": 100, "to": 80}'),
    # turn 200 is the last
    "turn_limit_late": Case(state(put(EMPTY, s100="1", s300="2"), turns=199), moves()),
    # p1 steps onto its own botlet
    "move_onto_own": Case(state(put(EMPTY, s100="1", s101="1", s300="2"), phase="p1"),
                          moves((100, 101))),
    # energy is due and both spawn points are empty: by default no energy goes there
    "energy_on_spawn": Case(state(put(EMPTY, s100="1", s300="2"), phase="energy", turns=3),
                            chance=True),
    # the same pairs, the first listed twice as likely as each other one
    "energy_weights": Case(state(put(EMPTY, s100="1", s300="2"), phase="energy", turns=3),
                           chance=True),
}


def judged_outcomes(engine: BotWars, case: Case, oracle: Oracle) -> list[Any]:
    """The judge of `oracle` on every energy outcome of the position (each mirror pair, and
    none), as `engine` offers it in its chance outcomes or not."""
    profile = CAT.profile()
    s = engine.load(profile, case.position)
    offered = {o.action for o in engine.chance(s)}
    out: list[Any] = []
    if oracle.weights is not None:  # the probabilities it lists, as a chance rule's draw
        listed = [(engine.action_to_json(s, o.action), o.probability) for o in engine.chance(s)]
        out.append(oracle.weights(case.position, listed, profile))
    if oracle.judge is None:
        return out
    for sq in range(-1, s.cfg.size // 2):
        action = ("energy", sq)
        out.append(oracle.judge(case.position, engine.action_to_json(s, action),
                                action in offered, profile))
    return out


def transition(engine: BotWars, case: Case) -> tuple[Transition, tuple[str, Any] | None]:
    profile = CAT.profile()
    s = engine.load(profile, case.position)
    referee = None
    if case.text is not None:
        act = engine.referee(s, case.text)
        referee = (case.text, engine.action_to_json(s, act))
    else:
        assert case.action is not None
        act = engine.action_from_json(s, case.action)
    after, events = engine.apply(s, act)
    return Transition(case.position, engine.action_to_json(s, act), engine.observe(after),
                      events), referee


def answers(oracle: Oracle, t: Transition, referee: tuple[str, Any] | None) -> list[Any]:
    out = []
    profile = CAT.profile()
    if oracle.state is not None:
        out.append(oracle.state(t.after, profile))
    if oracle.check is not None:
        out.append(oracle.check(t, profile))
    if oracle.referee is not None and referee is not None:
        out.append(oracle.referee(t.before, referee[0], referee[1], profile))
    return out


def test_every_mutant_has_a_case() -> None:
    assert sorted(CASES) == sorted(MUTANTS)
    assert len(MUTANTS) >= 6


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught_by_the_oracle_of_its_rule(name: str) -> None:
    module = load("botwars", name)
    rule, mutant_class = module.RULE, module.ENGINE
    assert issubclass(mutant_class, BotWars) and rule in CAT.rule_ids
    case = CASES[name]
    if case.chance:
        for oracle in ORACLES:
            for verdict in judged_outcomes(BotWars(), case, oracle):
                assert verdict is OK or verdict is NA, f"reference fails {oracle.rule}: {verdict}"
        assert OK in judged_outcomes(BotWars(), case, BY_RULE[rule]), "the rule must apply here"
        caught = [v for v in judged_outcomes(mutant_class(), case, BY_RULE[rule])
                  if isinstance(v, Violation)]
        assert caught, f"{name}: {rule} did not object"
        return

    ref_t, ref_referee = transition(BotWars(), case)
    for oracle in ORACLES:
        for verdict in answers(oracle, ref_t, ref_referee):
            assert verdict is OK or verdict is NA, f"reference fails {oracle.rule}: {verdict}"
    assert OK in answers(BY_RULE[rule], ref_t, ref_referee), "the rule must apply here"

    bad_t, bad_referee = transition(mutant_class(), case)
    caught = [v for v in answers(BY_RULE[rule], bad_t, bad_referee) if isinstance(v, Violation)]
    assert caught, f"{name}: {rule} did not object"


def test_mutants_are_one_method_overrides() -> None:
    for name in MUTANTS:
        module = load("botwars", name)
        own = [k for k, v in vars(module.ENGINE).items() if callable(v)]
        assert len(own) == 1, (name, own)
        assert getattr(BotWars, own[0], None) is not None, (name, own)
