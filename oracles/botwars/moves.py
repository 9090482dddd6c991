"""Oracles for the moves: BOTWARS-MOVE and its open points, collisions, invalid moves."""

from __future__ import annotations

from collections.abc import Callable

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import steps
from gamecert.oracles.botwars.model.steps import Step
from gamecert.spec import Profile


def _verdict(problems: list[str]) -> Verdict:
    return Violation("; ".join(problems)) if problems else OK


def combine(*verdicts: Verdict) -> Verdict:
    """The first violation; else OK when any part applied; else NA."""
    for v in verdicts:
        if isinstance(v, Violation):
            return v
    return OK if any(v is OK for v in verdicts) else NA


# the rules an entry of a list can break; an engine naming any other is BOTWARS-MOVE's affair
ENTRY_RULES = frozenset({"BOTWARS-MOVE", "BOTWARS-MOVE-STAY", "BOTWARS-MOVE-OCCUPIED",
                         "BOTWARS-MOVE-SWAP", "BOTWARS-MOVE-SAME-TARGET",
                         "BOTWARS-MOVE-ENERGY"})


def _charged(rule: str, want: set[str], said: str | None, missed: bool = False) -> bool:
    """Is a disagreement on one entry `rule`'s to answer for? Each one is charged to the
    rules it is about, so a broken rule shows at its own oracle only: the rules the entry
    breaks when the engine lets it pass, or when it names a reason of a later stage than
    theirs (`missed`: the engine skipped the check that comes first, and its later stage
    only judged what that mistake left); the rule the engine names when that is not one
    the entry breaks (an entry called invalid without cause, or for the wrong reason)."""
    if said is None or (missed and want and said not in want):
        return rule in want
    named = said if said in ENTRY_RULES else "BOTWARS-MOVE"
    return named == rule and said not in want


# the stage of the list's judgement (see model.ListJudgement.stage) each reason belongs to
REASON_STAGE = {"not-own-botlet": 0, "off-field": 0, "not-adjacent": 0, "stay": 0, "energy": 0,
                "occupied": 0, "moved-twice": 1, "same-target": 2, "swap": 3}


def _first(step: Step) -> set[int]:
    """`_first_disagreements` of a submission's list, computed once per transition."""
    if step.first is None:
        assert step.judged is not None
        r, judged, player = step.judged
        step.first = _first_disagreements(r, step.t.before["grid"], m.SIDE[player], judged,
                                          step.t.events, player)
    return step.first


def _first_disagreements(r: m.Readings, grid: str, side: int, judged: m.ListJudgement,
                         events: list[m.JSON], player: str) -> set[int]:
    """The entries on which the engine and the rules first part ways. The stages of a
    list's judgement build on each other (an entry that wrongly stands names its botlet, so
    a later entry for it is 'moved twice'), so only the disagreements of the earliest stage
    at which any appears are a rule's own; the later ones follow from them."""
    said = m.engine_invalid(events, player)
    reasons = m.engine_reasons(events, player)
    stages: dict[int, int] = {}
    for i, want in enumerate(judged.broken):
        if bool(want) == (i in said) and (i not in said or said[i] in want):
            continue
        theirs = _their_stage(r, grid, side, judged, reasons, i) if i in said else 9
        stages[i] = min(judged.stage[i] if want else 9, theirs)
    first = min(stages.values(), default=0)
    return {i for i, s in stages.items() if s == first}


def _their_stage(r: m.Readings, grid: str, side: int, judged: m.ListJudgement,
                 reasons: dict[int, str], i: int) -> int:
    """The stage of the list's judgement the engine's reason for entry `i` belongs to."""
    theirs = REASON_STAGE.get(reasons.get(i, ""), 0)
    to = judged.moves[i][1]
    if (theirs == 0 and reasons.get(i) == "occupied" and r.follow_own
            and r.on_field(to) and grid[to] == m.LIVE[side]):
        theirs = 3  # following an own botlet that stays is judged late
    return theirs


def _entries_checked(t: Transition, profile: Profile, rule: str,
                     concerns: Callable[[Step, int], bool] | None) -> Verdict:
    """For the entries that `concerns` picks (every entry when it is None), and those the
    engine says break `rule`: does the engine call each valid or invalid as the rules do,
    and name a rule the entry really breaks? Only disagreements charged to `rule` (see
    `_charged`) are its violations. What every move oracle reads of the list (its
    judgement, what the engine says of it, where they first part ways) is the transition's
    `Step`'s, derived once."""
    step = steps.step(t, m.readings(profile))
    ctx = step.judged
    if ctx is None:
        return NA
    judged = ctx[1]
    said = step.said
    if concerns is None:
        picked = list(range(len(judged.moves)))
    elif said:
        picked = [i for i in range(len(judged.moves)) if said.get(i) == rule or concerns(step, i)]
    elif rule in _NONE_CONCERN and _NONE_CONCERN[rule](step):
        picked = []  # no entry is of this rule's concern: known from the step's facts
    else:
        picked = [i for i in range(len(judged.moves)) if concerns(step, i)]
    if not picked:
        return NA
    first = _first(step)
    reasons = step.reasons
    if not first and not said:
        # the rules and the engine agree on every entry, and no entry is called invalid:
        # `_charges` would pass over each picked entry (`i not in first`)
        return OK
    return _verdict(_charges(step, rule, picked, first, reasons))


def _onto_none(chars: str) -> Callable[[Step], bool]:
    """Does no entry step onto a square holding one of `chars` (`_step_onto` of each)?"""
    def none(step: Step) -> bool:
        return not any(c in step.onto_held for c in chars)
    return none


def _stay_none(step: Step) -> bool:
    """No entry is a stay of an own botlet (`_stay_concerns` of each, at once)."""
    assert step.judged is not None
    _, j, player = step.judged
    grid, own = step.t.before["grid"], m.LIVE[m.SIDE[player]]
    size = len(grid)
    return not any(f == to and isinstance(f, int) and 0 <= f < size and grid[f] == own
                   for f, to in j.moves)


def _swap_none(step: Step) -> bool:
    """No entry steps onto an own botlet (so none is `_swap_concerns`')."""
    assert step.judged is not None
    return m.LIVE[m.SIDE[step.judged[2]]] not in step.onto_held


def _same_target_none(step: Step) -> bool:
    _same_target_concerns(step, 0)  # computes step.crowded
    return not step.crowded


# per rule, when no entry is called invalid: is it known from the step's facts that
# `concerns` picks no entry? (A yes must be right; a no only sends the check to ask each
# entry. tests/botwars/test_speedups.py checks both.)
_NONE_CONCERN: dict[str, Callable[[Step], bool]] = {}


def _charges(step: Step, rule: str, picked: list[int], first: set[int],
             reasons: dict[int, str]) -> list[str]:
    """The disagreements on the `picked` entries of a submitted list charged to `rule`."""
    assert step.judged is not None
    r, judged, player = step.judged
    side, said, t = m.SIDE[player], step.said, step.t
    problems = []
    for i in picked:
        f, to = judged.moves[i]
        want = judged.broken[i]
        missed = i in said and bool(want) and judged.stage[i] < _their_stage(
            r, t.before["grid"], side, judged, reasons, i)
        if i not in first or not _charged(rule, want, said.get(i), missed):
            continue
        if bool(want) != (i in said):
            verdict = "invalid, breaking " + ", ".join(sorted(want)) if want else "valid"
            problems.append(f"{player}'s entry {i} ({f} -> {to}) is {verdict}, but the "
                            f"engine calls it {'invalid' if i in said else 'valid'}"
                            + (f" ({said[i]})" if i in said else ""))
        else:
            problems.append(f"{player}'s entry {i} ({f} -> {to}) is said to break {said[i]}, "
                            f"but it breaks {', '.join(sorted(want))}")
    return problems


def _entries_agree(step: Step) -> bool:
    """Does the engine call the same entries invalid as the rules? (When it does not, the
    entry oracles report it; what the list then carries out follows from that mistake.)"""
    return sorted(step.said) == step.invalid


def _own_single(grid: str, side: int, f: object) -> bool:
    return isinstance(f, int) and 0 <= f < len(grid) and grid[f] == m.LIVE[side]


def _step_onto(step: Step, i: int, chars: str) -> bool:
    """Is entry `i` one step of an own botlet onto an adjacent square holding one of
    `chars` (`Step.onto`)?"""
    there = step.onto[i]
    return there is not None and there in chars


# --- BOTWARS-MOVE --------------------------------------------------------------------------
def move_check(t: Transition, profile: Profile) -> Verdict:
    """Each entry judged as the rules judge it, the moves carried out are exactly the valid
    ones that BOTWARS-MOVE-INVALID keeps, and on the field each is one step of a live own
    botlet."""
    return combine(_entries_checked(t, profile, "BOTWARS-MOVE", None),
                   _carried(t, profile), _moves_on_field(t, profile))


def _carried(t: Transition, profile: Profile) -> Verdict:
    step = steps.step(t, m.readings(profile))
    ctx = step.judged
    if ctx is None or not ctx[1].moves:
        return NA
    r, judged, player = ctx
    if step.invalid or not _entries_agree(step):
        return NA  # BOTWARS-MOVE-INVALID's case, or an entry oracle's
    took = step.took
    want = judged.carried_out(r)
    if took is not None and took != want:
        return Violation(f"{player}'s moves carried out are {took}, the rules carry out {want}")
    return OK


def _moves_on_field(t: Transition, profile: Profile) -> Verdict:
    """On a resolution: the moves that happened are one step of a live own botlet, each
    botlet at most once, only from the accepted lists."""
    r = m.readings(profile)
    if not steps.step(t, r).resolution:
        return NA
    moved = steps.step(t, r).of("moved")
    if not moved:
        return NA
    problems = []
    entering = _entering(t, r)
    accepted = {"p1": set(entering["p1"]), "p2": set(entering["p2"])}
    start = m.cleared_view(t.before["grid"])
    seen: set[int] = set()
    size, near = r.size, r.neighbour_sets()  # `r.adjacent` of a square of the field
    for e in moved:
        f, to, player = e["from"], e["to"], e["player"]
        if start[f] != _OWN[player] or to not in (
                near[f] if type(f) is int and 0 <= f < size else r.adjacent(f)):
            problems.append(f"{player} moved {f} -> {to}: not one step of its own botlet")
        if f in seen:
            problems.append(f"the botlet on {f} moved twice")
        seen.add(f)
        if (f, to) not in accepted[player]:
            problems.append(f"{player} moved {f} -> {to}, which its list did not carry")
    return _verdict(problems)


# --- the open points of a single move ------------------------------------------------------
# each bot's live botlet (model.LIVE[model.SIDE[player]] in one lookup, with the same
# KeyError for another player)
_OWN = {player: m.LIVE[side] for player, side in m.SIDE.items()}


def _stay_concerns(step: Step, i: int) -> bool:
    assert step.judged is not None
    _, j, player = step.judged
    f, to = j.moves[i]
    return f == to and _own_single(step.t.before["grid"], m.SIDE[player], f)


def stay_check(t: Transition, profile: Profile) -> Verdict:
    return combine(_entries_checked(t, profile, "BOTWARS-MOVE-STAY", _stay_concerns),
                   _stays_reported(t, profile))


def _stays_reported(t: Transition, profile: Profile) -> Verdict:
    """no-op: every valid stay of a turn that is not lost is reported, and nothing else."""
    step = steps.step(t, m.readings(profile))
    ctx = step.judged
    if ctx is None:
        return NA
    r, judged, player = ctx
    if not _entries_agree(step):
        return NA  # whether the turn is lost hangs on an entry another oracle judges
    stayed = {e["at"] for e in steps.step(t, r).of("stayed") if e["player"] == player}
    want = set() if judged.invalid and r.lose_turn else {judged.moves[i][0] for i in judged.stays}
    if not stayed and not want:
        return NA
    if stayed != want:
        return Violation(f"{player}'s botlets staying put are {sorted(want)}, the engine "
                         f"reports {sorted(stayed)}")
    return OK


def _occupied_concerns(step: Step, i: int) -> bool:
    return _step_onto(step, i, "12")


def occupied_check(t: Transition, profile: Profile) -> Verdict:
    return _entries_checked(t, profile, "BOTWARS-MOVE-OCCUPIED", _occupied_concerns)


def _swap_concerns(step: Step, i: int) -> bool:
    assert step.judged is not None
    _, j, player = step.judged
    if not _step_onto(step, i, m.LIVE[m.SIDE[player]]):
        return False
    f, to = j.moves[i]
    return any(k != i and j.moves[k] == (to, f) for k in range(len(j.moves)))


def swap_check(t: Transition, profile: Profile) -> Verdict:
    return _entries_checked(t, profile, "BOTWARS-MOVE-SWAP", _swap_concerns)


def same_target_check(t: Transition, profile: Profile) -> Verdict:
    return combine(_entries_checked(t, profile, SAME_TARGET, _same_target_concerns),
                   _crowds_on_field(t, profile))


SAME_TARGET = "BOTWARS-MOVE-SAME-TARGET"


def _same_target_concerns(step: Step, i: int) -> bool:
    if step.crowded is None:
        assert step.judged is not None
        step.crowded = _crowded(step.judged[0], step.judged[1])
    return i in step.crowded


def _crowded(r: m.Readings, j: m.ListJudgement) -> frozenset[int]:
    """The entries whose target the same-target rule is about: those it breaks, and the
    others that share a target with such an entry (or, under die-there, with another move
    that stands). `_plain_crowded` asks the same of each pair of entries; here each target
    is counted once (for a list of integer squares, whose equality is a dict's)."""
    targets = [to for _, to in j.moves]
    if not all(type(to) is int for to in targets):
        return _plain_crowded(r, j)
    if len(set(targets)) == len(targets) and not any(SAME_TARGET in b for b in j.broken):
        return frozenset()  # no two entries share a target, and the rule broke none
    stands = [not b and i not in j.stays for i, b in enumerate(j.broken)]
    out = {i for i, b in enumerate(j.broken) if SAME_TARGET in b}
    if r.crowd_dies:  # every move of a crowd stands: each is this rule's concern
        count: dict[int, int] = {}
        for i, to in enumerate(targets):
            if stands[i]:
                count[to] = count.get(to, 0) + 1
        out |= {i for i, to in enumerate(targets) if stands[i] and count[to] > 1}
    else:
        broken_at = {to for i, to in enumerate(targets) if SAME_TARGET in j.broken[i]}
        out |= {i for i, to in enumerate(targets) if not j.broken[i] and to in broken_at}
    return frozenset(out)


def _plain_crowded(r: m.Readings, j: m.ListJudgement) -> frozenset[int]:
    """`_crowded`, entry by entry against every other."""
    rule = SAME_TARGET

    def concerns(i: int) -> bool:
        if rule in j.broken[i]:
            return True
        if r.crowd_dies:  # every move of a crowd stands: each is this rule's concern
            return not j.broken[i] and i not in j.stays and any(
                k != i and j.moves[k][1] == j.moves[i][1] and not j.broken[k]
                and k not in j.stays for k in range(len(j.moves)))
        return not j.broken[i] and any(k != i and j.moves[k][1] == j.moves[i][1]
                                       and rule in j.broken[k] for k in range(len(j.moves)))
    return frozenset(i for i in range(len(j.moves)) if concerns(i))


def _entering(t: Transition, r: m.Readings) -> dict[str, list[tuple[int, int]]]:
    """On a resolution: each bot's moves carried out into step 1 (p1's pending list, p2's
    moves as the engine reports them): `Step.entering`, shared (only read it)."""
    return steps.step(t, r).entering


def _crowds_on_field(t: Transition, profile: Profile) -> Verdict:
    """die-there: where several botlets of one bot (and none of the other) move onto one
    square, all of them enter it and die there; under the other readings nobody dies so."""
    r = m.readings(profile)
    step = steps.step(t, r)
    if not step.resolution:
        return NA
    _entering(t, r)
    # BOTWARS-MOVE-COLLIDE's to judge (none when no event is of these types)
    bounced = set() if step.has_type("bounced", "collided") is False else {
        (e["player"], e["from"]) for e in t.events if e["type"] in ("bounced", "collided")}
    into = step.into  # shared with collide_check
    want = {(p, f, to) for to, group in into.items() if len(group) > 1
            and len({p for p, _ in group}) == 1 for p, f in group if (p, f) not in bounced}
    got = {(e["player"], e.get("from"), e["at"]) for e in step.of("died", SAME_TARGET)}
    if not want and not got:
        return NA
    if not r.crowd_dies:  # a crowd that should not stand is for the entry checks to name
        return (Violation(f"botlets died for moving onto one square: {sorted(got, key=str)}")
                if got else NA)
    problems = []
    if got != want:
        problems.append(f"botlets of one bot moving onto one square die there: "
                        f"{sorted(want)}, the engine: {sorted(got, key=str)}")
    moved = {(e["player"], e["from"], e["to"]) for e in step.of("moved")}
    if want - moved:
        problems.append(f"the botlets {sorted(want - moved)} must enter the square they die on")
    return _verdict(problems)


def _energy_concerns(step: Step, i: int) -> bool:
    return _step_onto(step, i, "*")


def energy_check(t: Transition, profile: Profile) -> Verdict:
    return combine(_entries_checked(t, profile, "BOTWARS-MOVE-ENERGY", _energy_concerns),
                   _energy_on_field(t, profile))


def _energy_on_field(t: Transition, profile: Profile) -> Verdict:
    """On a resolution: a botlet that stepped onto energy gathered it (gather); under
    blocked none did."""
    r = m.readings(profile)
    step = steps.step(t, r)
    if not step.resolution:
        return NA
    start = m.cleared_view(t.before["grid"])
    crowded = {e["at"] for e in step.of("died") if "from" in e}  # die-there
    want = sorted((e["player"], e["to"]) for e in step.of("moved")
                  if start[e["to"]] == "*" and e["to"] not in crowded)
    got = sorted((e["player"], e["at"]) for e in
                 step.of("energy-collected", "BOTWARS-MOVE-ENERGY"))
    if not want and not got:
        return NA
    if not r.gather and want:
        return Violation(f"botlets moved onto energy at {[sq for _, sq in want]}")
    if got != want:
        return Violation(f"energy gathered by moving onto it should be {want}, the engine "
                         f"reports {got}")
    return OK


# --- BOTWARS-MOVE-COLLIDE ------------------------------------------------------------------
def collide_check(t: Transition, profile: Profile) -> Verdict:
    r = m.readings(profile)
    step = steps.step(t, r)
    if not step.resolution:
        return NA
    lists = _entering(t, r)
    into = step.into  # shared with _crowds_on_field
    clash = {sq for sq, group in into.items() if len({p for p, _ in group}) == 2}
    reported = step.naming("BOTWARS-MOVE-COLLIDE")
    if not clash and not reported:
        return NA
    halted = set() if r.collide_there else clash  # die-there: they all enter
    stopped: dict[str, set[int]] = {p: {f for sq in halted for q, f in into[sq] if q == p}
                                    for p in lists}
    for p in lists:
        while True:
            more = {f for f, to in lists[p] if to in stopped[p]} - stopped[p]
            if not more:
                break
            stopped[p] |= more
    problems = []
    for p in lists:
        halts = {e["from"] for e in reported if e["player"] == p
                 and e["type"] in ("bounced", "collided")}
        if halts != stopped[p]:
            problems.append(f"{p}'s botlets that must stay put are {sorted(stopped[p])}, the "
                            f"engine stops {sorted(halts)}")
        moved_from = {e["from"] for e in step.of("moved") if e["player"] == p}
        if moved_from & stopped[p]:
            problems.append(f"{p}'s botlets on {sorted(moved_from & stopped[p])} moved anyway")
        if r.collide_there:
            want_dead = {(f, sq) for sq in clash for q, f in into[sq] if q == p}
            if want_dead - {(f, sq) for f, sq in lists[p] if f in moved_from}:
                problems.append(f"{p}'s botlets colliding on a square must move onto it")
        else:
            want_dead = ({(f, f) for sq in clash for q, f in into[sq] if q == p}
                         if r.collide_kills else set())
        dead = {(e.get("from", e["at"]), e["at"]) for e in reported
                if e["type"] == "died" and e["player"] == p}
        if dead != want_dead:
            where = "on the square" if r.collide_there else "where they stand"
            problems.append(f"{p}'s botlets killed by collisions ({where}) should be (from, at) "
                            f"{sorted(want_dead)}, the engine kills {sorted(dead)}")
    return _verdict(problems)


# --- BOTWARS-MOVE-INVALID ------------------------------------------------------------------
def invalid_check(t: Transition, profile: Profile) -> Verdict:
    step = steps.step(t, m.readings(profile))
    ctx = step.judged
    if ctx is None:
        return NA
    r, judged, player = ctx
    said = step.said
    if not step.invalid and not said:
        return NA
    if sorted(said) != step.invalid:
        return NA  # which entries are invalid is judged entry by entry, by their own rules
    problems = []
    took = step.took
    want = judged.carried_out(r)
    if took is not None and took != want:
        reading = "the whole turn is lost" if r.lose_turn else "only invalid moves are dropped"
        problems.append(f"{reading}: {player}'s moves carried out should be {want}, the engine "
                        f"carries out {took}")
    lost = [e for e in t.events if e["type"] == "turn-lost" and e["player"] == player]
    if judged.invalid and bool(lost) != r.lose_turn:
        problems.append("a list with invalid moves should be reported as "
                        + ("a lost turn" if r.lose_turn else "dropped moves"))
    if t.after["phase"] == "over" and t.after["endReason"] == "disqualified":
        problems.append("invalid moves never disqualify")
    return _verdict(problems)


def invalid_judge(state: object, action: object, accepted: bool, profile: Profile) -> Verdict:
    """Every well-formed list is accepted when a bot is to move: invalid moves are ignored,
    never refused."""
    if not (isinstance(state, dict) and isinstance(action, dict) and m.well_formed(action)):
        return NA
    if state.get("phase") not in ("p1", "p2") or action.get("type") != "moves":
        return NA
    r = m.readings(profile)
    moves = m.moves_of(action)
    if not m.judge_list(r, state["grid"], m.SIDE[state["phase"]], moves).invalid:
        return NA
    return OK if accepted else Violation("a list with invalid moves was refused; the rules "
                                         "ignore invalid moves")


# --- legal listings ------------------------------------------------------------------------
def listed(rule: str) -> Callable[[m.JSON, m.JSON, bool, Profile], Verdict]:
    """A `listed` hook for one move rule: the listing of a bot's phase is the empty list and
    every list of one valid move (a valid stay included). A listed list whose move breaks
    rules is charged to those rules; a valid one left out, or a longer list listed, to
    BOTWARS-MOVE."""

    def hook(state: m.JSON, action: m.JSON, shown: bool, profile: Profile) -> Verdict:
        if not (isinstance(state, dict) and m.well_formed(action)):
            return NA
        if state.get("phase") not in ("p1", "p2") or action.get("type") != "moves":
            return NA
        moves = m.moves_of(action)
        if len(moves) > 1:
            return (Violation(f"a list of {len(moves)} moves is listed as legal")
                    if shown and rule == "BOTWARS-MOVE" else NA)
        r = m.readings(profile)
        broken = m.judge_list(r, state["grid"], m.SIDE[state["phase"]], moves).broken
        want = broken[0] if moves else set()
        charged = want if want else {"BOTWARS-MOVE"}
        if rule not in charged:
            return NA
        if shown == (not want):
            return OK
        what = f"{moves[0][0]} -> {moves[0][1]}" if moves else "the empty list"
        if shown:
            return Violation(f"{what} is listed as legal, but it breaks "
                             f"{', '.join(sorted(want))}")
        return Violation(f"{what} is a valid move, but the legal listing leaves it out")

    return hook


_NONE_CONCERN.update({"BOTWARS-MOVE-STAY": _stay_none,
                      "BOTWARS-MOVE-OCCUPIED": _onto_none("12"),
                      "BOTWARS-MOVE-ENERGY": _onto_none("*"),
                      "BOTWARS-MOVE-SWAP": _swap_none,
                      SAME_TARGET: _same_target_none})
