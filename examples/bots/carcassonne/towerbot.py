"""A Carcassonne bot for stages 2 (farms) and 3 (The Tower), speaking gamecert's protocol
extension (schemas/carcassonne-bot-ext.schema.json) on top of the SYNCS 2025 pipes and frames.

It plays only moves it can prove legal from what the engine told it:
- a farmer only on a field of the placed tile that touches no neighbouring tile (so, as
  joined, it is that tile's field alone and unclaimed), such as TO17's enclosed field;
- a tower floor on the placed tile's foundation, or (reading any-open) on a tower it saw
  built and not capped; a capture only of a meeple whose place it knows for sure: another
  player's farmer (farmers never return during the game) or capping meeple (they stay until
  captured), within reach along the four straight lines;
- a capping meeple (reading any-open) on a tower of height 2 or more that nobody caps;
- a ransom when it holds at least the ransom in points, a captor holds one of its meeples
  and it has not paid one this turn; under `--placed` (profile syncs-2025-tower-placed:
  towers on the placed tile only, ransom after placing, exchange on request) it also asks
  for the exchange of mutual prisoners.

The faulty bots in this folder each override one method. Run as
`python3 good_tower.py [--placed]`.
"""

from __future__ import annotations

import sys
from typing import Any

from syncsbot import EDGES, Bot, Msg, edges

TOWER_EDGES = {
    "TO1": "CFFF", "TO2": "FFFF", "TO3": "FFFF", "TO4": "FFRR", "TO5": "RRFR", "TO6": "RRRR",
    "TO7": "RRRR", "TO8": "RCRC", "TO9": "CFRF", "TO10": "CFRR", "TO11": "CRFR",
    "TO12": "CFFC", "TO13": "CRFC", "TO14": "CFFC", "TO15": "CRCR", "TO16": "CCRC",
    "TO17": "CCCC",
}
# each tile's fields, unrotated, as the half-edges they touch: 0 is the left half of the top
# side, then clockwise (1 its right half, 2 the upper half of the right side, ... 7)
FIELDS = {
    "A": ["01234567"], "B": ["01234567"], "C": [], "D": ["14", "5670"], "E": ["234567"],
    "F": ["01", "45"], "G": ["23", "67"], "H": ["0145"], "I": ["6701"],
    "J": ["2567", "34"], "K": ["1456", "07"], "L": ["14", "70", "56"], "M": ["2345"],
    "N": ["2345"], "O": ["25", "34"], "P": ["25", "34"], "Q": ["45"], "R": ["45"],
    "S": ["4", "5"], "T": ["4", "5"], "U": ["1234", "5670"], "V": ["701234", "56"],
    "W": ["7012", "34", "56"], "X": ["70", "12", "34", "56"], "RS": ["01234567"],
    "R1": ["4", "1", "56", "70"], "R2": ["1234", "5670"], "R3": ["1256", "70", "34"],
    "R4": ["27", "36"], "R5": ["123456", "70"], "R6": ["70", "12", "34", "56"],
    "R7": ["74", "56"], "R8": ["7012", "34", "56"], "R9": ["345670", "21"],
    "RE": ["01234567"], "TO1": ["234567"], "TO2": ["01234567"], "TO3": ["01234567"],
    "TO4": ["012347", "56"], "TO5": ["07", "12", "3456"], "TO6": ["07", "34", "1256"],
    "TO7": ["07", "12", "34", "56"], "TO8": ["0", "1", "4", "5"], "TO9": ["567", "234"],
    "TO10": ["2347", "56"], "TO11": ["7", "2", "3456"], "TO12": ["2345"],
    "TO13": ["2", "3", "45"], "TO14": ["2345"], "TO15": ["27", "36"], "TO16": ["4", "5"],
    "TO17": [""],  # a field enclosed by the two towns, touching no edge
}
FIELD_NAMES = ("top_left_field", "top_right_field", "right_top_field", "right_bottom_field",
               "bottom_right_field", "bottom_left_field", "left_bottom_field", "left_top_field")
LINES = ((0, -1), (1, 0), (0, 1), (-1, 0))
Pos = tuple[int, int]


class TowerBot(Bot):
    def __init__(self, placed_reading: bool = False) -> None:
        super().__init__()
        self.placed_reading = placed_reading  # syncs-2025-tower-placed
        self.expansions: list[str] = []
        self.floors = 0
        self.points = 0
        self.towers: dict[Pos, list[Any]] = {}  # pos -> [height, capping player or None]
        self.farmers: dict[tuple[Pos, str], int] = {}  # (pos, placed_on) -> player
        self.prison: dict[tuple[int, int], int] = {}  # (captor, owner) -> meeples held
        self.turns = 0
        self.ransom_turn = -1

    def edges(self, tile: str, rotation: int) -> str:
        if tile in TOWER_EDGES:
            e = TOWER_EDGES[tile]
            return "".join(e[(s - rotation) % 4] for s in range(4))
        return edges(tile, rotation)

    # --- what happened -----------------------------------------------------------------
    def see(self, e: Msg) -> None:
        super().see(e)
        kind, me = e["event_type"], self.me
        if kind == "public_event_game_started":
            self.expansions = e.get("expansions", [])
            self.floors = e["you"].get("num_floors", 0)
        elif kind == "event_player_turn_started" and e["player_id"] == me:
            self.turns += 1
        elif kind == "move_place_meeple" and e["placed_on"].endswith("_field"):
            self.farmers[(tuple(e["tile"]["pos"]), e["placed_on"])] = e["player_id"]
        elif kind == "event_player_meeple_freed" and e["player_id"] == me:
            self.points += e["reward"]
        elif kind == "public_move_tower_floor":
            self.towers.setdefault(tuple(e["tower_pos"]), [0, None])[0] = e["height"]
            if e["player_id"] == me:
                self.floors -= 1
        elif kind == "public_move_tower_cap":
            self.towers[tuple(e["tower_pos"])][1] = e["player_id"]
            if e["player_id"] == me:
                self.meeples -= 1
        elif kind == "event_meeple_captured":
            self.captured(e)
        elif kind == "event_prisoners_exchanged":
            a, b = e["player_ids"]
            self.prison[(a, b)] -= 1
            self.prison[(b, a)] -= 1
            if me in (a, b):
                self.meeples += 1
        elif kind == "public_move_pay_ransom":
            payer, captor = e["player_id"], e["captor_id"]
            self.prison[(captor, payer)] -= 1
            if payer == me:
                self.points -= e["points"]
                self.meeples += 1
                self.ransom_turn = self.turns
            elif captor == me:
                self.points += e["points"]

    def captured(self, e: Msg) -> None:
        pos, on = tuple(e["pos"]), e["placed_on"]
        if on == "TOWER":
            self.towers[pos][1] = None  # the tower is open again
        else:
            self.farmers.pop((pos, on), None)
        captor, owner = e["captor_id"], e["owner_id"]
        if e["to"] == "prison":
            self.prison[(captor, owner)] = self.prison.get((captor, owner), 0) + 1
        elif owner == self.me:
            self.meeples += 1

    # --- what to do --------------------------------------------------------------------
    def run_query(self, msg: Msg) -> Msg:
        first = msg["query_type"] == "query_place_tile"
        if "tower" in self.expansions and first == (not self.placed_reading):
            ransom = self.ransom()
            if ransom is not None:
                return ransom
        if "tower" in self.expansions and first and self.placed_reading:
            swap = self.exchange()
            if swap is not None:
                return swap
        return self.place() if first else self.claim()

    def ransom(self) -> Msg | None:
        if self.ransom_turn == self.turns or self.points < 3 or self.meeples >= 6:
            return None
        for (captor, owner), n in sorted(self.prison.items()):
            if owner == self.me and n > 0:
                return {"event_type": "move_pay_ransom", "player_id": self.me,
                        "captor_id": captor}
        return None

    def exchange(self) -> Msg | None:
        for (captor, owner), n in sorted(self.prison.items()):
            if captor == self.me and n > 0 and self.prison.get((owner, self.me), 0) > 0:
                return {"event_type": "move_exchange_prisoners", "player_id": self.me,
                        "other_id": owner}
        return None

    def claim(self) -> Msg:
        p = self.placed
        if p is None:
            return self.pass_()
        if "tower" in self.expansions:
            act = self.tower_action(p)
            if act is not None:
                return act
        move = super().claim()
        if move["event_type"] == "move_place_meeple" or "farms" not in self.expansions:
            return move
        if self.meeples > 2:
            field = self.lonely_field(p)
            if field is not None:
                return {"event_type": "move_place_meeple", "player_id": self.me, "tile": p,
                        "placed_on": field}
        return move

    def lonely_field(self, p: Msg) -> str | None:
        """A field of the placed tile on no side that touches another tile."""
        x, y = p["pos"]
        taken = {s for s, (dx, dy) in enumerate(LINES) if (x + dx, y + dy) in self.board}
        for f in FIELDS[p["tile_type"]]:
            halves = [(int(h) + 2 * p["rotation"]) % 8 for h in f]
            if not halves:  # enclosed by the tile's towns: it joins no other field
                return "enclosed_field"
            if not any(h // 2 in taken for h in halves):
                return FIELD_NAMES[halves[0]]
        return None

    def tower_sites(self, p: Msg) -> list[Pos]:
        here: Pos = tuple(p["pos"])  # type: ignore[assignment]
        sites = [here] if p["tile_type"] in TOWER_EDGES else []
        if not self.placed_reading:
            sites += sorted(pos for pos, (h, cap) in self.towers.items()
                            if h and cap is None and pos != here)
        return [pos for pos in sites if self.towers.get(pos, [0, None])[1] is None]

    def tower_action(self, p: Msg) -> Msg | None:
        sites = self.tower_sites(p)
        if self.floors > 0:
            for pos in sites:
                victim = self.victim(pos, self.towers.get(pos, [0, None])[0] + 1)
                if victim is not None or pos == tuple(p["pos"]):
                    return {"event_type": "move_tower_floor", "player_id": self.me,
                            "tower_pos": list(pos), "capture": victim}
        if self.meeples > 3:
            for pos in sites:
                if self.towers.get(pos, [0, None])[0] >= 2:
                    return {"event_type": "move_tower_cap", "player_id": self.me,
                            "tower_pos": list(pos)}
        return None

    def reach(self, pos: Pos, height: int) -> set[Pos]:
        x, y = pos
        return {pos} | {(x + dx * k, y + dy * k) for dx, dy in LINES
                        for k in range(1, height + 1)}

    def victim(self, pos: Pos, height: int) -> Msg | None:
        """Another player's farmer or capping meeple within reach of a tower this high."""
        cells = self.reach(pos, height)
        for (at, on), who in sorted(self.farmers.items()):
            if at in cells and who != self.me:
                return {"pos": list(at), "placed_on": on}
        for at, (_, cap) in sorted(self.towers.items()):
            if at in cells and at != pos and cap is not None and cap != self.me:
                return {"pos": list(at), "placed_on": "TOWER"}
        return None

    def answer(self, msg: Msg) -> Msg:
        return self.run_query(msg)


def placed_reading() -> bool:
    return "--placed" in sys.argv[1:]


__all__ = ["EDGES", "FIELDS", "TOWER_EDGES", "TowerBot", "placed_reading"]
