"""Kingdomino mutant engines: each breaks exactly one rule of spec/kingdomino.json.

Every module defines `ENGINE` (a subclass of the reference engine that overrides one rule hook),
`RULE` (the rule id it breaks) and `PROFILE` (the profile where the break shows: two kings need
2 players, lines of 3 need 3). Run one in-process as
`examples.engines.kingdomino.AREA.NAME:ENGINE` or as a subprocess engine with `python -m
examples.engines.kingdomino.AREA.NAME`; `examples.engines.module_of("kingdomino", NAME)` and
`engine_spec` find the AREA, one subfolder per rule area: `placement/`, `scoring/`, `draft/`,
`setup/`, `protocol/`, `compounds/`, `seasons/`. The lists below name them without it (the names
in reports, docs and test ids).
"""

MUTANTS = (
    "extent_6x6",
    "no_extent_limit",
    "no_connection",
    "discard_when_fits",
    "crowns_per_tile",
    "diagonal_zones",
    "seat_order_every_turn",
    "pick_on_last_turn",
    "one_king_2p",
    "tiebreak_crowns_first",
    "three_player_line_4",
    "rotation_mirrored",
    "castle_terrain",
    "other_tile_list",
    "three_seats",
    "deal_drawn_tile",
    "first_order_reversed",
    "first_turn_put_ignored",
    "pick_taken_tile",
    "no_last_turn",
    "castle_off_centre",
    "stop_not_recorded",
    "invalid_put_discards",
    "empty_cells_underscored",
    "lenient_output",
    "timeout_ignored",
    "overlap_allowed",
    "deal_weights",
)

# Compound mutants (issues 26 and 27): three departures at once each, written apart from the
# departure library, run behind `bare:` as real engines run. Per mutant, the rules it breaks:
# the first departs on every game's first steps, the other two later.
COMPOUNDS = (
    ("compound_rotated_start", ("KD-ORDER-FIRST", "KD-SCORE-ZONES", "KD-ORDER")),
    ("compound_wide_kingdom", ("KD-PLACE-EXTENT", "KD-TIE-BREAK", "KD-ORDER")),
)

# Season mutants: engines that keep the shipped profiles' value of one rule parameter
# whatever a season file says (examples/seasons/); each with the season file under which it
# breaks its module's `RULE`. Under the shipped profiles each is the reference, so they are
# kept apart from `MUTANTS`.
SEASONS: tuple[tuple[str, str], ...] = (
    ("season_two_players", "kingdomino-board-3p.toml"),
    ("season_two_players", "kingdomino-board-4p.toml"),
    ("season_extent_5", "kingdomino-4x4.toml"),
    ("season_extent_5", "kingdomino-7x7.toml"),
)
