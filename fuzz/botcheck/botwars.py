"""Bot Wars' bot protocol (the original game's): each turn one JSON document to each bot,
`{"state": {...}, "player": "p1"}`, and a JSON list of moves back,
`[{"from": 21, "to": 22}]` (BOTWARS-FORMAT-DQ, BOTWARS-MOVE-INVALID, BOTWARS-TIME-LIMIT).

Two carriers, as protocol variants: `stdio` (one document per line each way, the local
harness the rules describe) and `http` (the original deployment: a POST of the document to
the bot, a local web server started by the bot command; its URL from --bot-url or the
server's first stdout line). This module must not judge moves: the reference referee and
the engine's own move checks do.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from typing import Any

from gamecert.fuzz.botcheck.findings import DISQUALIFIED, LOST_TURN, NO_EFFECT
from gamecert.fuzz.botcheck.process import (
    BotUnusable,
    Channel,
    ChannelClosed,
    Flood,
    ReadTimeout,
    line_complete,
)
from gamecert.fuzz.botcheck.runner import GameContext, Limits
from gamecert.fuzz.botcheck.seat import CLOSED, FLOOD, LATE, NO_REPLY, OK, BotSeat, Reply
from gamecert.fuzz.botcheck.transcript import Transcript
from gamecert.reference_engine.botwars.engine import BAD_FORMAT, NAMES, TIMEOUT, BotWarsState
from gamecert.spec import Profile

JSON = Any
URL_WAIT_S = 10.0  # how long a web-server bot may take to print its URL and listen


class HttpBot:
    """A bot that is a local web server: one POST per turn."""

    def __init__(self, seat: BotSeat, url: str | None) -> None:
        self.seat = seat
        # the server's own stdout is its log, once the URL line is read: drained, not shown
        assert seat.process.proc.stdout is not None
        self.log = Channel(seat.process.proc.stdin.fileno() if seat.process.proc.stdin else -1,
                           seat.process.proc.stdout.fileno(), Transcript(keep=4))
        if url is None:
            try:
                line, _ = self.log.read_message(line_complete, time.monotonic() + URL_WAIT_S)
            except (ReadTimeout, ChannelClosed, Flood):
                raise BotUnusable(f"the bot server printed no URL line within {URL_WAIT_S:g} s "
                                  f"(give it with --bot-url): "
                                  f"{seat.process.describe_exit()}") from None
            url = line.decode("utf-8", "replace").strip()
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise BotUnusable(f"not an http:// URL: {url!r}")
        self.url = url
        self.host, self.port = parts.hostname, parts.port or 80
        self.path = parts.path or "/"
        self._wait_listening()

    def _wait_listening(self) -> None:
        end = time.monotonic() + URL_WAIT_S
        while True:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=1)
            try:
                conn.connect()
                return
            except OSError:
                if time.monotonic() > end or self.seat.process.exit_code() is not None:
                    raise BotUnusable(f"nothing listens at {self.url}: "
                                      f"{self.seat.process.describe_exit()}") from None
                time.sleep(0.05)
            finally:
                conn.close()

    def exchange(self, body: bytes) -> Reply:
        seat, limits = self.seat, self.seat.ctx.limits
        query = seat.ctx.count_query(seat.seat)
        self.log.pending()  # keep the server's log pipe from filling up
        timeout = (limits.reply_ms + limits.grace_ms) / 1000
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        seat.transcript.sent(f"POST {self.path} ".encode() + body)
        try:
            conn.request("POST", self.path, body, {"Content-Type": "application/json"})
            sent = time.monotonic()
            response = conn.getresponse()
            data = response.read(1 << 20)
            at = time.monotonic()
        except TimeoutError:
            ms = timeout * 1000
            seat.timing.record(ms)
            return Reply(NO_REPLY, b"", ms, query)
        except (OSError, http.client.HTTPException) as exc:
            seat.transcript.note(f"connection failed: {exc}")
            return Reply(CLOSED, b"", 0.0, query)
        finally:
            conn.close()
        seat.transcript.received(f"HTTP {response.status} ".encode() + data)
        ms = (at - sent) * 1000
        seat.timing.record(ms)
        if response.status != 200:
            data = f"HTTP status {response.status} {response.reason}".encode()
            return Reply("http-error", data, ms, query)
        return seat.timed(Reply(LATE if ms > limits.reply_ms else OK, data, ms, query))


class BotWarsTable:
    def __init__(self, ctx: GameContext, state: BotWarsState) -> None:
        self.ctx = ctx
        self.game = ctx.game
        self.variant = ctx.options.variant or "stdio"
        self.bots: dict[int, BotSeat] = {}
        self.http: dict[int, HttpBot] = {}
        self.stopped = False
        self.game_id = f"gamecert-{ctx.options.seed}-{ctx.number}"
        try:
            for seat, command in ctx.options.commands.items():
                self.bots[seat] = BotSeat(ctx, seat, command)
                if self.variant == "http":
                    url = ctx.options.bot_url if seat == ctx.options.seat else None
                    self.http[seat] = HttpBot(self.bots[seat], url)
        except Exception:
            self.close()
            raise

    def after(self, before: Any, action: Any, after: Any, events: list[JSON]) -> None:
        pass  # every request carries the whole state

    def ask(self, player: int, state: BotWarsState) -> Any | None:
        seat = self.bots[player]
        if seat.out:
            return TIMEOUT
        view = self.game.bot_view(state, NAMES[player], self.game_id)
        body = _dumps(view).encode()
        if self.variant == "http":
            reply = self.http[player].exchange(body)
        else:
            reply = seat.exchange(body + b"\n", line_complete)
        cfg = state.cfg
        dq_time = cfg.timeout_dq
        if reply.status in (CLOSED, FLOOD):
            seat.out = True
            what = ("closed the connection or crashed" if reply.status == CLOSED
                    else "flooded its output without a newline")
            seat.finding("BOT-ALIVE", DISQUALIFIED if dq_time else LOST_TURN,
                         "crash" if reply.status == CLOSED else "flood",
                         f"the bot {what} at turn {state.turns + 1}: "
                         f"{seat.process.describe_exit()}",
                         "no reply in time: " + self._timeout_next(cfg), reply.query)
            return TIMEOUT
        if reply.status in (NO_REPLY, LATE):
            limit = self.ctx.limits.reply_ms
            text = (f"the reply took {reply.ms:.0f} ms" if reply.status == LATE else
                    f"no complete reply within {limit + self.ctx.limits.grace_ms:g} ms")
            if dq_time:
                seat.out = True
                seat.finding("BOTWARS-TIME-LIMIT", DISQUALIFIED if dq_time else LOST_TURN,
                         "late" if reply.status == LATE else "no-reply",
                         f"{text}; the limit is {limit:g} ms (turn {state.turns + 1})",
                         self._timeout_next(cfg), reply.query)
            return TIMEOUT
        text = reply.data.decode("utf-8", "replace")
        action = self.game.referee(state, text)
        if action == BAD_FORMAT:
            seat.out = True
            seat.finding("BOTWARS-FORMAT-DQ", DISQUALIFIED, "bad-format",
                         f"the reply {text.strip()[:100]!r} is not a JSON list of "
                         "{\"from\": int, \"to\": int} moves",
                         "the bot is disqualified at once: the game ends, the other bot wins",
                         reply.query)
            return action
        checked = self.game.check_moves(state, player, action[1])
        if checked.invalid:
            bad = checked.invalid[0]
            verdict = LOST_TURN if cfg.lose_turn else NO_EFFECT
            seat.finding(bad.rule if bad.rule != "BOTWARS-MOVE" else "BOTWARS-MOVE-INVALID",
                         verdict, f"invalid-move:{bad.reason}",
                         f"turn {state.turns + 1}: move {bad.index} "
                         f"{{from {bad.move[0]}, to {bad.move[1]}}} is invalid ({bad.reason})"
                         + (f"; {len(checked.invalid) - 1} more" if len(checked.invalid) > 1
                            else ""),
                         "the whole turn is lost (BOTWARS-MOVE-INVALID, lose-turn)"
                         if cfg.lose_turn else "only the invalid move is dropped",
                         reply.query)
        return action

    def _timeout_next(self, cfg: Any) -> str:
        return ("the bot is disqualified: the game ends and the other bot wins "
                "(BOTWARS-TIME-LIMIT, disqualify)" if cfg.timeout_dq else
                "the bot moves nothing this turn (BOTWARS-TIME-LIMIT, empty-turn)")

    def finish(self, state: BotWarsState) -> None:
        pass  # the protocol has no end-of-game message

    def close(self) -> None:
        for seat in self.bots.values():
            seat.close()


def _dumps(doc: JSON) -> str:
    return json.dumps(doc, separators=(",", ":"))


class BotWarsCodec:
    game = "botwars"
    mid_game_starts = True  # every request carries the whole state
    variants = {
        "stdio": "one JSON document per line on the bot's stdin, its JSON move list as one "
                 "line on stdout",
        "http": "the document POSTed to the bot's own web server (the original deployment); "
                "its URL is --bot-url or the server's first stdout line",
    }

    def seats(self, profile: Profile) -> tuple[int, ...]:
        return 1, 2

    def limits(self, profile: Profile) -> Limits:
        return Limits(float(profile.param("BOTWARS-TIME-LIMIT", "limit_ms")),
                      "BOTWARS-TIME-LIMIT", grace_ms=1000.0)

    def open_table(self, ctx: GameContext, state: Any) -> BotWarsTable:
        return BotWarsTable(ctx, state)


CODEC = BotWarsCodec()
