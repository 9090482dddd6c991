#!/usr/bin/env python3
"""A correct Bot Wars bot over stdio: valid moves only, at once. Expected verdict: clean."""

from warbot import play

play()
