"""Runs: many of the state machine's rules in a row, in one Hypothesis rule.

A run plays the machine's own rules (`fuzz.search.play.rules`: a move from the game's draw, a
probe, a comparison of legal sets, an observation or a reload), chosen by weight, every
value they draw from a Random seeded by the run's seed (`fuzz.search.play.seeded_data`).
Hypothesis chooses the seed and the length: two choices instead of several per step, so a
campaign's time goes to playing and judging rather than to Hypothesis's bookkeeping, and
examples reach a game's end and its final scoring. The one-rule-per-step play stays beside
it, where Hypothesis's own search (targets, boundary values, mutations of what failed)
steers each choice.

Every operation is recorded in the lockstep's trace as it is played, so a finding is
replayed and minimised without the seed. This module plays; it must not judge.
"""

from __future__ import annotations

import random

from gamecert.fuzz.search.play.rules import Plan, check_state, play, probe
from gamecert.fuzz.search.play.seeded_data import SeededData
from gamecert.fuzz.step.lockstep import Lockstep

# How many operations a run plays at most; shrinks towards the shortest. The longest goes
# to the end of a game of Kingdomino, Carcassonne or Bot Wars, with its probes.
RUN_LENGTHS = (16, 64, 256, 1024)
# the rules a run plays, by weight: mostly moves, so that a run gets deep, and probes
# often enough that most positions on its way are probed
WEIGHTS = {"play": 12, "probe": 1, "legal": 1, "state": 1}
# the first operations of a run, where it starts (a crafted start is one move or probe
# from its rare case), are chosen as the machine's one-step rules would be
OPENING = {"play": 1, "probe": 1, "legal": 1, "state": 1}
OPENING_OPS = 4
# a move that ends the game at once (a stop, a disqualification) is kept one time in this
# many in a run, else drawn again: games get deep, and still end so now and then
ENDING = 16
# moves in a row that left the reference where it stood (refused): the run ends there
STALL = 4


def seeded_run(plan: Plan, ls: Lockstep, seed: int, length: int) -> int:
    """Up to `length` operations from where `ls` stands, to the game's end at most; the
    number of moves played. The same seed from the same position plays the same
    operations."""
    rng = random.Random(seed)
    data = SeededData(rng)
    kinds = list(WEIGHTS)
    weights, opening = list(WEIGHTS.values()), [OPENING[k] for k in kinds]
    played = stalled = 0
    for i in range(length):
        if not ls.live:
            break
        kind = rng.choices(kinds, opening if i < OPENING_OPS else weights)[0]
        if kind == "play":
            before = ls.ref_json
            if play(plan, ls, data, ENDING) is None:
                break
            played += 1
            stalled = stalled + 1 if ls.ref_json is before else 0
            if stalled >= STALL:
                break
        elif kind == "probe":
            probe(plan, ls, data)
        elif kind == "legal":
            if plan.may_list(ls):
                ls.compare_legal()
        else:
            check_state(plan, ls, rng.random() < 0.5)
    return played
