"""One plugin for every game: a game folder's job modules, read by their fixed names.

A game folder (`fuzz/games/<game>/`) holds the same files for every game, one a job; the
plugin is built from them, each attribute read from the module that owns that job:

| file | required | optional |
|---|---|---|
| `starts.py` | `start_strategy(profile)`, `GAME` (the reference) | |
| `crafted.py` | | `CRAFTED_FOR`: each kind of crafted start, the rules it is for |
| `play.py` | `draw_action` | `RUN_AHEAD`, `run_ahead_policy`, `STRETCH_WHEN_LOADING`, |
| | | `SEEDED_RUNS`, `RUNS_FROM_ROUND`, |
| | | `cheap_to_list`, `play_on_action`, `ENDING_ACTIONS` |
| `probes.py` | `draw_probe(data, ls)` | `rule_probes(ls)` |
| `bot_text.py` | `bot_text_strategy(profile)` | `bot_text_at(data, ls)` |
| `targets.py` | `target_scores(ls)` | |
| `proofs.py` | | `prove_<game>(engine, profile)` |

An optional name a game leaves out is absent from its plugin too (the search reads those
with `getattr`, a default in hand: `fuzz.search.machine`, `fuzz.cli.prove`, the campaign).
A missing file or a missing required name is an error naming the file. This module only
assembles: what to draw and where to start are the game folder's, judging is the lockstep's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.spec import Profile

if TYPE_CHECKING:
    import random

    from gamecert.fuzz.engines.engine import Engine
    from gamecert.fuzz.step.lockstep import Lockstep

JSON = Any

# the job files, the same in every game folder
JOBS = ("starts", "crafted", "play", "probes", "bot_text", "targets", "proofs")
# what the plugin must have: its attribute -> (job file, name there)
REQUIRED: dict[str, tuple[str, str]] = {
    "game": ("starts", "GAME"),
    "starts": ("starts", "start_strategy"),
    "draw_action": ("play", "draw_action"),
    "draw_probe": ("probes", "draw_probe"),
    "bot_texts": ("bot_text", "bot_text_strategy"),
    "targets": ("targets", "target_scores"),
}
# what the plugin has when its game has it ("{game}": the folder's name)
OPTIONAL: dict[str, tuple[str, str]] = {
    "crafted_for": ("crafted", "CRAFTED_FOR"),
    "run_ahead": ("play", "RUN_AHEAD"),
    "run_ahead_policy": ("play", "run_ahead_policy"),
    "stretch_when_loading": ("play", "STRETCH_WHEN_LOADING"),
    "seeded_runs": ("play", "SEEDED_RUNS"),
    "runs_from_round": ("play", "RUNS_FROM_ROUND"),
    "cheap_to_list": ("play", "cheap_to_list"),
    "play_on_action": ("play", "play_on_action"),
    "ending_actions": ("play", "ENDING_ACTIONS"),
    "rule_probes": ("probes", "rule_probes"),
    "bot_text_at": ("bot_text", "bot_text_at"),
    "prove": ("proofs", "prove_{game}"),
}


class FolderPlugin:
    """A `fuzz.games.GamePlugin` over one game folder's job modules."""

    # the optional attributes, set only when the game's job module defines them
    crafted_for: dict[str, tuple[str, ...]]
    run_ahead: tuple[int, ...]
    run_ahead_policy: Callable[[Lockstep, random.Random, int], Callable[[], JSON | None]]
    stretch_when_loading: bool
    seeded_runs: bool
    runs_from_round: int
    cheap_to_list: Callable[[Lockstep], bool]
    play_on_action: Callable[[Lockstep, random.Random], JSON]
    ending_actions: frozenset[str]
    rule_probes: Callable[[Lockstep], list[tuple[str, JSON]]]
    bot_text_at: Callable[[st.DataObject, Lockstep], str | None]
    prove: Callable[[Engine, Profile], tuple[bool, list[str]]]

    def __init__(self, package: str) -> None:
        self.package = package
        self.name = package.rsplit(".", 1)[-1]
        self.folder = Path(importlib.import_module(package).__path__[0])
        modules = {job: self._job(job) for job in JOBS}
        found = {attribute: self._read(modules[job], job, name, required=True)
                 for attribute, (job, name) in REQUIRED.items()}
        self.game: Any = found["game"]
        self._starts: Callable[[Profile], st.SearchStrategy[JSON]] = found["starts"]
        self._draw_action: Callable[[st.DataObject, Lockstep], JSON] = found["draw_action"]
        self._draw_probe: Callable[[st.DataObject, Lockstep], JSON] = found["draw_probe"]
        self._bot_texts: Callable[[Profile], st.SearchStrategy[str]] = found["bot_texts"]
        self._targets: Callable[[Lockstep], dict[str, float]] = found["targets"]
        for attribute, (job, name) in OPTIONAL.items():
            value = self._read(modules[job], job, name.format(game=self.name), required=False)
            if value is not None:
                setattr(self, attribute, value)

    def _job(self, job: str) -> ModuleType:
        """The folder's module for `job`; an error naming the file when it is missing."""
        dotted = f"{self.package}.{job}"
        try:
            return importlib.import_module(dotted)
        except ModuleNotFoundError as e:
            if e.name != dotted:  # the file is there; something it imports is not
                raise
            raise LookupError(
                f"game folder {self.folder}: no {job}.py (every game folder has "
                f"{', '.join(j + '.py' for j in JOBS)})") from None

    def _read(self, module: ModuleType, job: str, name: str, *, required: bool) -> Any:
        value = getattr(module, name, None)
        if value is None and required:
            raise LookupError(f"game folder {self.folder}: {job}.py defines no {name}")
        return value

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        return self._starts(profile)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return self._draw_action(data, ls)

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return self._draw_probe(data, ls)

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        return self._bot_texts(profile)

    def targets(self, ls: Lockstep) -> dict[str, float]:
        return self._targets(ls)

    def jobs(self) -> set[str]:
        """The plugin's attributes: the required ones and the optional ones its game has."""
        return set(REQUIRED) | {a for a in OPTIONAL if hasattr(self, a)}

    def __repr__(self) -> str:
        return f"FolderPlugin({self.package!r})"


def folder_plugin(package: str) -> FolderPlugin:
    """The plugin of the game folder `package` (a game's `__init__` passes its `__name__`)."""
    return FolderPlugin(package)
