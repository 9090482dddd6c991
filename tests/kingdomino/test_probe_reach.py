"""The placement mutants of issue 26 behind `bare:` (the minimum capabilities, their own
draws, no events) are caught in 2, 3 and 4 players: a territory of 6 x 6 and no extent limit
at all (KD-PLACE-EXTENT), no connection (KD-PLACE-CONNECT), each blamed on its own rule
only (by an accepted one-rule probe, or a refused discard of a tile the engine thinks fits).

The deterministic, shorter form of benchmarks/reach/kingdomino_probe_reach.py (5 seeds of 60 s
each there): a few rounds at two seeds, each campaign ending once its mutant is caught (the
same rounds up to there, so the same verdict).
"""

from __future__ import annotations

import pytest

from benchmarks.reach.kingdomino_probe_reach import MUTANTS, profile_for, reach

ROUNDS = 4
CASES = [(m, n, s) for m in MUTANTS for n in (2, 3, 4) for s in (1, 2)]


def test_each_player_count_has_a_plain_profile() -> None:
    assert [profile_for(n) for n in (2, 3, 4)] == ["legend-2p", "legend-3p", "legend"]


@pytest.mark.parametrize(("mutant", "players", "seed"), CASES,
                         ids=[f"{m}-{n}p-seed{s}" for m, n, s in CASES])
def test_a_placement_mutant_is_caught_behind_bare(mutant: str, players: int,
                                                   seed: int) -> None:
    r = reach(mutant, players, seed, rounds=ROUNDS, until_caught=True)
    assert r.caught, (r.probes, [d.message for d in r.result.departures])
    assert not r.others, [d.message for d in r.result.departures]
