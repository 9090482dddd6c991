"""Every public mutant behind the minimum-capability wrapper (no load_state, legal,
bot_output or chance: it draws for itself and reports its draws) is caught under its rule,
or its rule is listed in the certificate as not checkable with the capability named, or it
is one of the known limits below, each with the capability that would catch it.

The default suite runs a representative subset; the whole list is marked slow (and is what
benchmarks/minimal_mutants.py prints, with timings)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/, examples/

from benchmarks.minimal_mutants import (
    CAUGHT,
    NOT_CHECKABLE,
    minimal_campaign,
    mutants,
    verdict,
)

ALL = mutants()
ROUNDS = 3  # as benchmarks/minimal_mutants.py --rounds 3 (examples 4x longer: no load_state)

# Mutants the wrapper did not show under their rule in a short campaign, and the capability
# whose absence hides them. Found with benchmarks/minimal_mutants.py (--rounds 3; Flit's
# with --rounds 4 and examples of the usual length, before STEER_FACTOR, and 1 round for
# its last five); docs/capabilities.md quotes the tally. A mutant here that is caught in
# some run is fine.
LIMITS: dict[tuple[str, str], str] = {
    # Its own draws never break the rule: the fault is in accepting draws the rules forbid,
    # or in where a draw goes, which only a harness that chooses the outcomes can offer or
    # see apart from the step.
    ("flit", "neutral_anywhere"): "chance",
    ("flit", "setup_any_empty"): "chance",  # one of a few squares in 1,024: never drawn
    ("kingdomino", "deal_drawn_tile"): "chance",
    ("carcassonne", "deal_to_mover"): "chance",  # seen, but as CARC-HAND-SIZE
    # It differs only in what it accepts: found by comparing legal sets, rarely by probes.
    ("kingdomino", "pick_on_last_turn"): "legal",
    # It differs only in the probabilities it lists; behind the wrapper its biased draws
    # are left to the statistics, which may or may not reach significance in 3 rounds.
    ("carcassonne", "draw_by_kind"): "legal",
    ("kingdomino", "deal_weights"): "legal",
    # It differs only in how it reads raw bot text.
    ("botwars", "lenient_format"): "bot_output",
    ("flit", "silent_conversion"): "bot_output",  # FLIT-PROTO-UPDATES: what bots are told
    # Positions crafted from states (the torus's edges, long runs of time-outs, the turn
    # cap and catch-up endings, battles, razing, a game's end, a full tower, a farm
    # scored): new games and steering rarely get there in a short campaign. Most show as
    # "not exercised" (the certificate is INCOMPLETE), the others as passed cases that
    # never met the break.
    **{(g, m): "load_state" for g, m in (
        ("flit", "no_wrap_x"), ("flit", "freeze_after_four"), ("flit", "turncap_off_by_one"),
        ("flit", "catchup_ge"), ("flit", "catchup_no_offset"), ("flit", "winner_zero_based"),
        ("botwars", "battle_pairwise"), ("botwars", "raze_before_battle"),
        ("botwars", "contested_to_p1"), ("botwars", "winner_by_energy"),
        ("botwars", "turn_limit_late"), ("botwars", "move_onto_own"),
        ("botwars", "energy_on_spawn"), ("botwars", "spawn_when_razed"),
        # caught in the first tally, missed in 3 rounds after the merge that pinned
        # Hypothesis's draws (fuzz.rounds.same_draws_everywhere): energy beside botlets
        ("botwars", "collect_diagonal"),
        ("carcassonne", "banners_ignored_at_end"), ("carcassonne", "incomplete_monastery_9"),
        ("carcassonne", "no_stop_at_50"), ("carcassonne", "road_loop_open"),
        ("carcassonne", "monastery_8"), ("carcassonne", "end_when_deck_empty"),
        ("carcassonne", "winner_before_final"), ("carcassonne", "claim_without_meeple"),
        ("carcassonne", "farm_incomplete_towns"), ("carcassonne", "farm_tie_one"),
        ("carcassonne", "floors_unlimited"), ("carcassonne", "floor_on_capped"),
        ("carcassonne", "reach_diagonal"), ("carcassonne", "ransom_with_2_points"),
        ("carcassonne", "two_ransoms"))},
}

REPRESENTATIVE = [
    ("flit", "board_short"), ("flit", "self_neighbour"),
    ("carcassonne", "turn_order_reversed"), ("carcassonne", "spring_turned"),
    ("kingdomino", "no_connection"), ("botwars", "energy_every_2"),
]


def _check(game: str, name: str, rounds: int = ROUNDS) -> None:
    module = importlib.import_module(f"examples.engines.{game}.{name}")
    result = minimal_campaign(game, name, rounds)
    what, _ = verdict(result, module.RULE)
    if what in (CAUGHT, NOT_CHECKABLE):
        if what == NOT_CHECKABLE:  # named with its capability in the certificate
            assert result.not_checkable[module.RULE] in {"chance", "load_state", "legal",
                                                         "bot_output"}
        return
    assert (game, name) in LIMITS, (what, [d.message for d in result.departures])
    need = LIMITS[(game, name)]
    if need != "load_state" and module.RULE in result.in_part:
        # the certificate says which part went unchecked (crafted starts are not a part of
        # a rule: a load_state limit is a position not reached, listed here only)
        assert need in result.in_part[module.RULE], (result.in_part[module.RULE], need)


@pytest.mark.parametrize(("game", "name"), REPRESENTATIVE,
                         ids=[f"{g}-{m}" for g, m in REPRESENTATIVE])
def test_representative_mutants_behind_the_wrapper(game: str, name: str) -> None:
    _check(game, name, rounds=2)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "name"), ALL, ids=[f"{g}-{m}" for g, m in ALL])
def test_every_public_mutant_behind_the_wrapper(game: str, name: str) -> None:
    _check(game, name)


def test_the_limits_name_real_mutants_and_capabilities() -> None:
    assert set(LIMITS) <= set(ALL)
    assert set(LIMITS.values()) <= {"chance", "load_state", "legal", "bot_output"}
    assert set(REPRESENTATIVE) <= set(ALL)
