"""Flit's crafted positions: boards near the wrap, neutrals a move from conversion, counters at
or one short of their limits (the crafted starts, `CRAFTED_FOR` below says which
rules each is for). Builds states only: nothing here plays or judges.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from gamecert.spec import Profile

JSON = Any
# What the crafted starts are for: each kind of start, the rules whose rare cases it puts one
# step away. An engine that cannot load them gets those rules checked in part.
CRAFTED_FOR: dict[str, tuple[str, ...]] = {
    "pieces beside the board's wrap (crafted_state)": ("FLIT-BOARD-TORUS",),
    "neutrals a move away from conversion, and its announcement (crafted_state)": (
        "FLIT-CONVERT", "FLIT-PROTO-UPDATES"),
    "time-out counters at the freeze limit (crafted_state)": ("FLIT-FREEZE",),
    "the turn counter at the cap, the game a step from its end (crafted_state)": (
        "FLIT-END-TURNCAP", "FLIT-WINNER", "FLIT-WINNER-TIE"),
    "the pass counter at the all-pass limit (crafted_state)": ("FLIT-END-ALLPASS",),
    "z3's boundary positions of the catch-up rule": ("FLIT-END-CATCHUP",),
}


def _dims(profile: Profile) -> tuple[int, int]:
    return profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")


def boundary_first(low: int, high: int, *edges: int) -> st.SearchStrategy[int]:
    """Integers in [low, high] that try the `edges` (a rule's limit and the value just
    before it) first and shrink to them."""
    return st.one_of(st.sampled_from(edges), st.integers(low, high))


@st.composite
def crafted_state(draw: st.DrawFn, profile: Profile) -> JSON:
    """A mid-game position: a few pieces per bot, many near the board's wrap, isolated
    neutrals beside them, and counters at or near their limits.

    The layout comes from one drawn seed (cheap to generate); the counters are drawn one by
    one with the rule's boundary value first, where the mistakes are.
    """
    w, h = _dims(profile)
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="layout seed"))
    board = ["0"] * (w * h)

    def nbrs(i: int) -> list[int]:
        x, y = i % w, i // w
        return [((y - 1) % h) * w + x, y * w + (x + 1) % w, ((y + 1) % h) * w + x,
                y * w + (x - 1) % w]

    def coord(size: int) -> int:
        return rng.choice((rng.randrange(3), size - 1 - rng.randrange(3), rng.randrange(size)))

    least = profile.param("FLIT-SETUP-ORDER", "pieces_per_bot")  # none is ever captured
    most = max(least, min(least + 3, w * h // 8))  # at most half the board: the loop ends
    for bot in "1234":
        placed = 0
        while placed < rng.randint(least, most):
            i = coord(h) * w + coord(w)
            if board[i] == "0":
                board[i], placed = bot, placed + 1
    pieces = [i for i, c in enumerate(board) if c != "0"]
    for _ in range(rng.randint(0, 8)):
        # a neutral one step beyond some piece's neighbour: a move can convert it
        i = rng.choice(nbrs(rng.choice(nbrs(rng.choice(pieces)))))
        if rng.random() < 0.3:
            i = coord(h) * w + coord(w)
        if board[i] == "0" and all(board[n] == "0" for n in nbrs(i)):
            board[i] = "5"
    cap = profile.param("FLIT-END-TURNCAP", "max_turns")
    limit = profile.param("FLIT-FREEZE", "consecutive_timeouts")
    to_move = draw(st.integers(1, 4), label="to_move")
    frozen = [b != to_move and draw(st.integers(0, 5), label="frozen") == 0 for b in (1, 2, 3, 4)]
    return {
        "game": "flit", "profile": profile.id, "width": w, "height": h,
        "board": "".join(board), "phase": draw(st.sampled_from(["move", "neutral"])),
        "to_move": to_move,
        "turn": draw(st.one_of(st.integers(cap - 2, cap - 1), st.integers(8, 500)),
                     label="turn"),
        "passes": draw(boundary_first(0, 3, 3, 2), label="passes"),
        "timeouts": [0 if f else draw(boundary_first(0, limit - 1, limit - 1, limit - 2),
                                      label="timeouts")
                     for f in frozen],
        "frozen": frozen, "result": None,
    }
