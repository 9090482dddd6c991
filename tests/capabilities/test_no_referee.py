"""An engine without a referee (`no_referee`, a console game that asks again) can be
certified: every rule about the referee's own actions is "not checkable", not "not
exercised" (issue 29, item 10)."""

from __future__ import annotations

from typing import Any

from gamecert.fuzz.engines.capabilities import FULL, NO_REFEREE, REFEREE, not_checkable
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import Session


def test_rules_only_a_referee_action_exercises_are_not_checkable() -> None:
    unchecked = not_checkable(FULL | {NO_REFEREE}, oracles_for("kingdomino"), "kingdomino")
    for rule in ("KD-STOP", "KD-PUT-INVALID", "KD-PROTO-LIMITS"):
        assert unchecked.get(rule) == REFEREE, (rule, unchecked)
    # with a referee, they are checked; other games have no referee actions to miss
    assert not not_checkable(FULL, oracles_for("kingdomino"), "kingdomino")
    assert not not_checkable(FULL | {NO_REFEREE}, oracles_for("flit"), "flit")


class NoReferee(Session[Any, Any]):
    """The reference, declaring it has no referee."""

    def hello(self) -> Any:
        said = super().hello()
        return {**said, "capabilities": [*said["capabilities"], NO_REFEREE]}


def test_an_engine_without_a_referee_is_not_incomplete_for_want_of_one() -> None:
    inner = reference_session("kingdomino")
    engine = InProcessEngine(NoReferee(inner.game, name="no-referee"))
    result = run_campaign("kingdomino", engine, rounds=1, seed=0)
    assert "KD-PROTO-LIMITS" in result.not_checkable
    assert not {"KD-STOP", "KD-PUT-INVALID", "KD-PROTO-LIMITS"} & set(result.unexercised)
    assert "KD-PROTO-LIMITS" not in result.applicable
