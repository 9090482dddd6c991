"""Engines that misbehave on purpose: the hostile gallery (tests/hostile/, docs/reliability.md).

Each file is a runnable wire-protocol program (`python path/to/file.py GAME [N]`, from any
folder) that plays the reference correctly except for one kind of misbehaviour.
"""
