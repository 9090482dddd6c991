#!/usr/bin/env python3
"""A correct bot written on the starter kit: the GreedyScorer of players.py. Expected: clean, in
every seat."""

from players import GreedyScorer, seed_from_args

GreedyScorer(seed_from_args()).run()
