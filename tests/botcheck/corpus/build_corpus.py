"""Build the bot-protocol conformance corpus: for each game (and protocol variant), one whole
game as the competition's engine would run it, every byte it sends each seat and every reply
a correct bot sends back, with the action the competition makes of it.

    python tests/botcheck/corpus/build_corpus.py [NAME ...]   # writes NAME.json.gz here

The bytes are written from the protocol facts of docs/bot-check.md, by encoders of their own
below, not by bot-check's codecs (fuzz/botcheck/, which the corpus tests check); the
reference engine only plays the game (the moves are random legal ones, seeded). Carcassonne's
side keeps the competition's own shape: one event history, each bot's update every event
since its watermark, censored for that bot. Rebuild only when a fact changes, and say which.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamecert.reference_engine import reference_game
from gamecert.reference_engine.carcassonne.state import unpack
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue

HERE = Path(__file__).resolve().parent
JSON = Any
Seats = dict[int, list[dict[str, Any]]]


def compact(doc: JSON) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def write(name: str, doc: dict[str, Any]) -> None:
    path = HERE / f"{name}.json.gz"
    data = (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # reproducible bytes
        f.write(data)
    seats = doc["seats"]
    print(f"{path.name}: {sum(len(s) for s in seats.values())} replies, "
          f"{sum(len(x['to_bot']) for s in seats.values() for x in s)} characters to the bots")


# --- Carcassonne, SYNCS 2025 ----------------------------------------------------------------
class NoMessage(Exception):
    """The game reached a position the 2025 protocol has no message for (an open point)."""


def first_whole(build: Callable[[int], dict[str, Any]], seed: int) -> dict[str, Any]:
    """The first seed from `seed` on whose game the protocol carries to its end."""
    while True:
        try:
            return build(seed)
        except NoMessage:
            seed += 1

SPOT = {"top": "top_edge", "right": "right_edge", "bottom": "bottom_edge", "left": "left_edge",
        "monastery": "MONASTARY"}


class SyncsIo:
    """The competition's engine side of the protocol (player_connection.py, censor_event.py):
    one event history; an update is every event from the bot's watermark on, censored."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.history: list[tuple[str, Any, Any, int]] = []  # (how, event, public, owner)
        self.watermark = dict.fromkeys(range(players), 0)

    def everyone(self, event: JSON) -> None:
        self.history.append(("all", event, None, -1))

    def private(self, owner: int, event: JSON, public: JSON) -> None:
        self.history.append(("private", event, public, owner))

    def started(self, per_player: Callable[[int], JSON]) -> None:
        self.history.append(("start", per_player, None, -1))

    def censor(self, entry: tuple[str, Any, Any, int], pid: int) -> JSON:
        how, event, public, owner = entry
        if how == "start":
            return event(pid)
        if how == "private":
            return event if owner == pid else public
        return event

    def query(self, pid: int, kind: str) -> str:
        start = self.watermark[pid]
        update = {str(i): self.censor(self.history[i], pid)
                  for i in range(start, len(self.history))}
        self.watermark[pid] = len(self.history)
        text = compact({"query_type": kind, "update": update})
        return f"{len(text)},{text}"


def carcassonne(seed: int, variant: str = "syncs-2025") -> dict[str, Any]:
    game = reference_game("carcassonne")
    profile = load_catalogue("carcassonne").profile()
    state = game.initial(profile)
    cfg = state.cfg
    t, n, centre = cfg.t, cfg.players, cfg.centre
    rng = random.Random(seed)
    io = SyncsIo(n)
    io.started(lambda pid: {
        "event_type": "public_event_game_started", "turn_order": list(range(n)),
        "you": {"player_id": pid, "team_id": pid, "points": 0, "tiles": [],
                "num_meeples": cfg.meeples},
        "players": [{"player_id": i, "points": 0, "num_tiles": 0} for i in range(n)],
        "num_starting_meeples": cfg.meeples})
    io.everyone({"event_type": "event_starting_tile_placed",
                 "tile_placed": {"tile_type": "RS", "pos": [centre, centre], "rotation": 0}})
    hands: dict[int, list[str]] = {p: [] for p in range(n)}
    seats: Seats = {p + 1: [] for p in range(n)}
    choices: list[JSON] = []
    lake_turn, turn_open, end_tile, turn_player = False, False, None, 0
    meeples: dict[int, tuple[int, JSON, str]] = {}  # node -> (player id, tile, spot)

    def wire(xy: list[int]) -> list[int]:
        return [xy[0] + centre, xy[1] + centre]

    def model(s: Any, cell: int) -> JSON:
        k, r = s.board[cell]
        x, y = cell_xy(s, cell)
        return {"tile_type": t.ids[k], "pos": wire([x, y]), "rotation": r}

    def cell_xy(s: Any, cell: int) -> list[int]:
        return list(unpack(cell))

    while game.current(state) != TERMINAL:
        who = game.current(state)
        before = state
        if who == CHANCE:
            action = game.random_chance(state, rng)
            choices.append(game.action_to_json(state, action))
        elif lake_turn:  # the engine lays the lake where the river ends
            if state.step == 1:
                if not game.placements(state):
                    raise NoMessage(f"seed {seed}: the lake fits nowhere")
                action = rng.choice(game.placements(state))
                choices.append(game.action_to_json(state, action))
            else:
                action = ("pass",)
        else:
            pid = who - 1
            kind = "query_place_tile" if state.step == 1 else "query_place_meeple"
            nothing = state.step == 1 and not game.any_placement(state)
            if nothing and variant != "gamecert-discard":
                raise NoMessage(f"seed {seed}: a hand with nothing to place")
            to_bot = io.query(pid, kind)
            options = [a for a in game.legal(state)
                       if a[0] in ("place", "claim", "pass", "discard")]
            action = rng.choice(options)
            as_json = game.action_to_json(state, action)
            if action[0] == "place":
                tile = {"tile_type": as_json["tile"], "pos": wire(as_json["at"]),
                        "rotation": as_json["rotation"]}
                reply = {"event_type": "move_place_tile", "player_id": pid, "tile": tile,
                         "player_tile_index": hands[pid].index(as_json["tile"])}
            elif action[0] == "discard":  # gamecert's extension: the 2025 protocol has none
                reply = {"event_type": "move_discard_tile", "player_id": pid,
                         "tile": {"tile_type": as_json["tile"]},
                         "player_tile_index": hands[pid].index(as_json["tile"])}
            elif action[0] == "claim":
                reply = {"event_type": "move_place_meeple", "player_id": pid,
                         "tile": model(state, state.placed), "placed_on": SPOT[as_json["on"]]}
            else:
                reply = {"event_type": "move_place_meeple_pass", "player_id": pid}
            text = compact(reply)
            seats[who].append({"to_bot": to_bot, "from_bot": f"{len(text)},{text}",
                               "action": as_json})
        state, events = game.apply(state, action)
        for e in events:
            kind, pid = e["type"], e.get("player", 0) - 1
            if kind == "tile-drawn":
                if e["tile"] == t.ids[t.lake]:
                    lake_turn = True
                    continue
                hands[pid].append(e["tile"])
                io.private(pid, {"event_type": "event_player_drew_tiles", "player_id": pid,
                                 "num_tiles": 1, "tiles": [{"tile_type": e["tile"],
                                                            "pos": [0, 0], "rotation": 0}]},
                           {"event_type": "public_event_player_drew_tiles", "player_id": pid,
                            "num_tiles": 1})
            elif kind == "tile-placed":
                tile = {"tile_type": e["tile"], "pos": wire(e["at"]), "rotation": e["rotation"]}
                if lake_turn:
                    end_tile = tile
                    continue
                index = hands[pid].index(e["tile"])
                hands[pid].pop(index)
                io.private(pid, {"event_type": "move_place_tile", "player_id": pid,
                                 "tile": tile, "player_tile_index": index},
                           {"event_type": "public_move_place_tile", "player_id": pid,
                            "tile": tile})
            elif kind == "tile-discarded":
                hands[pid].remove(e["tile"])
                io.everyone({"event_type": "public_move_discard_tile", "player_id": pid,
                             "tile": {"tile_type": e["tile"]}})
            elif kind == "meeple-placed":
                turn_open = False
                tile = model(state, before.placed)
                meeples[before.placed * 8 + action[1]] = (pid, tile, SPOT[e["on"]])
                io.everyone({"event_type": "move_place_meeple", "player_id": pid,
                             "tile": tile, "placed_on": SPOT[e["on"]]})
            elif kind == "claim-passed":
                turn_open = False
                if not lake_turn:
                    io.everyone({"event_type": "move_place_meeple_pass", "player_id": pid})
            elif kind == "feature-completed":
                paid: set[int] = set()
                for node in sorted(meeples):
                    if node in state.meeples:
                        continue
                    f = state.feats[state.owner[node]]
                    where = sorted(cell_xy(state, c) for c in f.tiles)
                    if where != sorted(e["tiles"]):
                        continue
                    owner, tile, spot = meeples.pop(node)
                    reward = e["points"] if owner + 1 in e["scorers"] and owner not in paid else 0
                    paid.add(owner)
                    io.everyone({"event_type": "event_player_meeple_freed", "player_id": owner,
                                 "reward": reward, "tile": tile, "placed_on": spot})
            elif kind == "river-phase-ended":
                lake_turn = False
                io.everyone({"event_type": "event_river_phase_completed", "end_tile": end_tile})
        if state.step == 1 and (not turn_open or state.to_move != turn_player):
            turn_open, turn_player = True, state.to_move  # a new turn (not a redraw)
            if not lake_turn:
                io.everyone({"event_type": "event_player_turn_started",
                             "player_id": state.to_move - 1})
    return {"format": "gamecert-bot-corpus/1", "game": "carcassonne", "profile": profile.id,
            "variant": variant, "mode": "pipes", "seed": seed, "choices": choices,
            "scores": game.scores(state), "seats": {str(k): v for k, v in seats.items()}}


# --- Flit -----------------------------------------------------------------------------------
def flit(seed: int, variant: str = "first-line", moves: int = 40) -> dict[str, Any]:
    """A whole game: `moves` random legal moves, then every bot chooses not to move until
    the game ends (FLIT-END-NO-MOVES: all four in a row)."""
    game = reference_game("flit")
    profile = load_catalogue("flit").profile()
    state = game.initial(profile)
    rng = random.Random(seed)
    pending = {b: (f"{b}\n" if variant == "first-line" else "") for b in range(1, 5)}
    seats: Seats = {b: [] for b in range(1, 5)}
    choices: list[JSON] = []
    made = 0
    while game.current(state) != TERMINAL:
        who = game.current(state)
        before = state.board
        if who == CHANCE:
            action = game.random_chance(state, rng)
            choices.append(game.action_to_json(state, action))
        else:
            legal = game.legal(state)
            moving = [a for a in legal if a[0] == "move"]
            action = rng.choice(moving) if moving and made < moves else ("pass",)
            made += 1
            as_json = game.action_to_json(state, action)
            if action[0] == "move":
                reply = "{} {} {} {}\n".format(*as_json["from"], *as_json["to"])
            else:  # origin and destination the same: no move
                w = state.width
                mine = next(i for i, c in enumerate(state.board) if c == who)
                reply = f"{mine % w} {mine // w} {mine % w} {mine // w}\n"
            seats[who].append({"to_bot": pending[who] + "M\n", "from_bot": reply,
                               "action": as_json})
            pending[who] = ""
        state, _ = game.apply(state, action)
        w = state.width
        lines = "".join(f"{i % w} {i // w} {c}\n" for i, (a, c)
                        in enumerate(zip(before, state.board, strict=True)) if a != c)
        for b in pending:
            pending[b] += lines
    return {"format": "gamecert-bot-corpus/1", "game": "flit", "profile": profile.id,
            "variant": variant, "mode": "stdio", "seed": seed, "choices": choices,
            "scores": game.scores(state), "seats": {str(k): v for k, v in seats.items()}}


# --- Kingdomino (Coders of the Realm) -------------------------------------------------------
def kingdomino(seed: int, profile_id: str = "legend-2p") -> dict[str, Any]:
    """A whole game; the statement's input lines (Game Input) written here from the state's
    grids and tile lines, the replies 'PUT x y rotation' and 'PICK id'."""
    game = reference_game("kingdomino")
    profile = load_catalogue("kingdomino").profile(profile_id)
    state = game.initial(profile)
    rng = random.Random(seed)
    players = profile.param("KD-PLAYERS", "players")
    slots = state.cfg.line
    placeholder = profile.variant("KD-PROTO-INPUT") == "placeholder"
    seats: Seats = {p: [] for p in range(1, players + 1)}
    choices: list[JSON] = []
    greeted: set[int] = set()
    while game.current(state) != TERMINAL:
        who = game.current(state)
        if who == CHANCE:
            action = game.random_chance(state, rng)
            choices.append(game.action_to_json(state, action))
            state, _ = game.apply(state, action)
            continue
        lines = [] if who in greeted else [str(players), str(slots)]
        greeted.add(who)
        for k in range(players):  # every grid, the bot's own first
            grid = state.grids[(who - 1 + k) % players]
            lines += [grid[18 * r:18 * (r + 1)] for r in range(9)]
        tiles = state.cfg.tiles

        # player ids as the bot sees them: itself 0, then on in seat order
        placed = [f"{tid} {tiles[tid][0]} {tiles[tid][1]} {(o - who) % players} "
                  f"{int(i == state.nxt)}" for i, (tid, o) in enumerate(state.placing) if tid]
        picks = [f"{tid} {tiles[tid][0]} {tiles[tid][1]} {(o - who) % players if o else -1}"
                 for tid, o in state.line]
        if placeholder:
            placed += ["-1 _0 _0 -1 0"] * (slots - len(placed))
            picks += ["-1 _0 _0 -1"] * (slots - len(picks))
        lines += placed + picks
        action = rng.choice(game.legal(state))
        as_json = game.action_to_json(state, action)
        put = as_json.get("put") or [0, 0, 0]
        pick = as_json.get("pick") or 0
        reply = f"PUT {put[0]} {put[1]} {put[2]}\nPICK {pick}\n"
        seats[who].append({"to_bot": "\n".join(lines) + "\n", "from_bot": reply,
                           "action": as_json})
        state, _ = game.apply(state, action)
    return {"format": "gamecert-bot-corpus/1", "game": "kingdomino", "profile": profile.id,
            "variant": "stdio", "mode": "stdio", "seed": seed, "choices": choices,
            "scores": game.scores(state), "seats": {str(k): v for k, v in seats.items()}}


# --- Bot Wars -------------------------------------------------------------------------------
def botwars(seed: int, variant: str = "stdio") -> dict[str, Any]:
    """A whole game. stdio: `{"state": {...}, "player": "p1"}` lines; http: the original
    server's form field `data` (players r and b, grid marks r, b and x, GameId from turn 2)."""
    game = reference_game("botwars")
    profile = load_catalogue("botwars").profile()
    state = game.initial(profile)
    rng = random.Random(seed)
    seats: Seats = {1: [], 2: []}
    choices: list[JSON] = []
    number = 1  # the game's number in its run: the gameId
    while game.current(state) != TERMINAL:
        who = game.current(state)
        if who == CHANCE:
            action = game.random_chance(state, rng)
            choices.append(game.action_to_json(state, action))
            state, _ = game.apply(state, action)
            continue
        o = game.observe(state)
        sides = {name: {"energy": o[name]["energy"], "spawn": o[name]["spawn"],
                        "spawnDisabled": o[name]["spawnDisabled"]} for name in ("p1", "p2")}
        if variant == "http":
            view: dict[str, Any] = {
                "rows": o["rows"], "cols": o["cols"], "maxTurns": o["maxTurns"],
                "turnsElapsed": o["turnsElapsed"],
                "grid": o["grid"].replace("1", "r").replace("2", "b").replace("X", "x"),
                **sides, "winner": None}
            if o["turnsElapsed"] >= 1:
                view["GameId"] = number
            doc = compact({"player": "rb"[who - 1], "state": view, "gameId": number}) + "\n"
            to_bot = "data=" + urllib.parse.quote(doc, safe="")
        else:
            view = {"gameId": f"gamecert-{seed}-{number}", "rows": o["rows"], "cols": o["cols"],
                    "grid": o["grid"], "maxTurns": o["maxTurns"],
                    "turnsElapsed": o["turnsElapsed"], "winner": o["winner"], **sides}
            to_bot = compact({"state": view, "player": f"p{who}"}) + "\n"
        action = rng.choice(game.legal(state))
        as_json = game.action_to_json(state, action)
        reply = compact([{"from": m["from"], "to": m["to"]} for m in as_json["moves"]])
        seats[who].append({"to_bot": to_bot, "from_bot": reply + ("\n" if variant == "stdio"
                                                                   else ""),
                           "action": as_json})
        state, _ = game.apply(state, action)
    return {"format": "gamecert-bot-corpus/1", "game": "botwars", "profile": profile.id,
            "variant": variant, "mode": "http" if variant == "http" else "stdio",
            "seed": seed, "choices": choices, "scores": game.scores(state),
            "seats": {str(k): v for k, v in seats.items()}}


BUILDERS: dict[str, Callable[[], dict[str, Any]]] = {
    "carcassonne-syncs-2025": lambda: first_whole(carcassonne, 11),
    # seed 11 holds a river tile with nowhere to go: gamecert's discard plays on
    "carcassonne-gamecert-discard": lambda: carcassonne(11, "gamecert-discard"),
    "flit-first-line": lambda: flit(5),
    "flit-argument": lambda: flit(5, "argument"),
    "kingdomino-legend-2p": lambda: kingdomino(3),
    "kingdomino-short-lines": lambda: kingdomino(3, "legend-short-lines"),
    "botwars-stdio": lambda: botwars(7),
    "botwars-http": lambda: botwars(7, "http"),
}


def main(names: list[str]) -> None:
    for name in names or list(BUILDERS):
        write(name, BUILDERS[name]())


if __name__ == "__main__":
    main(sys.argv[1:])
