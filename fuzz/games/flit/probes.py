"""Flit's probes: actions near pieces and anywhere that the reference probably refuses
(`draw_probe`), and the one-rule probes: actions that each break one rule, and no other, in
the position the lockstep's reference stands in (`rule_probes`, asked by the state
machine's probe rule).

Rules with a `judge` hook and an action a bot could send that breaks them:

* FLIT-MOVE-VALID, one probe per way a move can be invalid: the destination touches only
  the moving piece (the piece is lifted first), touches another own piece diagonally
  only, touches none (far away), is occupied, or the origin is not the bot's;
* FLIT-TURN-ORDER: an outcome of another phase (a set-up square, a neutral step's outcome
  that would be possible in its own phase) offered while a bot is to move.

Left out: FLIT-BOARD-TORUS's judge speaks on legal moves across the wrap refused (offered
by `draw_action`, not as probes), FLIT-MOVE-NOMOVE's and FLIT-MOVE-INVALID's on legal
actions refused, and the chance rules' outcomes belong to phases where no bot is to move
(the state machine offers rule probes only while one is).

Every probe is canonical JSON that no legal action equals once parsed: whole-number
squares on the board, never a move naming one square twice (by the rules a no move, whose
canonical form is a pass). The probes are built from the position alone, once per
state (the last one is remembered). Must not drive engines.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.flit.play import coordinate

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any
MOVE_VALID, TURN_ORDER = "FLIT-MOVE-VALID", "FLIT-TURN-ORDER"

_last: list[Any] = [None, []]  # (the state JSON the probes were built for, the probes)


def _neighbours(i: int, w: int, h: int) -> tuple[int, int, int, int]:
    x, y = i % w, i // w
    return (((y - 1) % h) * w + x, y * w + (x + 1) % w, ((y + 1) % h) * w + x,
            y * w + (x - 1) % w)


def _corners(i: int, w: int, h: int) -> tuple[int, int, int, int]:
    x, y = i % w, i // w
    return tuple(((y + dy) % h) * w + (x + dx) % w  # type: ignore[return-value]
                 for dx in (-1, 1) for dy in (-1, 1))


def _xy(i: int, w: int) -> list[int]:
    return [i % w, i // w]


def _move(o: int, d: int, w: int) -> JSON:
    return {"type": "move", "from": _xy(o, w), "to": _xy(d, w)}


def rule_probes(ls: Lockstep) -> list[tuple[str, JSON]]:
    """(rule, action) pairs for the position `ls.ref_json`: each action breaks that rule
    and no other there."""
    s = ls.ref_json
    if _last[0] is s:
        return list(_last[1])
    out = build(s, ls.profile.variant("FLIT-NEUTRAL-ADD") == "list-1-in-6") \
        if isinstance(s, dict) and s.get("phase") == "move" else []
    _last[:] = [s, out]
    return list(out)


def build(s: JSON, list_neutrals: bool) -> list[tuple[str, JSON]]:
    """The probes for a state in the move phase (canonical JSON)."""
    w, h, board = s["width"], s["height"], s["board"]
    me = str(s["to_move"])
    own = [i for i, c in enumerate(board) if c == me]
    out: list[tuple[str, JSON]] = []

    def own_near(d: int, origin: int) -> list[int]:
        return [n for n in _neighbours(d, w, h) if n != origin and board[n] == me]

    # the destination touches only the moving piece: it counts, though the piece is lifted
    lifted = next(((o, d) for o in own for d in _neighbours(o, w, h)
                   if board[d] == "0" and not own_near(d, o)), None)
    if lifted:
        out.append((MOVE_VALID, _move(*lifted, w)))
    # another own piece touches the destination diagonally only
    diagonal = next(((o, c) for q in own for c in _corners(q, w, h)
                     if board[c] == "0" and not own_near(c, -1)
                     for o in own if o != q), None)
    if diagonal:
        out.append((MOVE_VALID, _move(*diagonal, w)))
    # the destination touches no piece of the bot at all, nor diagonally
    if own:
        far = next((d for d in range(len(board)) if board[d] == "0"
                    and not any(board[n] == me for n in _neighbours(d, w, h))
                    and not any(board[c] == me for c in _corners(d, w, h))), None)
        if far is not None:
            out.append((MOVE_VALID, _move(own[0], far, w)))
    # the destination is occupied, though another own piece touches it
    occupied = next(((o, d) for q in own for d in _neighbours(q, w, h) for o in own
                     if o not in (q, d) and board[d] != "0"), None)
    if occupied:
        out.append((MOVE_VALID, _move(*occupied, w)))
    # the origin is not the bot's: another bot's piece, a neutral or an empty square, to a
    # destination next to one of the bot's pieces
    target = next((d for q in own for d in _neighbours(q, w, h) if board[d] == "0"), None)
    if target is not None:
        origin = next((i for i, c in enumerate(board) if c not in ("0", me)
                       and i != target), None)
        if origin is not None:
            out.append((MOVE_VALID, _move(origin, target, w)))
    # an outcome of another phase, possible in its own phase, while a bot is to move
    free = next((i for i in range(len(board)) if board[i] == "0"
                 and all(board[n] == "0" for n in _neighbours(i, w, h))), None)
    if free is not None:
        out.append((TURN_ORDER, {"type": "setup", "at": _xy(free, w)}))
    if list_neutrals:
        out.append((TURN_ORDER, {"type": "neutral-list", "at": None}))
    else:
        out.append((TURN_ORDER, {"type": "neutral", "at": [0, 0], "hit": False}))
    return out


def draw_probe(data: st.DataObject, ls: Lockstep) -> JSON:
    probe = _probe(data, ls)
    if probe.get("type") == "move" and probe["from"] == probe["to"]:
        # one square named twice is a no move by the rules (its canonical form is a
        # pass): an engine taking it so is right, so it is no probe
        w, h = ls.ref_json["width"], ls.ref_json["height"]
        x, y = probe["from"]
        probe = {"type": "move", "from": probe["from"], "to": [(x + 2) % w, y % h]}
    return probe


def _probe(data: st.DataObject, ls: Lockstep) -> JSON:
    s = ls.ref_json
    w, h = s["width"], s["height"]
    if s["phase"] == "setup" and data.draw(st.booleans(), label="setup beside a piece"):
        # FLIT-SETUP-AVAILABLE's one-rule probe: an empty square beside a piece (empty, so
        # only the rule's "not next to a piece" forbids it); the set-up is short, so a probe
        # there is rare unless asked for
        board = s["board"]
        beside = sorted({(i % w + dx) % w + ((i // w + dy) % h) * w
                         for i, c in enumerate(board) if c != "0"
                         for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))})
        empty = [j for j in beside if board[j] == "0"]
        if empty:
            j = empty[data.draw(st.integers(0, len(empty) - 1), label="square")]
            return {"type": "setup", "at": [j % w, j // w]}
    if data.draw(st.booleans(), label="near pieces"):
        # squares beside pieces: where "empty but not available" and "touches only
        # itself" live, and where most wrong acceptances hide
        board = s["board"]
        occupied = [i for i, c in enumerate(board) if c != "0"]
        if occupied:
            i = occupied[data.draw(st.integers(0, len(occupied) - 1), label="piece")]
            x, y = i % w, i // w
            dx, dy = data.draw(st.sampled_from([(0, -1), (1, 0), (0, 1), (-1, 0), (1, 1),
                                                (0, 0)]), label="offset")
            at = [(x + dx) % w, (y + dy) % h]
            kind = data.draw(st.sampled_from(["setup", "neutral", "move-to", "move-from"]),
                             label="probe kind")
            if kind == "setup":
                return {"type": "setup", "at": at}
            if kind == "neutral":
                if ls.profile.variant("FLIT-NEUTRAL-ADD") == "list-1-in-6":
                    return {"type": "neutral-list", "at": at}
                return {"type": "neutral", "at": at, "hit": True}
            other = [x, y] if kind == "move-to" else at
            other = data.draw(st.sampled_from([other, [(x + 2) % w, y], [x, (y + 2) % h]]),
                              label="other end")
            if kind == "move-to":
                return {"type": "move", "from": other, "to": at}
            return {"type": "move", "from": at, "to": other}
    return data.draw(probe_strategy(w, h), label="probe")


@cache
def probe_strategy(w: int, h: int) -> st.SearchStrategy[JSON]:
    """Actions that are often illegal: random moves, off-board squares, wrong phases."""
    sq = st.tuples(coordinate(w), coordinate(h)).map(list)
    wide = st.tuples(st.integers(-2, w + 1), st.integers(-2, h + 1)).map(list)
    return st.one_of(
        st.builds(lambda a, b: {"type": "move", "from": a, "to": b}, sq, sq),
        st.sampled_from([{"type": "pass"}, {"type": "timeout"}, {"type": "invalid"}]),
        st.builds(lambda a: {"type": "setup", "at": a}, sq),
        st.builds(lambda a, hit: {"type": "neutral", "at": a, "hit": hit}, sq, st.booleans()),
        st.builds(lambda a: {"type": "neutral-list", "at": a}, st.one_of(st.none(), sq)),
        st.builds(lambda a, b: {"type": "move", "from": a, "to": b}, wide, wide),
    )
