#!/usr/bin/env python3
"""An invalid PICK: on its 3rd turn it picks tile 99, which is not in the new line.
Expected: KD-PICK (invalid-pick), verdict 'deactivated'."""

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    put, pick = turn.answer()
    return [put, "PICK 99" if turn.number == 3 else pick]


play(answer)
