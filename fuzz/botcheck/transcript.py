"""The bytes exchanged with one bot, both directions, with times: what a finding shows.

Entries are kept in a bounded ring (a long game is thousands of exchanges); a finding copies
the last few entries at the moment it is made. Text is shown escaped, so a stray byte, a
missing newline or a debug print is visible exactly as it was sent.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

TO_BOT, FROM_BOT, NOTE = "to bot", "from bot", "note"


@dataclass(frozen=True)
class Entry:
    direction: str
    data: bytes
    at: float

    def to_json(self, start: float, limit: int = 1200) -> dict[str, Any]:
        return {"dir": self.direction, "t_ms": round((self.at - start) * 1000, 3),
                "bytes": len(self.data), "text": escape(self.data, limit)}


def escape(data: bytes, limit: int = 1200) -> str:
    """Printable ASCII as is; backslash, newline, tab, other bytes escaped (\\n, \\xNN)."""
    text = "".join(_ESCAPES[b] for b in data[:limit])
    if len(data) > limit:
        text += f"... ({len(data) - limit} more bytes)"
    return text


_ESCAPES = [chr(b) if 32 <= b < 127 else f"\\x{b:02x}" for b in range(256)]
_ESCAPES[ord("\\")] = "\\\\"
_ESCAPES[10], _ESCAPES[13], _ESCAPES[9] = "\\n", "\\r", "\\t"


class Transcript:
    def __init__(self, keep: int = 64) -> None:
        self.entries: deque[Entry] = deque(maxlen=keep)
        self.start = time.monotonic()

    def sent(self, data: bytes) -> None:
        self.entries.append(Entry(TO_BOT, data, time.monotonic()))

    def received(self, data: bytes) -> None:
        # consecutive chunks of one reply are one entry: easier to read
        last = self.entries[-1] if self.entries else None
        now = time.monotonic()
        if last is not None and last.direction == FROM_BOT and now - last.at < 0.002:
            self.entries[-1] = Entry(FROM_BOT, last.data + data, now)
        else:
            self.entries.append(Entry(FROM_BOT, data, now))

    def note(self, text: str) -> None:
        self.entries.append(Entry(NOTE, text.encode(), time.monotonic()))

    def excerpt(self, last: int = 8) -> list[dict[str, Any]]:
        return [e.to_json(self.start) for e in list(self.entries)[-last:]]


def render_excerpt(entries: list[dict[str, Any]], indent: str = "    ") -> str:
    arrows = {TO_BOT: ">>", FROM_BOT: "<<", NOTE: "--"}
    return "\n".join(f"{indent}{e['t_ms']:>10.3f} ms {arrows.get(e['dir'], '??')} {e['text']}"
                     for e in entries)
