"""Engines under test: the Engine protocol, its in-process and subprocess kinds, the wire
protocol's server, the minimum-capability wrapper and what an engine declares it can do.

In: spec/ and reference_engine/ (a game, a profile). Out: an open `Engine` the harness drives
through the wire protocol's operations. Knows nothing of oracles' verdicts, searches or reports.
"""
