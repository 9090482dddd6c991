#!/usr/bin/env python3
"""A correct Flit bot: always a legal move, at once. Expected verdict: clean."""

from flitbot import play

play()
