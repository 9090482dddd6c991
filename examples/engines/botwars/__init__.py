"""Bot Wars mutant engines: each subclasses the reference, overrides one method and breaks
exactly one rule (its module's `RULE`). The certifier must catch every one of them. Their
classes live in the departure library (gamecert.reference_engine.botwars.departures.mutants):
each module here names its rule and serves it. The modules sit in one subfolder per rule area
(`turns/`, `energy/`, `protocol/`, `cascades/`, `compounds/`, `seasons/`); the lists below name
them without it (the names in reports, docs and test ids), and
`examples.engines.module_of("botwars", NAME)` and `engine_spec` find it.

`CRASHERS` break a rule by crashing instead (the finding is then ENGINE-ALIVE): they are kept
apart because no rule oracle sees their transitions."""

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

# Engines shaped like real ones, with three departures at once (one on every game's first
# steps, two later ones), written apart from the departure library: run behind `bare:`
# (the minimum capabilities, their own draws, no events). Each with the rules it breaks
# (its module's `RULES`), in the order its departures first show.
COMPOUNDS: tuple[tuple[str, tuple[str, str, str]], ...] = (
    ("compound_turn_one", ("BOTWARS-ENERGY-SPAWN", "BOTWARS-BATTLE", "BOTWARS-WINNER")),
    ("compound_first_botlets", ("BOTWARS-FIRST-BOTLETS", "BOTWARS-MOVE-COLLIDE",
                                "BOTWARS-ENERGY-COLLECT")),
)

# Season mutants: engines that keep the shipped profiles' value of one rule parameter
# whatever a season file says (examples/seasons/); each with the season file under which it
# breaks its module's `RULE`. Under the shipped profiles each is the reference, so they are
# kept apart from `MUTANTS`.
SEASONS: tuple[tuple[str, str], ...] = (
    ("season_energy_every_3", "botwars-energy-5.toml"),
    ("season_spawn_cost_1", "botwars-spawn-cost-2.toml"),
    ("season_turns_200", "botwars-turns-100.toml"),
)
