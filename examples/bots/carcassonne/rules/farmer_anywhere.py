#!/usr/bin/env python3
"""A farmer on a field already claimed: the bot puts a farmer on the first field of every
tile it places, without checking whether that field, as joined to the fields around, already
holds a farmer. Expected (farms and tower stages): CARC-FARM-CLAIM, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Msg, main
from towerbot import FIELD_NAMES, FIELDS, TowerBot, placed_reading


class FarmerAnywhere(TowerBot):
    def lonely_field(self, p: Msg) -> str | None:
        fields = FIELDS[p["tile_type"]]
        if not fields:
            return None
        if not fields[0]:
            return "enclosed_field"
        return FIELD_NAMES[(int(fields[0][0]) + 2 * p["rotation"]) % 8]


main(FarmerAnywhere(placed_reading()))
