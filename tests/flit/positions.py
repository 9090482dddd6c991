"""Flit positions and steps for tests of the departure library, the probes and the
oracles: steered games (conversions, no moves, time-outs, frozen bots, all-pass ends) and
crafted positions where the rarer rules are at work (the wrap, diagonal and double
neutrals, the turn cap, the catch-up boundary). Test helpers only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from gamecert.fuzz.games.flit.play import converting_move, walking_move
from gamecert.fuzz.games.flit.probes import build
from gamecert.oracles.flit.proofs import boundary_positions
from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.reference_engine.flit import Flit
from gamecert.spec import Profile

JSON = Any
GAME = Flit()


def steered_states(profile: Profile, seed: int, turns: int) -> list[Any]:
    """Every state (internal) of a game where bot 1 converts what it can and the others
    pass, time out (bot 3, until frozen) or reply badly, ending with every bot passing."""
    rng = random.Random(seed)
    s = GAME.initial(profile)
    out = [s]
    while (who := GAME.current(s)) != TERMINAL:
        if who == CHANCE:
            a = GAME.random_chance(s, rng)
        elif s.turn >= turns:
            a = ("pass",)
        elif who == 1:
            a = converting_move(GAME, s) or walking_move(GAME, s) or GAME.random_action(s, rng)
        elif who == 3:
            a = ("timeout",)
        else:
            a = rng.choice((("pass",), ("invalid",), GAME.random_action(s, rng)))
        s, _ = GAME.apply(s, a)
        out.append(s)
    return out


def _board(w: int, h: int, pieces: dict[tuple[int, int], str]) -> str:
    board = ["0"] * (w * h)
    for (x, y), c in pieces.items():
        board[(y % h) * w + x % w] = c
    return "".join(board)


def crafted(profile: Profile) -> list[JSON]:
    """Move-phase positions for the rarer cases, bot 1 to move."""
    w = profile.param("FLIT-BOARD-SIZE", "width")
    h = profile.param("FLIT-BOARD-SIZE", "height")
    cap = profile.param("FLIT-END-TURNCAP", "max_turns")
    base = {(10, 10): "2", (12, 10): "2", (10, 20): "3", (12, 20): "3", (20, 10): "4",
            (22, 10): "4"}

    def state(pieces: dict[tuple[int, int], str], **fields: Any) -> JSON:
        s = {"game": "flit", "profile": profile.id, "width": w, "height": h,
             "board": _board(w, h, {**base, **pieces}), "phase": "move", "to_move": 1,
             "turn": 40, "passes": 0, "timeouts": [0, 0, 0, 0],
             "frozen": [False, False, False, False], "result": None}
        s.update(fields)
        return s

    return [
        # a neutral across the left-right wrap from (0, 6), next to bot 1's pieces
        state({(0, 5): "1", (0, 7): "1", (w - 1, 6): "5"}),
        # a neutral across the top-bottom wrap from (6, 0)
        state({(5, 0): "1", (7, 0): "1", (6, h - 1): "5"}),
        # bot 1's pieces at the left edge: squares next to them only across the wrap
        state({(0, 15): "1", (0, 17): "1"}),
        # a neutral diagonal to (15, 16), next to bot 1's (15, 15); two neutrals next to
        # (26, 26), next to bot 1's (26, 25)
        state({(15, 15): "1", (17, 15): "1", (16, 17): "5", (26, 25): "1", (27, 26): "5",
               (26, 27): "5"}),
        # a run of time-outs at the freeze limit, a no-move run at the all-pass limit
        state({(15, 15): "1", (17, 15): "1"}, timeouts=[4, 0, 0, 0], passes=3),
        # the turn cap one turn away
        state({(15, 15): "1", (17, 15): "1"}, turn=cap - 1),
        # bot 2 frozen, its turn next
        state({(15, 15): "1", (17, 15): "1"}, frozen=[False, True, False, False]),
    ] + [s for _, s in boundary_positions(profile)]


def actions(state: Any, rng: random.Random) -> Iterator[Any]:
    """Actions to try in a state (internal): for a bot, moves (legal ones, probes), no
    moves; for a chance step, outcomes possible and not (a neutral or a set-up piece on an
    empty square that is not available)."""
    who = GAME.current(state)
    js = GAME.observe(state)
    if who == TERMINAL:
        return
    if who == CHANCE:
        yield GAME.action_to_json(state, GAME.random_chance(state, rng))
        empty = [i for i, c in enumerate(state.board) if c == 0
                 and not GAME.available(state, i)]
        w = state.width
        for i in empty[:3]:
            at = [i % w, i // w]
            if state.phase == "setup":
                yield {"type": "setup", "at": at}
            elif state.cfg.list_neutrals:
                yield {"type": "neutral-list", "at": at}
            else:
                yield {"type": "neutral", "at": at, "hit": True}
        return
    legal = GAME.legal(state)
    w, h = state.width, state.height
    board = state.board

    def rare(a: Any) -> bool:  # at an edge, or next to a neutral, diagonals included
        d = a[2]
        x, y = d % w, d // w
        near = {((y + dy) % h) * w + (x + dx) % w for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        return x in (0, w - 1) or y in (0, h - 1) or any(board[n] == 5 for n in near)

    moves = [a for a in legal if a[0] == "move"]
    for a in [legal[0], *rng.sample(legal, min(6, len(legal))),
              *[a for a in moves if rare(a)][:12]]:
        yield GAME.action_to_json(state, a)
    conv = converting_move(GAME, state)
    if conv:
        yield GAME.action_to_json(state, conv)
    for kind in ("timeout", "invalid"):
        yield {"type": kind}
    for _, probe in build(js, state.cfg.list_neutrals):
        yield probe


def outcome(game: Any, profile: Profile, before: JSON, action: JSON) -> JSON | None:
    """`game`'s canonical state after `action` from `before` (None: it refuses it, or the
    state does not load under it)."""
    try:
        s = game.load(profile, before)
        after, _ = game.apply(s, game.action_from_json(s, action))
    except (IllegalAction, BadState, ValueError, KeyError):
        return None
    return game.observe(after)
