"""The search: a Hypothesis state machine over the lockstep, rounds and who plays them
(this process, worker processes, a Dask cluster), the example database, checkpoints and the
campaign that runs rounds until the budget is spent.

In: engines, the lockstep, the games' plugins (fuzz/games), findings' tools. Out: a
`CampaignResult`. Knows nothing of how a report or the command line shows it.
"""
