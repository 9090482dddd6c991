"""Bot Wars' search: z3 crowded battle boards, played and crafted positions near the rare
cases, and move lists built from the position's own botlets.

Big structures (a field, a list of moves) come from one drawn seed and a few knobs drawn
with their boundary values first, so an example costs a handful of draws. Every move list is
a list of integer pairs, which the reference always accepts in a bot's phase (invalid moves
are ignored, not refused): dropping an operation while minimizing a trace never makes a later
list meaningless.

The plugin (`PLUGIN`, a `fuzz.games.GamePlugin`) is one call a job, each job a file of its
own, the same files for every game: `starts.py` (start positions), `crafted.py` (crafted
and z3 boards near the rare cases), `play.py` (the move lists drawn), `probes.py` (probes
and one-rule probes), `bot_text.py` (raw bot replies), `targets.py` (what Hypothesis steers
toward), `proofs.py` (`gamecert prove botwars`). Bot Wars has no steered run-ahead: random
move lists reach the deep rules. Nothing here judges an engine: the lockstep (fuzz.step)
does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.botwars.bot_text import bot_text_strategy
from gamecert.fuzz.games.botwars.play import draw_action
from gamecert.fuzz.games.botwars.probes import draw_probe, rule_probes
from gamecert.fuzz.games.botwars.proofs import prove_botwars
from gamecert.fuzz.games.botwars.starts import start_strategy
from gamecert.fuzz.games.botwars.targets import target_scores
from gamecert.reference_engine.botwars import BotWars
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines.engine import Engine
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any
GAME = BotWars()  # the reference's helpers (botlets, free pairs, random lists); it is pure


class BotWarsPlugin:
    game = GAME
    # What the crafted starts are for: each kind of start, the rules whose rare cases it
    # puts one step away. An engine that cannot load them gets those rules checked in part.
    crafted_for: dict[str, tuple[str, ...]] = {
        "z3 boards crowded with battles (crowded_state)": ("BOTWARS-BATTLE",
                                                           "BOTWARS-DEAD-MARKERS"),
        "enemies in contact or one square apart (layout)": ("BOTWARS-BATTLE",),
        "a raid on a spawn, defenders around it, a spawn blocked (layout)": (
            "BOTWARS-RAZE", "BOTWARS-SPAWN"),
        "energy between both bots, beside one, diagonal to one (layout)": (
            "BOTWARS-ENERGY-CONTESTED", "BOTWARS-ENERGY-COLLECT"),
    }

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        return start_strategy(profile)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_action(data, ls)

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_probe(data, ls)

    def rule_probes(self, ls: Lockstep) -> list[tuple[str, JSON]]:
        """Actions that each break one rule and no other here (botwars_probes)."""
        return rule_probes(ls)

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        return bot_text_strategy(profile)

    def targets(self, ls: Lockstep) -> dict[str, float]:
        return target_scores(ls)

    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        return prove_botwars(engine, profile)


PLUGIN = BotWarsPlugin()
