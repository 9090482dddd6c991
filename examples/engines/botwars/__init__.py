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
]

CRASHERS = ["crash_on_bad_json"]
