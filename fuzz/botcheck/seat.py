"""One bot program in one game, as every codec drives it: started fresh, asked with a
deadline, timed, and its slow replies and run-time budget checked against the limits.

Timing is judged on what the bot itself did. Each reply's wall time (last byte sent to last
byte received) is set beside the bot's own CPU time and the time it and bot-check waited for
a CPU while the machine was busy (Linux's per-task schedstat). A reply over a limit by no
more than that waiting is not judged: "late by 5.5 ms, under a load where our own delay was
12 ms: not judged" is a warning, never a verdict, since on an idle machine it would have been
in time. What a reply means (a move, a frame error, a ban) is the codec's business; this
module only measures and reports life and time.
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
    own_schedstat,
)
from gamecert.fuzz.botcheck.runner import GameContext
from gamecert.fuzz.botcheck.transcript import Transcript

# OK (in time, or late by no more than the load excuses), LATE (judged late), NO_REPLY,
# CLOSED, FLOOD, UNJUDGED (no reply in time, but the load was enough to explain it: the game
# cannot go on without a reply and stops there, with no verdict)
OK, LATE, NO_REPLY, CLOSED, FLOOD, UNJUDGED = ("ok", "late", "no reply", "closed", "flood",
                                               "not judged")


@dataclass
class Load:
    """What the machine did to one reply's time, in ms: the bot's CPU time, and the time the
    bot and bot-check itself were ready to run but waited for a CPU. None: not measured."""

    bot_cpu: float | None = None
    bot_wait: float | None = None
    own_wait: float | None = None

    @property
    def excused(self) -> float:
        return (self.bot_wait or 0.0) + (self.own_wait or 0.0)

    def describe(self) -> str:
        if self.own_wait is None and self.bot_wait is None:
            return "the machine's load was not measured (no /proc schedstat here)"
        parts = []
        if self.bot_cpu is not None:
            parts.append(f"the bot used {self.bot_cpu:.1f} ms of CPU")
        parts.append(f"our own delay was {self.own_wait or 0.0:.1f} ms")
        parts.append(f"the bot waited {self.bot_wait or 0.0:.1f} ms for a CPU")
        return ", ".join(parts)


@dataclass
class Reply:
    status: str  # OK, LATE, NO_REPLY, CLOSED, FLOOD, UNJUDGED
    data: bytes  # the complete message (OK, LATE) or what arrived of it
    ms: float  # from the last byte sent to the last byte received (or to giving up)
    query: int
    load: Load | None = None

    def late_by(self, limit: float) -> str:
        """'late by X ms (...)' with the load figures, for a finding's message."""
        load = self.load.describe() if self.load else "the load was not measured"
        return (f"the reply took {self.ms:.1f} ms, late by {self.ms - limit:.1f} ms on the "
                f"{limit:g} ms limit ({load})")


IN_TIME, JUDGED_LATE, NOT_JUDGED = "in time", "late", "not judged"


def judge(ms: float, limit: float, load: Load) -> str:
    """A reply's time against its limit: in time, late, or not judged (late only by what
    the machine's load explains)."""
    if ms <= limit:
        return IN_TIME
    return JUDGED_LATE if ms - load.excused > limit else NOT_JUDGED


def not_judged(ms: float, limit: float, load: Load) -> str:
    """The warning's words: 'late by 5.5 ms (55.5 ms on the 50 ms limit), under a load where
    our own delay was 12.0 ms, ...: not judged'."""
    return (f"late by {ms - limit:.1f} ms ({ms:.1f} ms on the {limit:g} ms limit), under a "
            f"load where {load.describe()}: not judged")


def _delta(a: tuple[int, int] | None, b: tuple[int, int] | None, i: int) -> float | None:
    return None if a is None or b is None else max(0, b[i] - a[i]) / 1e6


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
        self.warned_stdout = False
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

    def settle(self) -> None:
        """Wait for the freshly started bot to be idle, within the run's time promise."""
        self.started = True
        cap = self.ctx.hard_end
        limit = 5.0 if cap is None else max(0.05, min(5.0, cap - time.monotonic()))
        self.process.settle(limit)

    # --- one query -----------------------------------------------------------------------
    def exchange(self, payload: bytes, complete: Complete) -> Reply:
        assert self.channel is not None
        query = self.ctx.count_query(self.seat)
        limits = self.ctx.limits
        if not self.started:
            self.settle()
        # a reply already waiting (written before this request) is read first, as a line
        # reader would; it says nothing about the bot's speed
        waiting = bool(self.channel.buf) and complete(self.channel.buf) is not None
        now = time.monotonic()
        limit = limits.for_query(query)
        deadline = self.read_deadline(now, limit)
        bot0, own0 = self.snapshot()
        try:
            sent = self.channel.send(payload, deadline)
        except ChannelClosed:
            return Reply(CLOSED, b"", 0.0, query)
        except ReadTimeout:
            return self.no_reply(b"", (time.monotonic() - now) * 1000, query, limit,
                                  bot0, own0)
        try:
            data, at = self.channel.read_message(complete, deadline)
        except ReadTimeout as exc:
            return self.no_reply(exc.partial, (time.monotonic() - sent) * 1000, query, limit,
                                  bot0, own0)
        except ChannelClosed:
            return Reply(CLOSED, self.channel.buf, (time.monotonic() - sent) * 1000, query)
        except Flood:
            return Reply(FLOOD, self.channel.buf[:4096], (time.monotonic() - sent) * 1000,
                         query)
        if waiting:
            self.answered += 1
            return Reply(OK, data, 0.0, query)
        ms = (at - sent) * 1000
        self.answered += 1
        return self.timed(Reply(OK, data, ms, query, self.load_since(bot0, own0)))

    def read_deadline(self, now: float, limit: float) -> float:
        """How long to wait for a reply: the limit and a grace to measure how late it is;
        near the end of the run's time promise the grace shrinks, never the limit itself."""
        limits = self.ctx.limits
        deadline = now + (limit + limits.grace_ms) / 1000
        cap = self.ctx.hard_end
        if cap is not None:
            deadline = min(deadline, max(now + limit / 1000, cap))
        return deadline

    def snapshot(self) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        """The bot's and bot-check's own CPU and wait counters now (see `load_since`)."""
        return self.process.schedstat(), own_schedstat()

    def load_since(self, bot0: tuple[int, int] | None, own0: tuple[int, int] | None) -> Load:
        """What the machine did to the bot and to us since the `snapshot` (bot0, own0)."""
        bot1, own1 = self.process.schedstat(), own_schedstat()
        return Load(_delta(bot0, bot1, 0), _delta(bot0, bot1, 1), _delta(own0, own1, 1))

    def no_reply(self, partial: bytes, ms: float, query: int, limit: float,
                 bot0: tuple[int, int] | None, own0: tuple[int, int] | None) -> Reply:
        """No complete reply by the deadline: NO_REPLY, or UNJUDGED when the load explains
        the wait (a warning; the caller stops the game, having no reply to go on with)."""
        load = self.load_since(bot0, own0)
        self.timing.record(ms, load.excused)
        if judge(ms, limit, load) == NOT_JUDGED:
            self.finding(self.ctx.limits.reply_rule, "none", "not-judged",
                         f"no complete reply: {not_judged(ms, limit, load)}",
                         "nothing: bot-check stops this game here, since it cannot go on "
                         "without the reply", query, WARN)
            return Reply(UNJUDGED, partial, ms, query, load)
        return Reply(NO_REPLY, partial, ms, query, load)

    def timed(self, reply: Reply) -> Reply:
        """The verdict on a reply's time: late (judged), late but excused by the load (a
        warning), near a limit (a warning)."""
        limits = self.ctx.limits
        limit = limits.for_query(reply.query)
        load = reply.load or Load()
        self.timing.record(reply.ms, load.excused)
        verdict = judge(reply.ms, limit, load)
        if verdict == JUDGED_LATE:
            reply.status = LATE
            return reply
        if verdict == NOT_JUDGED:
            self.finding(limits.reply_rule, "none", "not-judged",
                         not_judged(reply.ms, limit, load),
                         "nothing: on an idle machine the reply would have been in time; the "
                         "game goes on with it", reply.query, WARN)
        elif reply.status == OK and reply.ms > limits.warn_at * limit:
            self.finding(limits.reply_rule, "none", "near-limit",
                         f"a reply took {reply.ms:.1f} ms, over "
                         f"{limits.warn_at:.0%} of the {limit:g} ms limit ({load.describe()})",
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

    def over_budget(self, query: int) -> bool:
        """Whether the bot's replies have taken more than the game's budget, load aside; a
        total over it only because of the load is a warning, once."""
        limits = self.ctx.limits
        if not limits.game_ms:
            return False
        total, excused = self.timing.current_total, self.timing.current_excused
        if total <= limits.game_ms:
            return False
        if total - excused > limits.game_ms:
            return True
        if limits.game_rule and not self.warned_total:
            self.warned_total = True
            self.finding(limits.game_rule, "none", "not-judged",
                         f"the bot's replies have taken {total:.0f} ms of the "
                         f"{limits.game_ms:g} ms game budget, but {excused:.0f} ms of that "
                         f"was the machine's load (waiting for a CPU): not judged",
                         "nothing: on an idle machine the bot would be within its budget",
                         query, WARN)
        return False

    def stdout_note(self, query: int, pipe_bytes: int = 65536) -> None:
        """A bot whose stdout is not the protocol may print freely, but an arena that never
        reads it would see the bot block once a pipe's buffer is full: said once."""
        printed = self.process.stdout_bytes
        if printed > pipe_bytes and not self.warned_stdout:
            self.warned_stdout = True
            self.finding("BOT-ALIVE", "none", "stdout-volume",
                         f"the bot has printed {printed} bytes on stdout, more than a pipe "
                         f"holds ({pipe_bytes})", "nothing here (stdout is not the protocol "
                         "and bot-check reads it); an arena that never reads a bot's stdout "
                         "would see the bot block on its next print", query, WARN)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.process.close()
