"""Carcassonne's search: positions from random play at every stage of a game, z3 tie
positions, crafted boards one tile from a U-turn, a road loop or several completions, and
probes for every way a move can be illegal.

Everything expensive (random games, the z3 ties, the search for closing tiles) is done once
per profile and cached; each example then only samples a ready position, so it stays cheap.
Hypothesis strategies are built once too (module level or `functools.cache`).

The plugin (`PLUGIN`) is this folder's job files, read by `fuzz.games.folder_plugin` (the
same files for every game): `starts.py` (the pools of start positions), `crafted.py`
(positions crafted one tile from a rare case, `CRAFTED_FOR`), `play.py` (the moves drawn),
`probes.py` (probes and one-rule probes), `bot_text.py` (raw bot replies, SYNCS 2025
protocol), `targets.py` (what Hypothesis steers toward), `proofs.py` (`gamecert prove
carcassonne`). Carcassonne has no steered run-ahead. Nothing here judges an engine: the
lockstep (fuzz.step) does.
"""

from gamecert.fuzz.games.folder_plugin import folder_plugin

PLUGIN = folder_plugin(__name__)
