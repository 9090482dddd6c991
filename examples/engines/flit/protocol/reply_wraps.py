"""Mutant: Reply coordinates off the board are wrapped onto it. Breaks FLIT-PROTO-REPLY."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import ReplyWraps as Mutant

RULE = "FLIT-PROTO-REPLY"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-reply_wraps")
