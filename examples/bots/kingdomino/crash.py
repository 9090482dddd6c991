#!/usr/bin/env python3
"""A crash mid-game: on its 7th turn it indexes past the end of its list of placements.
Expected: BOT-ALIVE (crash), verdict 'deactivated'."""

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    if turn.number == 7:
        found = turn.placements()
        print(found[len(found)])  # IndexError
    return list(turn.answer())


play(answer)
