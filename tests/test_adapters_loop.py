"""The adapter kit's bridge for engines that own their game loop (gamecert.adapters.loop):
the example engine (examples/adapters/own_loop) in lockstep with the reference, certified,
and served as a process; and toy loops for every way an engine can answer a move: it takes
it, asks again, raises, bans the bot, crashes, hangs, or is left behind. No loop thread may
outlive its game."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest

from examples.adapters.own_loop.adapter import OwnLoop
from gamecert.adapters import NativeRefusal
from gamecert.adapters.check import look_at
from gamecert.adapters.loop import Ask, BotRaises, LoopAdapter, Seat
from gamecert.fuzz.engines.engine import EngineFault, Refused
from gamecert.fuzz.engines.recipes import in_process
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.spec import Profile

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "adapters" / "own_loop" / "adapter.py"


def loop_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("gamecert-loop")]


@pytest.fixture(autouse=True)
def no_loop_left() -> Any:
    yield
    deadline = time.monotonic() + 3
    while loop_threads() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert loop_threads() == [], "a game loop outlived its test"


# --- the example: a Kingdomino match engine whose loop asks bot.play(view, error) ----------
@pytest.mark.parametrize("profile", [None, "legend-2p", "legend-3p"])
def test_the_example_loop_engine_follows_the_reference_to_the_end(profile: str | None) -> None:
    adapter = OwnLoop()
    try:
        for seed in (1, 2):
            look = look_at(adapter, profile, seed=seed, steps=400)
            assert look.departure is None, look.departure
            assert look.finished and look.steps > 20 and look.draws > 20
    finally:
        adapter.close()


def test_the_example_refuses_a_move_where_its_engine_asks_again() -> None:
    engine = in_process(OwnLoop, "own-loop")
    try:
        assert engine.hello()["capabilities"] == ["no_events", "no_referee"]
        state = engine.new_game("legend-2p", 4)
        tile = state["line"][0]["tile"]
        for bad in ({"type": "play", "put": None, "pick": 99},  # not in the line: asked again
                    {"type": "play", "put": [0, 0, 0], "pick": tile},  # no put on turn 1
                    {"type": "stop", "cause": "format"}):  # no native form (no referee)
            with pytest.raises(Refused) as refused:
                engine.apply(bad)
            assert refused.value.kind == "illegal"
            assert engine.observe() == state
        after, events = engine.apply({"type": "play", "put": None, "pick": tile})
        assert after["next"] == 1 and events == []
    finally:
        engine.close()


def test_the_example_certifies_in_process(tmp_path: Path) -> None:
    import subprocess
    out = subprocess.run(
        [sys.executable, "-m", "gamecert", "certify", "kingdomino", "--engine",
         f"{ADAPTER}:OwnLoop", "--rounds", "2", "--quiet", "--report", str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    text = out.stdout + out.stderr
    assert "0 violated" in text and "capabilities: no_events, no_referee" in text, text[-2000:]


def test_the_example_served_as_a_process() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert.adapters.serve",
                               f"{ADAPTER}:OwnLoop"], timeout=20, game="kingdomino")
    try:
        assert engine.hello()["game"] == "kingdomino"
        look = look_at(engine, "legend-3p", seed=5, steps=400, game="kingdomino")
        assert look.departure is None and look.finished, look.departure
        with pytest.raises(Refused) as refused:
            engine.undo()  # a running loop is not copied: no undo
        assert refused.value.kind == "bad-request"
    finally:
        engine.close()


# --- toy loops: a race to a total, players adding 1-3 in turn --------------------------------
class InvalidMove(Exception):
    """The toy engine's own way of refusing a move, when it raises."""


class Race:
    """A toy competition engine: `run(bots)` asks `bots[p](total)` in turn for 1, 2 or 3."""

    def __init__(self, players: int, goal: int = 12, on_bad: str = "ask-again",
                 hang_after: int | None = None, sleepy: bool = False) -> None:
        self.players, self.goal, self.on_bad = players, goal, on_bad
        self.total, self.turn, self.banned = 0, 0, [False] * players
        self.hang_after, self.sleepy = hang_after, sleepy
        self.finished = False

    def to_move(self) -> int:
        return self.turn % self.players

    def run(self, bots: list[Any]) -> None:
        while self.total < self.goal:
            if self.hang_after is not None and self.turn >= self.hang_after:
                while True:  # a hung engine: busy in its own Python code, or sleeping
                    if self.sleepy:
                        time.sleep(0.01)
            p = self.to_move()
            if self.banned[p]:
                self.turn += 1
                continue
            try:
                k = bots[p](self.total)
            except TimeoutError:  # a bot that timed out is banned, as real engines do
                self.banned[p] = True
                self.turn += 1
                continue
            if k not in (1, 2, 3):
                if self.on_bad == "raise":
                    raise InvalidMove(f"{k!r} is not 1, 2 or 3")
                if self.on_bad == "ban":
                    self.banned[p] = True
                    self.turn += 1
                continue  # ask again
            if k == 3 and self.on_bad == "crash-on-3":
                raise ZeroDivisionError("engine bug")
            self.total += k
            self.turn += 1
        self.finished = True


class RaceAdapter(LoopAdapter):
    game_name: ClassVar[str] = "flit"  # any game: the states are the toy's own
    engine: ClassVar[str] = "race"
    loop_timeout: ClassVar[float] = 0.5
    options: ClassVar[dict[str, Any]] = {}

    def start(self, profile: Profile, seed: int) -> Any:
        self.started_with = (profile.id, self.players)
        return Race(self.players, **self.options)

    def run(self, native: Any, seats: list[Seat]) -> Any:
        native.run(seats)

    def move(self, ask: Ask, action: Any) -> Any:
        if action.get("type") == "timeout":
            return BotRaises(TimeoutError("the bot took too long"))
        if action.get("type") != "add":
            raise NativeRefusal(f"no such move: {action}")
        return action["k"]

    def canonical(self, native: Any) -> Any:
        return {"total": native.total, "turn": native.turn, "banned": list(native.banned),
                "to_move": native.to_move() + 1}


def race(**options: Any) -> Any:
    cls = type("Race", (RaceAdapter,), {"options": options})
    return in_process(cls, "race")


def test_each_apply_answers_the_bot_the_loop_asks_until_it_ends() -> None:
    engine = race()
    state = engine.new_game(None, 0)
    session: Any = engine.session  # type: ignore[attr-defined]
    assert session.started_with == ("standard", 4)  # Flit seats four
    assert state == {"total": 0, "turn": 0, "banned": [False] * 4, "to_move": 1}
    assert len(loop_threads()) == 1
    for _ in range(4):
        state, events = engine.apply({"type": "add", "k": 3})
        assert events == []
    assert state["total"] == 12 and state["turn"] == 4
    assert session.native.finished
    with pytest.raises(Refused, match="loop has ended"):
        engine.apply({"type": "add", "k": 1})
    assert engine.observe() == state
    engine.close()


def test_asked_again_with_the_state_unchanged_is_a_refusal() -> None:
    engine = race()
    before = engine.new_game(None, 0)
    with pytest.raises(Refused, match="asked player 1 again") as refused:
        engine.apply({"type": "add", "k": 7})
    assert refused.value.kind == "illegal"
    assert engine.observe() == before
    with pytest.raises(Refused, match="no such move"):  # no native form: nothing handed over
        engine.apply({"type": "pass"})
    after, _ = engine.apply({"type": "add", "k": 2})
    assert after["total"] == 2 and after["to_move"] == 2
    engine.close()


def test_a_loop_that_raises_a_refusal_refuses_and_ends() -> None:
    cls = type("Raising", (RaceAdapter,), {"options": {"on_bad": "raise"},
                                           "refusals": (InvalidMove,)})
    engine = in_process(cls, "raising")
    engine.new_game(None, 0)
    with pytest.raises(Refused, match="InvalidMove") as refused:
        engine.apply({"type": "add", "k": 0})
    assert refused.value.kind == "illegal"
    with pytest.raises(Refused, match="loop ended"):
        engine.apply({"type": "add", "k": 1})
    engine.close()


def test_an_engine_that_bans_the_bot_is_observed_doing_so() -> None:
    engine = race(on_bad="ban")
    engine.new_game(None, 0)
    state, _ = engine.apply({"type": "add", "k": 9})  # accepted: the engine banned the bot
    assert state["banned"] == [True, False, False, False] and state["to_move"] == 2
    state, _ = engine.apply({"type": "timeout"})  # a bot raising inside the engine: banned
    assert state["banned"] == [True, True, False, False] and state["to_move"] == 3
    engine.close()


def test_a_crash_in_the_loop_is_a_crash_of_the_engine() -> None:
    engine = race(on_bad="crash-on-3")
    engine.new_game(None, 0)
    with pytest.raises(EngineFault) as fault:
        engine.apply({"type": "add", "k": 3})
    assert fault.value.kind == "crash" and "ZeroDivisionError: engine bug" in fault.value.message
    with pytest.raises(Refused, match="engine bug"):
        engine.apply({"type": "add", "k": 1})
    engine.close()


@pytest.mark.parametrize("sleepy", [False, True])
def test_a_loop_that_hangs_is_stopped_by_the_time_limit(sleepy: bool) -> None:
    engine = race(hang_after=1, sleepy=sleepy)
    engine.new_game(None, 0)
    t0 = time.monotonic()
    with pytest.raises(EngineFault) as fault:
        engine.apply({"type": "add", "k": 1})
    waited = time.monotonic() - t0
    assert fault.value.kind == "crash" and "LoopHang" in fault.value.message
    assert "within 0.5 s" in fault.value.message
    assert 0.45 < waited < 5, waited  # the limit, plus the time to stop the thread
    assert loop_threads() == []  # stopped, not left running
    with pytest.raises(Refused, match="hung"):
        engine.apply({"type": "add", "k": 1})
    engine.close()


def test_no_thread_outlives_its_game() -> None:
    engine = race()
    engine.new_game(None, 0)
    first = loop_threads()
    engine.apply({"type": "add", "k": 1})
    engine.new_game(None, 1)  # the last loop ends before the next begins
    assert len(loop_threads()) == 1 and not first[0].is_alive()
    engine.close()
    assert loop_threads() == []


def test_a_game_left_idle_ends_its_loop_by_itself() -> None:
    cls = type("Idle", (RaceAdapter,), {"idle_timeout": 0.2})
    engine = in_process(cls, "idle")
    engine.new_game(None, 0)
    [thread] = loop_threads()
    thread.join(3)
    assert not thread.is_alive()
    with pytest.raises(Refused, match="left idle"):
        engine.apply({"type": "add", "k": 1})
    engine.close()


def test_a_loop_adapter_cannot_copy_before_play() -> None:
    cls = type("Copying", (RaceAdapter,), {"copy_before_play": True})
    with pytest.raises(TypeError, match="cannot be copied"):
        cls()
