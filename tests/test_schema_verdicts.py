"""`schemas.first_error` remembers verdicts by content (schemas.checked_once): the same
verdicts as validating afresh, a document met again not validated again, a changed one
judged again, and anything that is not JSON's own types (a tuple, an int-like object, a
str subclass) never taken for the JSON it prints as."""

from __future__ import annotations

import enum
import random
from typing import Any

import pytest

from gamecert import schemas
from gamecert.schemas import checked_once
from gamecert.schemas.checked_once import Verdicts, digest
from tests.random_play import random_steps


class Seat(enum.IntEnum):
    ONE = 1


class Text(str):
    pass


# values put in place of a valid document's: near misses of every kind
ODD_VALUES: list[Any] = [1, 1.0, True, Seat.ONE, "1", Text("a"), None, [1], (1,), {"a": 1}]


def _documents() -> list[tuple[str, Any]]:
    docs: list[tuple[str, Any]] = []
    for step in random_steps("kingdomino", None, 0)[:40:5]:
        docs.append(("kingdomino-state", step.after))
        docs.append(("kingdomino-action", step.action))
    for name, doc in list(docs):
        if isinstance(doc, dict):
            for key in list(doc)[:6]:
                for odd in ODD_VALUES:
                    docs.append((name, {**doc, key: odd}))
    return docs


@pytest.fixture(autouse=True)
def _fresh_verdicts() -> None:
    schemas.VERDICTS.clear()


def test_the_verdicts_are_those_of_validating_afresh() -> None:
    docs = _documents()
    plain = [schemas._first_error(name, doc) for name, doc in docs]
    for _ in range(2):  # once to fill the memory, once from it
        assert [schemas.first_error(name, doc) for name, doc in docs] == plain
    assert any(p is None for p in plain) and any(p is not None for p in plain)


def test_a_document_met_again_is_not_validated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = schemas._first_error

    def counted(name: str, doc: Any) -> str | None:
        calls.append(doc)
        return real(name, doc)

    monkeypatch.setattr(schemas, "_first_error", counted)
    action = {"type": "stop", "cause": "format"}
    first = schemas.first_error("kingdomino-action", action)
    assert schemas.first_error("kingdomino-action", dict(action)) == first  # equal content
    assert len(calls) == 1
    action["cause"] = 7  # changed in place: judged again, and now refused
    assert schemas.first_error("kingdomino-action", action) is not None
    assert len(calls) == 2
    schemas.first_error("kingdomino-state", action)  # another schema: its own verdict
    assert len(calls) == 3


@pytest.mark.parametrize("doc", [(1, 2), Seat.ONE, Text("x"), {"a": (1,)}, {1: "a"},
                                 [[Seat.ONE]], {"a": [1, Text("b")]}])
def test_other_types_are_never_remembered(doc: Any) -> None:
    assert digest("trace", doc) is None


def test_json_look_alikes_get_distinct_keys() -> None:
    keys = {digest("trace", d) for d in ([1], [1.0], [True], ["1"], [None], {"a": 1})}
    assert None not in keys and len(keys) == 6
    assert digest("trace", [1]) != digest("report", [1])


def test_a_cycle_or_a_deep_nest_is_judged_afresh() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert digest("trace", loop) is None
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert digest("trace", deep) is None


def test_the_memory_keeps_the_latest_only() -> None:
    memory = Verdicts(kept=3)
    keys = [digest("trace", [i]) for i in range(5)]
    for i, key in enumerate(keys):
        assert key is not None
        memory.put(key, f"error {i}")
    assert memory.get(keys[0]) is checked_once.MISSING  # pushed out by the later ones
    assert [memory.get(k) for k in keys[2:]] == ["error 2", "error 3", "error 4"]


def test_random_documents_agree_with_validating_afresh() -> None:
    rng = random.Random(5)
    docs = _documents()
    for _ in range(300):
        name, doc = rng.choice(docs)
        assert schemas.first_error(name, doc) == schemas._first_error(name, doc)
