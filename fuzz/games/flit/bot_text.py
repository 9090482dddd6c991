"""Flit's raw bot replies for the referee: four numbers in and out of the board, well formed
or not, and garbage; and replies written from the position, one of the mover's own moves
written another way. Text only: it reads the reference's position, never asks an engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from hypothesis import strategies as st

from gamecert.fuzz.games.flit.crafted import _dims
from gamecert.reference_engine.flit import Flit
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep

# how each number of a move is moved: not at all, or a whole board off it (the same square
# on the torus, but a number outside the board, which FLIT-PROTO-REPLY does not read)
SHIFTS = st.lists(st.sampled_from([0, 0, 0, 1, -1]), min_size=4, max_size=4)
# how the line is written: plainly, or in ways the rule reads alike (leading zeros, a tab,
# a carriage return, no newline)
STYLES = st.sampled_from(["plain", "zeros", "tab", "crlf", "bare"])


def bot_text_at(data: st.DataObject, ls: Lockstep) -> str | None:
    """A reply naming one of the mover's own moves: its numbers now and then a whole board
    off (a referee that wraps them onto the board takes a move the rule refuses), written
    in one of the ways the rule allows. None where the mover has no move."""
    game, state = cast(Flit, ls.game), ls.ref
    origins = game.pieces(state, state.to_move)
    if not origins:
        return None
    origin = origins[data.draw(st.integers(0, len(origins) - 1), label="origin")]
    dests = game.destinations(state, origin)
    if not dests:
        return None
    dest = dests[data.draw(st.integers(0, len(dests) - 1), label="destination")]
    w, h = state.width, state.height
    sizes = (w, h, w, h)
    numbers = [n + shift * size for n, shift, size in zip(
        (origin % w, origin // w, dest % w, dest // w),
        data.draw(SHIFTS, label="off the board"), sizes, strict=True)]
    style = data.draw(STYLES, label="written")
    words = [f"{n:03d}" if style == "zeros" and n >= 0 else str(n) for n in numbers]
    line = ("\t" if style == "tab" else " ").join(words)
    return line + {"crlf": "\r\n", "bare": ""}.get(style, "\n")


def bot_text_strategy(profile: Profile) -> st.SearchStrategy[str]:
    w, h = _dims(profile)
    num = st.one_of(st.integers(0, w - 1), st.integers(-2, max(w, h) + 2))
    return st.one_of(
        st.builds(lambda a, b, c, d: f"{a} {b} {c} {d}\n", num, num, num, num),
        st.builds(lambda a, b: f"{a} {b} {a} {b}\n", num, num),
        st.sampled_from(["", "\n", "M\n", "1 2 3\n", "1 2 3 4 5\n", "1,2,3,4\n",
                         "+1 2 3 4\n", "0x1 2 3 4\n", "1 2 3 99999999999999999999999\n",
                         "-0 0 0 0\n", "\t0 0 0 1 \r\n"]),
        st.text(max_size=24),
    )
