"""Kingdomino fuzzing: starts from random play at every depth (last turns included), moves
drawn from the reference's legal list, probes of near-miss placements and picks.

Targets steer toward full kingdoms, discards, ties on score, the last turn and (with 2
players) one player's two kings acting back to back.
"""

from __future__ import annotations

import random
import weakref
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any, cast

from hypothesis import strategies as st

from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines.engine import Engine
    from gamecert.fuzz.step.lockstep import Lockstep

JSON = Any
GAME = Kingdomino()


@cache
def played_state(profile: Profile, seed: int, steps: int) -> JSON:
    """Where random play from a fresh game stands after `steps` steps (or just before the
    end). Cached: shrinking and later rounds revisit the same seeds."""
    rng = random.Random(seed)
    state = GAME.initial(profile)
    for _ in range(steps):
        who = GAME.current(state)
        action = GAME.random_chance(state, rng) if who == CHANCE else \
            GAME.random_action(state, rng)
        nxt, _ = GAME.apply(state, action)
        if GAME.current(nxt) == TERMINAL:
            break
        state = nxt
    return GAME.observe(state)


def total_steps(profile: Profile) -> int:
    n = profile.param("KD-PLAYERS", "players")
    return 120 if n > 2 else 60


# Where each lockstep last drew a king's move: drawn again at the very same state (the
# reference moves on to a new state object at every step it takes), the move before was
# refused, and the reference stays with an engine that refuses (no load_state). A tile the
# engine thinks fits where the reference discards it is refused every time: a stop (the
# referee's action, for an engine that has one) lets the game go on past it.
_DRAWN_AT: weakref.WeakKeyDictionary[Lockstep, JSON] = weakref.WeakKeyDictionary()
STOPS = st.sampled_from(["format", "pick", "timeout"])

KINDS = st.sampled_from(["legal"] * 12 + ["stop-format", "stop-pick", "stop-timeout",
                                          "bad-put"])


class KingdominoPlugin:
    game = GAME
    # How far a run-ahead goes (an engine without load_state): a whole game is 28 to 52 king
    # steps (the draws are followed inside them). Short runs, several an example, still end
    # games (about as many as runs of up to 1,024 steps did) and stop at positions all
    # through them, where the probe rule then tries its one-rule probes: the longer runs
    # left most probes on the first turn (benchmarks/kingdomino_probe_reach.py).
    run_ahead: tuple[int, ...] = (4, 8, 16)
    # What the crafted starts are for (see the other games' plugins): z3's near-full grids.
    crafted_for: dict[str, tuple[str, ...]] = {
        "z3's near-full kingdoms, one spot left for the tile": ("KD-PLACE-EXTENT",
                                                                 "KD-DISCARD"),
    }

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        end = total_steps(profile)
        deep = st.builds(played_state, st.just(profile), st.integers(0, 2**16),
                         st.one_of(st.integers(end - 25, end), st.integers(0, end)))
        options: list[st.SearchStrategy[JSON]] = [
            st.just({"kind": "new_game"}),
            deep.map(lambda s: {"kind": "state", "state": s}),
            deep.map(lambda s: {"kind": "state", "state": s}),
        ]
        near_full = near_full_starts(profile)
        if near_full:
            options.append(st.sampled_from(near_full).map(
                lambda s: {"kind": "state", "state": s}))
        return st.one_of(options)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        game, state = cast(Kingdomino, ls.game), ls.ref
        if game.current(state) == CHANCE:
            outcomes = game.chance(state)
            i = data.draw(st.integers(0, len(outcomes) - 1), label="chance")
            return game.action_to_json(state, outcomes[i].action)
        if _DRAWN_AT.pop(ls, None) is ls.ref_json:
            return {"type": "stop", "cause": data.draw(STOPS, label="stop after refusal")}
        kind = data.draw(KINDS, label="kind")
        if kind.startswith("stop-"):
            return {"type": "stop", "cause": kind[5:]}
        if kind == "bad-put" and state.turn > 1 and state.placing[state.nxt][0]:
            tile, p = state.placing[state.nxt]
            if game.fits_somewhere(state, state.grids[p - 1], tile):
                picks = [t for t, o in state.line if o == 0] or [None]
                pick = picks[data.draw(st.integers(0, len(picks) - 1), label="pick")]
                if state.cfg.put_discards:
                    return {"type": "invalid-put", "pick": pick}
                return {"type": "stop", "cause": "put"}
        legal = game.legal(state)
        i = data.draw(st.integers(0, len(legal) - 1), label="move")
        _DRAWN_AT[ls] = ls.ref_json
        return game.action_to_json(state, legal[i])

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        s = ls.ref_json
        if s["phase"] == "deal":
            return {"type": "deal", "tile": data.draw(st.integers(0, 49), label="tile")}
        if s["phase"] == "order":
            n = s["players"]
            return {"type": "order", "order": data.draw(
                st.lists(st.integers(1, n), min_size=n - 1, max_size=2 * n), label="order")}
        kind = data.draw(st.sampled_from(["near", "near", "near", "discard", "any", "other",
                                          "bad pick", "bad pick"]), label="probe kind")
        if kind == "bad pick":
            # a PUT the rules allow with a PICK they may not: taken, out of the line, or
            # any PICK on the last turn
            game, state = cast(Kingdomino, ls.game), ls.ref
            legal = game.legal(state)
            act = legal[data.draw(st.integers(0, len(legal) - 1), label="legal")]
            taken = [e["tile"] for e in s["line"] if e["player"] is not None]
            bad = data.draw(st.one_of(st.sampled_from(taken or [0]), st.integers(0, 49)),
                            label="bad pick")
            return {**game.action_to_json(state, act), "pick": bad}
        line = [e["tile"] for e in s["line"]]
        pick = data.draw(st.one_of(st.sampled_from(line or [None]), st.none(),
                                   st.integers(1, 48)), label="pick")
        if kind == "other":
            return data.draw(st.sampled_from([
                {"type": "invalid-put", "pick": pick}, {"type": "stop", "cause": "put"},
                {"type": "deal", "tile": 1}, {"type": "order", "order": [1, 2]}]))
        if kind == "discard":
            return {"type": "play", "put": None, "pick": pick}
        if kind == "near":
            # cells at the edge of the territory: where extent, overlap and connection meet
            x = data.draw(st.integers(1, 7), label="x")
            y = data.draw(st.integers(1, 7), label="y")
        else:
            x = data.draw(st.integers(-1, 9), label="x")
            y = data.draw(st.integers(-1, 9), label="y")
        r = data.draw(st.one_of(st.integers(0, 3), st.integers(-1, 4)), label="rotation")
        return {"type": "play", "put": [x, y, r], "pick": pick}

    def rule_probes(self, ls: Lockstep) -> list[tuple[str, JSON]]:
        """Actions that each break one rule and no other here (`kingdomino_probes`)."""
        from gamecert.fuzz.games.kingdomino_probes import rule_probes

        return rule_probes(ls)

    def cheap_to_list(self, ls: Lockstep) -> bool:
        """Chance listings are compared; a king's listing is not: a placement read wrongly
        changes dozens of entries at once, and one finding would then name every placement
        rule. Plays and probes judge the same actions one at a time."""
        return bool(ls.ref_json["phase"] != "play")

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
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

    def targets(self, ls: Lockstep) -> dict[str, float]:
        s = ls.ref_json
        empty = min(sum(r.count("_") for r in g) for g in s["grids"])
        scores = [GAME.score_grid("".join(g)) for g in s["grids"]]
        gap = min(abs(a - c) for i, a in enumerate(scores) for c in scores[i + 1:])
        owners = [k["player"] for k in s["placing"]]
        double = sum(a == b for a, b in pairwise(owners))
        return {"fullest kingdom": float(81 - empty), "discards": float(len(s["discarded"])),
                "score tie": float(-gap), "turn": float(s["turn"]),
                "double kings": float(double)}

    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        from gamecert.fuzz.cli.prove import prove_kingdomino

        return prove_kingdomino(engine, profile)


def near_full_starts(profile: Profile) -> list[JSON]:
    """z3's near-full kingdoms (exactly one spot left for the tile), as start states."""
    try:
        from gamecert.oracles.kingdomino.z3_checks import near_full_states
    except ImportError:  # pragma: no cover - z3 is a dependency; kept for clarity
        return []
    return near_full_states(profile)


PLUGIN = KingdominoPlugin()
