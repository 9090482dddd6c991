"""gamecert adapter for wingedsheep/carcassonne (Python; base game, The River, farmers).

The engine is not ours and never enters this repository: set GAMECERT_WINGEDSHEEP_PATH to
the folder of a checkout (the one holding `wingedsheep/`), see README.md. Minimum
capabilities only: the engine draws its own tiles (Python's `random`, seeded by new_game's
seed) and this adapter reports each draw; it has no legal-move check of its own for a move it
is handed, so a move missing from its own list of possible actions counts as refused.

    gamecert certify carcassonne --profile classic-farms-2p \
        --engine examples/adapters/wingedsheep_carcassonne/adapter.py:Wingedsheep

Conventions (our reading of theirs): the engine's player 0 lays the spring as a move of its
own, so the player after it (native 1) is our player 1; their board is a [row][column] list
with the spring pointing down, so we turn the whole board half round (the spring then points
up, as ours) and add two quarter turns to every tile and side.
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any, ClassVar

from gamecert.adapters import NativeAdapter, NativeRefusal
from gamecert.adapters.helpers import HALVES, SIDES, Grid, carcassonne_tile, counts, feature_name
from gamecert.spec import Profile

JSON = Any
ENV = "GAMECERT_WINGEDSHEEP_PATH"
# Their two river curves look alike to us (R5 and R9 are one curve turned): one each.
SAME_LOOK = {"river_bend": "R5", "river_flowery_bend": "R9"}


def native_modules() -> Any:
    """Import the engine from the folder named by GAMECERT_WINGEDSHEEP_PATH."""
    path = os.environ.get(ENV)
    if not path:
        raise RuntimeError(f"set {ENV} to a checkout of github.com/wingedsheep/carcassonne "
                           "(the folder that holds 'wingedsheep/'); see "
                           "examples/adapters/wingedsheep_carcassonne/README.md")
    if not os.path.isdir(os.path.join(path, "wingedsheep", "carcassonne")):
        raise RuntimeError(f"{ENV}={path!r} holds no wingedsheep/carcassonne folder")
    if path not in sys.path:
        sys.path.insert(0, path)
    import wingedsheep.carcassonne as ws  # noqa: F401  (their package)
    from wingedsheep.carcassonne import carcassonne_game_state as gs
    from wingedsheep.carcassonne.objects import farmer_side, meeple_type, side
    from wingedsheep.carcassonne.objects.actions import meeple_action, pass_action, tile_action
    from wingedsheep.carcassonne.tile_sets import base_deck, supplementary_rules, the_river_deck
    from wingedsheep.carcassonne.tile_sets import tile_sets as ts
    from wingedsheep.carcassonne.utils import action_util, state_updater

    class N:  # the handful of names we use, in one place
        State = gs.CarcassonneGameState
        GamePhase = gs.GamePhase
        TileSet = ts.TileSet
        Rule = supplementary_rules.SupplementaryRule
        Side = side.Side
        FarmerSide = farmer_side.FarmerSide
        Meeple = meeple_type.MeepleType
        TileAction = tile_action.TileAction
        MeepleAction = meeple_action.MeepleAction
        PassAction = pass_action.PassAction
        Updater = state_updater.StateUpdater
        Actions = action_util.ActionUtil
        tiles = {**base_deck.base_tiles, **the_river_deck.the_river_tiles}
    return N


class Wingedsheep(NativeAdapter):
    game_name: ClassVar[str] = "carcassonne"
    engine: ClassVar[str] = "wingedsheep/carcassonne"

    def __init__(self) -> None:
        super().__init__()
        self.n = native_modules()
        n = self.n
        self.side_of = {s: i for i, s in enumerate((n.Side.TOP, n.Side.RIGHT, n.Side.BOTTOM,
                                                   n.Side.LEFT))}
        fs = n.FarmerSide  # half-edges clockwise from the top side's left half
        self.half_of = {h: i for i, h in enumerate((fs.TLT, fs.TRT, fs.TRR, fs.BRR, fs.BRB,
                                                   fs.BLB, fs.BLL, fs.TLL))}
        # by name and banner: two of their tiles share a description (one with a banner)
        self.ids = {(t.description, t.shield): self._identify(name, t)
                    for name, t in n.tiles.items()}

    # --- tiles: which of ours each native tile is, by its look ----------------------------
    def _identify(self, name: str, tile: Any) -> tuple[str, int]:
        edges = tuple("river" if s in tile.get_river_ends() else "road" if s in
                      tile.get_road_ends() else "city" if s in tile.get_city_sides() else "field"
                      for s in self.side_of)
        role = {"river_start": "spring", "river_end": "lake"}.get(name)
        found = carcassonne_tile(edges, cities=[[self.side_of[s] for s in c] for c in tile.city],
                                 monastery=tile.chapel, banner=tile.shield, role=role)
        if name in SAME_LOOK:
            found = [f for f in found if f[0] == SAME_LOOK[name]]
        if len(found) != 1:
            return ("?" + name, 0)  # unknown to us: shows up in the state as it is
        return found[0]

    def tile(self, tile: Any) -> tuple[str, int]:
        """Our id and rotation for a native tile as it lies (turned) on their board."""
        tid, offset = self.ids[tile.description, tile.shield]
        return tid, (offset + tile.turns + self.grid.quarter_turns) % 4

    # --- the four things an adapter writes ------------------------------------------------
    def start(self, profile: Profile, seed: int) -> Any:
        n = self.n
        self.players = int(profile.param("CARC-PLAYERS", "players"))
        random.seed(seed)  # the engine shuffles with Python's global RNG
        state = n.State(tile_sets=(n.TileSet.BASE, n.TileSet.THE_RIVER),
                        supplementary_rules=(n.Rule.FARMERS,), players=self.players)
        r, c = state.starting_position.row, state.starting_position.column
        self.grid = Grid(origin=(r, c), quarter_turns=2)
        self.discarded: list[str] = []
        self.draws: list[JSON] = []
        # set-up: their player 0 lays the spring and passes (their first draw follows)
        spring = n.TileAction(tile=state.next_tile.turn(0), coordinate=state.starting_position,
                              tile_rotations=0)
        state = n.Updater.apply_action(n.Updater.apply_action(state, spring), n.PassAction())
        self.draws = [{"type": "draw", "tile": self.tile(state.next_tile)[0]}]
        return state

    def play(self, native: Any, action: JSON) -> Any:
        n = self.n
        if native.is_terminated():
            raise NativeRefusal("the game is over")
        move = next((m for m in n.Actions.get_possible_actions(native)
                     if self.action(native, m) == self._named(native, action)), None)
        if move is None:
            raise NativeRefusal(f"not among the engine's possible actions: {action}")
        after = n.Updater.apply_action(native, move)
        drawn = native.deck[:len(native.deck) - len(after.deck)]
        if isinstance(move, n.PassAction) and native.phase == n.GamePhase.TILES:
            self.discarded.append(self.tile(native.next_tile)[0])
        self.draws = [{"type": "draw", "tile": self.tile(t)[0]} for t in drawn]
        return after

    def drawn(self, native: Any) -> list[JSON]:
        out, self.draws = self.draws, []
        return out

    def canonical(self, native: Any) -> JSON:
        n, over = self.n, native.is_terminated()
        claim = native.phase == n.GamePhase.MEEPLES and not over
        order = [(k + 1) % self.players for k in range(self.players)]  # our player k+1
        board, meeples = [], []
        for r, row in enumerate(native.board):
            for c, t in enumerate(row):
                if t is not None:
                    tid, rot = self.tile(t)
                    board.append({"at": self.grid.cell(r, c), "tile": tid, "rotation": rot})
        for ours, i in enumerate(order, start=1):
            for m in native.placed_meeples[i]:
                at = self.grid.cell(m.coordinate_with_side.coordinate.row,
                                    m.coordinate_with_side.coordinate.column)
                meeples.append({"at": at, "on": self._spot(native, m), "player": ours})
        hand = [] if over or claim else [self.tile(native.next_tile)[0]]
        scores = [native.scores[i] for i in order]
        lake = any(b["tile"] == "RE" for b in board)
        last = native.last_tile_action
        return {
            "game": "carcassonne", "profile": self.profile.id, "players": self.players,
            "phase": "over" if over else "land" if lake and not (
                claim and self.tile(last.tile)[0] == "RE") else "river",
            "step": "over" if over else "claim" if claim else "place",
            "to_move": None if over else order.index(native.current_player) + 1,
            "pending": [], "after_draws": "place",
            "board": sorted(board, key=lambda b: b["at"]),
            "placed": self.grid.cell(last.coordinate.row, last.coordinate.column)
            if claim else None,
            "claim_blocked": [],
            "meeples": sorted(meeples, key=lambda m: (m["at"], m["on"])),
            "supply": [native.meeples[i] for i in order], "scores": scores,
            "hands": [hand if not over and k == order.index(native.current_player) else []
                      for k in range(self.players)],
            "deck": counts(self.tile(t)[0] for t in native.deck if not t.has_river()),
            "river_pile": counts(self.tile(t)[0] for t in native.deck if t.has_river()),
            "discarded": sorted(self.discarded),
            "result": {"reason": "tiles-exhausted", "scores": scores,
                       "winners": [k + 1 for k, s in enumerate(scores) if s == max(scores)]}
            if over else None,
        }

    # --- moves: native <-> canonical -------------------------------------------------------
    def action(self, native: Any, move: Any) -> JSON:
        """The canonical form of one of the engine's own possible actions."""
        n = self.n
        if isinstance(move, n.TileAction):
            tid, rot = self.tile(move.tile)
            return {"type": "place", "tile": tid, "rotation": rot,
                    "at": self.grid.cell(move.coordinate.row, move.coordinate.column)}
        if isinstance(move, n.MeepleAction):
            if move.remove or move.meeple_type not in (n.Meeple.NORMAL, n.Meeple.FARMER):
                return {"type": "native-only", "meeple": str(move.meeple_type)}
            return {"type": "claim", "on": self._spot(native, move)}
        if native.phase == n.GamePhase.TILES:
            return {"type": "discard", "tile": self.tile(native.next_tile)[0]}
        return {"type": "pass"}

    def _named(self, native: Any, action: JSON) -> JSON:
        """A claim names its feature by any side; compare by the feature's canonical name."""
        if action.get("type") != "claim" or native.phase != self.n.GamePhase.MEEPLES:
            return action
        tid, rot = self.tile(native.last_tile_action.tile)
        try:
            return {**action, "on": feature_name(tid, rot, action.get("on"))}
        except (ValueError, KeyError):
            return action

    def _spot(self, native: Any, m: Any) -> str:
        """Our feature name for a native meeple (placed or to place) on a tile."""
        n, where = self.n, m.coordinate_with_side
        t = native.board[where.coordinate.row][where.coordinate.column]
        if t is None:  # a claim on the tile about to be placed: it is the last one played
            t = native.last_tile_action.tile
        tid, rot = self.tile(t)
        if where.side == n.Side.CENTER:
            return "monastery"
        if where.side in self.side_of:
            return feature_name(tid, rot, SIDES[self.grid.side(self.side_of[where.side])])
        farm = next(f for f in t.farms if where.side in f.farmer_positions)
        half = min(self.grid.half(self.half_of[h]) for h in farm.tile_connections)
        return feature_name(tid, rot, HALVES[half])
