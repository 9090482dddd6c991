#!/usr/bin/env python3
"""A correct bot written on the starter kit: the MeepleHoarder of players.py. Expected: clean, in
every seat."""

from players import MeepleHoarder, seed_from_args

MeepleHoarder(seed_from_args()).run()
