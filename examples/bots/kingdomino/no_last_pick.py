#!/usr/bin/env python3
"""PICK on the last turn: there is nothing left to pick, so it writes only its PUT line.
The statement wants both lines every turn, the last one included (the PICK is ignored).
Expected: KD-PROTO-OUTPUT (one-line), verdict 'deactivated' (the engine waits for the second
line and times the bot out)."""

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    put, pick = turn.answer()
    return [put] if turn.last else [put, pick]


play(answer)
