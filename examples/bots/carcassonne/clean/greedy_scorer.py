#!/usr/bin/env python3
"""A correct bot written on the starter kit: the GreedyScorer of players.py. Expected: clean, in
every seat."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from players import GreedyScorer, seed_from_args

GreedyScorer(seed_from_args()).run()
