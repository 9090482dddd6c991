#!/usr/bin/env python3
"""A correct bot written on the starter kit: the RandomPlayer of players.py. Expected: clean, in
every seat."""

from players import RandomPlayer, seed_from_args

RandomPlayer(seed_from_args()).run()
