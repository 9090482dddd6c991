"""A Flit engine with five bugs at once (five mutants combined): later findings happen in
games that pass over earlier, muted ones, so their traces must carry the muted rules and
the resyncs for a replay to reach the same finding.

    python path/to/many_bugs.py        (a wire-protocol engine)
    --engine path/to/many_bugs.py:ENGINE
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run or loaded as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.flit.board.neutral_anywhere import ENGINE as NeutralAnywhere
from examples.engines.flit.board.setup_snake import ENGINE as SetupSnake
from examples.engines.flit.ending.turncap_off_by_one import ENGINE as TurncapOffByOne
from examples.engines.flit.moves.convert_no_wrap import ENGINE as ConvertNoWrap
from examples.engines.flit.moves.timeout_run_kept import ENGINE as TimeoutRunKept

RULES = ["FLIT-CONVERT", "FLIT-END-TURNCAP", "FLIT-NEUTRAL-ADD", "FLIT-SETUP-ORDER",
         "FLIT-TIME-LIMIT"]


class ManyBugs(SetupSnake, ConvertNoWrap, TurncapOffByOne, TimeoutRunKept, NeutralAnywhere):
    """Each base breaks one rule; together they break five."""


ENGINE = ManyBugs

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-many-bugs")
