"""The wingedsheep/carcassonne adapter against the real engine. Not part of the default test
run (it lives outside tests/ and needs third-party code); run it on purpose:

    GAMECERT_WINGEDSHEEP_PATH=/path/to/carcassonne python -m pytest -p no:cacheprovider \
        examples/adapters/wingedsheep_carcassonne/test_adapter.py

Without the variable it fails (it never skips): a run that checked nothing must not pass.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from gamecert.adapters.check import look_at
from gamecert.fuzz.engines.engine import Refused
from gamecert.fuzz.engines.recipes import in_process, object_recipe

HERE = Path(__file__).resolve().parent
SPEC = f"{HERE / 'adapter.py'}:Wingedsheep"


def adapter_class() -> type:
    assert os.environ.get("GAMECERT_WINGEDSHEEP_PATH"), \
        "set GAMECERT_WINGEDSHEEP_PATH to a checkout of wingedsheep/carcassonne (README.md)"
    recipe = object_recipe("carcassonne", SPEC)
    engine = recipe.open()
    return type(engine.session)  # type: ignore[attr-defined,no-any-return]


def test_new_game_is_our_opening_with_the_first_river_draw_reported() -> None:
    cls = adapter_class()
    engine = in_process(cls, "wingedsheep")
    assert engine.hello()["capabilities"] == ["no_events"]  # the minimum, and no events
    state = engine.new_game("classic-farms-2p", 5)
    assert state["board"] == [{"at": [0, 0], "tile": "RS", "rotation": 0}]
    assert state["to_move"] == 1 and state["step"] == "place"
    [draw] = engine.session.start_events  # type: ignore[attr-defined]
    assert draw["chance"]["type"] == "draw" and state["hands"][0] == [draw["chance"]["tile"]]
    assert engine.new_game("classic-farms-2p", 5) == state  # seeded: the same deal again


def test_a_move_outside_the_engines_own_list_is_refused() -> None:
    engine = in_process(adapter_class(), "wingedsheep")
    state = engine.new_game("classic-farms-2p", 5)
    tile = state["hands"][0][0]
    try:
        engine.apply({"type": "place", "tile": tile, "at": [7, 7], "rotation": 0})
    except Refused as exc:
        assert exc.kind == "illegal"
    else:
        raise AssertionError("a tile far from the board was accepted")
    assert engine.observe() == state


def test_the_first_difference_is_the_missing_river_tile() -> None:
    # finding 1 of docs/case-studies/wingedsheep-carcassonne.md: their river pile lacks R7
    look = look_at(adapter_class()(), "classic-farms-2p", 0, 50)
    assert look.steps == 0 and look.departure is not None
    assert "river_pile" in look.departure
    ours, theirs = look.departure.split("river_pile: reference ")[1].split(", engine ")
    assert '"R7": 1' in ours and '"R7"' not in theirs


def test_with_the_river_completed_a_whole_game_follows_the_reference() -> None:
    # the case study's what-if: give their unused R7 its count; seed 0 then plays a whole
    # game (166 actions, farms scored) in lockstep with no difference
    from wingedsheep.carcassonne.tile_sets import the_river_deck  # type: ignore[import-not-found]

    cls = adapter_class()
    counts = the_river_deck.the_river_tile_counts
    counts["river_diagonal_city"] = 1
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the engine prints its scoring
            look = look_at(cls(), "classic-farms-2p", 0, 400)
    finally:
        del counts["river_diagonal_city"]
    assert look.departure is None and look.finished and look.steps > 150
