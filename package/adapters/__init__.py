"""The adapter kit: put an engine gamecert did not write under `gamecert certify` with only
the minimum capabilities (hello, new_game with a seed, apply, observe).

* `NativeAdapter` (base.py): subclass it for an in-process Python engine;
* `LoopAdapter` (loop.py): the same for an engine that owns its game loop and calls the bots;
* `gamecert.adapters.serve`: run such a class as a wire-protocol process;
* `gamecert.adapters.check`: a first look, game by game, at any engine (a class or a command);
* helpers.py: players, coordinates, rotations, ids and Carcassonne tiles between a native
  engine's conventions and our canonical states.

For engines in other languages, docs/adapters.md describes the wire protocol step by step;
node/ is the Node.js kit, an npm package (`python -m gamecert.adapters.node_path` prints
where it is installed).
"""

from gamecert.adapters.base import NativeAdapter, NativeRefusal, NotOffered
from gamecert.adapters.loop import Ask, BotRaises, LoopAdapter, Seat

__all__ = ["Ask", "BotRaises", "LoopAdapter", "NativeAdapter", "NativeRefusal", "NotOffered",
           "Seat"]
