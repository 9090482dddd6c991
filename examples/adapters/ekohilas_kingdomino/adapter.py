"""gamecert adapter for ekohilas/kingdomino (Python; the board game for 2 to 4 players).

The engine is not ours and never enters this repository: set GAMECERT_EKOHILAS_PATH to the
folder of a checkout (the one holding `game.py`, `unionfind.py` and `kingdomino.json`), see
README.md. Minimum capabilities only: the engine shuffles its own dominoes and draws the
first-turn order itself (Python's `random`, seeded by new_game's seed) and this adapter
reports each draw; a move is played through the engine's own calls and refused when the
engine would ask its player again. It declares `no_referee`: nothing in it ends a player's
game, so it is sent none of the referee's actions (a `stop`).

    gamecert certify kingdomino --profile board-game-start \
        --engine examples/adapters/ekohilas_kingdomino/adapter.py:Ekohilas

How the engine is driven (our reading of it): its game loop (`Game.start` -> `turn`:
`draw`, `select`, `place`) reads a console with `input()`. The adapter makes the same calls
in the same order without a console: `Line.choose(player, index)` for a pick (the player
popped from `Game.order`, as `select` does), `Line.pop()`, `Board.valid_plays`,
`Board.discard` or `Board.play` and `Game.order.append` for a placement, as `place` does.
The engine draws each new line after the last placement of a turn; the adapter draws it
when the turn starts (our turns place and pick king by king). The deck is shuffled once at
the start, so the tiles drawn are the same. Their points are (row, column); ours (x, y).
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from dataclasses import dataclass, field
from typing import Any, ClassVar

from gamecert.adapters import NativeAdapter, NativeRefusal
from gamecert.adapters.helpers import kingdomino_grid, player_id
from gamecert.spec import Profile

JSON = Any
ENV = "GAMECERT_EKOHILAS_PATH"
TERRAIN = {"WHEAT": "c", "FOREST": "f", "GRASS": "g", "WATER": "l", "SWAMP": "w", "MINE": "m"}
_loaded: dict[str, Any] = {}


def native_module() -> Any:
    """Import the engine's game.py from the folder named by GAMECERT_EKOHILAS_PATH."""
    path = os.environ.get(ENV)
    if not path:
        raise RuntimeError(f"set {ENV} to a checkout of github.com/ekohilas/kingdomino "
                           "(the folder that holds game.py); see "
                           "examples/adapters/ekohilas_kingdomino/README.md")
    file = os.path.join(path, "game.py")
    if not all(os.path.isfile(os.path.join(path, f))
               for f in ("game.py", "unionfind.py", "kingdomino.json")):
        raise RuntimeError(f"{ENV}={path!r} holds no ekohilas/kingdomino checkout (game.py, "
                           "unionfind.py, kingdomino.json)")
    if file not in _loaded:
        if path not in sys.path:
            sys.path.insert(0, path)  # game.py imports its neighbour `unionfind`
        spec = importlib.util.spec_from_file_location("ekohilas_kingdomino_game", file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        module.DOMINOES = module.Dominoes.from_json(os.path.join(path, "kingdomino.json"))
        _loaded[file] = module
    return _loaded[file]


@dataclass
class Native:
    """Their `Game` and where our turn stands (the engine keeps this in its loop's frame)."""

    game: Any
    turn: int = 1
    placing: list[tuple[int | None, Any]] = field(default_factory=list)  # (tile, player)
    nxt: int = 0
    current: Any = None  # their Line being placed this turn
    last: bool = False  # no line was drawn this turn (their deck was empty)
    dealt: list[int] = field(default_factory=list)
    discarded: list[int] = field(default_factory=list)
    over: bool = False


class Ekohilas(NativeAdapter):
    game_name: ClassVar[str] = "kingdomino"
    engine: ClassVar[str] = "ekohilas/kingdomino"
    copy_before_play: ClassVar[bool] = True  # a refused move must leave the game as it was
    # its console asks a player again after a bad command: nothing in it ends a player's
    # game, so the referee's actions (a stop) mean nothing to it
    no_referee: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self.m = native_module()
        m = self.m
        # our rotation r puts the second square right, below, left, above the first
        self.direction = [m.Direction.EAST, m.Direction.SOUTH, m.Direction.WEST,
                          m.Direction.NORTH]
        self.draws: list[JSON] = []

    # --- the four things an adapter writes ------------------------------------------------
    def start(self, profile: Profile, seed: int) -> Any:
        m = self.m
        players = int(profile.param("KD-PLAYERS", "players"))
        random.seed(seed)  # the engine shuffles and orders with Python's global RNG
        colours = list(m.TermColor)
        game = m.Game(dominoes=m.DOMINOES,
                      players=[m.Player(name=f"P{i + 1}", color=colours[i])
                               for i in range(players)])
        native = Native(game=game, placing=[(None, p) for p in game.order])
        self.draws = [{"type": "order", "order": [self.pid(native, p) for p in game.order]}]
        self._draw_line(native)
        return native

    def play(self, native: Any, action: JSON) -> Any:
        n, m = native, self.m
        if n.over:
            raise NativeRefusal("the game is over")
        if action.get("type") != "play" or set(action) != {"type", "put", "pick"}:
            raise NativeRefusal(f"the engine has no such move: {action}")
        put, pick = action["put"], action["pick"]
        if n.turn > 1:  # their `place`: the king's tile from the line in play
            player, domino = n.current.pop()
            board = n.game.boards[player]
            if not board.valid_plays(domino):
                if put is not None:
                    raise NativeRefusal("the engine asks no PUT: the tile fits nowhere")
                board.discard(domino)  # their `place` discards without asking
                n.discarded.append(domino.number)
            elif put is None:
                raise NativeRefusal("the engine asks again: the tile fits somewhere")
            else:
                x, y, r = put
                if r not in range(4):
                    raise NativeRefusal(f"rotation {r}: the engine has four directions")
                try:
                    board.play(m.Play(domino=domino, point=m.Point(y, x),
                                      direction=self.direction[r]))
                except m.InvalidPlay:
                    raise NativeRefusal(f"PUT {x} {y} {r}: the engine asks again") from None
            n.game.order.append(player)
        elif put is not None:
            raise NativeRefusal("the engine asks no PUT on the first turn")
        if n.last:
            if pick is not None:
                raise NativeRefusal("the engine asks no PICK on the last turn")
        else:  # their `select`: the next player of Game.order types an index into the line
            numbers = [d.number for _, d in n.game.line.line]
            if pick not in numbers:  # their prompt takes an index into the line
                raise NativeRefusal(f"PICK {pick!r}: not a tile of the line")
            n.game.line.choose(n.game.order.pop(0), numbers.index(pick))
        n.nxt += 1
        self.draws = []
        if n.nxt == len(n.placing):
            self._next_turn(n)
        return n

    def drawn(self, native: Any) -> list[JSON]:
        out, self.draws = self.draws, []
        return out

    def canonical(self, native: Any) -> JSON:
        n = native
        game, over = n.game, n.over
        line = [] if over or n.last else [
            {"tile": d.number, "player": None if p is None else self.pid(n, p)}
            for p, d in game.line.line]
        return {
            "game": "kingdomino", "profile": self.profile.id, "players": len(game.players),
            "phase": "over" if over else "play", "turn": n.turn,
            "to_move": None if over else self.pid(n, n.placing[n.nxt][1]),
            "kings": [2 if len(game.players) == 2 else 1] * len(game.players),
            "bag": sorted(set(range(1, 49)) - set(n.dealt)),
            "line": line,
            "placing": [] if over else [{"tile": t, "player": self.pid(n, p)}
                                        for t, p in n.placing],
            "next": 0 if over else n.nxt,
            "grids": [self.grid(game.boards[p]) for p in game.players],
            "stopped": [False] * len(game.players), "discarded": list(n.discarded),
            "result": self.result(n) if over else None,
        }

    # --- native <-> canonical --------------------------------------------------------------
    def pid(self, native: Native, player: Any) -> int | None:
        """Our 1..N for their Player (seat order); None for no player."""
        return None if player is None else player_id(native.game.players.index(player))

    def grid(self, board: Any) -> list[str]:
        """Their 9 x 9 grid is [row][column] with the castle in the middle, as ours."""
        cells = {(c, r): (TERRAIN[t.suit.name], t.crowns)
                 for r, row in enumerate(board.grid.grid) for c, t in enumerate(row)
                 if t is not None and t.suit.name != "CASTLE"}
        return kingdomino_grid(cells, (board.grid.middle.y, board.grid.middle.x))

    def result(self, n: Native) -> JSON:
        """What their `final_score` prints: points per player, ranked by (points, crowns,
        player); its first line is the winner. The engine gives no tie-break points."""
        game = n.game
        scores = [game.boards[p].points() for p in game.players]
        crowns = [game.boards[p].crowns() for p in game.players]
        territory = [sum(1 for row in game.boards[p].grid.grid for t in row
                         if t is not None and t.suit.name != "CASTLE") for p in game.players]
        first = max((scores[i], crowns[i], p) for i, p in enumerate(game.players))[2]
        return {"scores": scores, "territory": territory, "crowns": crowns,
                "final": list(scores), "winners": [self.pid(n, first)]}

    def _draw_line(self, n: Native) -> None:
        """Their `draw`: a new line from the shuffled deck (each domino reported)."""
        before = list(n.game.deck.deck)
        n.game.draw()
        popped = before[len(n.game.deck.deck):][::-1]  # Deck.draw pops from the end
        n.dealt += [d.number for d in popped]
        self.draws += [{"type": "deal", "tile": d.number} for d in popped]

    def _next_turn(self, n: Native) -> None:
        if n.last:  # their loop ends when the deck is empty after a turn: final_score
            n.over = True
            return
        n.current = n.game.line  # the line just picked is placed next turn
        n.placing = [(d.number, p) for p, d in n.current.line]
        n.turn, n.nxt = n.turn + 1, 0
        if n.game.deck.empty():  # `while not self.deck.empty()`: no more lines
            n.last = True
        else:
            self._draw_line(n)
