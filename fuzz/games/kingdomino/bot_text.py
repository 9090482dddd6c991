"""Kingdomino's raw bot replies for the referee: PUT and PICK lines, well formed or not, and
garbage. Text only: nothing here asks an engine.
"""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from gamecert.spec import Profile


@cache  # asked at every text probe: made once per profile (the same draws)
def bot_text_strategy(profile: Profile) -> st.SearchStrategy[str]:
    num = st.one_of(st.integers(0, 8), st.integers(-2, 60))
    return st.one_of(
        st.builds(lambda x, y, r, t: f"PUT {x} {y} {r}\nPICK {t}\n", num, num,
                  st.integers(-1, 4), st.integers(0, 49)),
        st.builds(lambda x, y, r, t: f"PUT {x} {y} {r}\r\nPICK {t} my message\n",
                  num, num, st.integers(0, 3), st.integers(1, 48)),
        st.sampled_from(["", "\n", "PUT 4 4 0\n", "PUT 1 2\nPICK 3\n", "WAIT\nWAIT\n",
                         "PUT 5 4 0\nPICK 1\nPICK 2\n", "PUT 5 4 0 \nPICK 1\n",
                         "PUT 5 4 0\npick 1\n", "PUT +5 4 0\nPICK 1\n"]),
        st.text(max_size=24),
    )
