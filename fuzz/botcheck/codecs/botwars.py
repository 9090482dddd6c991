"""Bot Wars' bot protocol (BOTWARS-FORMAT-DQ, BOTWARS-MOVE-INVALID, BOTWARS-TIME-LIMIT), in
the two forms a competition used:

* `stdio` (default): the seed's game (players p1 and p2, botlets '1' and '2', energy) over the
  transport of the original game's early README (revision 2e7edd9, 2014-01-16: standard input
  and output, two seconds a reply): each turn one line `{"state": {...}, "player": "p1"}` on
  the bot's stdin, one line back, a JSON list `[{"from": 21, "to": 22}]`.
* `http`: the original server as its code runs it (method-inc/bots, game_logic/start_game.js
  at 7566bb1 and the README from revision 61630d2): each turn a POST to the bot's URL with a
  form field `data` holding `JSON.stringify({player, state, gameId}) + "\\n"`, the players
  named `r` and `b`, botlets on the grid `r` and `b`, the dead `x`; the request times out after
  five seconds (BOTWARS-TIME-LIMIT.http_limit_ms). The server reads the response body with
  `JSON.parse` whatever its status, and a body that is not JSON as no moves at all (its
  `tryParse`); a falsy JSON value (`null`, `0`, `false`, `""`) is never taken as an answer, so
  the game waits for ever; a failed request (refused, timed out) ends the game, the other bot
  winning. The bot command starts the bot's web server; its URL is --bot-url or the server's
  first stdout line.

This module must not judge moves: the reference referee and the engine's own move checks do.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from typing import Any

from gamecert.fuzz.botcheck.findings import DISQUALIFIED, LOST_TURN, NO_EFFECT, STALLED
from gamecert.fuzz.botcheck.process import (
    BotUnusable,
    Channel,
    ChannelClosed,
    Flood,
    ReadTimeout,
    line_complete,
)
from gamecert.fuzz.botcheck.runner import GameContext, Limits
from gamecert.fuzz.botcheck.seat import (
    CLOSED,
    FLOOD,
    LATE,
    NO_REPLY,
    OK,
    UNJUDGED,
    BotSeat,
    Reply,
)
from gamecert.fuzz.botcheck.transcript import Transcript
from gamecert.reference_engine.botwars.engine import BAD_FORMAT, NAMES, TIMEOUT, BotWarsState
from gamecert.spec import Profile

JSON = Any
URL_WAIT_S = 10.0  # how long a web-server bot may take to print its URL and listen
FORM_PLAYERS = ("", "r", "b")  # start_game.js: stringifyGameState('r' | 'b', ...)
FORM_GRID = str.maketrans({"1": "r", "2": "b", "X": "x"})  # the original game's grid marks
NOT_JSON = object()  # what tryParse makes of a body JSON.parse refuses: no moves


def form_document(state: JSON, player: int, game_id: int, turn: int) -> str:
    """The `data` field the original server posts: JSON.stringify({player, state, gameId})
    plus a newline (utils.stringifyGameState), the state built by utils.buildGameState
    (rows, cols, maxTurns, turnsElapsed, grid, p1, p2, winner) and, from the second turn on,
    the GameId start_game.js's evalMoves adds to it."""
    view: dict[str, Any] = {"rows": state["rows"], "cols": state["cols"],
                            "maxTurns": state["maxTurns"], "turnsElapsed": state["turnsElapsed"],
                            "grid": state["grid"].translate(FORM_GRID)}
    for name in ("p1", "p2"):
        view[name] = {k: state[name][k] for k in ("energy", "spawn", "spawnDisabled")}
    view["winner"] = None if state["winner"] is None else FORM_PLAYERS[NAMES.index(
        state["winner"])]
    if turn > 1:
        view["GameId"] = game_id
    doc = {"player": FORM_PLAYERS[player], "state": view, "gameId": game_id}
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n"


def form_body(document: str) -> bytes:
    """application/x-www-form-urlencoded, as the request library's `form` option writes it
    (qs.stringify: RFC 3986 percent-encoding of everything but A-Z a-z 0-9 - . _ ~)."""
    return ("data=" + urllib.parse.quote(document, safe="")).encode("ascii")


def js_parse(body: bytes) -> Any:
    """JSON.parse of a response body (a string decoded as UTF-8): NOT_JSON where it throws.
    Numbers are read as JavaScript reads them, by value (1e2 is 100, 101.0 is 101)."""
    try:
        text = body.decode("utf-8")
        value = json.loads(text, parse_constant=_not_json)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return NOT_JSON
    return _by_value(value)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _by_value(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_by_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _by_value(v) for k, v in value.items()}
    return value


class BudgetCut(Exception):
    """The run's time promise ended while a web-server bot was still starting."""


class HttpBot:
    """A bot that is a local web server: one POST per turn."""

    def __init__(self, seat: BotSeat, url: str | None) -> None:
        self.seat = seat
        cap = seat.ctx.hard_end
        self.until = time.monotonic() + URL_WAIT_S
        self.cut = cap is not None and cap < self.until
        if cap is not None and self.cut:
            self.until = cap
        # the server's own stdout is its log, once the URL line is read: drained, not shown
        assert seat.process.proc.stdout is not None
        self.log = Channel(seat.process.proc.stdin.fileno() if seat.process.proc.stdin else -1,
                           seat.process.proc.stdout.fileno(), Transcript(keep=4))
        if url is None:
            try:
                line, _ = self.log.read_message(line_complete, self.until)
            except (ReadTimeout, ChannelClosed, Flood):
                if self.cut:
                    raise BudgetCut from None
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
        while True:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=1)
            try:
                conn.connect()
                return
            except OSError:
                if self.cut and time.monotonic() > self.until:
                    raise BudgetCut from None
                if time.monotonic() > self.until or self.seat.process.exit_code() is not None:
                    raise BotUnusable(f"nothing listens at {self.url}: "
                                      f"{self.seat.process.describe_exit()}") from None
                time.sleep(0.05)
            finally:
                conn.close()

    def exchange(self, body: bytes) -> Reply:
        seat = self.seat
        limits = seat.ctx.limits
        query = seat.ctx.count_query(seat.seat)
        self.log.pending()  # keep the server's log pipe from filling up
        now = time.monotonic()
        timeout = max(0.05, seat.read_deadline(now, limits.reply_ms) - now)
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        seat.transcript.sent(f"POST {self.path} ".encode() + body)
        bot0, own0 = seat.snapshot()
        try:
            conn.request("POST", self.path, body,
                         {"Content-Type": "application/x-www-form-urlencoded"})
            sent = time.monotonic()
            response = conn.getresponse()
            data = response.read(1 << 20)
            at = time.monotonic()
        except TimeoutError:
            return seat.no_reply(b"", (time.monotonic() - now) * 1000, query, limits.reply_ms,
                                 bot0, own0)
        except (OSError, http.client.HTTPException) as exc:
            seat.transcript.note(f"connection failed: {exc}")
            return Reply(CLOSED, b"", 0.0, query)
        finally:
            conn.close()
        seat.transcript.received(f"HTTP {response.status} ".encode() + data)
        return seat.timed(Reply(OK, data, (at - sent) * 1000, query,
                                seat.load_since(bot0, own0)))


class BotWarsTable:
    def __init__(self, ctx: GameContext, state: BotWarsState) -> None:
        self.ctx = ctx
        self.game = ctx.game
        self.variant = ctx.options.variant or "stdio"
        self.bots: dict[int, BotSeat] = {}
        self.http: dict[int, HttpBot] = {}
        self.stopped = False
        self.note = ""
        self.game_id = f"gamecert-{ctx.options.seed}-{ctx.number}"
        try:
            for seat, command in ctx.options.commands.items():
                self.bots[seat] = BotSeat(ctx, seat, command)
                if self.variant == "http":
                    url = ctx.options.bot_url if seat == ctx.options.seat else None
                    self.http[seat] = HttpBot(self.bots[seat], url)
        except BudgetCut:
            self.stopped = True
            self.note = "budget: the time budget ended while a bot's web server started"
            for bot in self.bots.values():
                bot.started = True  # nothing to settle: the game stops here
        except Exception:
            self.close()
            raise

    def after(self, before: Any, action: Any, after: Any, events: list[JSON]) -> None:
        pass  # every request carries the whole state

    def request(self, player: int, state: BotWarsState) -> bytes:
        """The bytes one turn's request carries to `player`."""
        if self.variant == "http":
            return form_body(form_document(self.game.observe(state), player,
                                           self.ctx.number, state.turns + 1))
        view = self.game.bot_view(state, NAMES[player], self.game_id)
        return _dumps(view).encode() + b"\n"

    def ask(self, player: int, state: BotWarsState) -> Any | None:
        seat = self.bots[player]
        if seat.out:
            return TIMEOUT
        body = self.request(player, state)
        if self.variant == "http":
            reply = self.http[player].exchange(body)
        else:
            reply = seat.exchange(body, line_complete)
        cfg = state.cfg
        dq_time = cfg.timeout_dq
        if reply.status == UNJUDGED:
            self.stopped = True
            self.note = f"not judged: no reply within {reply.ms:.0f} ms under load"
            return None
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
            text = (reply.late_by(limit) if reply.status == LATE else
                    f"no complete reply within {reply.ms:.0f} ms; the limit is {limit:g} ms")
            if dq_time:
                seat.out = True
                seat.finding("BOTWARS-TIME-LIMIT", DISQUALIFIED,
                             "late" if reply.status == LATE else "no-reply",
                             f"{text} (turn {state.turns + 1})",
                             self._timeout_next(cfg), reply.query)
            return TIMEOUT
        if self.variant == "http":
            return self._judge_form_reply(seat, state, player, reply)
        return self._judge(seat, state, player, reply.data.decode("utf-8", "replace"),
                           reply.query)

    def _judge_form_reply(self, seat: BotSeat, state: BotWarsState, player: int,
                          reply: Reply) -> Any | None:
        """The original server's reading of a response body (start_game.js, utils.tryParse)."""
        value = js_parse(reply.data)
        shown = reply.data[:100].decode("utf-8", "replace")
        if value is NOT_JSON:
            seat.finding("BOTWARS-FORMAT-DQ", LOST_TURN, "not-json",
                         f"the response body {shown!r} is not JSON (turn {state.turns + 1})",
                         "the original server reads a body JSON.parse refuses as no moves "
                         "(utils.tryParse) and the game goes on: this turn is lost (its "
                         "README says such a bot is disqualified)", reply.query)
            return ("moves", ())
        if not value and not isinstance(value, list | dict):
            seat.out = True
            self.stopped = True
            self.note = f"the original server waits for ever on the reply {shown!r}"
            seat.finding("BOTWARS-FORMAT-DQ", STALLED, "falsy-reply",
                         f"the response body {shown!r} is JSON the server never takes as an "
                         f"answer (turn {state.turns + 1})",
                         "start_game.js waits until both replies are truthy: the game stalls "
                         "for ever", reply.query)
            return None
        return self._judge(seat, state, player, _dumps(value), reply.query)

    def _judge(self, seat: BotSeat, state: BotWarsState, player: int, text: str,
               query: int) -> Any:
        cfg = state.cfg
        action = self.game.referee(state, text)
        if action == BAD_FORMAT:
            seat.out = True
            seat.finding("BOTWARS-FORMAT-DQ", DISQUALIFIED, "bad-format",
                         f"the reply {text.strip()[:100]!r} is not a JSON list of "
                         "{\"from\": int, \"to\": int} moves",
                         "the bot is disqualified at once: the game ends, the other bot wins",
                         query)
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
                         query)
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
        "stdio": "one JSON document per line on the bot's stdin (players p1 and p2), its JSON "
                 "move list as one line on stdout; two seconds a reply (the original README "
                 "at 2e7edd9)",
        "http": "the original server: a form field `data` POSTed to the bot's own web server "
                "(players r and b), five seconds a reply, a body that is not JSON read as no "
                "moves; the URL is --bot-url or the server's first stdout line",
    }

    def seats(self, profile: Profile) -> tuple[int, ...]:
        return 1, 2

    def limits(self, profile: Profile, variant: str | None = None) -> Limits:
        name = "http_limit_ms" if variant == "http" else "limit_ms"
        return Limits(float(profile.param("BOTWARS-TIME-LIMIT", name)),
                      "BOTWARS-TIME-LIMIT", grace_ms=1000.0)

    def open_table(self, ctx: GameContext, state: Any) -> BotWarsTable:
        return BotWarsTable(ctx, state)


CODEC = BotWarsCodec()
