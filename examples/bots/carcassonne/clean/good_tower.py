#!/usr/bin/env python3
"""A correct bot for the farms and tower stages (gamecert's protocol extension): farmers on
fields it can prove unclaimed, tower floors with captures of meeples it knows are there,
capping meeples, ransoms only with the points and once a turn, and (with --placed, for
syncs-2025-tower-placed) exchanges of mutual prisoners on request. Expected: clean."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import main
from towerbot import TowerBot, placed_reading

main(TowerBot(placed_reading()))
