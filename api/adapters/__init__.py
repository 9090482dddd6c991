"""The adapter kit: put an engine gamecert did not write under `gamecert certify` with only
the minimum capabilities (hello, new_game with a seed, apply, observe).

* `NativeAdapter` (base.py): subclass it for an in-process Python engine;
* `gamecert.adapters.serve`: run such a class as a wire-protocol process;
* helpers.py: players, coordinates, rotations, ids and Carcassonne tiles between a native
  engine's conventions and our canonical states.

For engines in other languages, docs/adapters.md describes the wire protocol step by step
and examples/adapters/node-kit/ holds a small Node.js library.
"""

from gamecert.adapters.base import NativeAdapter, NativeRefusal, NotOffered

__all__ = ["NativeAdapter", "NativeRefusal", "NotOffered"]
