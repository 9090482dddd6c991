"""Carcassonne oracles: one per rule id of `spec/carcassonne.json`, on canonical JSON only.

`HARNESS_RULES` lists the rules (time limits, bans) that only the harness can see.
"""

from gamecert.oracles.carcassonne.checks import HARNESS_RULES, ORACLES

__all__ = ["HARNESS_RULES", "ORACLES"]
