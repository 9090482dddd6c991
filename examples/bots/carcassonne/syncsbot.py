"""A small SYNCS Bot Battle 2025 Carcassonne bot: named pipes, `<count>,<json>` frames, its
own board and river tracking, legal placements only, a claim only on a fresh monastery. Its
hand is kept as the engine keeps it, in the order dealt and drawn: its own placement comes
back as move_place_tile with the index it sent, the lake as the river's end.

The example bots in this folder import it; each faulty bot overrides one method. It knows
the tiles as a competitor would: their edges, top/right/bottom/left, unrotated (F field,
R road, C city, W river); rotation turns them clockwise.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

EDGES = {
    "A": "FFRF", "B": "FFFF", "C": "CCCC", "D": "RCRF", "E": "CFFF", "F": "FCFC",
    "G": "CFCF", "H": "FCFC", "I": "FCCF", "J": "CRRF", "K": "RCFR", "L": "RCRR",
    "M": "CFFC", "N": "CFFC", "O": "CRRC", "P": "CRRC", "Q": "CCFC", "R": "CCFC",
    "S": "CCRC", "T": "CCRC", "U": "RFRF", "V": "FFRR", "W": "FRRR", "X": "RRRR",
    "RS": "WFFF", "R1": "WCWR", "R2": "WFWF", "R3": "RWWR", "R4": "CWCW", "R5": "WFFW",
    "R6": "WRWR", "R7": "CCWW", "R8": "FWRW", "R9": "WWFF", "RE": "FFWF",
}
MONASTERIES = ("A", "B")
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # top, right, bottom, left
SIDE_NAMES = ("top_edge", "right_edge", "bottom_edge", "left_edge")
Msg = dict[str, Any]


def edges(tile: str, rotation: int) -> str:
    e = EDGES[tile]
    return "".join(e[(s - rotation) % 4] for s in range(4))


class Bot:
    def __init__(self) -> None:
        self.me = 0
        self.meeples = 7
        self.hand: list[str] = []
        self.board: dict[tuple[int, int], tuple[str, int]] = {}
        self.river_open: tuple[int, int] | None = None
        self.flow = 0
        self.last_turn = 0
        self.river_phase = True
        self.placed: Msg | None = None
        self.queries = 0

    # --- the pipes ---------------------------------------------------------------------
    def connect(self) -> tuple[TextIO, TextIO]:
        out = open("io/to_engine.pipe", "w", encoding="utf-8")  # noqa: SIM115
        inp = open("io/from_engine.pipe", encoding="utf-8")  # noqa: SIM115
        return inp, out

    def read(self, inp: TextIO) -> Msg | None:
        head = ""
        while True:
            c = inp.read(1)
            if not c:
                return None
            if c == ",":
                break
            head += c
        data: Msg = json.loads(inp.read(int(head)))
        return data

    def frame(self, reply: Msg) -> str:
        text = json.dumps(reply)
        return f"{len(text)},{text}"

    def run(self) -> None:
        inp, out = self.connect()
        while True:
            msg = self.read(inp)
            if msg is None:
                return
            self.queries += 1
            for key in sorted(msg.get("update", {}), key=int):
                self.see(msg["update"][key])
            reply = self.answer(msg)
            self.before_reply()
            out.write(self.frame(reply))
            out.flush()

    def answer(self, msg: Msg) -> Msg:
        """The reply to one query (a bot for a later stage answers more kinds)."""
        return self.place() if msg["query_type"] == "query_place_tile" else self.claim()

    def before_reply(self) -> None:
        pass

    def edges(self, tile: str, rotation: int) -> str:
        """The tile's edges as placed (a bot for a later stage knows more tiles)."""
        return edges(tile, rotation)

    # --- what happened -----------------------------------------------------------------
    def see(self, e: Msg) -> None:
        kind = e["event_type"]
        if kind == "public_event_game_started":
            self.me = e["you"]["player_id"]
            self.meeples = e["you"]["num_meeples"]
        elif kind == "event_starting_tile_placed":
            t = e["tile_placed"]
            self.put(t["tile_type"], tuple(t["pos"]), t["rotation"])
        elif kind == "event_player_drew_tiles" and e["player_id"] == self.me:
            self.hand += [t["tile_type"] for t in e["tiles"]]
        elif kind in ("public_move_place_tile", "move_place_tile"):
            t = e["tile"]
            self.put(t["tile_type"], tuple(t["pos"]), t["rotation"])
            if kind == "move_place_tile":  # our own: the engine echoes the index we sent
                self.hand.pop(e["player_tile_index"])
        elif kind == "public_move_discard_tile" and e["player_id"] == self.me:
            self.hand.remove(e["tile"]["tile_type"])
        elif kind == "move_place_meeple" and e["player_id"] == self.me:
            self.meeples -= 1
        elif kind == "event_player_meeple_freed" and e["player_id"] == self.me:
            self.meeples += 1
        elif kind == "event_river_phase_completed":
            t = e["end_tile"]  # the engine lays the lake
            self.put(t["tile_type"], tuple(t["pos"]), t["rotation"])
            self.river_phase = False

    def put(self, tile: str, pos: Any, rotation: int) -> None:
        x, y = pos
        self.board[(x, y)] = (tile, rotation)
        sides = [s for s, k in enumerate(self.edges(tile, rotation)) if k == "W"]
        if tile == "RS":
            self.flow, self.last_turn = sides[0], 0
        elif sides and self.river_open == (x, y):
            outs = [s for s in sides if s != (self.flow + 2) % 4]
            if not outs:  # the lake
                self.river_open = None
                return
            self.last_turn = (outs[0] - self.flow) % 4
            self.flow = outs[0]
        else:
            return
        dx, dy = STEP[self.flow]
        self.river_open = (x + dx, y + dy)

    # --- what to do --------------------------------------------------------------------
    def fits(self, tile: str, pos: tuple[int, int], rotation: int) -> bool:
        if pos in self.board:
            return False
        mine = self.edges(tile, rotation)
        touching = False
        for s, (dx, dy) in enumerate(STEP):
            there = self.board.get((pos[0] + dx, pos[1] + dy))
            if there is None:
                continue
            touching = True
            if self.edges(*there)[(s + 2) % 4] != mine[s]:
                return False
        if not touching:
            return False
        if "W" in mine and tile != "RS":
            return self.river_ok(tile, pos, rotation)
        return True

    def river_ok(self, tile: str, pos: tuple[int, int], rotation: int) -> bool:
        if pos != self.river_open:
            return False
        sides = [s for s, k in enumerate(self.edges(tile, rotation)) if k == "W"]
        outs = [s for s in sides if s != (self.flow + 2) % 4]
        turn = (outs[0] - self.flow) % 4 if outs else 0
        return not (turn and turn == self.last_turn)  # no U-turn: two curves the same way

    def cells(self) -> list[tuple[int, int]]:
        around = {(x + dx, y + dy) for (x, y) in self.board for dx, dy in STEP}
        return sorted(c for c in around if c not in self.board)

    def place(self) -> Msg:
        for index, tile in enumerate(self.hand):  # the engine's order: as dealt and drawn
            for pos in self.cells():
                for rotation in range(4):
                    if self.fits(tile, pos, rotation):
                        self.placed = {"tile_type": tile, "pos": list(pos),
                                       "rotation": rotation}
                        return {"event_type": "move_place_tile", "player_id": self.me,
                                "tile": self.placed, "player_tile_index": index}
        # nothing fits: only under bot-check's --variant gamecert-discard is this asked
        return {"event_type": "move_discard_tile", "player_id": self.me,
                "tile": {"tile_type": self.hand[0]}, "player_tile_index": 0}

    def claim(self) -> Msg:
        p = self.placed
        if p and p["tile_type"] in MONASTERIES and self.meeples > 0:
            x, y = p["pos"]
            around = sum((x + dx, y + dy) in self.board
                         for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
            if around < 8:  # a monastery completed as it is placed is scored, not claimable
                return {"event_type": "move_place_meeple", "player_id": self.me,
                        "tile": p, "placed_on": "MONASTARY"}
        return self.pass_()

    def pass_(self) -> Msg:
        return {"event_type": "move_place_meeple_pass", "player_id": self.me}


def main(bot: Bot | None = None) -> None:
    try:
        (bot or Bot()).run()
    except BrokenPipeError:
        sys.exit(0)
