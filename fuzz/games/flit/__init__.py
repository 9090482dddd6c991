"""Flit's search: crafted boards near the wrap, z3 catch-up boundaries, near-end states.

The plugin (`PLUGIN`) is this folder's job files, read by `fuzz.games.folder_plugin` (the
same files for every game):

* `starts.py`: start positions (new games, played positions, z3's boundary positions);
* `crafted.py`: crafted positions one step from a rule's rare case (`CRAFTED_FOR`);
* `play.py`: the moves drawn, and the steered run-ahead for an engine without load_state
  (`RUN_AHEAD`, `run_ahead_policy`), and when a legal listing is cheap to compare;
* `probes.py`: probes (actions the reference refuses) and the one-rule probes;
* `bot_text.py`: raw bot replies for the referee;
* `targets.py`: what Hypothesis steers toward;
* `proofs.py`: `gamecert prove flit`.

Nothing here judges an engine: the lockstep (fuzz.step) does.
"""

from gamecert.fuzz.games.folder_plugin import folder_plugin

PLUGIN = folder_plugin(__name__)
