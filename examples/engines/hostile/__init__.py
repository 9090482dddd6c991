"""Engines that misbehave on purpose: the hostile gallery (tests/hostile/, docs/reliability.md).

Each file is a runnable wire-protocol program (`python path/to/file.py GAME [N]`, from any
folder) that plays the reference correctly except for one kind of misbehaviour, in a subfolder
by what it does: `crashes/`, `hangs/`, `garbage/`, `lies/`; `base.py` is the loop they share.
`examples.engines.path_of("hostile", NAME)` finds one's file.
"""
