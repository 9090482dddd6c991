"""Bot Wars mutant engines: each subclasses the reference, overrides one method and breaks
exactly one rule (its module's `RULE`). The certifier must catch every one of them.

`CRASHERS` break a rule by crashing instead (the finding is then ENGINE-ALIVE): they are
kept apart because no rule oracle sees their transitions."""

MUTANTS = [
    "battle_pairwise",
    "raze_before_battle",
    "contested_to_p1",
    "energy_every_2",
    "spawn_when_razed",
    "winner_by_energy",
    "invalid_drops_move",
    "collect_diagonal",
    "lenient_format",
    "turn_limit_late",
    "move_onto_own",
    "energy_on_spawn",
    "energy_weights",
]

CRASHERS = ["crash_on_bad_json"]

# Engines whose one departure makes later phases' oracles judge a position it already made
# wrong (issue 16's cascade patterns: a game stopped early, another start position, another
# adjacency); each must still give exactly one violated rule. They break a rule under their
# module's `PROFILE` (default: the catalogue's), so they are kept apart from `MUTANTS`.
CASCADES = ["late_loses_game", "start_without_botlets", "wrap_edges"]
