#!/usr/bin/env python3
"""An illegal PUT only in a rare position: when the tile in play fits nowhere it writes
'PUT none' (the statement wants three numbers even then; they are ignored). Correct in
every other position.
Expected: KD-PROTO-OUTPUT (not-a-command), verdict 'deactivated', deep in a game."""

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    put, pick = turn.answer()
    if turn.tile is not None and not turn.placements():
        put = "PUT none"
    return [put, pick]


play(answer)
