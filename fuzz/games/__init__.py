"""Per-game fuzzing knowledge: where to start, how to draw moves, what to probe.

Convention: each game is a folder, `fuzz/games/<game>/`, whose jobs are files, the same for
every game: `starts.py`, `crafted.py`, `play.py`, `probes.py`, `bot_text.py`, `targets.py`,
`proofs.py`. Its `__init__` is its docstring (the map of the folder) and
`PLUGIN = folder_plugin(__name__)`: one generic `GamePlugin` (`folder_plugin.py`) reads
each job's names from the file that owns it, the optional ones only where the game defines
them. `proving.py` is what the proofs share. A fifth game copies a folder. The state machine
in `fuzz.search.machine` is the same for every game; only this part differs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol

from hypothesis import strategies as st

from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep

JSON = Any


class GamePlugin(Protocol):
    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        """Start specs: {"kind": "new_game"} or {"kind": "state", "state": ...}."""

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        """An action the reference accepts in the current state (player, referee or chance)."""

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        """An action that is probably illegal now (the harness checks with the reference)."""

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        """Raw bot replies, well formed or not."""

    def targets(self, ls: Lockstep) -> dict[str, float]:
        """Observations for `hypothesis.target`: larger is rarer and more interesting."""

    # Optional (read with getattr; folder_plugin.OPTIONAL says which file owns each):
    # `prove(engine, profile) -> (ok, lines)` for `gamecert prove GAME`;
    # `cheap_to_list(ls) -> bool`, False where comparing full legal sets costs too much;
    # `play_on_action(ls, rng) -> JSON`, how a game is played on past a trace's prefix when
    # the triage settles an ambiguous cause (fuzz.findings.trace.play_on; random without);
    # `run_ahead`, the lengths of the machine's run-ahead rule for an engine that cannot load
    # states (fuzz.search.machine.RUN_AHEAD unless said; empty: no such rule);
    # `run_ahead_policy`, a steered run-ahead; `seeded_runs`, runs of the machine's own
    # rules for an engine that loads states (fuzz.search.play.runs); `runs_from_round`, the
    # first round of a campaign that plays them (0 unless said: the rounds before play one
    # rule a step); `rule_probes(ls)`, one-rule probes;
    # `bot_text_at(data, ls)`, a bot reply written from the position (a move of the bot to
    # move, written another way), beside the texts of `bot_texts`;
    # `crafted_for`, the rules each kind of crafted start is for.


def plugin_for(game: str) -> GamePlugin:
    try:
        module = importlib.import_module(f"gamecert.fuzz.games.{game}")
    except ModuleNotFoundError:
        raise KeyError(f"no fuzzing plugin for game {game!r}") from None
    plugin: GamePlugin = module.PLUGIN
    return plugin
