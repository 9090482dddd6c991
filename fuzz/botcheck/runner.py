"""The shared bot-check runner: plays games with the reference engine as referee, asks the
bots through their protocol codec, picks everything else (other players' moves, chance).

The runner knows the game contract and nothing of any protocol. A codec (one module per
protocol, see `protocols`) opens a `Table` per game: it starts the bots, turns engine states
and events into the protocol's bytes, reads the replies with the protocol's limits, and asks
the reference referee what each reply amounts to. Everything the runner picks goes through a
`Chooser`, so a game is replayed exactly from its recorded choices.

A run's time is a promise: with a budget, no query is sent and no game started after its
deadline, and a query already sent waits at most one reply limit past it (the grace used to
measure a late reply shrinks, the limit never does). A game stopped there says where.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gamecert.fuzz.botcheck.findings import FAIL, Finding, Findings, Timing
from gamecert.fuzz.botcheck.process import BotUnusable
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction
from gamecert.spec import Profile, load_catalogue
from gamecert.spec.profile_file import record_of

JSON = Any


class Chooser(Protocol):
    """Picks the chance outcomes and the moves of the built-in players."""

    def pick(self, game: Any, state: Any, chance: bool) -> Any: ...


class RandomChooser:
    """True chance probabilities and random legal players, from one seeded generator; every
    pick is recorded as canonical JSON so the game can be replayed."""

    def __init__(self, seed: str | int) -> None:
        self.rng = random.Random(seed)
        self.record: list[JSON] = []

    def pick(self, game: Any, state: Any, chance: bool) -> Any:
        action = game.random_chance(state, self.rng) if chance else game.random_action(
            state, self.rng)
        self.record.append(game.action_to_json(state, action))
        return action


class ScriptedChooser:
    """Replays recorded picks; when the script runs out (or no longer fits, because the bot
    played differently this time) it goes on with seeded random picks."""

    def __init__(self, script: list[JSON], seed: str | int = 0) -> None:
        self.script = list(script)
        self.fallback = RandomChooser(seed)
        self.record: list[JSON] = []
        self.diverged_at: int | None = None

    def pick(self, game: Any, state: Any, chance: bool) -> Any:
        i = len(self.record)
        if i < len(self.script) and self.diverged_at is None:
            try:
                action = game.action_from_json(state, self.script[i])
                game.apply(state, action)  # still allowed here?
                self.record.append(self.script[i])
                return action
            except IllegalAction:
                self.diverged_at = i
        action = self.fallback.pick(game, state, chance)
        self.record.append(self.fallback.record[-1])
        return action


@dataclass
class Limits:
    reply_ms: float
    reply_rule: str
    game_ms: float | None = None
    game_rule: str | None = None
    warn_at: float = 0.8  # a reply over this share of a limit is a warning
    grace_ms: float = 1000.0  # how long past the limit we still wait, to measure
    first_reply_ms: float | None = None  # a longer limit for the first reply (CodinGame)

    def for_query(self, query: int) -> float:
        return self.first_reply_ms if query == 1 and self.first_reply_ms else self.reply_ms


@dataclass
class RunOptions:
    game: str
    profile: Profile
    commands: dict[int, str]  # seat -> command; the first is the bot under test
    seat: int
    seed: int = 0
    games: int | None = None
    budget: float | None = 20.0
    max_queries: int | None = None  # stop a game after this many queries to the tested bot
    variant: str | None = None  # the codec's protocol variant
    bot_url: str | None = None
    time_scale: float = 1.0  # limits multiplied by this (a machine slower than the arena's)
    progress: Callable[[str], None] | None = None
    deadline: float | None = None  # monotonic time: nothing new starts after it


@dataclass
class GameRecord:
    number: int
    steps: int
    queries: int
    ended: str  # "over", "stopped" (a bot out), "cut" (max queries), "budget" (the run's
    # deadline), "open point" (a position the protocol has no message for)
    scores: list[int]
    choices: list[JSON]
    final_state: Any = None
    startup_s: float = 0.0  # starting the bots until each waits for its first query
    note: str = ""  # where and why the game stopped early
    failures: int = 0  # the bot's failures in this game (before merging by cause)


@dataclass
class RunResult:
    game: str
    profile: str
    seed: int
    seat: int
    commands: dict[int, str]
    findings: Findings = field(default_factory=Findings)
    timings: dict[int, Timing] = field(default_factory=dict)
    games: list[GameRecord] = field(default_factory=list)
    unusable: str | None = None
    duration: float = 0.0
    limits: Limits | None = None
    promise_s: float | None = None  # the most the run may take: budget + reply + shrinking
    replay: str = ""  # the command that replays the run

    @property
    def status(self) -> str:
        if self.unusable:
            return "unusable"
        return "findings" if self.findings.failures else "clean"


class Table(Protocol):
    """One game's live connections to its bots (a codec's own class)."""

    bots: dict[int, Any]
    stopped: bool  # the bot under test is out (frozen, banned): the game ends here for it
    # set with `stopped` when the game stops for want of a protocol message ("open point")
    # rather than because of a bot
    note: str

    def engine_move(self, player: int, state: Any) -> Any | None:
        """A move the competition's engine makes itself where the player would otherwise be
        asked (Carcassonne: the lake); None: the player moves."""

    def ask(self, player: int, state: Any) -> Any | None:
        """The bot's action as the referee reads it; None when the game stops here."""

    def after(self, before: Any, action: Any, after: Any, events: list[JSON]) -> None: ...
    def finish(self, state: Any) -> None: ...
    def close(self) -> None: ...


class Codec(Protocol):
    game: str
    variants: dict[str, str]  # protocol variants a competition may use, the first the default

    def seats(self, profile: Profile) -> tuple[int, ...]: ...
    def limits(self, profile: Profile, variant: str | None = None) -> Limits: ...
    def open_table(self, ctx: GameContext, state: Any) -> Table: ...


@dataclass
class GameContext:
    """What a table needs from the run: options, limits, where findings go."""

    options: RunOptions
    limits: Limits
    number: int
    findings: Findings
    timings: dict[int, Timing]
    game: Any
    chooser: Chooser | None = None
    queries: dict[int, int] = field(default_factory=dict)
    new_findings: list[Finding] = field(default_factory=list)
    hard_end: float | None = None  # no wait of ours lasts past this (deadline + one reply)

    def report(self, f: Finding) -> None:
        f.at_choice = len(getattr(self.chooser, "record", []))
        self.new_findings.append(f)
        self.findings.add(f)

    def count_query(self, seat: int) -> int:
        self.queries[seat] = self.queries.get(seat, 0) + 1
        return self.queries[seat]


def scaled_limits(codec: Codec, options: RunOptions) -> Limits:
    limits = codec.limits(options.profile, options.variant)
    k = options.time_scale
    if k != 1.0:
        limits.reply_ms *= k
        limits.first_reply_ms = limits.first_reply_ms * k if limits.first_reply_ms else None
        limits.game_ms = limits.game_ms * k if limits.game_ms else None
    return limits


def play_game(codec: Codec, options: RunOptions, number: int, chooser: Chooser,
              findings: Findings, timings: dict[int, Timing], *,
              stop_at_failure: bool = False, start: Any = None,
              watch: Callable[[Any], None] | None = None,
              steps_out: list[tuple[int, JSON]] | None = None) -> tuple[GameRecord, list[Finding]]:
    """One game from the start (or from `start`, a mid-game position, where the protocol
    can deliver one); the bots are started fresh for it. Past `options.deadline` no query is
    sent: the game stops there ("budget"). `steps_out` collects (player, action) for every
    move a player made (0: one the engine made itself)."""
    game = reference_game(options.game)
    limits = scaled_limits(codec, options)
    ctx = GameContext(options, limits, number, findings, timings, game, chooser)
    deadline = options.deadline
    if deadline is not None:
        ctx.hard_end = deadline + max(limits.reply_ms, limits.first_reply_ms or 0) / 1000
    state = game.initial(options.profile) if start is None else start
    t0 = time.monotonic()
    table = codec.open_table(ctx, state)
    for bot in table.bots.values():  # start-up is not the first reply's time
        if not bot.started:
            bot.settle()
    startup = time.monotonic() - t0
    if start is not None:  # what the bots must learn of the position first
        table.after(game.initial(options.profile), None, start, [])
    steps, ended, note = 0, "over", ""
    engine_move = getattr(table, "engine_move", None)
    try:
        while game.current(state) != TERMINAL:
            if table.stopped:
                ended, note = _stopped(table, ctx)
                break
            if deadline is not None and time.monotonic() > deadline:
                ended = "budget"
                note = (f"stopped at the time budget after {steps} steps and "
                        f"{ctx.queries.get(options.seat, 0)} queries to the bot")
                break
            who = game.current(state)
            mover = who
            if who == CHANCE:
                action = chooser.pick(game, state, True)
            else:
                action = engine_move(who, state) if engine_move is not None else None
                if table.stopped:
                    ended, note = _stopped(table, ctx)
                    break
                if action is not None:
                    mover = 0
                elif who in table.bots:
                    if watch is not None:  # the positions the bot was asked about
                        watch(state)
                    action = table.ask(who, state)
                    if action is None:
                        ended, note = _stopped(table, ctx)
                        break
                    if stop_at_failure and any(f.severity == FAIL for f in ctx.new_findings):
                        ended = "stopped"
                        break
                else:
                    action = chooser.pick(game, state, False)
            if steps_out is not None and who != CHANCE:
                steps_out.append((mover, game.action_to_json(state, action)))
            new, events = game.apply(state, action)
            table.after(state, action, new, events)
            state = new
            steps += 1
            if options.max_queries and ctx.queries.get(options.seat, 0) >= options.max_queries:
                ended = "cut"
                break
        if ended == "over":
            table.finish(state)
    finally:
        table.close()
        for seat in table.bots:
            if seat in timings:
                timings[seat].end_game()
    record = GameRecord(number, steps, ctx.queries.get(options.seat, 0), ended,
                        game.scores(state), list(getattr(chooser, "record", [])), state,
                        startup, note)
    return record, ctx.new_findings


def _stopped(table: Table, ctx: GameContext) -> tuple[str, str]:
    """Why the game stopped before its end: a bot out ("stopped"), the run's time promise
    ("budget") or a position the protocol has no message for ("open point")."""
    note = getattr(table, "note", "")
    if note.startswith("open point"):
        return "open point", note
    if note.startswith("budget"):
        return "budget", note
    return "stopped", note


def run(codec: Codec, options: RunOptions) -> RunResult:
    """Games until the count or the budget is reached (at least one, unless the deadline
    has passed already)."""
    limits = scaled_limits(codec, options)
    result = RunResult(options.game, options.profile.id, options.seed, options.seat,
                       options.commands, limits=limits)
    for seat in options.commands:
        result.timings[seat] = Timing(limits.reply_ms, limits.game_ms)
    start = time.monotonic()
    if options.deadline is None and options.games is None and options.budget is not None:
        options.deadline = start + options.budget
    number = 0
    while True:
        if options.games is not None and number >= options.games:
            break
        if options.deadline is not None and time.monotonic() >= options.deadline and (
                number > 0 or options.games is None):
            break
        number += 1
        chooser = RandomChooser(f"{options.seed}:{number}")
        try:
            record, new = play_game(codec, options, number, chooser, result.findings,
                                    result.timings)
        except BotUnusable as exc:
            result.unusable = str(exc)
            break
        for f in new:
            if f.trace is None:
                f.trace = trace_document(options, number, record.choices, f)
        record.failures = sum(1 for f in new if f.severity == FAIL)
        result.games.append(record)
        if options.progress:
            options.progress(f"game {number}: {record.steps} steps, {record.queries} queries "
                             f"to the bot, {record.ended}"
                             + (f" ({record.note})" if record.note else "")
                             + f"; findings so far {len(result.findings.failures)}")
    result.duration = time.monotonic() - start
    return result


def trace_document(options: RunOptions, number: int, choices: list[JSON],
                   f: Finding) -> dict[str, Any]:
    """What `gamecert replay --bot-cmd` needs to play the game that showed `f` again."""
    return {"format": "gamecert-bot-trace/1", "game": options.game,
            "profile": options.profile.id, "seat": options.seat, "seed": options.seed,
            "game_number": number, "variant": options.variant, "start": None, "shrunk": False,
            "time_scale": options.time_scale,
            "choices": choices[:f.at_choice],
            # a season's whole profile: the replay plays it, whatever the file says now
            **({"profile_doc": record} if (record := record_of(options.profile)) else {}),
            "finding": {"rule": f.rule, "kind": f.kind, "verdict": f.verdict,
                        "query": f.query, "message": f.message}}


def catalogue_title(game: str, rule: str) -> str:
    cat = load_catalogue(game)
    for r in cat.rules:
        if r.id == rule:
            return r.title
    return rule
