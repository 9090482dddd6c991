"""Kingdomino's bot protocol, Coders of the Realm on CodinGame (KD-PROTO-INPUT,
KD-PROTO-OUTPUT, KD-PROTO-LIMITS, KD-STOP, KD-PUT-INVALID).

Stdin: `nbPlayers` and `nbTiles` once, then before each of the bot's kings acts, every grid
(its own first), the tiles placed this turn and the tiles to pick, exactly as the reference's
`protocol.turn_input` writes them. Stdout: two lines every turn, `PUT x y rotation` and
`PICK tileId`. 1000 ms for the first reply, 50 ms after (KD-PROTO-LIMITS).

What the competition does (the catalogue, every league profile): a late reply, a missing
line, a badly formatted line or an invalid PICK deactivates the bot: its kings no longer act
and its score still counts (KD-STOP). An invalid PUT deactivates it in the top leagues
(KD-PUT-INVALID = end-game) and only discards the tile in Wood (= discard).

Lines are read as CodinGame's line reader reads them: two lines per turn, so a line the bot
writes without being asked (a debug print, a third line) becomes part of a later reply. This
module must not judge moves itself: the reference referee (`game.referee`) does.
"""

from __future__ import annotations

from typing import Any

from gamecert.fuzz.botcheck.findings import DEACTIVATED, DISCARDED, NO_EFFECT, WARN
from gamecert.fuzz.botcheck.runner import GameContext, Limits
from gamecert.fuzz.botcheck.seat import CLOSED, FLOOD, LATE, NO_REPLY, UNJUDGED, BotSeat
from gamecert.reference_engine.kingdomino.protocol import (
    PICK_LINE,
    PUT_LINE,
    game_start,
    turn_input,
)
from gamecert.reference_engine.kingdomino.state import KdState
from gamecert.spec import Profile

JSON = Any


def two_lines(buf: bytes) -> int | None:
    """The end of the second newline-terminated line: one reply is two lines."""
    first = buf.find(b"\n")
    if first < 0:
        return None
    second = buf.find(b"\n", first + 1)
    return None if second < 0 else second + 1


class KingdominoTable:
    def __init__(self, ctx: GameContext, state: KdState) -> None:
        self.ctx = ctx
        self.game = ctx.game
        self.bots: dict[int, BotSeat] = {}
        self.greeted: set[int] = set()
        self.stopped = False
        self.note = ""
        try:
            for seat, command in ctx.options.commands.items():
                self.bots[seat] = BotSeat(ctx, seat, command)
        except Exception:
            self.close()
            raise

    def after(self, before: KdState, action: Any, after: KdState,
              events: list[JSON]) -> None:
        for e in events:
            if e.get("type") == "stopped" and e.get("player") in self.bots:
                self.bots[e["player"]].out = True
                if e["player"] == self.ctx.options.seat:
                    self.stopped = True

    # --- one turn of one king ------------------------------------------------------------
    def ask(self, player: int, state: KdState) -> Any | None:
        seat = self.bots[player]
        if seat.out:  # never happens: the engine skips a stopped player's kings
            return ("stop", "timeout")
        query = self.ctx.queries.get(player, 0) + 1
        if seat.channel is not None and seat.channel.buf:
            seat.transcript.note("output was already waiting before this turn's input: the "
                                 "real engine reads it as the start of this reply")
            seat.finding("KD-PROTO-OUTPUT", NO_EFFECT, "unasked-output",
                         "the bot wrote output nobody asked for (a debug print on stdout, a "
                         "third line for one turn, or a late reply)",
                         "the engine reads those lines as the first of this reply (the "
                         "finding on this reply gives the verdict)", query, WARN)
        head = game_start(state) if player not in self.greeted else ""
        self.greeted.add(player)
        payload = (head + turn_input(self.game, state, player)).encode()
        reply = seat.exchange(payload, two_lines)
        limit = self.ctx.limits.for_query(reply.query)
        if reply.status == UNJUDGED:
            self.stopped = True
            self.note = f"not judged: no reply within {reply.ms:.0f} ms under load"
            return None
        then = ("the bot is deactivated: its kings no longer act, its score still counts "
                "(KD-STOP)")
        if reply.status in (CLOSED, FLOOD):
            what = ("closed its output (crashed or exited)" if reply.status == CLOSED
                    else "flooded its output without a newline")
            seat.finding("BOT-ALIVE", DEACTIVATED, "crash" if reply.status == CLOSED
                         else "flood",
                         f"the bot {what} at turn {state.turn} (query {reply.query}): "
                         f"{seat.process.describe_exit()}",
                         "no reply in time: " + then, reply.query)
            return ("stop", "timeout")
        if reply.status == NO_REPLY:
            lines = reply.data.count(b"\n")
            if lines == 1:
                seat.finding("KD-PROTO-OUTPUT", DEACTIVATED, "one-line",
                             f"one line {reply.data.decode('utf-8', 'replace')!r:.80} where "
                             "two are due (PUT and PICK, every turn, the first and the last "
                             "one included)",
                             "the engine waits for the second line and times the bot out: "
                             + then, reply.query)
            else:
                seat.finding("KD-PROTO-LIMITS", DEACTIVATED, "no-reply",
                             f"no two complete lines within {reply.ms:.0f} ms (limit "
                             f"{limit:g} ms; "
                             f"{reply.load.describe() if reply.load else 'load not measured'})",
                             then, reply.query)
            return ("stop", "timeout")
        if reply.status == LATE:
            seat.finding("KD-PROTO-LIMITS", DEACTIVATED, "late",
                         reply.late_by(limit) + (" (first turn)" if reply.query == 1 else ""),
                         then, reply.query)
            return ("stop", "timeout")
        text = reply.data.decode("utf-8", "replace")
        action = self.game.referee(state, text)
        self._judge(seat, state, text, action, reply.query, then)
        return action

    def _judge(self, seat: BotSeat, state: KdState, text: str, action: Any, query: int,
               then: str) -> None:
        kind = action[0]
        lines = [ln.rstrip("\r") for ln in text.split("\n")[:2]]
        if kind == "stop" and action[1] == "format":
            which = ("PUT x y rotation" if PUT_LINE.fullmatch(lines[0]) is None
                     else "PICK tileId")
            bad = lines[0] if which.startswith("PUT") else lines[1]
            seat.finding("KD-PROTO-OUTPUT", DEACTIVATED, "not-a-command",
                         f"the line {bad[:80]!r} is not '{which}'", then, query)
        elif kind == "stop" and action[1] == "pick":
            pick = PICK_LINE.fullmatch(lines[1])
            why = self.game.pick_error(state, None if pick is None else int(pick.group(1)))
            seat.finding("KD-PICK", DEACTIVATED, "invalid-pick",
                         f"{lines[1][:80]!r} on turn {state.turn}: {why}", then, query)
        elif kind in ("stop", "invalid-put"):
            tile, owner = state.placing[state.nxt]
            put = PUT_LINE.fullmatch(lines[0])
            assert put is not None  # the referee read it
            want = (int(put.group(1)), int(put.group(2)), int(put.group(3)))
            why = self.game.placement_error(state, state.grids[owner - 1], tile, want)
            message = f"{lines[0][:80]!r} for tile {tile} on turn {state.turn}: {why}"
            if kind == "stop":
                seat.finding("KD-PUT-INVALID", DEACTIVATED, "invalid-put", message,
                             then + "; KD-PUT-INVALID = end-game in this profile", query)
            else:
                seat.finding("KD-PUT-INVALID", DISCARDED, "invalid-put", message,
                             "the tile in play is discarded and the PICK still counts "
                             "(KD-PUT-INVALID = discard, Wood leagues)", query)

    def finish(self, state: KdState) -> None:
        pass  # the protocol has no end-of-game message

    def close(self) -> None:
        for seat in self.bots.values():
            seat.close()


class KingdominoCodec:
    game = "kingdomino"
    variants = {
        "stdio": "CodinGame lines on stdin and stdout (the only way the arena talks)",
    }

    def seats(self, profile: Profile) -> tuple[int, ...]:
        return tuple(range(1, int(profile.param("KD-PLAYERS", "players")) + 1))

    def limits(self, profile: Profile, variant: str | None = None) -> Limits:
        return Limits(float(profile.param("KD-PROTO-LIMITS", "turn_ms")), "KD-PROTO-LIMITS",
                      grace_ms=1000.0,
                      first_reply_ms=float(profile.param("KD-PROTO-LIMITS", "first_ms")))

    def open_table(self, ctx: GameContext, state: Any) -> KingdominoTable:
        return KingdominoTable(ctx, state)


CODEC = KingdominoCodec()
