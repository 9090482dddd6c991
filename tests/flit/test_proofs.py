"""z3: the catch-up proof holds on the reference and fails, with a real counterexample, on
the catch-up mutants; the boundary positions sit where they claim."""

from __future__ import annotations

import pytest

from examples.engines import load
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games.flit.proofs import prove_flit
from gamecert.oracles.flit.board import bot_counts
from gamecert.oracles.flit.proofs import boundary_positions, prove_catchup
from gamecert.reference_engine.contract import Session
from gamecert.reference_engine.flit import Flit, FlitConfig
from gamecert.spec import load_catalogue

PROFILE = load_catalogue("flit").profile()


def test_reference_end_test_is_proved() -> None:
    result = prove_catchup(Flit(), PROFILE)
    assert result.proved and result.counterexample is None


@pytest.mark.parametrize("name", ["catchup_ge", "catchup_no_offset"])
def test_catchup_mutants_get_a_counterexample(name: str) -> None:
    mutant = load("flit", name).ENGINE()
    result = prove_catchup(mutant, PROFILE)
    assert not result.proved and result.counterexample is not None
    v = result.counterexample
    counts = [v["A"], v["B"], v["C"], v["D"]]
    assert sum(counts) + v["N"] + v["E"] == 1024 and min(counts) >= 2
    cfg = FlitConfig.of(PROFILE)
    # the counterexample is real: the two end tests disagree on plain integers
    assert mutant.catchup_reached(cfg, counts, v["N"], v["E"]) != \
        Flit().catchup_reached(cfg, counts, v["N"], v["E"])


def test_boundary_positions_are_at_the_boundary() -> None:
    positions = boundary_positions(PROFILE)
    assert len(positions) >= 20
    ps = set()
    for label, state in positions:
        Flit().load(PROFILE, state)  # valid states
        counts = bot_counts(state["board"])
        p = state["board"].count("5") + state["board"].count("0") - 4
        d, m = counts[3], max(counts[:3]) + p
        assert d - m == (1 if "D=M+1" in label else 0), label
        ps.add(p)
    assert min(ps) <= 1 and max(ps) >= 400  # across the range of P


def test_prove_command_on_reference_and_mutant() -> None:
    ok, lines = prove_flit(InProcessEngine(Session(Flit(), "ref")), PROFILE)
    assert ok and "PROVED" in lines[0] and "0 disagree" in lines[1]
    mutant = load("flit", "catchup_ge").ENGINE()
    ok, lines = prove_flit(InProcessEngine(Session(mutant, "m")), PROFILE)
    assert not ok and "counterexample" in lines[0]
    assert "0 disagree" not in lines[1]
