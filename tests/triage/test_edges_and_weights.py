"""Oracles that check their whole rule (issue 16, part 3): BOTWARS-GRID judges adjacency
across the edge of the field, and chance rules judge the probabilities an engine lists."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from examples.engines.botwars.cascades.wrap_edges import WrapEdges
from examples.engines.botwars.energy.energy_weights import EnergyWeights
from examples.engines.flit.board.neutral_weights import Mutant as NeutralWeights
from gamecert.oracles.base import NA, OK, Transition, Violation
from gamecert.oracles.botwars import edges
from gamecert.oracles.flit import chance as flit_chance
from gamecert.oracles.weights import uniform
from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.flit import Flit
from gamecert.spec import load_catalogue
from tests.botwars.boards import moves, put, state

BW = load_catalogue("botwars")
EMPTY = "." * 400


def _step(engine: BotWars, position: dict[str, Any], action: dict[str, Any]) -> Transition:
    profile = BW.profile()
    s = engine.load(profile, position)
    after, events = engine.apply(s, engine.action_from_json(s, action))
    return Transition(position, action, engine.observe(after), events)


def test_a_step_across_the_edge_is_the_grids_to_answer_for() -> None:
    across = moves((19, 0))  # right edge to left edge: one step only on a torus
    # p1's list is judged when it is submitted, before anything moves
    submitted = state(put(EMPTY, s19="1", s200="2"), phase="p1")
    assert edges.grid_check(_step(BotWars(), submitted, across), BW.profile()) is OK
    verdict = edges.grid_check(_step(WrapEdges(), submitted, across), BW.profile())
    assert isinstance(verdict, Violation) and "across the edge" in verdict
    # carried out (p2's list), the step itself is not one on a field with edges
    carried = state(put(EMPTY, s19="2", s200="1"), phase="p2")
    assert edges.grid_check(_step(BotWars(), carried, across), BW.profile()) is OK
    assert isinstance(edges.grid_check(_step(WrapEdges(), carried, across), BW.profile()),
                      Violation)


def test_a_fight_across_the_edge_is_the_grids_to_answer_for() -> None:
    facing = state(put(EMPTY, s20="1", s39="2", s200="1", s300="2"), phase="p2")  # row 1
    stay = moves()
    assert edges.grid_check(_step(BotWars(), facing, stay), BW.profile()) is OK
    verdict = edges.grid_check(_step(WrapEdges(), facing, stay), BW.profile())
    assert isinstance(verdict, Violation) and "fight across the edge" in verdict


def test_a_listing_across_the_edge_is_the_grids_to_answer_for() -> None:
    position = state(put(EMPTY, s19="2", s200="1"), phase="p2")
    one = {"type": "moves", "moves": [{"from": 19, "to": 0}]}
    inside = {"type": "moves", "moves": [{"from": 19, "to": 18}]}
    assert isinstance(edges.grid_listed(position, one, True, BW.profile()), Violation)
    assert edges.grid_listed(position, one, False, BW.profile()) is OK
    assert edges.grid_listed(position, inside, True, BW.profile()) is NA  # no edge in play


def _listed(engine: Any, position: dict[str, Any], profile: Any) -> list[tuple[Any, Fraction]]:
    s = engine.load(profile, position)
    return [(engine.action_to_json(s, o.action), o.probability) for o in engine.chance(s)]


def test_energy_weights_are_uniform_over_the_pairs() -> None:
    position = state(put(EMPTY, s100="1", s300="2"), phase="energy", turns=3)
    hook = uniform("energy", "free mirror pairs")
    assert hook(position, _listed(BotWars(), position, BW.profile()), BW.profile()) is OK
    verdict = hook(position, _listed(EnergyWeights(), position, BW.profile()), BW.profile())
    assert isinstance(verdict, Violation) and "uniformly" in verdict


def test_neutral_weights_follow_the_square_then_the_hit() -> None:
    profile = load_catalogue("flit").profile()
    game = Flit()
    s = game.initial(profile, 0)
    while game.current(s) == 0 and s.phase == "setup":  # play the set-up to a move
        s, _ = game.apply(s, game.chance(s)[0].action)
    s, _ = game.apply(s, game.legal(s)[0])  # a move: the neutral step is due
    position = game.observe(s)
    assert position["phase"] == "neutral"
    assert flit_chance.neutral_weights(position, _listed(game, position, profile),
                                       profile) is OK
    verdict = flit_chance.neutral_weights(position, _listed(NeutralWeights(), position,
                                                            profile), profile)
    assert isinstance(verdict, Violation) and "probability" in verdict


def _draw_hooks(game: str) -> dict[str, Any]:
    from gamecert.oracles import oracles_for
    return {o.rule: o.weights for o in oracles_for(game) if o.weights is not None}


def _random_listings(engine: Any, game: str, seed: int) -> list[tuple[Any, Any]]:
    """(position, the engine's listing) at every chance step of one random game."""
    import random

    profile = load_catalogue(game).profile()
    rng = random.Random(seed)
    ref = engine.__class__.__mro__[1]() if engine.__class__.__name__ == "Mutant" else engine
    s = ref.initial(profile, None)
    out = []
    while ref.current(s) != -1:
        if ref.current(s) == 0:
            position = ref.observe(s)
            out.append((position, _listed(engine, position, profile)))
            action = rng.choice(ref.chance(s)).action
        else:
            action = rng.choice(list(ref.legal(s)))
        s, _ = ref.apply(s, action)
    return out


def test_carcassonne_and_kingdomino_draws_weigh_the_copies_left() -> None:
    # the reference's listings pass every weights hook at every chance step of a game; the
    # mutants' wrong weights are named by the chance rule they break
    from examples.engines.carcassonne.deck.draw_by_kind import Mutant as DrawByKind
    from examples.engines.kingdomino.draft.deal_weights import Mutant as DealWeights
    from gamecert.reference_engine.carcassonne import Carcassonne
    from gamecert.reference_engine.kingdomino import Kingdomino

    for game, ref, mutant, rule in (("carcassonne", Carcassonne(), DrawByKind(),
                                     "CARC-DECK-DRAW"),
                                    ("kingdomino", Kingdomino(), DealWeights(), "KD-DEAL")):
        hooks, profile = _draw_hooks(game), load_catalogue(game).profile()
        assert rule in hooks
        for position, listing in _random_listings(ref, game, 1):
            for name, hook in hooks.items():
                assert hook(position, listing, profile) in (OK, NA), (name, position["phase"])
        named = {name for position, listing in _random_listings(mutant, game, 1)
                 for name, hook in hooks.items()
                 if isinstance(hook(position, listing, profile), Violation)}
        assert named == {rule}, named
