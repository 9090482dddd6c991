"""Kingdomino's search: starts from random play at every depth (last turns included), moves
drawn from the reference's legal list, probes of near-miss placements and picks.

Targets steer toward full kingdoms, discards, ties on score, the last turn and (with 2
players) one player's two kings acting back to back.

The plugin (`PLUGIN`, a `fuzz.games.GamePlugin`) is one call a job, each job a file of its
own, the same files for every game: `starts.py` (start positions), `crafted.py` (z3's
near-full kingdoms), `play.py` (the moves drawn), `probes.py` (probes and one-rule
probes), `bot_text.py` (raw bot replies), `targets.py` (what Hypothesis steers toward),
`proofs.py` (`gamecert prove kingdomino`). Kingdomino has no steered run-ahead: random play
reaches every turn (`run_ahead` below). Nothing here judges an engine: the lockstep
(fuzz.step) does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.kingdomino.bot_text import bot_text_strategy
from gamecert.fuzz.games.kingdomino.play import draw_action
from gamecert.fuzz.games.kingdomino.probes import draw_probe, rule_probes
from gamecert.fuzz.games.kingdomino.proofs import prove_kingdomino
from gamecert.fuzz.games.kingdomino.starts import GAME, start_strategy
from gamecert.fuzz.games.kingdomino.targets import target_scores
from gamecert.spec import Profile

if TYPE_CHECKING:
    from gamecert.fuzz.engines.engine import Engine
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any


class KingdominoPlugin:
    game = GAME
    # How far a run-ahead goes (an engine without load_state): a whole game is 28 to 52 king
    # steps (the draws are followed inside them). Short runs, several an example, still end
    # games (about as many as runs of up to 1,024 steps did) and stop at positions all
    # through them, where the probe rule then tries its one-rule probes: the longer runs
    # left most probes on the first turn (benchmarks/reach/kingdomino_probe_reach.py).
    run_ahead: tuple[int, ...] = (4, 8, 16)
    # What the crafted starts are for (see the other games' plugins): z3's near-full grids.
    crafted_for: dict[str, tuple[str, ...]] = {
        "z3's near-full kingdoms, one spot left for the tile": ("KD-PLACE-EXTENT",
                                                                 "KD-DISCARD"),
    }

    def starts(self, profile: Profile) -> st.SearchStrategy[JSON]:
        return start_strategy(profile)

    def draw_action(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_action(data, ls)

    def draw_probe(self, data: st.DataObject, ls: Lockstep) -> JSON:
        return draw_probe(data, ls)

    def rule_probes(self, ls: Lockstep) -> list[tuple[str, JSON]]:
        """Actions that each break one rule and no other here (probes.py)."""
        return rule_probes(ls)

    def cheap_to_list(self, ls: Lockstep) -> bool:
        """Chance listings are compared; a king's listing is not: a placement read wrongly
        changes dozens of entries at once, and one finding would then name every placement
        rule. Plays and probes judge the same actions one at a time."""
        return bool(ls.ref_json["phase"] != "play")

    def bot_texts(self, profile: Profile) -> st.SearchStrategy[str]:
        return bot_text_strategy(profile)

    def targets(self, ls: Lockstep) -> dict[str, float]:
        return target_scores(ls)

    def prove(self, engine: Engine, profile: Profile) -> tuple[bool, list[str]]:
        return prove_kingdomino(engine, profile)


PLUGIN = KingdominoPlugin()
