#!/usr/bin/env python3
"""The wrong number of lines: on its 4th turn it writes an empty third line after PUT and
PICK. The engine reads two lines a turn, so the empty line opens the 5th reply.
Expected: KD-PROTO-OUTPUT (not-a-command, at the 5th query), verdict 'deactivated'."""

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    put, pick = turn.answer()
    return [put, pick, ""] if turn.number == 4 else [put, pick]


play(answer)
