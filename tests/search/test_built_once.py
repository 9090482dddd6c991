"""Start positions and crafted boards kept on disk (fuzz.games.built_once): a value read
back equals a fresh build, for every game's builder; a second call reads instead of
building; a change of profile, arguments or a broken file builds afresh."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gamecert.fuzz.games import built_once as bo
from gamecert.fuzz.games.carcassonne.starts import _build_pools
from gamecert.fuzz.games.kingdomino.crafted import _near_full_states
from gamecert.oracles.botwars.battle_z3 import crowded_board
from gamecert.oracles.flit.proofs import boundary_positions
from gamecert.spec import Profile, load_catalogue


def _profile(game: str) -> Profile:
    return load_catalogue(game).profile()


BUILDERS: dict[str, tuple[str, Callable[[], Any], tuple[Any, ...], bool]] = {
    "flit": ("boundaries", lambda: [s for _, s in boundary_positions(_profile("flit"))],
             (), True),
    "carcassonne": ("pools", lambda: _build_pools(_profile("carcassonne")).by_kind, (), True),
    "kingdomino": ("near-full", lambda: _near_full_states(_profile("kingdomino"), 4), (4,),
                   True),
    "botwars": ("crowded", lambda: str(crowded_board("ring", 1, rows=20, cols=20,
                                                     every=False)["grid"]),
                (20, 20, False, "ring", 1), False),
}


@pytest.fixture(autouse=True)
def _cache_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("GAMECERT_NO_START_CACHE", raising=False)


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_a_cached_start_equals_a_fresh_one(game: str) -> None:
    what, build, args, per_profile = BUILDERS[game]
    profile = _profile(game) if per_profile else None
    fresh = build()
    calls: list[int] = []

    def counted() -> Any:
        calls.append(1)
        return build()

    first = bo.built_once(game, what, profile, counted, *args)
    again = bo.built_once(game, what, profile, counted, *args)
    assert calls == [1]  # built once, then read back
    assert first == fresh and again == fresh
    assert fresh  # something was built: an empty pool would prove nothing


def test_another_profile_arguments_or_a_broken_file_build_afresh(tmp_path: Path) -> None:
    calls: list[str] = []

    def build(tag: str) -> Callable[[], Any]:
        return lambda: calls.append(tag) or {"tag": tag}

    flit, other = load_catalogue("flit").profile(), load_catalogue("flit").profiles
    other_id = next(p for p in other if p != flit.id)
    assert bo.built_once("flit", "x", flit, build("a")) == {"tag": "a"}
    assert bo.built_once("flit", "x", load_catalogue("flit").profile(other_id),
                         build("b")) == {"tag": "b"}
    assert bo.built_once("flit", "x", flit, build("c"), 2) == {"tag": "c"}
    path = bo.folder() / bo.key("flit", "x", flit)
    path.write_text("{not json", "utf-8")
    assert bo.built_once("flit", "x", flit, build("d")) == {"tag": "d"}
    assert bo.built_once("flit", "x", flit, build("e")) == {"tag": "d"}  # rewritten whole
    assert calls == ["a", "b", "c", "d"]
