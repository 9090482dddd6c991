"""Flit's raw bot replies for the referee: four numbers in and out of the board, well formed
or not, and garbage. Text only: nothing here asks an engine.
"""

from __future__ import annotations

from hypothesis import strategies as st

from gamecert.fuzz.games.flit.crafted import _dims
from gamecert.spec import Profile


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
