"""Kingdomino's search: starts from random play at every depth (last turns included), moves
drawn from the reference's legal list, probes of near-miss placements and picks.

Targets steer toward full kingdoms, discards, ties on score, the last turn and (with 2
players) one player's two kings acting back to back.

The plugin (`PLUGIN`) is this folder's job files, read by `fuzz.games.folder_plugin` (the
same files for every game): `starts.py` (start positions), `crafted.py` (z3's near-full
kingdoms, `CRAFTED_FOR`), `play.py` (the moves drawn, short run-aheads `RUN_AHEAD`, and
which listings to compare), `probes.py` (probes and one-rule probes), `bot_text.py` (raw
bot replies), `targets.py` (what Hypothesis steers toward), `proofs.py` (`gamecert prove
kingdomino`). Kingdomino has no steered run-ahead: random play reaches every turn. Nothing
here judges an engine: the lockstep (fuzz.step) does.
"""

from gamecert.fuzz.games.folder_plugin import folder_plugin

PLUGIN = folder_plugin(__name__)
