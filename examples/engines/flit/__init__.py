"""Flit mutant engines: each breaks exactly one rule of spec/flit.json.

Every module in MUTANTS defines `ENGINE` (a class of the departure library,
reference_engine/flit/departures.py, which changes one hook of the reference engine) and `RULE`
(the rule id it breaks). The COMPOUNDS break three rules each (`RULES`). Run one in-process as
`examples.engines.flit.AREA.NAME:ENGINE` or as a subprocess engine with `python -m
examples.engines.flit.AREA.NAME`; `examples.engines.module_of("flit", NAME)` and `engine_spec`
find the AREA, one subfolder per rule area: `board/`, `moves/`, `ending/`, `protocol/`,
`compounds/`, `seasons/`. The lists below name them without it (the names in reports, docs and
test ids).
"""

MUTANTS = (
    "board_short", "no_wrap_x", "setup_any_empty", "setup_snake", "turn_order_skip",
    "self_neighbour", "pass_refused", "invalid_disqualifies", "convert_no_wrap",
    "neutral_anywhere", "timeout_run_kept", "freeze_after_four", "turncap_off_by_one",
    "allpass_no_reset", "catchup_ge", "catchup_no_offset", "end_after_move",
    "winner_zero_based", "tie_lowest_wins", "reply_wraps", "silent_conversion",
    "neutral_weights",
)

# Compound mutants: engines shaped like real ones (run behind `bare:`), each with three
# departures at once, one on every game's first steps and two later; per mutant, the
# rules it breaks, in that order.
COMPOUNDS = (
    ("compound_dealt_together", ("FLIT-SETUP-ORDER", "FLIT-CONVERT", "FLIT-WINNER-TIE")),
    ("compound_last_placer_first", ("FLIT-SETUP-ORDER", "FLIT-TURN-ORDER",
                                    "FLIT-END-ALLPASS")),
)

# Season mutants: engines that keep the shipped profiles' value of one rule parameter
# whatever a season file says (examples/seasons/); each with the season file under which it
# breaks its module's `RULE`. Under the shipped profiles each is the reference, so they are
# kept apart from `MUTANTS`.
SEASONS: tuple[tuple[str, str], ...] = (
    ("season_neutral_16", "flit-neutral-8.toml"),
    ("season_board_32", "flit-board-24.toml"),
    ("season_freeze_5", "flit-freeze-3.toml"),
)
