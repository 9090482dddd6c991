#!/usr/bin/env python3
"""An illegal PUT: on its 2nd turn (the first with a tile to place) it puts the tile on its
castle. Well formatted, but the tile overlaps the castle while it fits elsewhere.
Expected: KD-PUT-INVALID (invalid-put); verdict 'deactivated' in the top leagues (profile
legend), 'tile discarded' in Wood (profile wood: the PICK counts and the game goes on)."""

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    put, pick = turn.answer()
    return ["PUT 4 4 0" if turn.number == 2 else put, pick]


play(answer)
