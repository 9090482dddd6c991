"""Bot Wars' raw bot replies for the referee: move lists as JSON, well formed or not, other
JSON values and garbage. Text only: nothing here asks an engine.
"""

from __future__ import annotations

import json
from functools import cache

from hypothesis import strategies as st

from gamecert.reference_engine.botwars import BotWarsConfig
from gamecert.spec import Profile

# Replies a bot may send that are not a JSON list of {from, to} integer objects (all
# BOTWARS-FORMAT-DQ under integer-literal; under integer-value the whole numbers written 22.0
# and 2e1 are squares); includes every reply of tests/botwars/play.py's GARBAGE.
GARBAGE: tuple[str, ...] = (
    "", "nope", '{"from": 1, "to": 2}', "[1, 2]", '[{"from": 1}]', '[{"from": true, "to": 2}]',
    '[{"from": 1.5, "to": 2}]', '[{"from": "3", "to": 2}]', "[[21, 22]]",
    '[{"from": 1, "to": 2}', "null", "{}", "   ", "[", "42", '"[]"', '[{"to": 80}]',
    '[{"from": null, "to": 80}]', '[{"from": 21, "to": 22}, 7]', '[{"from": NaN, "to": 22}]',
    '[{"from": 21, "to": 22.0}]', '[{"from": 2e1, "to": 22}]', "[]]", "[] []",
    "\x00", "[" * 3000 + "]" * 3000,
)


@cache
def bot_text_strategy(profile: Profile) -> st.SearchStrategy[str]:
    cfg = BotWarsConfig.of(profile)
    near = sorted({s for side in (1, 2) for s in (cfg.spawns[side], *cfg.nbrs[cfg.spawns[side]])})
    square = st.one_of(st.sampled_from(near), st.integers(-2, cfg.size + 1),
                       st.sampled_from([2**63, -(2**63), 10**20]))
    entry = st.fixed_dictionaries({"from": square, "to": square},
                                  optional={"note": st.sampled_from(["", "north", 1])})
    lists = st.builds(lambda items, indent: json.dumps(items, indent=indent),
                      st.lists(entry, max_size=4), st.sampled_from([None, None, 1]))
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers(-3, cfg.size) | st.floats(allow_nan=False)
        | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
            st.sampled_from(["from", "to", "x"]), inner, max_size=3),
        max_leaves=6)
    return st.one_of(lists, st.sampled_from(GARBAGE), json_values.map(json.dumps),
                     st.builds(lambda t, pad: t + pad, lists, st.sampled_from([" ", "\n", "x"])),
                     st.text(max_size=16))
