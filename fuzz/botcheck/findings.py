"""What bot-check learns about a bot: findings (one per cause, repeats counted) and timing.

A finding names the protocol rule the bot broke (a catalogue id such as FLIT-PROTO-REPLY,
or BOT-ALIVE for a bot that crashed), the verdict the competition would give, the bytes
exchanged around it and what the real engine would do next. It must not decide anything
about the game itself: the codecs and the reference referee do that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FAIL, WARN = "fail", "warn"
# the verdicts the competitions give
BAN, FROZEN, LOST_TURN, DISQUALIFIED, NO_EFFECT = (
    "ban", "frozen", "lost turn", "disqualified", "none")
# Bot Wars over HTTP: the original server waits for ever on a reply it reads as no answer
STALLED = "game stalls"
# CodinGame (Kingdomino): the bot's kings no longer act, its score counts; in Wood leagues an
# invalid PUT only loses the tile in play
DEACTIVATED, DISCARDED = "deactivated", "tile discarded"

HARNESS_RULES = {
    "BOT-ALIVE": "The bot keeps running and answering until the game ends (no crash, no "
                 "early exit, no flood of output)",
}


@dataclass
class Finding:
    rule: str
    verdict: str
    kind: str  # a short cause, e.g. "late", "not-a-move", "illegal-move", "crash"
    message: str
    next_step: str  # what the real engine does next
    game: int
    seat: int
    query: int  # the bot's query number in that game (1-based)
    exchange: list[dict[str, Any]]
    severity: str = FAIL
    repeats: int = 1
    trace: dict[str, Any] | None = None  # the game prefix that shows it, for replay
    at_choice: int = 0  # how many of the runner's picks came before it

    @property
    def key(self) -> tuple[str, str, int]:
        return self.rule, self.kind, self.seat

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "verdict": self.verdict, "kind": self.kind,
                "severity": self.severity, "message": self.message, "next": self.next_step,
                "game": self.game, "seat": self.seat, "query": self.query,
                "repeats": self.repeats, "exchange": self.exchange}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (no interpolation: a reported p99 was really measured)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * q // 100)))
    return ordered[int(rank) - 1]


@dataclass
class Timing:
    """Reply times of one seat, from the last byte sent to the last byte received."""

    limit_ms: float
    game_limit_ms: float | None = None
    samples: list[float] = field(default_factory=list)
    game_totals: list[float] = field(default_factory=list)
    current_total: float = 0.0
    # how much of each reply's time the machine's load explains (the bot and bot-check
    # waiting for a CPU), in ms
    excused: list[float] = field(default_factory=list)
    current_excused: float = 0.0

    def record(self, ms: float, excused: float = 0.0) -> None:
        self.samples.append(ms)
        self.excused.append(excused)
        self.current_total += ms
        self.current_excused += excused

    def end_game(self) -> None:
        self.game_totals.append(self.current_total)
        self.current_total = 0.0
        self.current_excused = 0.0

    def to_json(self) -> dict[str, Any]:
        s = self.samples
        return {"queries": len(s), "limit_ms": self.limit_ms,
                "p50_ms": round(percentile(s, 50), 3), "p99_ms": round(percentile(s, 99), 3),
                "max_ms": round(max(s, default=0.0), 3),
                "game_limit_ms": self.game_limit_ms,
                "max_game_total_ms": round(max(self.game_totals, default=0.0), 3),
                "max_load_ms": round(max(self.excused, default=0.0), 3)}


class Findings:
    """Findings of a run, merged by cause: the first occurrence kept, the rest counted."""

    def __init__(self) -> None:
        self.items: list[Finding] = []
        self._by_key: dict[tuple[str, str, int], Finding] = {}

    def add(self, f: Finding) -> Finding:
        first = self._by_key.get(f.key)
        if first is not None:
            first.repeats += 1
            return first
        self._by_key[f.key] = f
        self.items.append(f)
        return f

    @property
    def failures(self) -> list[Finding]:
        return [f for f in self.items if f.severity == FAIL]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.items if f.severity == WARN]
