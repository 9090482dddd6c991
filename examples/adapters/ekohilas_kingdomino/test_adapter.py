"""The ekohilas/kingdomino adapter against the real engine. Not part of the default test run
(it lives outside tests/ and needs third-party code); run it on purpose:

    GAMECERT_EKOHILAS_PATH=/path/to/kingdomino python -m pytest -p no:cacheprovider \
        examples/adapters/ekohilas_kingdomino/test_adapter.py

Without the variable it fails (it never skips): a run that checked nothing must not pass.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from gamecert.adapters.check import look_at
from gamecert.fuzz.engines.engine import EngineFault, Refused
from gamecert.fuzz.engines.recipes import in_process, object_recipe

HERE = Path(__file__).resolve().parent
SPEC = f"{HERE / 'adapter.py'}:Ekohilas"
PROFILE = "board-game-start"


def adapter_class() -> Any:
    assert os.environ.get("GAMECERT_EKOHILAS_PATH"), \
        "set GAMECERT_EKOHILAS_PATH to a checkout of ekohilas/kingdomino (README.md)"
    engine = object_recipe("kingdomino", SPEC).open()
    return type(engine.session)  # type: ignore[attr-defined]


def test_new_game_reports_the_order_and_the_first_line() -> None:
    engine = in_process(adapter_class(), "ekohilas")
    # the minimum, undo (it plays on a copy), no events and no referee (its console asks
    # again)
    assert engine.hello()["capabilities"] == ["undo", "no_events", "no_referee"]
    state = engine.new_game(PROFILE, 3)
    order, *deals = [e["chance"] for e in engine.session.start_events]  # type: ignore[attr-defined]
    assert order["type"] == "order" and sorted(order["order"]) == [1, 1, 2, 2]
    assert [d["type"] for d in deals] == ["deal"] * 4
    assert [t["tile"] for t in state["line"]] == sorted(d["tile"] for d in deals)
    assert state["to_move"] == order["order"][0] and state["turn"] == 1
    assert engine.new_game(PROFILE, 3) == state  # seeded: the same deal again


def test_a_pick_outside_the_line_and_a_first_turn_put_are_refused() -> None:
    engine = in_process(adapter_class(), "ekohilas")
    state = engine.new_game(PROFILE, 3)
    free = state["line"][0]["tile"]
    for bad in ({"type": "play", "put": None, "pick": 0},
                {"type": "play", "put": [3, 4, 0], "pick": free}):
        try:
            engine.apply(bad)
        except Refused as exc:
            assert exc.kind == "illegal"
        else:
            raise AssertionError(f"{bad} was accepted")
        assert engine.observe() == state


def test_a_picked_tile_is_taken_again_without_a_word() -> None:
    # finding 4 of docs/case-studies/ekohilas-kingdomino.md: Line.choose checks nothing
    engine = in_process(adapter_class(), "ekohilas")
    state = engine.new_game(PROFILE, 3)
    tile = state["line"][0]["tile"]
    first, _ = engine.apply({"type": "play", "put": None, "pick": tile})
    after, _ = engine.apply({"type": "play", "put": None, "pick": tile})
    owners = {t["tile"]: t["player"] for t in after["line"]}
    assert owners[tile] == state["placing"][1]["player"]  # the second king took it over
    assert first["line"][0]["player"] == state["placing"][0]["player"]
    # undo takes the accepted second pick back: the game goes on from before it
    assert engine.undo() == first
    assert engine.observe() == first


def test_games_follow_the_reference_until_the_final_score() -> None:
    # findings 1 and 2: every placement agrees; the score counts only joined squares
    look = look_at(adapter_class()(), PROFILE, 0, 400)
    assert look.steps == 28 and look.departure is not None
    assert look.departure.startswith("after 28 actions") and "result" in look.departure


def test_a_kingdom_at_the_edge_of_its_grid_crashes_the_engine() -> None:
    # finding 3: Board.valid_plays reads outside its 9 x 9 grid (game seed 1)
    cls = adapter_class()
    try:
        look_at(cls(), PROFILE, 1, 400)
    except IndexError:
        return
    except EngineFault:
        return
    raise AssertionError("game seed 1 played through: the edge crash is gone")
