"""Flit's bot protocol (FLIT-PROTO-UPDATES, FLIT-PROTO-REPLY, FLIT-TIME-LIMIT, FLIT-FREEZE).

Stdin lines `x y c` (a square changed colour) and `M` (move now); one stdout line back,
`x0 y0 x1 y1`. 50 ms per move (FLIT-TIME-LIMIT.limit_ms); a late or missing reply is a no
move, five in a row freeze the bot (FLIT-FREEZE). How a bot learns its own number is an open
point of the source; the variants below are the readings a competition may use.

The grammar (FLIT-PROTO-UPDATES, FLIT-PROTO-REPLY; the referee's regular expression is the
reply's exact form):

    to the bot   = [number NL] *(update / request)     ; number: variant first-line
    update       = int SP int SP colour NL             ; x y c, colour 0-5
    request      = "M" NL
    reply        = *WS int 1*WS int 1*WS int 1*WS int *WS [CR] NL   ; x0 y0 x1 y1
    int          = ["-"] 1*DIGIT                        ; its value must be on the board
    WS           = SP / TAB

Lines are read as a line reader reads them: a line the bot writes without being asked (a
debug print, a second line) is the reply to the next `M`, exactly as the real engine would
take it. This module must not judge moves itself: the reference referee does.
"""

from __future__ import annotations

from typing import Any

from gamecert.fuzz.botcheck.findings import DISQUALIFIED, FROZEN, LOST_TURN
from gamecert.fuzz.botcheck.process import line_complete
from gamecert.fuzz.botcheck.runner import GameContext, Limits
from gamecert.fuzz.botcheck.seat import CLOSED, FLOOD, LATE, NO_REPLY, UNJUDGED, BotSeat
from gamecert.reference_engine.contract import IllegalAction
from gamecert.reference_engine.flit.engine import _REPLY, INVALID, TIMEOUT, FlitState
from gamecert.spec import Profile

JSON = Any


class FlitTable:
    def __init__(self, ctx: GameContext, state: FlitState) -> None:
        self.ctx = ctx
        self.game = ctx.game
        self.variant = ctx.options.variant or "first-line"
        self.bots: dict[int, BotSeat] = {}
        self.pending: dict[int, list[bytes]] = {}
        self.stopped = False
        self.note = ""
        try:
            for seat, command in ctx.options.commands.items():
                extra = [str(seat)] if self.variant == "argument" else None
                self.bots[seat] = BotSeat(ctx, seat, command, extra_args=extra)
                self.pending[seat] = ([f"{seat}\n".encode()]
                                      if self.variant == "first-line" else [])
        except Exception:
            self.close()
            raise
        self.width = state.width

    # --- engine -> bots ------------------------------------------------------------------
    def after(self, before: FlitState, action: Any, after: FlitState,
              events: list[JSON]) -> None:
        """FLIT-PROTO-UPDATES: every square that changed colour, to every bot."""
        if before.board != after.board:
            w = self.width
            lines = [f"{i % w} {i // w} {c}\n".encode()
                     for i, (a, c) in enumerate(zip(before.board, after.board, strict=True))
                     if a != c]
            for queue in self.pending.values():
                queue.extend(lines)
        for e in events:
            if e.get("type") == "frozen" and e.get("bot") in self.bots:
                seat = self.bots[e["bot"]]
                if not seat.out:
                    seat.out = True
                    seat.finding("FLIT-FREEZE", FROZEN, "frozen",
                                 f"bot {e['bot']} is frozen ({e.get('cause')})",
                                 "the bot is never asked to move again; its pieces stay",
                                 self.ctx.queries.get(e["bot"], 0))
                if e["bot"] == self.ctx.options.seat:
                    self.stopped = True

    # --- one move request ----------------------------------------------------------------
    def ask(self, player: int, state: FlitState) -> Any | None:
        seat = self.bots[player]
        if seat.out:
            return TIMEOUT
        if seat.channel is not None and seat.channel.buf:
            seat.transcript.note("output was already waiting before this request: the real "
                                 "engine reads it as the reply")
            seat.finding("FLIT-PROTO-REPLY", LOST_TURN, "unasked-output",
                         "the bot wrote output nobody asked for (a debug print on stdout, a "
                         "second line for one move, or a late reply)",
                         "the engine reads that line as the reply to the next move request",
                         self.ctx.queries.get(player, 0) + 1)
        payload = b"".join(self.pending[player]) + b"M\n"
        self.pending[player] = []
        reply = seat.exchange(payload, line_complete)
        limit = self.ctx.limits.reply_ms
        if reply.status == UNJUDGED:
            self.stopped = True
            self.note = f"not judged: no reply within {reply.ms:.0f} ms under load"
            return None
        if reply.status in (CLOSED, FLOOD):
            seat.out = True
            what = ("closed its output (crashed or exited)" if reply.status == CLOSED
                    else "flooded its output without a newline")
            seat.finding("BOT-ALIVE", FROZEN, "crash" if reply.status == CLOSED else "flood",
                         f"the bot {what} at move request {reply.query}: "
                         f"{seat.process.describe_exit()}",
                         "every later move request times out; after "
                         f"{state.cfg.freeze_after} the bot is frozen for the rest of the game",
                         reply.query)
            if player == self.ctx.options.seat:
                return None
            return TIMEOUT
        if reply.status == NO_REPLY:
            seat.finding("FLIT-TIME-LIMIT", LOST_TURN, "no-reply",
                         f"no complete line within {reply.ms:.0f} ms (limit {limit:g} ms; "
                         f"{reply.load.describe() if reply.load else 'load not measured'})",
                         "no move this turn; the time-out run grows (frozen after "
                         f"{state.cfg.freeze_after} in a row); a line that arrives later is "
                         "read as the reply to the next request", reply.query)
            return TIMEOUT
        if reply.status == LATE:
            seat.finding("FLIT-TIME-LIMIT", LOST_TURN, "late", reply.late_by(limit),
                         "no move this turn (the reply is too late to count); the time-out "
                         f"run grows, frozen after {state.cfg.freeze_after} in a row",
                         reply.query)
            return TIMEOUT
        text = reply.data.decode("utf-8", "replace")
        action = self.game.referee(state, text)
        if action == INVALID:
            self._invalid(seat, state, text, reply.query)
        return action

    def _invalid(self, seat: BotSeat, state: FlitState, text: str, query: int) -> None:
        verdict = DISQUALIFIED if state.cfg.invalid_disqualifies else LOST_TURN
        then = ("the bot is frozen for the rest of the game (FLIT-MOVE-INVALID, this profile)"
                if state.cfg.invalid_disqualifies else
                "the reply counts as no move (FLIT-MOVE-INVALID); the game goes on")
        match = _REPLY.fullmatch(text)
        if match is None:
            seat.finding("FLIT-PROTO-REPLY", verdict, "not-a-move",
                         f"the reply {text.rstrip()[:80]!r} is not 'x0 y0 x1 y1'", then, query)
            return
        x0, y0, x1, y1 = (int(g) for g in match.groups())
        why = "a square is off the board"
        squares = self.game.reply_squares(state, x0, y0, x1, y1)
        if squares is not None:
            try:
                self.game._move(state, *squares)
            except IllegalAction as exc:
                why = str(exc)
        seat.finding("FLIT-MOVE-VALID", verdict, "illegal-move",
                     f"bot {state.to_move} moved ({x0}, {y0}) -> ({x1}, {y1}): {why}",
                     then, query)

    def finish(self, state: FlitState) -> None:
        pass  # the protocol has no end-of-game message

    def close(self) -> None:
        for seat in self.bots.values():
            seat.close()


class FlitCodec:
    game = "flit"
    mid_game_starts = True  # a position is delivered as updates of every non-empty square
    search_queries = 150
    variants = {
        "first-line": "the bot's number (1-4) is the first line on its stdin, before any update",
        "argument": "the bot's number (1-4) is the program's last command-line argument",
    }

    def seats(self, profile: Profile) -> tuple[int, ...]:
        return 1, 2, 3, 4

    def limits(self, profile: Profile, variant: str | None = None) -> Limits:
        return Limits(float(profile.param("FLIT-TIME-LIMIT", "limit_ms")), "FLIT-TIME-LIMIT",
                      grace_ms=1000.0)

    def open_table(self, ctx: GameContext, state: Any) -> FlitTable:
        return FlitTable(ctx, state)


CODEC = FlitCodec()
