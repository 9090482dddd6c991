"""The Kingdomino fuzzing targets measure what the issue steers toward."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from gamecert.fuzz.games.kingdomino import PLUGIN
from tests.kingdomino.helpers import GAME, at_turn


def _targets(state: Any) -> dict[str, float]:
    return PLUGIN.targets(cast(Any, SimpleNamespace(ref_json=GAME.observe(state))))


def test_double_kings_counts_one_players_kings_back_to_back() -> None:
    seen = set()
    for seed in range(12):
        s = at_turn("legend-2p", seed, 3)
        owners = [o for _, o in s.placing]
        t = _targets(s)
        assert t["double kings"] == sum(owners[i] == owners[i + 1] for i in range(len(owners) - 1))
        seen.add(t["double kings"])
    assert 0.0 in seen and max(seen) >= 1.0  # both orders occur in random 2-player games
    s = at_turn("legend", 0, 3)  # one king each: never back to back
    assert _targets(s)["double kings"] == 0.0
    assert {"fullest kingdom", "discards", "score tie", "turn"} <= set(_targets(s))
