"""`discarded` in the canonical Kingdomino state is in discard order, as the reference keeps
it; the schema says so (it said "ascending", and an adapter that sorted got false
divergences: issue 29, item 11)."""

from __future__ import annotations

from gamecert.schemas import load_schema
from tests.random_play import random_steps


def test_the_reference_keeps_discards_in_the_order_they_happen() -> None:
    steps = random_steps("kingdomino", None, 0)  # seed 0 discards out of id order
    order = [e["tile"] for t in steps for e in t.events if e.get("type") == "discarded"]
    final = steps[-1].after["discarded"]
    assert final == order and len(order) >= 2
    assert final != sorted(final), "the case must tell the two orders apart"


def test_the_schema_says_discard_order() -> None:
    text = load_schema("kingdomino-state")["properties"]["discarded"]["description"]
    assert "ascending" not in text and "in the order they were discarded" in text
