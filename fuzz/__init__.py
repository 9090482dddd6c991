"""Fuzzing: engines under test, the lockstep, campaigns, traces, reports, the command line.

Nothing here defines a rule: rules come from `gamecert.spec`, `gamecert.oracles` and the
reference engines.
"""
