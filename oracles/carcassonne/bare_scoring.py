"""State-only forms of the Carcassonne scoring oracles: which scoring rule's departure turns
what the rules give in a step into the scores the engine shows.

`scoring.step_scoring` says what each feature (and farm) scored in a step is worth and who
scores it. Each rule here has a short list of its own ways to be broken (a completed town
without its banner bonus, open towns' banners at another value, a tie paid to nobody...),
each a change of the values or scorers of that rule's items only; a rule objects, naming
that way as the cause, when the change applied to all its items, or to one of them, gives
exactly the engine's scores. A difference none of a rule's ways explains is not that
rule's (NA): another rule's, or an unexplained difference.

Written from the rule texts; never from the reference engine. Judges only; computes no
board of its own (`scoring`, `board`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, cause
from gamecert.oracles.carcassonne.scoring import Scored, StepScoring, step_scoring, value
from gamecert.spec import Profile

JSON = Any
# a change of one item: its (value, scorers) under the departure, or None: as the rules say
Change = Callable[[Scored], tuple[int, tuple[int, ...]] | None]
KIND_OF = {"CARC-ROAD-COMPLETE": "road", "CARC-TOWN-COMPLETE": "city",
           "CARC-MONASTERY-COMPLETE": "monastery"}


def _scoring(t: Transition, p: Profile) -> StepScoring | None:
    return step_scoring(t.before, t.action, t.after, p)


def _gives(scoring: StepScoring, change: Change, only: Iterable[Scored]) -> bool:
    """Whether `change`, applied to the items `only`, gives the engine's score changes."""
    chosen = [id(s) for s in only]
    got = list(scoring.expected)
    for s in scoring.items:
        if id(s) not in chosen:
            continue
        new = change(s)
        if new is None:
            continue
        for q in s.scorers:
            got[q - 1] -= s.value
        for q in new[1]:
            got[q - 1] += new[0]
    return tuple(got) == scoring.delta


def _explains(scoring: StepScoring, change: Change, items: list[Scored]) -> Scored | None:
    """The item `change` is shown on when, applied to all of `items` or to one of them, it
    gives the engine's scores (and changes something); None when it does not."""
    touched = [s for s in items if change(s) not in (None, (s.value, s.scorers))]
    if not touched:
        return None
    if _gives(scoring, change, touched):
        return touched[0]
    return next((s for s in touched if _gives(scoring, change, [s])), None)


def _where(s: Scored) -> str:
    return f"the {s.feature.kind} at {s.feature.tile_list()[0]}"


def _kept(s: Scored, v: int) -> tuple[int, tuple[int, ...]]:
    return v, s.scorers


def _split(s: Scored) -> tuple[int, tuple[int, ...]] | None:
    """Tied scorers sharing the points out, rounded down."""
    k = len(s.scorers)
    return (s.value // k, s.scorers) if k > 1 else None


def _split_up(s: Scored) -> tuple[int, tuple[int, ...]] | None:
    k = len(s.scorers)
    return (-(-s.value // k), s.scorers) if k > 1 else None


def _majority_ways(what: str) -> list[tuple[str, Change, Callable[[Scored], str]]]:
    def lowest(s: Scored) -> tuple[int, tuple[int, ...]] | None:
        return (s.value, s.scorers[:1]) if len(s.scorers) > 1 else None

    def nobody(s: Scored) -> tuple[int, tuple[int, ...]] | None:
        return (s.value, ()) if len(s.scorers) > 1 else None

    def every_holder(s: Scored) -> tuple[int, tuple[int, ...]] | None:
        holders = tuple(i + 1 for i, c in enumerate(s.feature.meeples) if c)
        return (s.value, holders) if holders != s.scorers else None

    return [
        ("tie-points-split", _split, lambda s: f"a {what} worth {s.value} with meeples "
         f"{s.feature.meeples} was shared out among the tied players; each gets the full "
         f"points"),
        ("tie-points-split", _split_up, lambda s: f"a {what} worth {s.value} with meeples "
         f"{s.feature.meeples} was shared out among the tied players; each gets the full "
         f"points"),
        ("tie-scores-nobody", nobody, lambda s: f"a {what} with meeples {s.feature.meeples} "
         f"tied for the most paid nobody; the majority rule pays {list(s.scorers)}"),
        ("tie-one-scorer", lowest, lambda s: f"a {what} with meeples {s.feature.meeples} paid "
         f"player {s.scorers[0]} only; every tied player scores: {list(s.scorers)}"),
        ("minority-scores", every_holder, lambda s: f"a {what} with meeples "
         f"{s.feature.meeples} paid every player with a meeple on it; the majority rule "
         f"pays {list(s.scorers)}"),
    ]


def _judge(t: Transition, p: Profile, pick: Callable[[Scored], bool],
           ways: list[tuple[str, Change, Callable[[Scored], str]]]) -> Verdict:
    """NA when the step scores nothing of this rule; OK when the scores are what the rules
    give; the first of `ways` that explains them; else NA (not this rule's departure)."""
    scoring = _scoring(t, p)
    if scoring is None:
        return NA
    items = [s for s in scoring.items if pick(s)]
    if not items:
        return NA
    if scoring.expected == scoring.delta:
        return OK
    for tag, change, say in ways:
        shown = _explains(scoring, change, items)
        if shown is not None:
            return cause(tag, say(shown))
    return NA


def _valued(v: int) -> Change:
    def change(s: Scored) -> tuple[int, tuple[int, ...]]:
        return v, s.scorers
    return change


def _banner_way(b: int, town: int, per_banner: int
                ) -> tuple[str, Change, Callable[[Scored], str]]:
    """Open towns' banners counted `b` each."""
    def worth(s: Scored) -> int:
        return len(s.feature.tiles) * town + b * s.feature.banners

    def change(s: Scored) -> tuple[int, tuple[int, ...]] | None:
        return _kept(s, worth(s)) if s.feature.kind == "city" and s.feature.banners else None

    def say(s: Scored) -> str:
        return (f"an incomplete town of {len(s.feature.tiles)} tiles and {s.feature.banners} "
                f"banners is worth {s.value}, scored {worth(s)}: its banners counted {b} "
                f"each, not {per_banner}")
    return "town-banner-value", change, say


def _with_read_values(t: Transition, p: Profile, pick: Callable[[Scored], bool],
                      ways: list[tuple[str, Change, Callable[[Scored], str]]],
                      kind_words: str) -> Verdict:
    """`_judge`, then any other value for one item (its scorers right), read off its first
    scorer's difference, where that alone gives the engine's scores."""
    verdict = _judge(t, p, pick, ways)
    scoring = _scoring(t, p)
    if verdict is not NA or scoring is None:
        return verdict
    for s in (s for s in scoring.items if pick(s) and s.scorers):
        q = s.scorers[0]
        v = s.value + scoring.delta[q - 1] - scoring.expected[q - 1]
        shared = len(s.scorers) > 1 and v in (s.value // len(s.scorers),
                                              -(-s.value // len(s.scorers)))
        if v != s.value and not shared and _gives(scoring, _valued(v), [s]) \
                and not _absorbed_elsewhere(scoring, pick, q):
            return cause("wrong-value", f"{_where(s)} ({len(s.feature.tiles)} tiles) is worth "
                                        f"{s.value} {kind_words}, scored {v}")
    return NA


def _absorbed_elsewhere(scoring: StepScoring, pick: Callable[[Scored], bool], q: int) -> bool:
    """Whether player `q`'s difference, read onto an item another rule scores (a farm
    beside a final town, say), gives the engine's scores as well: then one step cannot tell
    which rule's item was valued wrong, and a read value names neither (a difference the
    engine's own derived state makes, fields joined its way, shows exactly so)."""
    diff = scoring.delta[q - 1] - scoring.expected[q - 1]
    return any(not pick(o) and q in o.scorers
               and _gives(scoring, _valued(o.value + diff), [o]) for o in scoring.items)


# --- the rules -------------------------------------------------------------------------------
def completion(rule: str) -> Callable[[Transition, Profile], Verdict]:
    """CARC-ROAD/TOWN/MONASTERY-COMPLETE: every feature of its kind the step completes is
    scored, at its completed value."""
    kind = KIND_OF[rule]

    def check(t: Transition, p: Profile) -> Verdict:
        banner = int(p.param("CARC-TOWN-COMPLETE", "points_per_banner"))
        per_tile = int(p.param("CARC-TOWN-COMPLETE", "points_per_tile"))
        ways: list[tuple[str, Change, Callable[[Scored], str]]] = [
            ("not-scored", lambda s: _kept(s, 0),
             lambda s: f"{_where(s)} was completed this turn but never scored (worth "
                       f"{s.value})")]
        if kind == "city":
            ways.append(("no-banner-bonus",
                         lambda s: _kept(s, len(s.feature.tiles) * per_tile)
                         if s.feature.banners else None,
                         lambda s: f"a completed town of {len(s.feature.tiles)} tiles and "
                                   f"{s.feature.banners} banners is worth {s.value}, paid "
                                   f"{s.value - s.feature.banners * banner}: without its "
                                   f"banner bonus"))
        return _with_read_values(
            t, p, lambda s: s.how == "complete" and s.feature.kind == kind, ways, "completed")
    return check


def majority(t: Transition, p: Profile) -> Verdict:
    """CARC-SCORE-MAJORITY: a scored feature pays every player with the most meeples the
    full points, and nobody else."""
    return _judge(t, p, lambda s: s.how in ("complete", "final") and any(s.feature.meeples)
                  and s.value > 0, _majority_ways("feature"))


def farm_majority(t: Transition, p: Profile) -> Verdict:
    """CARC-FARM-MAJORITY: a farm pays every player with the most farmers on it."""
    return _judge(t, p, lambda s: s.how == "farm" and s.value > 0, _majority_ways("field"))


def incomplete(t: Transition, p: Profile) -> Verdict:
    """CARC-SCORE-INCOMPLETE: at the end every feature still holding meeples is scored once,
    at the incomplete rate."""
    town = int(p.param("CARC-SCORE-INCOMPLETE", "town_per_tile"))
    per_banner = int(p.param("CARC-SCORE-INCOMPLETE", "town_per_banner"))
    ways: list[tuple[str, Change, Callable[[Scored], str]]] = [
        ("not-scored", lambda s: _kept(s, 0),
         lambda s: f"{_where(s)}, holding meeples {s.feature.meeples}, was not scored at the "
                   f"end (worth {s.value})")]
    for b in range(0, 5):
        if b == per_banner:
            continue
        ways.append(_banner_way(b, town, per_banner))
    ways.append(("monastery-as-complete",
                 lambda s: _kept(s, value(s.feature, "complete", p))
                 if s.feature.kind == "monastery" else None,
                 lambda s: f"an incomplete monastery of {s.feature.present} tiles scored "
                           f"{value(s.feature, 'complete', p)}, as if complete"))
    return _with_read_values(t, p, lambda s: s.how == "final", ways, "left open")


def farm_score(t: Transition, p: Profile) -> Verdict:
    """CARC-FARM-SCORE: at the end each field with farmers is worth points_per_town for each
    completed town it borders, each town once."""
    if not p.param("CARC-FARM-FIELDS", "enabled"):
        return NA
    rate = int(p.param("CARC-FARM-SCORE", "points_per_town"))
    ways: list[tuple[str, Change, Callable[[Scored], str]]] = [
        ("not-scored", lambda s: _kept(s, 0),
         lambda s: f"the field at {s.feature.tile_list()[0]} with farmers {s.feature.meeples} "
                   f"was not scored (worth {s.value})"),
        ("open-towns-counted", lambda s: _kept(s, rate * len(s.feature.towns)),
         lambda s: f"the field at {s.feature.tile_list()[0]} scored "
                   f"{rate * len(s.feature.towns)}: every town it borders counted, completed "
                   f"or not (worth {s.value})")]
    return _with_read_values(t, p, lambda s: s.how == "farm", ways, "as a farm")


COMPLETION_FORMS = {rule: completion(rule) for rule in KIND_OF}
