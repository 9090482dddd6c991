"""One bot program in one game, as every codec drives it: started fresh, asked with a
deadline, timed, and its slow replies and run-time budget checked against the limits.

What a reply means (a move, a frame error, a ban) is the codec's business; this module only
measures and reports life and time.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path

from gamecert.fuzz.botcheck.findings import (
    FAIL,
    WARN,
    Finding,
    Timing,
)
from gamecert.fuzz.botcheck.process import (
    BotProcess,
    Channel,
    ChannelClosed,
    Complete,
    Flood,
    ReadTimeout,
)
from gamecert.fuzz.botcheck.runner import GameContext
from gamecert.fuzz.botcheck.transcript import Transcript

OK, LATE, NO_REPLY, CLOSED, FLOOD = "ok", "late", "no reply", "closed", "flood"


@dataclass
class Reply:
    status: str  # OK (in time), LATE (arrived after the limit), NO_REPLY, CLOSED, FLOOD
    data: bytes  # the complete message (OK, LATE) or what arrived of it
    ms: float  # from the last byte sent to the last byte received (or to giving up)
    query: int


class BotSeat:
    def __init__(self, ctx: GameContext, seat: int, command: str, *, cwd: Path | None = None,
                 extra_args: list[str] | None = None, stdio: bool = True) -> None:
        self.ctx = ctx
        self.seat = seat
        self.transcript = Transcript()
        self.process = BotProcess(command, cwd=cwd, extra_args=extra_args, stdio=stdio)
        self.channel: Channel | None = (self.process.stdio_channel(self.transcript)
                                        if stdio else None)
        self.out = False  # banned, frozen or dead: no longer asked
        self.started = False
        self.answered = 0
        self.warned_total = False
        timing = ctx.timings.get(seat)
        if timing is None:
            timing = ctx.timings[seat] = Timing(ctx.limits.reply_ms, ctx.limits.game_ms)
        self.timing: Timing = timing

    # --- findings ------------------------------------------------------------------------
    def finding(self, rule: str, verdict: str, kind: str, message: str, next_step: str,
                query: int, severity: str = FAIL) -> Finding:
        f = Finding(rule, verdict, kind, message, next_step, self.ctx.number, self.seat, query,
                    self.transcript.excerpt(), severity)
        self.ctx.report(f)
        return f

    def unsolicited(self) -> bytes:
        """Output the bot wrote when nobody asked (a debug print, a late reply)."""
        return self.channel.pending() if self.channel is not None else b""

    # --- one query -----------------------------------------------------------------------
    def exchange(self, payload: bytes, complete: Complete) -> Reply:
        assert self.channel is not None
        query = self.ctx.count_query(self.seat)
        limits = self.ctx.limits
        if not self.started:
            self.started = True
            self.process.settle()
        # a reply already waiting (written before this request) is read first, as a line
        # reader would; it says nothing about the bot's speed
        waiting = bool(self.channel.buf) and complete(self.channel.buf) is not None
        now = time.monotonic()
        limit = limits.for_query(query)
        deadline = now + (limit + limits.grace_ms) / 1000
        try:
            sent = self.channel.send(payload, deadline)
        except ChannelClosed:
            return Reply(CLOSED, b"", 0.0, query)
        except ReadTimeout:
            return Reply(NO_REPLY, b"", (time.monotonic() - now) * 1000, query)
        try:
            data, at = self.channel.read_message(complete, deadline)
        except ReadTimeout as exc:
            ms = (time.monotonic() - sent) * 1000
            self.timing.record(ms)
            return Reply(NO_REPLY, exc.partial, ms, query)
        except ChannelClosed:
            return Reply(CLOSED, self.channel.buf, (time.monotonic() - sent) * 1000, query)
        except Flood:
            return Reply(FLOOD, self.channel.buf[:4096], (time.monotonic() - sent) * 1000,
                         query)
        if waiting:
            self.answered += 1
            return Reply(OK, data, 0.0, query)
        ms = (at - sent) * 1000
        self.timing.record(ms)
        self.answered += 1
        return self.timed(Reply(LATE if ms > limit else OK, data, ms, query))

    def timed(self, reply: Reply) -> Reply:
        """Warnings for replies close to a limit (80 % by default)."""
        limits = self.ctx.limits
        limit = limits.for_query(reply.query)
        if reply.status == OK and reply.ms > limits.warn_at * limit:
            self.finding(limits.reply_rule, "none", "near-limit",
                         f"a reply took {reply.ms:.1f} ms, over "
                         f"{limits.warn_at:.0%} of the {limit:g} ms limit",
                         "nothing yet: the reply was in time, but a slower machine or a "
                         "busier arena would make it a time-out", reply.query, WARN)
        total = self.timing.current_total
        if (limits.game_ms and limits.game_rule and not self.warned_total
                and limits.warn_at * limits.game_ms < total <= limits.game_ms):
            self.warned_total = True
            self.finding(limits.game_rule, "none", "near-budget",
                         f"the bot has used {total:.0f} ms of its {limits.game_ms:g} ms game "
                         f"budget (over {limits.warn_at:.0%})", "nothing yet", reply.query,
                         WARN)
        return reply

    def over_budget(self) -> bool:
        limits = self.ctx.limits
        return bool(limits.game_ms) and self.timing.current_total > (limits.game_ms or 0)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.process.close()
