"""bot-check: a competitor's bot played over its game's real protocol, the reference engine
as referee. One codec module per protocol (`flit`, `botwars`, `carcassonne`, and any other
module named after a game, found by `protocols.codec_for`); the shared runner owns the bot
processes, timing, transcripts, findings, shrinking and reports.
"""
