"""Carcassonne mutant engines: each breaks exactly one rule of spec/carcassonne.json.

Every module defines `ENGINE` (a subclass of the reference engine that changes one rule
decision, usually one of its small rule hooks) and `RULE` (the rule id it breaks). Run one
in-process as `examples.engines.carcassonne.AREA.NAME:ENGINE` or as a subprocess engine with
`python -m examples.engines.carcassonne.AREA.NAME`; `examples.engines.module_of("carcassonne",
NAME)` and `engine_spec` find the AREA, one subfolder per rule area: `river/`, `deck/`,
`board/`, `claims/`, `scoring/`, `turns/`, `protocol/`, `farms/`, `tower/`, `prisoners/`,
`compounds/`, `seasons/`. The lists below name them without it (the names in reports, docs and
test ids). A mutant of a later stage also defines `PROFILE`, the profile its rule is played in.
Every rule with an oracle has a mutant; CARC-PROTO-LIMITS (time limits and bans) is the bot
harness's, not an engine's.
"""

MUTANTS = (
    "uturn_allowed",
    "tie_lowest_id",
    "banners_ignored_at_end",
    "incomplete_monastery_9",
    "claim_joined_opponent",
    "meeples_kept",
    "no_stop_at_50",
    "road_loop_open",
    "discard_when_fits",
    "tiles_short",
    "extra_player",
    "turn_order_reversed",
    "event_wire_coords",
    "spring_turned",
    "land_tile_in_river",
    "river_anywhere",
    "river_meets_field",
    "lake_any_time",
    "deal_to_mover",
    "deal_one",
    "hand_of_two",
    "diagonal_ok",
    "field_meets_road",
    "banners_lost_in_join",
    "claim_stays_open",
    "claim_on_field",
    "town_incomplete_rate",
    "monastery_8",
    "score_before_claim",
    "end_when_deck_empty",
    "winner_before_final",
    "frame_length_unchecked",
    "player_id_unchecked",
    "claim_without_meeple",
    "draw_by_kind",
    # the farms stage: each module names its PROFILE (syncs-2025-farms)
    "farmers_go_home",
    "field_crosses_road",
    "farm_claim_joined",
    "farm_incomplete_towns",
    "farm_tie_one",
    # The Tower: each names PROFILE syncs-2025-tower
    "tower_tiles_missing",
    "floors_unlimited",
    "floor_on_capped",
    "reach_diagonal",
    "reach_stops_at_gap",
    "captured_stays",
    "captured_sent_home",
    "no_exchange",
    "ransom_with_2_points",
    "two_ransoms",
    "ransom_pays_2",
    "cap_from_nowhere",
)

# Compound mutants: three departures at once (the first on every game's first steps, two
# later), each module's RULES in that order; run them behind `bare:` (minimum capabilities,
# their own draws, no events), as real engines are.
COMPOUNDS = (
    ("compound_lake_banners", ("CARC-RIVER-DRAW", "CARC-SCORE-INCOMPLETE", "CARC-TOWN-COMPLETE")),
    ("compound_order_ties", ("CARC-TURN-ORDER", "CARC-SCORE-MAJORITY", "CARC-END-TILES")),
)

# Season mutants: engines that keep the shipped profiles' value of one rule parameter
# whatever a season file says (examples/seasons/); each with the season file under which it
# breaks its module's `RULE`. Under the shipped profiles each is the reference, so they are
# kept apart from `MUTANTS`.
SEASONS: tuple[tuple[str, str], ...] = (
    ("season_meeples_7", "carcassonne-duel-60.toml"),
    ("season_town_2", "carcassonne-town-3.toml"),
    ("season_ransom_3", "carcassonne-tower-ransom-4.toml"),
)
