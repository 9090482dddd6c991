"""Carcassonne's bot protocol as SYNCS Bot Battle 2025 runs it (CARC-PROTO-FRAME,
CARC-PROTO-REPLY, CARC-PROTO-LIMITS), byte for byte as its public engine's `interface/io`
package and its bot-side library `src/lib` define it (docs/bot-check.md lists each fact with
its file and line).

* Pipes. The bot runs in its own working folder, which holds `io/to_engine.pipe` and
  `io/from_engine.pipe` (named pipes). The engine opens `to_engine` for reading, then
  `from_engine` for writing, both within `open_ms`; the bot opens them in the matching order,
  so a bot that opens them the other way round deadlocks and is banned, as it would be there.
  The time the opening takes counts toward the game's `game_ms`.
* Messages. `<character count>,<json>` both ways, nothing after; the engine reads a bot's
  message as `protocol.message_end` says (a count of at most three characters read by int()),
  and what follows a message is the start of the next one.
* Queries. Each turn `query_place_tile`, then `query_place_meeple` (not when the tile ended the
  game), each carrying `update`: every event since the bot's last query, keyed by global event
  index, compact JSON with members in the library's declaration order. Every bot gets every
  event; what is private is censored per bot (censor_event.py): a draw is
  `event_player_drew_tiles` with the tiles to the drawer and `public_event_player_drew_tiles`
  (a count) to the others; a placement is the mover's own `move_place_tile` (with its
  `player_tile_index`) to the mover and `public_move_place_tile` to the others; the game
  start is `public_event_game_started` with the bot as `you`.
* Hands are indexed in the order dealt and drawn (a played tile taken out): this table keeps
  that order for every player, since the canonical state keeps hands sorted.
* The engine lays the spring and the lake: no bot is dealt the lake or asked to place it;
  the river's end is told to all in `event_river_phase_completed` (with `end_tile`).
* A freed meeple is one `event_player_meeple_freed` each (player, reward, the tile it stood on,
  where on it).
* Bans (TIMEOUT, CUMULATIVE_TIMEOUT, BROKEN_PIPE, INVALID_MESSAGE, INVALID_MOVE) end the game.

Where the 2025 protocol has no message, the game stops as an "open point" (a hand with no tile
that fits anywhere: the protocol has no discard), unless the variant `gamecert-discard` asks
for gamecert's `move_discard_tile` and tells the others `public_move_discard_tile`. In the
farms and tower stages gamecert's extension (`schemas/carcassonne-bot-ext.schema.json`) adds
its messages in the same style. This module must not judge moves: the reference referee
(`reference_engine/carcassonne/protocol.py`) does.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamecert.fuzz.botcheck.findings import BAN
from gamecert.fuzz.botcheck.process import Channel
from gamecert.fuzz.botcheck.runner import GameContext, Limits
from gamecert.fuzz.botcheck.seat import CLOSED, FLOOD, LATE, NO_REPLY, UNJUDGED, BotSeat, Reply
from gamecert.reference_engine.carcassonne.engine import (
    CLAIM,
    FEATURE_NAMES,
    PASS,
    PLACE,
    CarcState,
    unpack,
)
from gamecert.reference_engine.carcassonne.protocol import (
    FIELD_WIRE,
    SPOT_WIRE,
    BadMessage,
    frame,
    message_end,
    read_reply,
    to_wire_pos,
)
from gamecert.reference_engine.contract import IllegalAction
from gamecert.spec import Profile

JSON = Any
View = Callable[[int], JSON]  # an event as one player (0-based id) sees it
_RULE_IN_TEXT = re.compile(r"\((CARC-[A-Z-]+)")
_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # bytes that were not UTF-8 (surrogateescape)
DEFAULT = "syncs-2025"
DISCARD = "gamecert-discard"


def _compact(doc: JSON) -> str:
    """JSON as pydantic's model_dump_json writes it: no spaces, UTF-8 as is."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def frame_end(buf: bytes, cfg: Any) -> int | None:
    """CARC-PROTO-FRAME: how many bytes of `buf` the engine reads as the bot's next message
    (it counts characters; an incomplete UTF-8 character waits for its last bytes)."""
    text = codecs.getincrementaldecoder("utf-8")("surrogateescape").decode(buf, final=False)
    n = message_end(text, cfg)
    if n is None:
        return None
    return len(text[:n].encode("utf-8", "surrogateescape"))


def _open_within(path: Path, flags: int, deadline: float) -> int | None:
    """A blocking open of one end of a named pipe, given up at `deadline` (then the other
    end is opened and closed at once, so the waiting open returns and its thread ends)."""
    result: list[int] = []

    def opener() -> None:
        with contextlib.suppress(OSError):
            result.append(os.open(path, flags))

    thread = threading.Thread(target=opener, daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    if result:
        return result[0]
    other = (os.O_WRONLY if flags == os.O_RDONLY else os.O_RDONLY) | os.O_NONBLOCK
    with contextlib.suppress(OSError):
        os.close(os.open(path, other))
    thread.join(1)
    if result:
        os.close(result[0])
    return None


class _Placements:
    """The game as the lake's placer sees it: its only moves are the lake's placements (the
    competition's engine lays the lake; a chooser picks where among the legal places)."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def legal(self, state: CarcState) -> list[Any]:
        return list(self.game.placements(state))

    def random_action(self, state: CarcState, rng: Any) -> Any:
        return rng.choice(self.legal(state))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


class CarcTable:
    def __init__(self, ctx: GameContext, state: CarcState) -> None:
        self.ctx = ctx
        self.game = ctx.game
        self.cfg = state.cfg
        self.variant = ctx.options.variant or DEFAULT
        self.bots: dict[int, BotSeat] = {}
        self.folders: list[Path] = []
        self.stopped = False
        self.note = ""
        self.log: list[View] = []
        self.cursor: dict[int, int] = {}
        self.turn_open = False
        self.turn_player = 0
        n = self.cfg.players
        t = self.cfg.t
        self.lake_id = t.ids[t.lake]
        self.hands: dict[int, list[str]] = {p: [] for p in range(1, n + 1)}  # deal order
        self.lake_turn = False  # the player to move holds the lake: the engine lays it
        self.end_tile: JSON = None
        self.moves: dict[int, JSON] = {}  # a bot's last move, as the engine keeps it
        # node -> (player id, tile, the spot as the claim named it, its canonical spot)
        self.meeples: dict[int, tuple[int, JSON, str, str]] = {}
        self.open_ms = float(ctx.options.profile.param("CARC-PROTO-LIMITS", "open_ms"))
        try:
            for seat, command in ctx.options.commands.items():
                folder = Path(tempfile.mkdtemp(prefix=f"gamecert-bot{seat}-"))
                self.folders.append(folder)
                (folder / "io").mkdir()
                for name in ("to_engine.pipe", "from_engine.pipe"):
                    os.mkfifo(folder / "io" / name)
                self.bots[seat] = BotSeat(ctx, seat, command, cwd=folder, stdio=False)
                self.cursor[seat] = 0
            for seat, bot in self.bots.items():
                self._connect(seat, bot)
        except Exception:
            self.close()
            raise
        meeples = self.cfg.meeples
        extra: JSON = ({"num_floors": self.cfg.floors, "prisoners": [0] * n}
                       if self.cfg.tower else {})
        # stage 1 sends the 2025 event unchanged; the later stages name what they add
        stages: JSON = ({"expansions": ["farms", "tower"][:1 + self.cfg.tower]}
                        if self.cfg.farms or self.cfg.tower else {})
        self.log.append(lambda pid: {
            "event_type": "public_event_game_started", "turn_order": list(range(n)),
            "you": {"player_id": pid, "team_id": pid, "points": 0, "tiles": [],
                    "num_meeples": meeples, **extra},
            "players": [{"player_id": i, "points": 0, "num_tiles": 0} for i in range(n)],
            "num_starting_meeples": meeples, **stages})
        centre = self.cfg.centre
        spring = t.ids[t.spring]
        self.log.append(lambda pid: {
            "event_type": "event_starting_tile_placed",
            "tile_placed": {"tile_type": spring, "pos": [centre, centre], "rotation": 0}})

    # --- the pipes -----------------------------------------------------------------------
    def _connect(self, seat: int, bot: BotSeat) -> None:
        folder = bot.process.cwd
        assert folder is not None
        start = time.monotonic()
        deadline = start + self.open_ms / 1000
        cut = self.ctx.hard_end is not None and self.ctx.hard_end < deadline
        if cut:
            assert self.ctx.hard_end is not None
            deadline = self.ctx.hard_end
        read_fd = _open_within(folder / "io" / "to_engine.pipe", os.O_RDONLY, deadline)
        write_fd = (None if read_fd is None else
                    _open_within(folder / "io" / "from_engine.pipe", os.O_WRONLY, deadline))
        if read_fd is None or write_fd is None:
            if read_fd is not None:
                os.close(read_fd)
            bot.out = True
            self.stopped = True
            if cut:
                self.note = "budget: the time budget ended while the bot opened its pipes"
                return
            bot.finding("CARC-PROTO-LIMITS", BAN, "pipes",
                        f"the bot did not open io/to_engine.pipe for writing, then "
                        f"io/from_engine.pipe for reading, within {self.open_ms:g} ms of its "
                        f"start: {bot.process.describe_exit(0.0)}",
                        "the engine gives up on the bot (TIMEOUT): banned before the game "
                        "starts", 0)
            return
        bot.channel = Channel(write_fd, read_fd, bot.transcript)
        bot.started = True  # its start-up was the pipe opening
        # the engine times the opening with its replies (time_limited on _open_pipes)
        bot.timing.current_total += (time.monotonic() - start) * 1000

    def frame_complete(self, buf: bytes) -> int | None:
        return frame_end(buf, self.cfg)

    # --- engine moves the protocol gives no player -----------------------------------------
    def engine_move(self, player: int, state: CarcState) -> Any | None:
        """The lake, laid by the engine (no bot holds it); a hand with no fitting tile, which
        the 2025 protocol has no message for, stops the game as an open point."""
        if self.lake_turn:
            if state.step == PLACE:
                if not self.game.placements(state):
                    self._open_point(player, "the lake fits nowhere at the river's end")
                    return None
                chooser = self.ctx.chooser
                assert chooser is not None
                return chooser.pick(_Placements(self.game), state, False)
            if state.step == CLAIM:
                return PASS
        if state.step == PLACE and self.variant == DEFAULT and not self.game.any_placement(
                state):
            self._open_point(player, "no tile of the hand fits anywhere (CARC-HAND-NOFIT)")
        return None

    def _open_point(self, player: int, what: str) -> None:
        self.stopped = True
        self.note = (f"open point: player {player}: {what}; the 2025 protocol has no message "
                     f"for it (--variant {DISCARD} plays on with gamecert's discard)")

    # --- engine events -> protocol events ------------------------------------------------
    def _tile(self, state: CarcState, cell: int) -> JSON:
        kind, rot = state.board[cell]
        return {"tile_type": self.cfg.t.ids[kind], "pos": to_wire_pos(self.cfg, unpack(cell)),
                "rotation": rot}

    def after(self, before: CarcState, action: Any, after: CarcState,
              events: list[JSON]) -> None:
        for e in events:
            self.log.extend(self._translate(before, action, after, e))
        if after.step == PLACE and (not self.turn_open or after.to_move != self.turn_player):
            self.turn_open, self.turn_player = True, after.to_move
            if not self.lake_turn:
                pid = after.to_move - 1
                self.log.append(lambda _p: {"event_type": "event_player_turn_started",
                                            "player_id": pid})

    def _translate(self, before: CarcState, action: Any, state: CarcState,
                   e: JSON) -> list[View]:
        kind = e["type"]
        player = e.get("player", 0)
        pid = player - 1
        if kind == "tile-drawn":
            tile = e["tile"]
            if tile == self.lake_id and e.get("pile") == "river":
                self.lake_turn = True  # the engine lays it: nobody is dealt the lake
                return []
            self.hands[player].append(tile)
            model = {"tile_type": tile, "pos": [0, 0], "rotation": 0}
            return [lambda p: {"event_type": "event_player_drew_tiles", "player_id": pid,
                               "num_tiles": 1, "tiles": [model]}
                    if p == pid else {"event_type": "public_event_player_drew_tiles",
                                      "player_id": pid, "num_tiles": 1}]
        if kind == "tile-placed":
            tile = {"tile_type": e["tile"], "pos": to_wire_pos(self.cfg, e["at"]),
                    "rotation": e["rotation"]}
            if self.lake_turn:
                self.end_tile = tile
                return []
            hand = self.hands[player]
            sent = self.moves.pop(player, None)
            index = (sent["player_tile_index"] if sent is not None
                     and sent.get("event_type") == "move_place_tile" else hand.index(e["tile"]))
            del hand[index]
            private = {"event_type": "move_place_tile", "player_id": pid,
                       "tile": sent["tile"] if sent is not None else tile,
                       "player_tile_index": index}
            public = {"event_type": "public_move_place_tile", "player_id": pid, "tile": tile}
            return [lambda p: private if p == pid else public]
        if kind == "tile-discarded":  # the turn goes on, or passes: `after` sees which
            gone = e["tile"]
            self.moves.pop(player, None)
            if gone in self.hands[player]:
                self.hands[player].remove(gone)
            return [lambda _p: {"event_type": "public_move_discard_tile", "player_id": pid,
                                "tile": {"tile_type": gone}}]
        if kind == "meeple-placed":
            self.turn_open = False
            cell = before.placed
            real = self._tile(state, cell)
            sent = self.moves.pop(player, None)
            on = sent["placed_on"] if sent is not None and "placed_on" in sent else _wire_spot(
                e["on"])
            # the claim is told to all, and its meeple freed, under the name its bot gave
            self.meeples[cell * 8 + action[1]] = (pid, real, on, e["on"])
            out = {"event_type": "move_place_meeple", "player_id": pid,
                   "tile": sent["tile"] if sent is not None and "tile" in sent else real,
                   "placed_on": on}
            return [lambda _p: out]
        if kind == "claim-passed":
            self.turn_open = False
            self.moves.pop(player, None)
            if self.lake_turn:
                return []
            return [lambda _p: {"event_type": "move_place_meeple_pass", "player_id": pid}]
        if kind in ("feature-completed", "feature-final"):
            return self._freed(state, e)
        if kind == "meeple-captured":
            e = {**e, "named": self._forget(e)}
        if kind in ("tower-built", "tower-capped", "meeple-captured", "prisoners-exchanged",
                    "ransom-paid", "farm-scored"):
            return self._translate_ext(e, pid)
        if kind == "river-phase-ended":
            self.lake_turn = False
            end_tile = self.end_tile
            return [lambda _p: {"event_type": "event_river_phase_completed",
                                "end_tile": end_tile}]
        # the end of the game, turn skips, meeples returned: no query follows the end, and a
        # returned meeple is told by event_player_meeple_freed
        return []

    def _freed(self, state: CarcState, e: JSON) -> list[View]:
        """One event_player_meeple_freed per meeple the scored feature held, each with the
        tile it stood on and where; a scorer's points as the reward of its first one."""
        want = (e["feature"], sorted(e["tiles"]))
        out: list[View] = []
        rewarded: set[int] = set()
        for node in sorted(self.meeples):
            if node in state.meeples:
                continue
            f = state.feats[state.owner[node]]
            if (FEATURE_NAMES[f.kind], sorted(unpack(p) for p in f.tiles)) != want:
                continue
            pid, tile, spot, _ = self.meeples.pop(node)
            reward = e["points"] if pid + 1 in e["scorers"] and pid not in rewarded else 0
            rewarded.add(pid)
            out.append(_same({"event_type": "event_player_meeple_freed", "player_id": pid,
                              "reward": reward, "tile": tile, "placed_on": spot}))
        return out

    def _forget(self, e: JSON) -> str:
        """A meeple taken off the board by a tower (the extension) no longer stands there;
        the name its claim gave it."""
        at = to_wire_pos(self.cfg, e["at"])
        for node, (pid, tile, spot, canonical) in list(self.meeples.items()):
            if pid == e["owner"] - 1 and tile["pos"] == at and canonical == e["on"]:
                del self.meeples[node]
                return spot
        return _wire_spot(e["on"])

    def _translate_ext(self, e: JSON, pid: int) -> list[View]:
        """The extension's events (farms and tower stages): public, the same for every bot."""
        kind = e["type"]
        out: JSON
        if kind == "tower-built":
            self.turn_open = False
            self.moves.pop(pid + 1, None)
            out = {"event_type": "public_move_tower_floor", "player_id": pid,
                   "tower_pos": to_wire_pos(self.cfg, e["at"]), "height": e["height"]}
        elif kind == "tower-capped":
            self.turn_open = False
            self.moves.pop(pid + 1, None)
            out = {"event_type": "public_move_tower_cap", "player_id": pid,
                   "tower_pos": to_wire_pos(self.cfg, e["at"])}
        elif kind == "meeple-captured":
            out = {"event_type": "event_meeple_captured", "captor_id": pid,
                   "owner_id": e["owner"] - 1, "pos": to_wire_pos(self.cfg, e["at"]),
                   "placed_on": e.get("named") or _wire_spot(e["on"]), "to": e["to"]}
        elif kind == "prisoners-exchanged":
            out = {"event_type": "event_prisoners_exchanged",
                   "player_ids": [q - 1 for q in e["players"]]}
        elif kind == "ransom-paid":
            self.moves.pop(pid + 1, None)
            out = {"event_type": "public_move_pay_ransom", "player_id": pid,
                   "captor_id": e["captor"] - 1, "points": e["points"]}
        else:  # farm-scored
            out = {"event_type": "event_farm_scored",
                   "field_tiles": [to_wire_pos(self.cfg, xy) for xy in e["tiles"]],
                   "points": e["points"], "player_ids": [q - 1 for q in e["scorers"]]}
        return [lambda _p: out]

    # --- one query -----------------------------------------------------------------------
    def query(self, player: int, state: CarcState) -> bytes:
        """The framed query `player` gets now: its update is every event since its last."""
        pid = player - 1
        update = {str(i): self.log[i](pid) for i in range(self.cursor[player], len(self.log))}
        self.cursor[player] = len(self.log)
        kind = "query_place_tile" if state.step == PLACE else "query_place_meeple"
        return frame(_compact({"query_type": kind, "update": update})).encode("utf-8")

    def ask(self, player: int, state: CarcState) -> Any | None:
        seat = self.bots[player]
        if seat.out or seat.channel is None:
            return None
        kind = "query_place_tile" if state.step == PLACE else "query_place_meeple"
        reply = seat.exchange(self.query(player, state), self.frame_complete)
        limits = self.ctx.limits
        if reply.status == UNJUDGED:
            self.stopped = True
            self.note = f"not judged: no reply within {reply.ms:.0f} ms under load"
            return None
        if reply.status in (CLOSED, FLOOD, NO_REPLY, LATE):
            self._ban(seat, "CARC-PROTO-LIMITS", *self._no_answer(seat, reply, kind),
                      reply.query)
            return None
        message = reply.data.decode("utf-8", "surrogateescape")
        try:
            if _NOT_UTF8.search(message):
                raise BadMessage("the message is not UTF-8 text (CARC-PROTO-FRAME)")
            action, move = read_reply(self.game, state, message, self.hands[player])
        except IllegalAction as exc:
            ban = "INVALID_MESSAGE" if isinstance(exc, BadMessage) else "INVALID_MOVE"
            self._ban(seat, _rule_of(str(exc), state), "bad-move", f"{kind}: {exc}", ban,
                      reply.query)
            return None
        if seat.over_budget(reply.query):
            self._ban(seat, "CARC-PROTO-LIMITS", "game-budget",
                      f"{kind}: the bot's replies (and its pipe opening) have taken "
                      f"{seat.timing.current_total:.0f} ms in this game; the limit is "
                      f"{limits.game_ms:g} ms in total", "CUMULATIVE_TIMEOUT", reply.query)
            return None
        seat.stdout_note(reply.query)
        self.moves[player] = move
        return action

    def _no_answer(self, seat: BotSeat, reply: Reply, kind: str) -> tuple[str, str, str]:
        """(kind, message, ban type) for a query that got no usable message in time."""
        limits = self.ctx.limits
        limit = limits.reply_ms
        if reply.status == CLOSED and reply.ms == 0.0:
            return ("broken-pipe", f"{kind}: writing the query failed: the bot closed "
                    f"io/from_engine.pipe or exited: {seat.process.describe_exit()}",
                    "BROKEN_PIPE")
        if reply.status == CLOSED:
            return ("crash", f"{kind}: the bot closed its pipe or exited before replying: "
                    f"{seat.process.describe_exit()}; the engine reads nothing more and waits "
                    f"out its {limit:g} ms", "TIMEOUT")
        if reply.status == FLOOD:
            return ("flood", f"{kind}: the bot sent a flood of bytes without a complete "
                    f"message", "INVALID_MESSAGE")
        if reply.status == NO_REPLY:
            return ("no-reply", f"{kind}: no complete message within {reply.ms:.0f} ms; the "
                    f"limit is {limit:g} ms per reply", "TIMEOUT")
        return ("late", f"{kind}: {reply.late_by(limit)}", "TIMEOUT")

    def _ban(self, seat: BotSeat, rule: str, kind: str, message: str, ban: str,
             query: int) -> None:
        seat.out = True
        self.stopped = True
        seat.finding(rule, BAN, kind, message,
                     f"the bot is banned ({ban}) and the game ends for every player "
                     f"(CARC-PROTO-LIMITS)", query)

    def finish(self, state: CarcState) -> None:
        pass  # no query follows the end: the last update is never read by anyone

    def close(self) -> None:
        for seat in self.bots.values():
            if seat.channel is not None:
                for fd in (seat.channel.read_fd, seat.channel.write_fd):
                    with contextlib.suppress(OSError):
                        os.close(fd)
            seat.close()
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)


def _same(event: JSON) -> View:
    """An event every player sees alike."""
    return lambda _p: event


def _wire_spot(on: str) -> str:
    """A canonical meeple spot as the protocol names it (a side, MONASTARY, a field by its
    half-edge, TOWER)."""
    if on == "tower":
        return "TOWER"
    return SPOT_WIRE.get(on) or FIELD_WIRE[on]


def _rule_of(why: str, state: CarcState) -> str:
    """The rule a refused reply breaks: the one the referee names, else by its place."""
    named = _RULE_IN_TEXT.findall(why)
    if named:
        return str(named[-1])
    if state.step == PLACE and ": pos " in why:
        return "CARC-PLACE-MATCH"
    if state.step == CLAIM and "already" in why:
        return "CARC-CLAIM-UNCLAIMED"
    return "CARC-PROTO-REPLY"


class CarcassonneCodec:
    game = "carcassonne"
    variants = {
        DEFAULT: "SYNCS Bot Battle 2025 as its public engine runs it: named pipes in the bot's "
                 "folder, '<count>,<json>' frames, no discard message (a hand with nothing to "
                 "place stops the game as an open point)",
        DISCARD: "the same, with gamecert's move_discard_tile asked for a hand with nothing "
                 "to place, and public_move_discard_tile told to the others",
    }

    def seats(self, profile: Profile) -> tuple[int, ...]:
        return tuple(range(1, int(profile.param("CARC-PLAYERS", "players")) + 1))

    def limits(self, profile: Profile, variant: str | None = None) -> Limits:
        p = profile.param
        return Limits(float(p("CARC-PROTO-LIMITS", "reply_ms")), "CARC-PROTO-LIMITS",
                      game_ms=float(p("CARC-PROTO-LIMITS", "game_ms")),
                      game_rule="CARC-PROTO-LIMITS", grace_ms=1000.0)

    def open_table(self, ctx: GameContext, state: Any) -> CarcTable:
        return CarcTable(ctx, state)


CODEC = CarcassonneCodec()
