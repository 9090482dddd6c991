"""Flit fuzzing: crafted boards near the wrap, z3 catch-up boundaries, near-end states."""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from hypothesis import strategies as st

from gamecert.fuzz.games.flit_probes import rule_probes
from gamecert.fuzz.games.flit_steer import run_ahead_policy
from gamecert.oracles.flit.proofs import boundary_positions
from gamecert.reference_engine.contract import CHANCE
from gamecert.reference_engine.flit import Flit
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines import Engine
    from gamecert.fuzz.lockstep import Lockstep

JSON = Any


def _dims(profile: Profile) -> tuple[int, int]:
    return profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")


@cache
def coordinate(size: int) -> st.SearchStrategy[int]:
    # shrinks towards 0, whose neighbour across the wrap is size - 1
    return st.one_of(st.integers(0, 2), st.integers(size - 3, size - 1), st.integers(0, size - 1))


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


def played_state(profile: Profile, seed: int, turns: int) -> JSON:
    """Where random play from a fresh game stands after `turns` turns (or just before the end)."""
    game, rng = Flit(), random.Random(seed)
    state = game.initial(profile)
    while state.turn < turns:
        who = game.current(state)
        if who == CHANCE:
            action = game.random_chance(state, rng)
        elif who < 0:
            break
        else:
            r = rng.random()
            action = ("pass",) if r < 0.1 else ("timeout",) if r < 0.15 else \
                game.random_action(state, rng)
        nxt, _ = game.apply(state, action)
        if game.current(nxt) < 0:
            break
        state = nxt
    return game.observe(state)


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


PLAYER_KINDS = st.sampled_from(["legal", "legal", "legal", "legal", "timeout", "invalid"])


class FlitPlugin:
    game = Flit()
    # The run-ahead for an engine that cannot load states (the crafted starts are how
    # Flit's deep rules are met otherwise) is steered (fuzz.games.flit_steer): a leader
    # converts the neutrals it can reach and half the runs end the game with every bot
    # passing, so winners, ties and conversions are met from new games. The longest runs
    # are for the catch-up end under the list reading of FLIT-NEUTRAL-ADD (about 3,300
    # turns); under the square reading a run stops at 1,024 turns, its catch-up being out
    # of reach (see flit_steer).
    run_ahead: tuple[int, ...] = (32, 128, 512, 4096)
    run_ahead_policy = staticmethod(run_ahead_policy)
    rule_probes = staticmethod(rule_probes)
    # What the crafted starts are for: each kind of start, the rules whose rare cases it
    # puts one step away. An engine that cannot load them gets those rules checked in part.
    crafted_for: dict[str, tuple[str, ...]] = {
        "pieces beside the board's wrap (crafted_state)": ("FLIT-BOARD-TORUS",),
        "neutrals a move away from conversion, and its announcement (crafted_state)": (
            "FLIT-CONVERT", "FLIT-PROTO-UPDATES"),
        "time-out counters at the freeze limit (crafted_state)": ("FLIT-FREEZE",),
        "the turn counter at the cap, the game a step from its end (crafted_state)": (
            "FLIT-END-TURNCAP", "FLIT-WINNER", "FLIT-WINNER-TIE"),
        "the pass counter at the all-pass limit (crafted_state)": ("FLIT-END-ALLPASS",),
        "z3's boundary positions of the catch-up rule": ("FLIT-END-CATCHUP",),
    }

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        boundaries = [s for _, s in boundary_positions(profile)] if profile.param(
            "FLIT-BOARD-SIZE", "width") * profile.param("FLIT-BOARD-SIZE", "height") > 64 else []
        options: list[st.SearchStrategy[JSON]] = [
            st.just({"kind": "new_game"}),
            crafted_state(profile).map(lambda s: {"kind": "state", "state": s}),
            st.builds(played_state, st.just(profile), st.integers(0, 2**16),
                      st.integers(0, 120)).map(lambda s: {"kind": "state", "state": s}),
        ]
        if boundaries:
            options.append(st.sampled_from(boundaries).map(lambda s: {"kind": "state",
                                                                        "state": s}))
        return st.one_of(options)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        game, state = cast(Flit, ls.game), ls.ref
        if game.current(state) == CHANCE:
            return self._chance(data, ls)
        kind = data.draw(PLAYER_KINDS, label="kind")
        if kind != "legal":
            return {"type": kind}
        # origin, then destination: never lists every move (a crowded board has 10^5)
        origins = game.pieces(state, state.to_move)
        choice = data.draw(st.integers(0, len(origins)), label="origin")
        if choice == 0:
            return {"type": "pass"}
        origin = origins[choice - 1]
        dests = game.destinations(state, origin)
        if not dests:
            return {"type": "pass"}
        dest = dests[data.draw(st.integers(0, len(dests) - 1), label="destination")]
        return game.action_to_json(state, ("move", origin, dest))

    def cheap_to_list(self, ls: Lockstep) -> bool:
        """Comparing full legal sets is worth it below ~20,000 actions."""
        s = ls.ref_json
        if s["phase"] != "move":
            return True
        return bool(s["board"].count(str(s["to_move"])) * s["board"].count("0") <= 20_000)

    def _chance(self, data: st.DataObject, ls: Lockstep) -> JSON:
        game, state = cast(Flit, ls.game), ls.ref
        s = ls.ref_json
        w, h = s["width"], s["height"]
        if s["phase"] == "setup":
            squares = game.available_squares(state)
            i = squares[data.draw(st.integers(0, len(squares) - 1), label="setup square")]
            return {"type": "setup", "at": [i % w, i // w]}
        if ls.profile.variant("FLIT-NEUTRAL-ADD") == "list-1-in-6":
            squares = game.available_squares(state)
            if not squares or not data.draw(st.booleans(), label="neutral added"):
                return {"type": "neutral-list", "at": None}
            i = squares[data.draw(st.integers(0, len(squares) - 1), label="neutral square")]
            return {"type": "neutral-list", "at": [i % w, i // w]}
        x = data.draw(coordinate(w), label="neutral x")
        y = data.draw(coordinate(h), label="neutral y")
        hit = game.available(state, y * w + x) and data.draw(st.booleans(), label="hit")
        return {"type": "neutral", "at": [x, y], "hit": hit}

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        probe = self._probe(data, ls)
        if probe.get("type") == "move" and probe["from"] == probe["to"]:
            # one square named twice is a no move by the rules (its canonical form is a
            # pass): an engine taking it so is right, so it is no probe
            w, h = ls.ref_json["width"], ls.ref_json["height"]
            x, y = probe["from"]
            probe = {"type": "move", "from": probe["from"], "to": [(x + 2) % w, y % h]}
        return probe

    def _probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        s = ls.ref_json
        w, h = s["width"], s["height"]
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

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
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

    def targets(self, ls: Lockstep) -> dict[str, float]:
        s = ls.ref_json
        counts = [s["board"].count(c) for c in "1234"]
        spare = s["board"].count("5") + s["board"].count("0") - 4
        margin = max(d - max(c + spare for j, c in enumerate(counts) if j != i)
                     for i, d in enumerate(counts))
        return {"catch-up margin": float(max(margin, -50)), "no-move run": float(s["passes"]),
                "most time-outs": float(max(s["timeouts"]))}


    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        from gamecert.fuzz.prove import prove_flit

        return prove_flit(engine, profile)


PLUGIN = FlitPlugin()
