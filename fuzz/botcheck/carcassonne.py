"""Carcassonne's bot protocol as SYNCS Bot Battle 2025 runs it (CARC-PROTO-FRAME,
CARC-PROTO-REPLY, CARC-PROTO-LIMITS).

The bot runs in its own working folder, which holds `io/to_engine.pipe` and
`io/from_engine.pipe` (named pipes). The bot opens `to_engine` for writing, then
`from_engine` for reading; the engine side opens them in the matching order (`to_engine` for
reading, then `from_engine` for writing), each open waiting at most `open_ms`, so a bot
that opens them the other way round deadlocks and is banned, as it would be there. Every
message both ways is `<character count>,<json>`, no newline; a bot message holds at most
`max_chars` characters. Each turn the bot gets `query_place_tile`, then
`query_place_meeple` (not when the tile ended the game), each with `update`: every event
since its last query, keyed by global event index, other players' draws censored to counts.
A reply later than `reply_ms`, a game total over `game_ms`, a malformed or illegal move and
a broken pipe ban the bot, and the game ends.

Events gamecert adds where the 2025 protocol has none: `public_move_discard_tile` (the
gamecert discard, CARC-HAND-NOFIT), and in the farms and tower stages the extension's
(`schemas/carcassonne-bot-ext.schema.json`): a farmer is a `move_place_meeple` on a field
named by a half-edge; `public_move_tower_floor`, `public_move_tower_cap`,
`event_meeple_captured`, `event_prisoners_exchanged`, `public_move_pay_ransom` and
`event_farm_scored`; `public_event_game_started` names the stage's `expansions` and its
`you` also carries `num_floors` and `prisoners` in the tower stage. A ransom (and, under
CARC-TOWER-EXCHANGE = on-request, an exchange) answers a query without ending it: the same
query is sent again, with what the move did in its update. This module must not judge
moves: the reference referee (`reference_engine/carcassonne/protocol.py`) does.
"""

from __future__ import annotations

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
from gamecert.fuzz.botcheck.seat import CLOSED, FLOOD, LATE, NO_REPLY, BotSeat
from gamecert.reference_engine.carcassonne.engine import CLAIM, PLACE, CarcState, pack
from gamecert.reference_engine.carcassonne.protocol import (
    FIELD_WIRE,
    SPOT_WIRE,
    frame,
    referee,
    to_wire_pos,
)
from gamecert.reference_engine.contract import IllegalAction
from gamecert.spec import Profile

JSON = Any
View = Callable[[int], JSON]  # an event as one player (0-based id) sees it
_RULE_IN_TEXT = re.compile(r"\((CARC-[A-Z-]+)")


def frame_complete(buf: bytes) -> int | None:
    """CARC-PROTO-FRAME: the length of the first `<count>,<json>` message in `buf`; anything
    that cannot start one is returned whole, as one malformed message."""
    comma = buf.find(b",")
    head = buf if comma < 0 else buf[:comma]
    if not head.isdigit() or len(head) > 6:
        return len(buf)
    if comma < 0:
        return None
    n = int(head)
    text = buf[comma + 1:].decode("utf-8", "ignore")
    if len(text) < n:
        return None
    return comma + 1 + len(text[:n].encode("utf-8"))


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


class CarcTable:
    def __init__(self, ctx: GameContext, state: CarcState) -> None:
        self.ctx = ctx
        self.game = ctx.game
        self.cfg = state.cfg
        self.bots: dict[int, BotSeat] = {}
        self.folders: list[Path] = []
        self.stopped = False
        self.log: list[View] = []
        self.cursor: dict[int, int] = {}
        self.turn_open = False
        self.open_ms = float(ctx.options.profile.param("CARC-PROTO-LIMITS", "open_ms"))
        n = self.cfg.players
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
        spring = self.cfg.t.ids[self.cfg.t.spring]
        self.log.append(lambda pid: {
            "event_type": "event_starting_tile_placed",
            "tile_placed": {"tile_type": spring, "pos": [centre, centre], "rotation": 0}})

    # --- the pipes -----------------------------------------------------------------------
    def _connect(self, seat: int, bot: BotSeat) -> None:
        folder = bot.process.cwd
        assert folder is not None
        deadline = time.monotonic() + self.open_ms / 1000
        read_fd = _open_within(folder / "io" / "to_engine.pipe", os.O_RDONLY, deadline)
        write_fd = (None if read_fd is None else
                    _open_within(folder / "io" / "from_engine.pipe", os.O_WRONLY, deadline))
        if read_fd is None or write_fd is None:
            if read_fd is not None:
                os.close(read_fd)
            bot.out = True
            self.stopped = True
            bot.finding("CARC-PROTO-LIMITS", BAN, "pipes",
                        f"the bot did not open io/to_engine.pipe for writing, then "
                        f"io/from_engine.pipe for reading, within {self.open_ms:g} ms of its "
                        f"start: {bot.process.describe_exit(0.0)}",
                        "the engine gives up on the bot: banned before the game starts", 0)
            return
        bot.channel = Channel(write_fd, read_fd, bot.transcript)
        bot.started = True  # its start-up was the pipe opening

    # --- engine events -> protocol events ------------------------------------------------
    def _tile(self, state: CarcState, xy: list[int]) -> JSON:
        kind, rot = state.board[pack(xy[0], xy[1])]
        return {"tile_type": self.cfg.t.ids[kind], "pos": to_wire_pos(self.cfg, xy),
                "rotation": rot}

    def after(self, before: CarcState, action: Any, after: CarcState,
              events: list[JSON]) -> None:
        for e in events:
            self.log.extend(self._translate(after, e))
        if after.step == PLACE and not self.turn_open:
            self.turn_open = True
            pid = after.to_move - 1
            self.log.append(lambda _p: {"event_type": "event_player_turn_started",
                                        "player_id": pid})

    def _translate(self, state: CarcState, e: JSON) -> list[View]:
        kind = e["type"]
        pid = e.get("player", 0) - 1
        if kind == "tile-drawn":
            tile = e["tile"]
            return [lambda p: {"event_type": "event_player_drew_tiles", "player_id": pid,
                               "num_tiles": 1,
                               "tiles": [{"tile_type": tile, "pos": [0, 0], "rotation": 0}]}
                    if p == pid else {"event_type": "public_event_player_drew_tiles",
                                      "player_id": pid, "num_tiles": 1}]
        if kind == "tile-placed":
            tile = {"tile_type": e["tile"], "pos": to_wire_pos(self.cfg, e["at"]),
                    "rotation": e["rotation"]}
            return [lambda _p: {"event_type": "public_move_place_tile", "player_id": pid,
                                "tile": tile}]
        if kind == "tile-discarded":
            self.turn_open = False if state.step != PLACE else self.turn_open
            gone = e["tile"]
            return [lambda _p: {"event_type": "public_move_discard_tile", "player_id": pid,
                                "tile": {"tile_type": gone}}]
        if kind == "meeple-placed":
            self.turn_open = False
            tile = self._tile(state, e["at"]) if pack(*e["at"]) in state.board else {}
            on = _wire_spot(e["on"])
            return [lambda _p: {"event_type": "move_place_meeple", "player_id": pid,
                                "tile": tile, "placed_on": on}]
        if kind == "claim-passed":
            self.turn_open = False
            return [lambda _p: {"event_type": "move_place_meeple_pass", "player_id": pid}]
        if kind in ("feature-completed", "feature-final"):
            return [_freed(i, count, e["points"] if i + 1 in e["scorers"] else 0, e["feature"])
                    for i, count in enumerate(e["meeples"]) if count]
        if kind in ("tower-built", "tower-capped", "meeple-captured", "prisoners-exchanged",
                    "ransom-paid", "farm-scored"):
            return self._translate_ext(e, pid)
        if kind == "river-phase-ended":
            return [lambda _p: {"event_type": "event_river_phase_completed"}]
        if kind == "game-ended":
            name = ("event_game_ended_point_limit_reached" if e["reason"] == "points-limit"
                    else "event_game_ended_stale_mate")
            return [lambda _p: {"event_type": name, "scores": e["scores"]}]
        if kind == "game-won":
            return [_won(w - 1) for w in e["winners"]]
        return []

    def _translate_ext(self, e: JSON, pid: int) -> list[View]:
        """The extension's events (farms and tower stages): public, the same for every bot."""
        kind = e["type"]
        out: JSON
        if kind == "tower-built":
            self.turn_open = False
            out = {"event_type": "public_move_tower_floor", "player_id": pid,
                   "tower_pos": to_wire_pos(self.cfg, e["at"]), "height": e["height"]}
        elif kind == "tower-capped":
            self.turn_open = False
            out = {"event_type": "public_move_tower_cap", "player_id": pid,
                   "tower_pos": to_wire_pos(self.cfg, e["at"])}
        elif kind == "meeple-captured":
            out = {"event_type": "event_meeple_captured", "captor_id": pid,
                   "owner_id": e["owner"] - 1, "pos": to_wire_pos(self.cfg, e["at"]),
                   "placed_on": _wire_spot(e["on"]), "to": e["to"]}
        elif kind == "prisoners-exchanged":
            out = {"event_type": "event_prisoners_exchanged",
                   "player_ids": [q - 1 for q in e["players"]]}
        elif kind == "ransom-paid":
            out = {"event_type": "public_move_pay_ransom", "player_id": pid,
                   "captor_id": e["captor"] - 1, "points": e["points"]}
        else:  # farm-scored
            out = {"event_type": "event_farm_scored",
                   "field_tiles": [to_wire_pos(self.cfg, xy) for xy in e["tiles"]],
                   "points": e["points"], "player_ids": [q - 1 for q in e["scorers"]]}
        return [lambda _p: out]

    # --- one query -----------------------------------------------------------------------
    def ask(self, player: int, state: CarcState) -> Any | None:
        seat = self.bots[player]
        if seat.out or seat.channel is None:
            return None
        pid = player - 1
        update = {str(i): self.log[i](pid) for i in range(self.cursor[player], len(self.log))}
        self.cursor[player] = len(self.log)
        query = "query_place_tile" if state.step == PLACE else "query_place_meeple"
        text = json.dumps({"query_type": query, "update": update}, separators=(",", ":"))
        reply = seat.exchange(frame(text).encode(), frame_complete)
        limits = self.ctx.limits
        if reply.status in (CLOSED, FLOOD, NO_REPLY, LATE):
            what = {CLOSED: ("broken-pipe", "the pipe broke (the bot closed it, crashed or "
                                            "exited): " + seat.process.describe_exit()),
                    FLOOD: ("flood", "the bot sent a flood of bytes without a complete "
                                     "message"),
                    NO_REPLY: ("no-reply", f"no complete message within "
                                           f"{limits.reply_ms + limits.grace_ms:g} ms"),
                    LATE: ("late", f"the reply took {reply.ms:.0f} ms")}[reply.status]
            self._ban(seat, "CARC-PROTO-LIMITS", what[0],
                             f"{query}: {what[1]}; the limit is {limits.reply_ms:g} ms per "
                             f"reply", reply.query)
            return None
        if seat.over_budget():
            self._ban(seat, "CARC-PROTO-LIMITS", "game-budget",
                             f"{query}: the bot's replies have taken "
                             f"{seat.timing.current_total:.0f} ms in this game; the limit is "
                             f"{limits.game_ms:g} ms in total", reply.query)
            return None
        message = reply.data.decode("utf-8", "replace")
        try:
            return referee(self.game, state, message)
        except IllegalAction as exc:
            why = str(exc)
            self._ban(seat, _rule_of(why, state), "bad-move", f"{query}: {why}",
                      reply.query)
            return None

    def _ban(self, seat: BotSeat, rule: str, kind: str, message: str, query: int) -> None:
        seat.out = True
        self.stopped = True
        pid = seat.seat - 1
        self.log.append(lambda _p: {"event_type": "event_player_banned", "player_id": pid,
                                    "reason": kind})
        seat.finding(rule, BAN, kind, message,
                     "the bot is banned (CARC-PROTO-LIMITS) and its game ends; the other "
                     "bots are told by event_player_banned", query)

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


def _wire_spot(on: str) -> str:
    """A canonical meeple spot as the protocol names it (a side, MONASTARY, a field by its
    half-edge, TOWER)."""
    if on == "tower":
        return "TOWER"
    return SPOT_WIRE.get(on) or FIELD_WIRE[on]


def _freed(pid: int, count: int, reward: int, feature: str) -> View:
    event = {"event_type": "event_player_meeple_freed", "player_id": pid,
             "num_meeples": count, "reward": reward, "feature": feature}
    return lambda _p: event


def _won(pid: int) -> View:
    return lambda _p: {"event_type": "event_player_won", "player_id": pid}


def _rule_of(why: str, state: CarcState) -> str:
    """The rule a refused reply breaks: the one the referee names, else by its place."""
    named = _RULE_IN_TEXT.findall(why)
    if named:
        return str(named[-1])
    if ("JSON" in why or "characters" in why) and "event_type" not in why:
        return "CARC-PROTO-FRAME"
    if state.step == PLACE and ": pos " in why:
        return "CARC-PLACE-MATCH"
    if state.step == CLAIM and "already" in why:
        return "CARC-CLAIM-UNCLAIMED"
    return "CARC-PROTO-REPLY"


class CarcassonneCodec:
    game = "carcassonne"
    variants = {"syncs-2025": "SYNCS Bot Battle 2025: named pipes in the bot's folder, "
                              "'<count>,<json>' frames"}

    def seats(self, profile: Profile) -> tuple[int, ...]:
        return tuple(range(1, int(profile.param("CARC-PLAYERS", "players")) + 1))

    def limits(self, profile: Profile) -> Limits:
        p = profile.param
        return Limits(float(p("CARC-PROTO-LIMITS", "reply_ms")), "CARC-PROTO-LIMITS",
                      game_ms=float(p("CARC-PROTO-LIMITS", "game_ms")),
                      game_rule="CARC-PROTO-LIMITS", grace_ms=1000.0)

    def open_table(self, ctx: GameContext, state: Any) -> CarcTable:
        return CarcTable(ctx, state)


CODEC = CarcassonneCodec()
