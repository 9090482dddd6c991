"""Bot Wars' search: z3 crowded battle boards, played and crafted positions near the rare
cases, and move lists built from the position's own botlets.

Big structures (a field, a list of moves) come from one drawn seed and a few knobs drawn
with their boundary values first, so an example costs a handful of draws. Every move list is
a list of integer pairs, which the reference always accepts in a bot's phase (invalid moves
are ignored, not refused): dropping an operation while minimizing a trace never makes a later
list meaningless.

The plugin (`PLUGIN`) is this folder's job files, read by `fuzz.games.folder_plugin` (the
same files for every game): `starts.py` (start positions), `crafted.py` (crafted and z3
boards near the rare cases, `CRAFTED_FOR`), `play.py` (the move lists drawn), `probes.py`
(probes and one-rule probes), `bot_text.py` (raw bot replies), `targets.py` (what
Hypothesis steers toward), `proofs.py` (`gamecert prove botwars`). Bot Wars has no steered
run-ahead: random move lists reach the deep rules. Nothing here judges an engine: the
lockstep (fuzz.step) does.
"""

from gamecert.fuzz.games.folder_plugin import folder_plugin

PLUGIN = folder_plugin(__name__)
