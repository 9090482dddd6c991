"""The Flit checks of the bots' protocol: a reply becomes the move it asks for
(FLIT-PROTO-REPLY), and the updates the engine announces are the squares that changed
(FLIT-PROTO-UPDATES, the one check that reads a step's events).

On a bot's text, canonical JSON and the step's events, never the reference engine. Binds
no rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

import re

from gamecert.oracles.base import NA, OK, Transition, Verdict, cause
from gamecert.oracles.flit.board import changed, index, patched
from gamecert.oracles.flit.common import JSON, _squares
from gamecert.spec import Profile

_NUMBER = r"(-?[0-9]+)"
_SEP = r"[ \t]+"
_LINE = re.compile(rf"[ \t]*{_NUMBER}{_SEP}{_NUMBER}{_SEP}{_NUMBER}{_SEP}{_NUMBER}[ \t]*(\r?\n)?",
                   re.ASCII)


def _parse_reply(state: JSON, text: str) -> tuple[int, int] | None:
    """(origin, destination) of a well-formed, on-board reply; None otherwise."""
    m = _LINE.fullmatch(text)
    if m is None:
        return None
    numbers = m.groups()[:4]
    if any(len(n.lstrip("-").lstrip("0")) > 12 for n in numbers):
        return None  # its value is off any board, however it is written
    x0, y0, x1, y1 = (int(n) for n in numbers)
    o, d = index(state, [x0, y0]), index(state, [x1, y1])
    return None if o is None or d is None else (o, d)


def proto_reply(state: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if state["phase"] != "move":
        return NA
    parsed = _parse_reply(state, text)
    if parsed is None:
        if action.get("type") == "invalid":
            return OK
        return cause("unreadable-accepted", f"reply {text!r} is not four on-board whole "
                     f"numbers, but the referee made it {action}")
    if parsed[0] == parsed[1]:
        if action.get("type") == "pass":
            return OK
        return cause("no-move-misread", f"reply {text.strip()!r} names one square twice: a "
                     f"no move, but the referee made it {action}")
    return NA


def proto_updates(t: Transition, profile: Profile) -> Verdict:
    """Every changed square must be named by an event, so bots can be sent updates. It reads
    the events only: an engine that sends none gives it nothing to judge (no state-only
    form: the rule is about the updates themselves)."""
    want: dict[int, str] = {}
    s = t.before
    try:
        for e in t.events:
            kind = e["type"]
            if kind in ("piece-placed", "converted"):
                want[_at(s, e["at"])] = str(e["bot"])
            elif kind == "moved":
                want[_at(s, e["from"])] = "0"
                want[_at(s, e["to"])] = str(e["bot"])
            elif kind == "neutral-added":
                want[_at(s, e["at"])] = "5"
    except (KeyError, TypeError, ValueError) as exc:
        return cause("unreadable", f"an event cannot be read as a board update: {exc!r}")
    before, after = t.before["board"], t.after["board"]
    if not want and before == after:
        return NA
    if patched(before, want) == after and all(before[i] != c for i, c in want.items()):
        return OK
    diff = changed(before, after)
    missing = {i: c for i, c in diff.items() if want.get(i) != c}
    if missing:
        return cause("unannounced", "every changed square reaches the bots as an update; "
                     f"not announced: {_squares(s, missing)}")
    idle = {i: c for i, c in want.items() if i not in diff or before[i] == c}
    return cause("announced-unchanged", "updates name only squares that changed colour; "
                 f"announced: {_squares(s, idle)}")


def _at(state: JSON, xy: JSON) -> int:
    i = index(state, xy)
    if i is None:
        raise ValueError(f"square {xy} off the board")
    return i
