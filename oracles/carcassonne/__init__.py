"""Carcassonne oracles: one per rule id of `spec/carcassonne.json`, on canonical JSON only.

`checks` holds stage 1's, `farms` the farms stage's, `tower` The Tower's. `HARNESS_RULES`
lists the rules (time limits, bans) that only the harness can see. `action_kind` names a
step's kind for the checks that say `on` which kinds they judge. `fast` answers for several
state hooks (`STATE_PREJUDGE`) and checks (`PREJUDGE`) in one look.
"""

from gamecert.oracles.carcassonne.checks import HARNESS_RULES, action_kind
from gamecert.oracles.carcassonne.checks import ORACLES as STAGE_1_ORACLES
from gamecert.oracles.carcassonne.farms import FARM_ORACLES
from gamecert.oracles.carcassonne.fast import PREJUDGE, STATE_PREJUDGE
from gamecert.oracles.carcassonne.tower import TOWER_ORACLES

ORACLES = [*STAGE_1_ORACLES, *FARM_ORACLES, *TOWER_ORACLES]

__all__ = ["HARNESS_RULES", "ORACLES", "PREJUDGE", "STATE_PREJUDGE", "action_kind"]
