"""Crashing mutant: the referee trusts its input and parses a reply without a guard, so a
reply that is not JSON raises instead of disqualifying the bot (BOTWARS-FORMAT-DQ). The
certifier must report it as a finding (the engine crashed: ENGINE-ALIVE) and carry on.

In-process, the exception reaches the harness. As a subprocess
(`python -m examples.engines.botwars.protocol.crash_on_bad_json`) the wire server turns it into an
internal-error reply; with `--exit` the process dies on the spot instead, as a real engine
might.
"""

from __future__ import annotations

import json
import os
import sys

from gamecert.reference_engine.botwars.engine import BotWars, Move

RULE = "BOTWARS-FORMAT-DQ"


class CrashOnBadJson(BotWars):
    def parse_reply(self, text: str) -> tuple[Move, ...] | None:
        json.loads(text)  # raises on a reply that is not JSON: the mistake
        return super().parse_reply(text)


class ExitOnBadJson(BotWars):
    def parse_reply(self, text: str) -> tuple[Move, ...] | None:
        try:
            json.loads(text)
        except (ValueError, RecursionError):
            os._exit(70)  # the whole engine process goes, mid-request
        return super().parse_reply(text)


ENGINE = CrashOnBadJson

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ExitOnBadJson() if "--exit" in sys.argv[1:] else ENGINE(), name=__name__)
