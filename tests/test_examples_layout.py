"""examples/engines/: each game's lists name every mutant module once, `module_of` finds it in
its rule area's subfolder; no folder of the project holds more than 12 modules and no module
outside tests/ more than 600 lines (issue 30).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from examples.engines import engine_spec, load, module_of, path_of

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("flit", "botwars", "carcassonne", "kingdomino")
MAX_MODULES = 12
MAX_LINES = 600
# the folders issue 30 counts; tests/ is outside its rule
COUNTED = ("package", "spec", "schemas", "reference_engine", "oracles", "fuzz", "examples",
           "benchmarks")


def listed(game: str) -> set[str]:
    """Every module name a game's __init__ lists, in any of its lists."""
    package = importlib.import_module(f"examples.engines.{game}")
    names: set[str] = set()
    for attribute in ("MUTANTS", "CRASHERS", "CASCADES", "COMPOUNDS", "SEASONS"):
        for entry in getattr(package, attribute, ()):
            names.add(entry if isinstance(entry, str) else entry[0])
    return names


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_name_is_one_module_in_an_area_folder(game: str) -> None:
    for name in sorted(listed(game)):
        dotted = module_of(game, name)
        area = dotted.split(".")[3]
        assert dotted == f"examples.engines.{game}.{area}.{name}"
        assert path_of(game, name) == ROOT / "examples" / "engines" / game / area / f"{name}.py"
        module = load(game, name)
        assert module.__name__ == dotted and hasattr(module, "ENGINE"), name
        assert engine_spec(game, name, "bare") == f"bare:{dotted}:ENGINE"


@pytest.mark.parametrize("game", GAMES)
def test_no_module_of_a_game_folder_is_left_off_its_lists(game: str) -> None:
    """Every mutant module is in a list (so the tests reach it), but for the few that tests
    name on their own: Flit's two-cause engines (triage) and Carcassonne's biased deck (caught
    by the chance statistics, not by a rule oracle)."""
    on_disk = {p.stem for p in (ROOT / "examples" / "engines" / game).glob("*/*.py")
               if p.stem != "__init__"}
    helpers = {"flit": {"two_causes", "two_winner_causes"},
               "carcassonne": {"deck_biased"}}.get(game, set())
    assert on_disk - listed(game) == helpers


def test_an_unknown_name_says_which_folder_was_searched() -> None:
    with pytest.raises(LookupError, match=r"examples/engines/flit/: no module nope\.py .*moves"):
        module_of("flit", "nope")
    with pytest.raises(LookupError, match=r"no folder examples/engines/chess/"):
        module_of("chess", "x")


def test_no_folder_holds_more_than_12_modules() -> None:
    crowded = []
    for top in COUNTED:
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]:
            if not folder.is_dir() or "__pycache__" in folder.parts \
                    or "node_modules" in folder.parts:
                continue
            count = len(list(folder.glob("*.py")))
            if count > MAX_MODULES:
                crowded.append(f"{folder.relative_to(ROOT)}: {count}")
    assert crowded == []


def test_no_module_outside_tests_is_over_600_lines() -> None:
    """A module that long mixes jobs (issue 30): split it along them."""
    long = []
    for top in COUNTED:
        for path in (ROOT / top).rglob("*.py"):
            if "node_modules" in path.parts or "__pycache__" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                long.append(f"{path.relative_to(ROOT)}: {lines}")
    assert long == []
