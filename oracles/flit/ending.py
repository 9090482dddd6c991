"""The Flit checks of the game's end: the moments a step checks the end conditions
(`end_points`), the turn cap, all bots passing and the catch-up rule (FLIT-END-*, each an
`end_oracle`), the passes' bookkeeping, the end's timing, and the winner (FLIT-WINNER,
FLIT-WINNER-TIE).

On canonical JSON only, never the reference engine. Binds no rule id to a check: the
package's `ORACLES` does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gamecert.oracles.base import NA, OK, Transition, Verdict, cause
from gamecert.oracles.flit.board import active_bots, bot_counts
from gamecert.oracles.flit.common import JSON, PLAYER_ACTIONS, _kind
from gamecert.oracles.flit.turn import frozen_turns_inside
from gamecert.spec import Profile


class CheckPoint(NamedTuple):
    turn: int
    passes: int
    frozen: list[bool]
    board: str


def _point(s: JSON) -> CheckPoint:
    return CheckPoint(s["turn"], s["passes"], s["frozen"], s["board"])


def end_points(t: Transition, profile: Profile) -> list[CheckPoint]:
    """The moments inside `t` at which the end conditions were due to be checked."""
    b, a = t.before, t.after
    after_move = profile.variant("FLIT-END-TIMING") == "after-move"
    if b["phase"] not in ("move", "neutral"):
        return []
    if a["phase"] == "over":
        return [_point(a)]
    if b["phase"] == "move":
        # a bot's whole turn (follow mode): the neutral step changes no end condition (a
        # neutral takes an empty square: N + E, the counts, the turn and the run of no
        # moves stay), so the state after it stands for the check after the move too. A
        # whole turn up to a frozen bot's neutral step, under after-neutral: its checks
        # came before that bot's turn, at states the step does not show: none judged
        return [_point(a)] if after_move or a["phase"] == "move" else []
    points = [] if after_move else [CheckPoint(b["turn"], b["passes"], b["frozen"], a["board"])]
    if after_move and a["turn"] == b["turn"] + 1:  # a frozen bot's turn, checked at once
        points.append(_point(a))
    return points


def catchup_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    """Some bot has D > max(others) + P. Only the two largest counts matter: the leader
    against the runner-up, or (when P < 0) the runner-up against the leader."""
    _, _, second, first = sorted(bot_counts(p.board))
    spare = p.board.count("5") + p.board.count("0") - profile.param("FLIT-END-CATCHUP", "p_offset")
    return bool(first > second + spare or second > first + spare)


def catchup_text(p: CheckPoint, profile: Profile) -> str:
    counts = bot_counts(p.board)
    offset = profile.param("FLIT-END-CATCHUP", "p_offset")
    spare = p.board.count("5") + p.board.count("0") - offset
    return f"counts {counts}, P = N + E - {offset} = {spare}"


def allpass_text(p: CheckPoint, profile: Profile) -> str:
    return f"passes {p.passes}, frozen {p.frozen}"


def turncap_text(p: CheckPoint, profile: Profile) -> str:
    return f"turn {p.turn}, max_turns {profile.param('FLIT-END-TURNCAP', 'max_turns')}"


def allpass_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    return p.passes >= active_bots({"frozen": p.frozen}, profile)


def turncap_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    cap = profile.param("FLIT-END-TURNCAP", "max_turns")
    if profile.variant("FLIT-END-TURNCAP") == "literal-exceeds":
        return bool(p.turn > cap)
    return bool(p.turn >= cap)


def end_oracle(reason: str, holds: Any, describe: Any) -> Any:
    def check(t: Transition, profile: Profile) -> Verdict:
        points = end_points(t, profile)
        if not points:
            return NA
        if t.after["phase"] == "over":
            claimed = reason in t.after["result"]["reasons"]
            h = holds(points[0], t.after, profile)
            if h == claimed:
                return OK
            return cause("not-listed" if h else "ended-early",
                         f"the '{reason}' end condition {'holds' if h else 'does not hold'} "
                         f"({describe(points[0], profile)}) but the result's reasons "
                         f"{t.after['result']['reasons']} {'leave it out' if h else 'list it'}")
        for p in points:
            if holds(p, t.after, profile):
                return cause("went-on", f"the '{reason}' end condition holds at turn {p.turn} "
                             f"({describe(p, profile)}), but the game went on")
        return OK
    return check


def passes_bookkeeping(t: Transition, profile: Profile) -> Verdict:
    kind, b, a = _kind(t), t.before, t.after
    any_no_move = profile.variant("FLIT-END-ALLPASS") == "any-no-move"
    if b["phase"] == "move" and kind in PLAYER_ACTIONS:
        if kind == "move":
            want = 0
        elif kind == "pass" or any_no_move:
            want = b["passes"] + 1
        else:
            want = 0
        extra = frozen_turns_inside(t, profile) if a["phase"] in ("move", "over") else 0
        if extra is None and not (a["phase"] == "over" and a["turn"] == b["turn"] + 1):
            ended: Verdict = _allpass_end(t, profile)  # frozen turns inside, untold
            return ended
        if extra:  # a whole turn (follow mode) past frozen bots' turns, each a no move
            want = want + extra if any_no_move else 0
        if a["passes"] != want:
            return cause(f"after-{kind}", f"after a {kind} the run of turns without a real "
                         f"move is {want}, passes says {a['passes']}")
        ended = _allpass_end(t, profile)
        return OK if ended is NA else ended
    elif b["phase"] == "neutral":
        # a frozen bot's turn followed (under after-move the game may end right after it)
        frozen_turn = a["turn"] == b["turn"] + 1
        want = (b["passes"] + 1 if any_no_move else 0) if frozen_turn else b["passes"]
        if a["passes"] != want:
            return cause("after-frozen-turn" if frozen_turn else "neutral-step",
                         f"the run of turns without a real move is {want}, passes says "
                         f"{a['passes']}")
    verdict: Verdict = _allpass_end(t, profile)
    return verdict


def end_timing(t: Transition, profile: Profile) -> Verdict:
    b, a = t.before, t.after
    if b["phase"] == "setup":
        if a["phase"] != "over":
            return OK
        return cause("ended-in-setup", "the game cannot end during setup")
    after_move = profile.variant("FLIT-END-TIMING") == "after-move"
    if b["phase"] == "move":
        if after_move or a["phase"] == "move":
            return NA  # a whole turn (follow mode): when it was checked does not show
        if a["phase"] == "neutral":
            return OK
        return cause("ended-at-move", "end conditions are checked after the neutral step, "
                     f"but the move left the game in phase {a['phase']}")
    if b["phase"] == "neutral" and after_move and a["phase"] == "over":
        if a["turn"] == b["turn"] + 1:
            return OK
        return cause("ended-at-neutral", "under after-move the neutral step ends the game "
                     "only through a frozen bot's turn")
    return NA


def winner(t: Transition, profile: Profile) -> Verdict:
    if t.after["phase"] != "over" or t.before["phase"] == "over":
        return NA
    counts = bot_counts(t.after["board"])
    result = t.after["result"]
    # two departures of this rule: the counts the result reports, and whom it names
    if result["counts"] != counts:
        return cause("counts", f"result counts {result['counts']} differ from the board's "
                               f"{counts}")
    best = max(counts)
    if counts.count(best) > 1:
        return NA
    if result["winner"] == counts.index(best) + 1:
        return OK
    return cause("winner", f"bot {counts.index(best) + 1} has the most pieces {counts}, "
                           f"result says winner {result['winner']}")


def winner_tie(t: Transition, profile: Profile) -> Verdict:
    if t.after["phase"] != "over" or t.before["phase"] == "over":
        return NA
    counts = bot_counts(t.after["board"])
    if counts.count(max(counts)) < 2:
        return NA
    if t.after["result"]["winner"] is None:
        return OK
    return cause("winner-named", f"bots tie for first with {counts}: nobody wins, "
                 f"result says winner {t.after['result']['winner']}")


_allpass_end = end_oracle("all-pass", allpass_holds, allpass_text)
_turncap_end = end_oracle("turn-cap", turncap_holds, turncap_text)
_catchup_end = end_oracle("catch-up", catchup_holds, catchup_text)
