"""Which documents a schema has already judged: `first_error`'s memory, by content.

A campaign validates the same small documents again and again: each of a probe's judges
checks the probe's action against the action schema (Carcassonne's one-rule probes ask
every judge about every candidate), and an engine checks each action and state it is sent
(Bot Wars). jsonschema takes from a fraction of a millisecond to several for one document;
remembering the verdict of a document already judged costs a walk over it and a hash.

A document is remembered by a digest of its JSON text, and only when it holds JSON's own
Python types exactly (dict with str keys, list, str, int, float, bool, None; no subclass,
no tuple): those are the documents whose JSON text says all jsonschema looks at (a tuple
and a list print alike but are not both arrays to it, nor an int and an int-like object).
Anything else is judged afresh every time. The verdict is a function of the schema and the
document only, so remembering it never changes one.

This module keeps verdicts; it must not judge documents itself (schemas.first_error does).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections import OrderedDict
from typing import Any

# verdicts kept: enough for a campaign's recurring actions and states, a few hundred KB
KEPT = 4096
_ATOMS = frozenset((str, int, float, bool, type(None)))
_MISSING = object()


def _plain(x: Any) -> bool:
    t = type(x)
    if t is dict:
        return all(type(k) is str and _plain(v) for k, v in x.items())
    if t is list:
        return all(_plain(v) for v in x)
    return t in _ATOMS


def digest(name: str, document: Any) -> bytes | None:
    """The key `document`'s verdict under schema `name` is kept under; None for a document
    not made of JSON's own types alone (judged afresh each time)."""
    try:
        if not _plain(document):
            return None
        text = json.dumps(document, separators=(",", ":"))
    except (RecursionError, ValueError):  # too deep, or a cycle: not remembered
        return None
    return hashlib.blake2b(f"{name}\0{text}".encode(), digest_size=16).digest()


class Verdicts:
    """The last `KEPT` verdicts (an error line, or None for a valid document), by digest.

    No lock (a lock held by another thread when a worker process is forked would never be
    let go in the child): each OrderedDict call is atomic, and a key another thread pushed
    out in between is only a verdict judged again."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._seen: OrderedDict[bytes, str | None] = OrderedDict()

    def get(self, key: bytes) -> Any:
        """The verdict kept under `key`, or `MISSING`."""
        verdict = self._seen.get(key, _MISSING)
        if verdict is not _MISSING:
            with contextlib.suppress(KeyError):
                self._seen.move_to_end(key)
        return verdict

    def put(self, key: bytes, verdict: str | None) -> None:
        self._seen[key] = verdict
        while len(self._seen) > self.kept:
            try:
                self._seen.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                break

    def clear(self) -> None:
        self._seen.clear()


MISSING = _MISSING
