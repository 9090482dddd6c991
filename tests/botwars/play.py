"""Random play for the Bot Wars tests: full games as canonical JSON transitions, with bots
that now and then reply badly or late, so every rule gets its turn."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict
from gamecert.reference_engine.botwars import BotWars, BotWarsState
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile

GARBAGE = ["", "nope", "{\"from\": 1, \"to\": 2}", "[1, 2]", "[{\"from\": 1}]",
           "[{\"from\": true, \"to\": 2}]", "[{\"from\": 1.5, \"to\": 2}]",
           "[{\"from\": \"3\", \"to\": 2}]", "[[21, 22]]", "[{\"from\": 1, \"to\": 2}",
           "null", "{}"]


@dataclass
class Step:
    transition: Transition
    referee: tuple[str, Any] | None  # (the bot's text, the referee's action) when text was sent
    judged: tuple[Any, bool] | None  # (an action tried and whether the engine accepted it)
    first: bool = False  # the game's first step: its `before` is a start state too


def reply_text(action: tuple[Any, ...], rng: random.Random) -> str:
    """A bot's reply for a list of moves, dressed as real bots dress them."""
    items: list[dict[str, Any]] = [{"from": f, "to": t} for f, t in action[1]]
    if items and rng.random() < 0.3:
        items[0]["note"] = "extra members are ignored"
    return json.dumps(items, indent=rng.choice([None, 1]))


def play(game: BotWars, profile: Profile, rng: random.Random, bad_text: float = 0.002,
         late: float = 0.002, text: float = 0.05, toward: float = 0.0,
         start: BotWarsState | None = None, max_steps: int = 10_000) -> Iterator[Step]:
    """One random game from `start` (or the beginning) to its end. `toward` is how keen
    the botlets are to head for the enemy spawn."""
    state = start if start is not None else game.initial(profile)
    first = True
    for _ in range(max_steps):
        who = game.current(state)
        if who == TERMINAL:
            return
        before = game.observe(state)
        referee = judged = None
        if who == CHANCE:
            action = game.random_chance(state, rng)
            wrong = ("energy", rng.randrange(state.cfg.size // 2))
            try:
                game.apply(state, wrong)
                judged = (game.action_to_json(state, wrong), True)
            except Exception:
                judged = (game.action_to_json(state, wrong), False)
        else:
            roll = rng.random()
            if roll < late:
                action = ("timeout",)
            elif roll < late + bad_text:
                said = rng.choice(GARBAGE)
                action = game.referee(state, said)
                referee = (said, game.action_to_json(state, action))
            else:
                action = game.random_action(state, rng, toward=toward)
                if rng.random() < text:
                    said = reply_text(action, rng)
                    action = game.referee(state, said)
                    referee = (said, game.action_to_json(state, action))
            judged = (game.action_to_json(state, action), True)
        action_json = game.action_to_json(state, action)
        state, events = game.apply(state, action)
        yield Step(Transition(before, action_json, game.observe(state), events), referee, judged,
                   first)
        first = False
    raise AssertionError("game did not end")


def verdicts(oracle: Oracle, step: Step, profile: Profile) -> list[Verdict]:
    out: list[Verdict] = []
    if oracle.state is not None:
        out.append(oracle.state(step.transition.after, profile))
        if step.first:
            out.append(oracle.state(step.transition.before, profile))
    if oracle.check is not None:
        out.append(oracle.check(step.transition, profile))
    if oracle.judge is not None and step.judged is not None:
        out.append(oracle.judge(step.transition.before, step.judged[0], step.judged[1], profile))
    if oracle.referee is not None and step.referee is not None:
        out.append(oracle.referee(step.transition.before, step.referee[0], step.referee[1],
                                  profile))
    return out


def applied(verdicts: list[Verdict]) -> bool:
    return any(v is not NA for v in verdicts)


def failures(verdicts: list[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if v is not NA and v is not OK]
