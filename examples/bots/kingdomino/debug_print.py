#!/usr/bin/env python3
"""A debug print on stdout: on its 6th turn it prints the tile in play before the PUT.
Expected: KD-PROTO-OUTPUT (not-a-command), verdict 'deactivated'."""

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    put, pick = turn.answer()
    if turn.number == 6:
        return [f"debug: tile {turn.tile}", put, pick]
    return [put, pick]


play(answer)
