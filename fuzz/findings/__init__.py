"""What a finding becomes: triage (one departure per cause), minimising, traces, baselines
and the statistics of an engine's own draws.

In: `Finding`s from the lockstep (fuzz/step). Out: triaged, shrunk, replayable findings. Knows
nothing of how the search found them or how a report shows them.
"""
