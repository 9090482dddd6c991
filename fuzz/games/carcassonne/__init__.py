"""Carcassonne's search: positions from random play at every stage of a game, z3 tie
positions, crafted boards one tile from a U-turn, a road loop or several completions, and
probes for every way a move can be illegal.

Everything expensive (random games, the z3 ties, the search for closing tiles) is done once
per profile and cached; each example then only samples a ready position, so it stays cheap.
Hypothesis strategies are built once too (module level or `functools.cache`).

The plugin (`PLUGIN`, a `fuzz.games.GamePlugin`) is one call a job, each job a file of its
own, the same files for every game: `starts.py` (the pools of start positions),
`crafted.py` (positions crafted one tile from a rare case, `CRAFTED_FOR` below),
`play.py` (the moves drawn), `probes.py` (probes and one-rule probes), `bot_text.py` (raw
bot replies, SYNCS 2025 protocol), `targets.py` (what Hypothesis steers toward),
`proofs.py` (`gamecert prove carcassonne`). Carcassonne has no steered run-ahead. Nothing
here judges an engine: the lockstep (fuzz.step) does.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.carcassonne.bot_text import bot_text_strategy
from gamecert.fuzz.games.carcassonne.play import draw_action, play_on_action
from gamecert.fuzz.games.carcassonne.probes import draw_probe, rule_probes
from gamecert.fuzz.games.carcassonne.proofs import prove_carcassonne
from gamecert.fuzz.games.carcassonne.starts import start_strategy
from gamecert.fuzz.games.carcassonne.targets import target_scores
from gamecert.reference_engine.carcassonne.engine import Carcassonne
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines.engine import Engine
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any
GAME = Carcassonne()


# What the crafted starts are for: each kind (CRAFTED), the rules whose rare cases it puts
# one step away. An engine that cannot load them gets those rules checked in part.
CRAFTED_FOR: dict[str, tuple[str, ...]] = {
    "near-uturn": ("CARC-RIVER-NO-UTURN",),
    "near-50": ("CARC-END-POINTS",),
    "closing": ("CARC-ROAD-COMPLETE", "CARC-TOWN-COMPLETE", "CARC-MONASTERY-COMPLETE"),
    "monastery": ("CARC-MONASTERY-COMPLETE",),
    "banner": ("CARC-TOWN-COMPLETE",),
    "multi": ("CARC-SCORE-TIMING",),
    "loop": ("CARC-ROAD-COMPLETE",),
    "starved": ("CARC-MEEPLE-SUPPLY",),
    "joined": ("CARC-CLAIM-UNCLAIMED",),
    "ties": ("CARC-SCORE-MAJORITY",),
    "final-tie": ("CARC-WINNER",),
    "farm-tie": ("CARC-FARM-MAJORITY",),
    "ransom": ("CARC-TOWER-RANSOM", "CARC-TOWER-EXCHANGE"),
    "ransom-short": ("CARC-TOWER-RANSOM",),
    "reach-exact": ("CARC-TOWER-REACH", "CARC-TOWER-FLOORS", "CARC-TOWER-CAPTURE"),
    "reach-gap": ("CARC-TOWER-REACH", "CARC-TOWER-FLOORS", "CARC-TOWER-CAPTURE"),
    "mutual": ("CARC-TOWER-REACH", "CARC-TOWER-EXCHANGE"),
    "exchange": ("CARC-TOWER-EXCHANGE",),
}


class CarcassonnePlugin:
    crafted_for = CRAFTED_FOR
    game = GAME

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        return start_strategy(profile)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_action(data, ls)

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_probe(data, ls)

    def play_on_action(self, ls: Lockstep, rng: random.Random) -> JSON:
        """How the triage plays a game on past a trace's prefix (play.py)."""
        return play_on_action(ls, rng)

    def rule_probes(self, ls: Lockstep) -> list[tuple[str, JSON]]:
        """Actions that each break one judged rule and no other here (probes.py)."""
        return rule_probes(ls)

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        return bot_text_strategy(profile)

    def targets(self, ls: Lockstep) -> dict[str, float]:
        return target_scores(ls)

    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        return prove_carcassonne(engine, profile)


PLUGIN = CarcassonnePlugin()
