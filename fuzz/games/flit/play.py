"""Flit's play: the moves the state machine draws (`draw_action`: a player's move, pass,
time-out or invalid reply, or a chance step), and the run-ahead: a stretch of a game played
with a purpose, for an engine that cannot load the crafted starts where Flit's deep rules
are met.

Random play on a 32 x 32 board almost never converts a neutral and never ends a game (a
random mover never passes), so an engine without `load_state` would meet no winner, no
catch-up and no all-pass end with pieces won. Each run picks a plan with its seeded
`random.Random`:

* a leader, one bot that converts every neutral it can reach: it moves a piece next to a
  neutral when one is a move away (touching another of its pieces), else walks a piece
  towards the nearest neutral (its piece farthest from it jumps next to its piece
  nearest to it);
* what the other bots do: no move (pass), random moves, or time-outs in a row (a bot that
  times out five times is frozen);
* whether the run ends the game: its last turns are no moves by every bot, so the all-pass
  end comes with the leader's pieces counted (a winner, or a tie when it won none).

What it reaches, measured on the reference alone (tests/flit/test_steer.py, the leader
against bots that pass): under `list-neutrals` (a neutral on an available square with
probability 1 in 6 each turn) the leader's catch-up end comes after about 2,100 to 2,600
turns, within the longest run; under `standard` (one square drawn, 1 in 16) the leader
holds about 60 pieces after 1,024 turns and about 500 near the turn cap, where the
catch-up end wants 509 (others at 2): a whole game of 32,768 turns, which behind an
engine that draws for itself costs the lockstep several milliseconds a turn (most of it
the chance listing and its statistics), minutes a game. Runs under `standard` stop at
1,024 turns: its catch-up and turn-cap ends are out of a campaign's reach there.

Chance steps (an engine with `chance` but no `load_state`) are the reference's own seeded
draws. This module only chooses actions: it must not drive engines or judge.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from hypothesis import strategies as st

from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.flit import Flit
from gamecert.reference_engine.flit.engine import EMPTY, NEUTRAL, FlitState

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any
Action = tuple[Any, ...]
PASS: Action = ("pass",)
OTHERS = ("pass", "pass", "random", "timeouts")
# the longest run under the square reading of FLIT-NEUTRAL-ADD (its catch-up end being out
# of any run's reach, a longer run would only cost time)
SQUARE_READING_RUN = 1024
# The run-ahead for an engine that cannot load states (the crafted starts are how Flit's
# deep rules are met otherwise) is steered (`run_ahead_policy`): a leader converts the
# neutrals it can reach and half the runs end the game with every bot passing, so winners,
# ties and conversions are met from new games. The longest runs are for the catch-up end
# under the list reading of FLIT-NEUTRAL-ADD (about 3,300 turns); under the square reading a
# run stops at SQUARE_READING_RUN turns, its catch-up being out of reach.
RUN_AHEAD: tuple[int, ...] = (32, 128, 512, 4096)
# stretches for engines that load states too (fuzz.search.machine): Flit's mutants are
# caught as soon or sooner, each with its own rule (docs/speed.md)
STRETCH_WHEN_LOADING = True


def cheap_to_list(ls: Lockstep) -> bool:
    """Comparing full legal sets is worth it below ~20,000 actions."""
    s = ls.ref_json
    if s["phase"] != "move":
        return True
    return bool(s["board"].count(str(s["to_move"])) * s["board"].count("0") <= 20_000)


def distance(a: int, b: int, w: int, h: int) -> int:
    """Steps between two squares on the torus."""
    dx, dy = abs(a % w - b % w), abs(a // w - b // w)
    return min(dx, w - dx) + min(dy, h - dy)


def converting_move(game: Flit, state: FlitState) -> Action | None:
    """A move of the bot to move that converts a neutral (the most at once), its piece
    farthest from the destination moving; None when no neutral is a move away."""
    board, bot = state.board, state.to_move
    nbrs = game.neighbours(state)
    neutrals = game.pieces(state, NEUTRAL)
    if not neutrals:
        return None
    best: tuple[int, int, list[int]] | None = None
    for n in neutrals:
        for d in nbrs[n]:
            if board[d] != EMPTY:
                continue
            anchors = [q for q in nbrs[d] if board[q] == bot]
            if anchors:
                gain = sum(1 for m in nbrs[d] if board[m] == NEUTRAL)
                if best is None or gain > best[0]:
                    best = (gain, d, anchors)
    if best is None:
        return None
    _, d, anchors = best
    w, h = state.width, state.height
    movable = [o for o in game.pieces(state, bot) if anchors != [o]]
    if not movable:
        return None
    return ("move", max(movable, key=lambda o: (distance(o, d, w, h), o)), d)


def walking_move(game: Flit, state: FlitState) -> Action | None:
    """A move that brings the bot's pieces one square nearer a neutral: its piece farthest
    from it jumps next to its piece nearest to it, on the near side. The neutral is the
    nearest to a few of the bot's pieces (a crowded board has hundreds: looking at every
    pair would cost more than the lockstep's step)."""
    board, bot = state.board, state.to_move
    neutrals = game.pieces(state, NEUTRAL)
    own = game.pieces(state, bot)
    if not neutrals or len(own) < 2:
        return None
    w, h = state.width, state.height
    few = own[::max(1, len(own) // 8)]
    target = min(neutrals[:32], key=lambda n: (min(distance(n, q, w, h) for q in few), n))
    anchor = min(own, key=lambda q: (distance(q, target, w, h), q))
    here = distance(anchor, target, w, h)
    dests = [d for d in game.neighbours(state)[anchor]
             if board[d] == EMPTY and distance(d, target, w, h) < here]
    if not dests:
        return None
    origin = max((o for o in own if o != anchor), key=lambda o: (distance(o, target, w, h), o))
    return ("move", origin, dests[0])


def quick_move(game: Flit, state: FlitState, rng: random.Random, tries: int = 16) -> Action:
    """A random legal move of the bot to move, seeded by `rng`, without listing the moves
    (a crowded board has 10^5, and listing them cost a stretch far more than the lockstep's
    own step): one of its pieces drawn, its empty neighbours tried in a random order, then
    the moving piece drawn among the others (FLIT-MOVE-VALID: the square stays touched by
    a piece that does not move). The full list only when drawing keeps missing."""
    bot, board = state.to_move, state.board
    nbrs = game.neighbours(state)
    size, rand = len(board), rng.random
    for _ in range(tries):
        q = board.find(bot, int(rand() * size))
        q = board.find(bot) if q < 0 else q
        if q < 0:
            break
        around = list(nbrs[q])
        rng.shuffle(around)
        for d in around:
            if board[d] != EMPTY:
                continue
            o = board.find(bot, int(rand() * size))
            o = board.find(bot) if o < 0 else o
            if o == q:  # another piece: the one after it, wrapping
                o = board.find(bot, q + 1)
                o = board.find(bot) if o < 0 else o
            if o != q:
                return ("move", o, d)
            break  # a bot with one piece: no move keeps its square touched
    return rng.choice(game.legal(state))


class Plan:
    """One run's plan (see the module's docstring); `next` gives each action in turn."""

    def __init__(self, ls: Lockstep, rng: random.Random, length: int) -> None:
        if ls.profile.variant("FLIT-NEUTRAL-ADD") != "list-1-in-6":
            length = min(length, SQUARE_READING_RUN)  # its catch-up is out of reach anyway
        self.ls, self.rng, self.length = ls, rng, length
        self.leader = rng.randint(1, 4)
        self.others = rng.choice(OTHERS)
        self.slow = rng.choice([b for b in (1, 2, 3, 4) if b != self.leader])
        # the run's last turns are no moves by every bot: the all-pass end
        self.finish = rng.random() < 0.5
        self.done = 0

    def next(self) -> JSON | None:
        game, state = cast(Flit, self.ls.game), self.ls.ref
        who = game.current(state)
        if who == TERMINAL:
            return None
        self.done += 1
        if self.done > self.length:
            return None
        if who == CHANCE:
            return game.action_to_json(state, game.random_chance(state, self.rng))
        return game.action_to_json(state, self._choose(game, state, who))

    def _choose(self, game: Flit, state: FlitState, who: int) -> Action:
        rng = self.rng
        if self.finish and self.done > self.length - 5:
            return PASS  # a no move under every reading of FLIT-END-ALLPASS
        if who == self.leader:
            return (converting_move(game, state) or walking_move(game, state)
                    or quick_move(game, state, rng))
        if self.others == "timeouts" and who == self.slow:
            return ("timeout",)
        if self.others == "random" and rng.random() < 0.7:
            return converting_move(game, state) or quick_move(game, state, rng)
        return rng.choice((PASS, PASS, PASS, ("timeout",), ("invalid",)))


def run_ahead_policy(ls: Lockstep, rng: random.Random, length: int
                     ) -> Callable[[], JSON | None]:
    """The machine's run-ahead hook (fuzz.search.machine): a plan for one run."""
    return Plan(ls, rng, length).next


def draw_action(data: st.DataObject, ls: Lockstep) -> JSON:
    game, state = cast(Flit, ls.game), ls.ref
    if game.current(state) == CHANCE:
        return _chance(data, ls)
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


def _chance(data: st.DataObject, ls: Lockstep) -> JSON:
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


@cache
def coordinate(size: int) -> st.SearchStrategy[int]:
    # shrinks towards 0, whose neighbour across the wrap is size - 1
    return st.one_of(st.integers(0, 2), st.integers(size - 3, size - 1), st.integers(0, size - 1))


PLAYER_KINDS = st.sampled_from(["legal", "legal", "legal", "legal", "timeout", "invalid"])
