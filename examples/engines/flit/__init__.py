"""Flit mutant engines: each breaks exactly one rule of spec/flit.json.

Every module defines `ENGINE` (a subclass of the reference engine that changes one method)
and `RULE` (the rule id it breaks). Run one in-process as `examples.engines.flit.NAME:ENGINE`
or as a subprocess engine with `python -m examples.engines.flit.NAME`.
"""

MUTANTS = (
    "board_short", "no_wrap_x", "setup_any_empty", "setup_snake", "turn_order_skip",
    "self_neighbour", "pass_refused", "invalid_disqualifies", "convert_no_wrap",
    "neutral_anywhere", "timeout_run_kept", "freeze_after_four", "turncap_off_by_one",
    "allpass_no_reset", "catchup_ge", "catchup_no_offset", "end_after_move",
    "winner_zero_based", "tie_lowest_wins", "reply_wraps", "silent_conversion",
    "neutral_weights",
)
