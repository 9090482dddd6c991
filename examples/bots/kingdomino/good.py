#!/usr/bin/env python3
"""A correct Kingdomino bot: a legal PUT and PICK every turn, at once. Expected verdict:
clean."""

from kdbot import play

play()
