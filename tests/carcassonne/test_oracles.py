"""The Carcassonne oracles: silent on the reference engine, loud on broken transitions."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from gamecert.oracles.base import NA, OK, Transition, Violation
from gamecert.oracles.carcassonne import HARNESS_RULES, ORACLES
from gamecert.oracles.carcassonne import z3_checks as Z
from gamecert.reference_engine.carcassonne.engine import CarcState, pack
from gamecert.reference_engine.carcassonne.protocol import frame
from gamecert.reference_engine.contract import CHANCE, IllegalAction
from gamecert.spec import Profile

from .helpers import CATALOGUE, ENGINE, crafted, load, play, profile

BY_RULE = {o.rule: o for o in ORACLES}
T = ENGINE.initial(profile()).cfg.t
ROAD_END = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -1, "W", 3)]
MONASTERY = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -1, "B", 0), (0, -2, "E", 0),
             (1, -2, "E", 0), (2, -2, "E", 0), (2, -1, "E", 1), (2, 0, "E", 2)]
LOOP = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -2, "V", 3), (1, -1, "V", 2), (2, -1, "V", 1)]
TOWN = [(0, 0, "RS", 0), (0, -1, "RE", 0), (-2, -2, "E", 1), (-1, -2, "G", 1),
        (0, -2, "F", 0), (1, -2, "F", 0), (2, -2, "N", 0), (2, -3, "N", 3)]


def transition(before: CarcState, action: tuple[Any, ...]) -> Transition:
    after, events = ENGINE.apply(before, action)
    return Transition(ENGINE.observe(before), ENGINE.action_to_json(before, action),
                      ENGINE.observe(after), events)


def crafted_transitions() -> list[tuple[Profile, Transition]]:
    """Rule situations random play rarely reaches."""
    out = []
    base, official = profile(), profile("official-order")
    s = load(crafted(ROAD_END[:2], hands=[["C"], [], [], []]))
    out.append((base, transition(s, ("discard", T.index["C"]))))
    s = load(crafted(ROAD_END, meeples=[(1, -1, "right", 1)], hands=[["W"], [], [], []],
                     scores=[48, 0, 0, 0]))
    out.append((base, transition(s, ("place", T.index["W"], pack(2, -1), 1))))
    s = load(crafted(ROAD_END, pid="official-order", meeples=[(1, -1, "right", 1)],
                     hands=[["W"], [], []], scores=[48, 0, 0]))
    t = transition(s, ("place", T.index["W"], pack(2, -1), 1))
    out.append((official, t))
    out.append((official, transition(ENGINE.load(official, t.after), ("claim", 0))))
    s = load(crafted(MONASTERY, meeples=[(1, -1, "monastery", 3)], hands=[["B"], [], [], []]))
    out.append((base, transition(s, ("place", T.index["B"], pack(1, 0), 0))))
    s = load(crafted(LOOP, meeples=[(1, -2, "right", 1), (2, -1, "top", 2)],
                     hands=[[], [], ["V"], []], to_move=3))
    out.append((base, transition(s, ("place", T.index["V"], pack(2, -2), 0))))
    s = load(crafted(TOWN, meeples=[(-2, -2, "right", 1), (0, -2, "right", 1),
                                    (2, -3, "bottom", 2)], step="claim", to_move=2,
                     placed=(2, -3), deck_left=0))
    out.append((base, transition(s, ("pass",))))
    s = load(crafted(ROAD_END, hands=[["W"], [], [], []]))
    placed = transition(s, ("place", T.index["W"], pack(2, -1), 1))
    out.append((base, placed))
    out.append((base, transition(load(placed.after), ("claim", 0))))
    tower = profile("syncs-2025-tower")
    o = crafted(ROAD_END, pid=tower.id, hands=[["W"], [], [], []], scores=[3, 0, 0, 0])
    o["prisoners"][1][0], o["supply"][0] = 1, 6  # player 2 holds one of player 1's meeples
    out.append((tower, transition(load(o), ("ransom", 2))))
    return out


def run_hooks(prof: Profile, t: Transition, seen: Counter[str]) -> None:
    for o in ORACLES:
        for hook, arg in ((o.check, t), (o.state, t.after)):
            if hook is None:
                continue
            verdict = hook(arg, prof)  # type: ignore[arg-type]
            assert not isinstance(verdict, Violation), (o.rule, verdict, t.action)
            if verdict is not NA:
                seen[o.rule] += 1


def test_every_rule_has_an_oracle() -> None:
    rules = set(CATALOGUE.rule_ids)
    covered = {o.rule for o in ORACLES}
    assert covered <= rules
    assert rules - covered == set(HARNESS_RULES)
    assert len(covered) == len(ORACLES)  # one oracle per rule id


def test_oracles_silent_on_reference_games_and_each_applies() -> None:
    seen: Counter[str] = Counter()
    for pid in sorted(CATALOGUE.profiles):
        prof = profile(pid)
        for seed in (21, 22) if pid == "syncs-2025-base" else (23,):
            for before, action, after, events in play(prof, seed):
                t = Transition(ENGINE.observe(before), ENGINE.action_to_json(before, action),
                               ENGINE.observe(after), events)
                run_hooks(prof, t, seen)
                if ENGINE.current(before) not in (CHANCE,) and before.step in (1, 2):
                    for o in ORACLES:
                        if o.judge is not None:
                            verdict = o.judge(t.before, t.action, True, prof)
                            assert not isinstance(verdict, Violation), (o.rule, verdict)
                            if verdict is not NA:
                                seen[o.rule] += 1
    for prof, t in crafted_transitions():
        run_hooks(prof, t, seen)
    for label, o in [(r, BY_RULE[r]) for r in ("CARC-PROTO-FRAME", "CARC-PROTO-REPLY")]:
        state = load(crafted(ROAD_END, hands=[["U"], [], [], []]))
        text = frame(json.dumps({"event_type": "move_place_tile", "player_id": 0,
                                 "tile": {"tile_type": "U", "pos": [87, 84], "rotation": 1},
                                 "player_tile_index": 0}))
        action = ENGINE.action_to_json(state, ENGINE.referee(state, text))
        assert o.referee is not None
        verdict = o.referee(ENGINE.observe(state), text, action, profile())
        assert verdict is OK, (label, verdict)
        seen[label] += 1
    never = [o.rule for o in ORACLES if not seen[o.rule]]
    assert never == []


# --- each oracle catches its rule broken ------------------------------------------------------
def _violates(rule: str, t: Transition, prof: Profile | None = None) -> bool:
    o, prof = BY_RULE[rule], prof or profile()
    verdicts = [h(a, prof) for h, a in ((o.check, t), (o.state, t.after)) if h is not None]  # type: ignore[operator]
    return any(isinstance(v, Violation) for v in verdicts)


def _completed_road() -> Transition:
    s = load(crafted(ROAD_END, meeples=[(1, -1, "right", 1)], hands=[["W"], [], [], []]))
    return transition(s, ("place", T.index["W"], pack(2, -1), 1))


def _mutate(t: Transition, **changes: Any) -> Transition:
    after = copy.deepcopy(t.after)
    events = copy.deepcopy(t.events)
    for key, change in changes.items():
        if key == "events":
            events = change(events)
        else:
            change(after)
    return Transition(t.before, t.action, after, events)


def test_reference_transition_is_clean() -> None:
    t = _completed_road()
    assert not any(_violates(o.rule, t) for o in ORACLES if o.check or o.state)


@pytest.mark.parametrize(("rule", "change"), [
    ("CARC-SCORE-MAJORITY", {"after": lambda a: a["scores"].__setitem__(1, 2)}),
    ("CARC-SCORE-MAJORITY", {"events": lambda es: [dict(e, scorers=[2])
                                                   if e["type"] == "feature-completed" else e
                                                   for e in es]}),
    ("CARC-ROAD-COMPLETE", {"events": lambda es: [dict(e, points=3)
                                                  if e["type"] == "feature-completed" else e
                                                  for e in es]}),
    ("CARC-FEATURE-JOIN", {"events": lambda es: [dict(e, tiles=[[1, -1], [2, -1], [3, -1]])
                                                 if e["type"] == "feature-completed" else e
                                                 for e in es]}),
    ("CARC-FEATURE-JOIN", {"events": lambda es: [dict(e, banners=1)
                                                 if e["type"] == "feature-completed" else e
                                                 for e in es]}),
    # a road of the W that is still open, scored as completed
    ("CARC-ROAD-COMPLETE", {"events": lambda es: [dict(e, tiles=[[2, -1]])
                                                  if e["type"] == "feature-completed" else e
                                                  for e in es]}),
    ("CARC-TILES", {"after": lambda a: a["deck"].__setitem__("A", 1)}),
    ("CARC-MEEPLE-SUPPLY", {"after": lambda a: a["supply"].__setitem__(0, 8)}),
    ("CARC-MEEPLE-RETURN", {"after": lambda a: (a["meeples"].append(
        {"at": [1, -1], "on": "right", "player": 1}), a["supply"].__setitem__(0, 6))}),
    ("CARC-END-POINTS", {"after": lambda a: a["scores"].__setitem__(0, 50)}),
    ("CARC-HAND-SIZE", {"after": lambda a: a["hands"].__setitem__(1, ["A", "B", "C", "D"])}),
    ("CARC-PLAYERS", {"after": lambda a: a["scores"].append(0)}),
    ("CARC-RIVER-SPRING", {"after": lambda a: a["board"].__setitem__(
        next(i for i, b in enumerate(a["board"]) if b["tile"] == "RS"),
        {"at": [0, 0], "tile": "RS", "rotation": 2})}),
    ("CARC-BOARD-COORDS", {"after": lambda a: a["board"].pop()}),
    ("CARC-CLAIM-ONE", {"events": lambda es: [*es, {"type": "meeple-placed", "rule": "x",
                                                    "player": 1, "at": [2, -1], "on": "top",
                                                    "feature": "road"}]}),
])
def test_oracle_flags_its_broken_rule(rule: str, change: dict[str, Any]) -> None:
    t = _completed_road()
    assert not _violates(rule, t)
    assert _violates(rule, _mutate(t, **change))


def test_winner_and_end_oracles_flag_wrong_results() -> None:
    s = load(crafted(TOWN, meeples=[(-2, -2, "right", 1), (0, -2, "right", 1),
                                    (2, -3, "bottom", 2)], step="claim", to_move=2,
                     placed=(2, -3), deck_left=0))
    t = transition(s, ("pass",))
    assert not _violates("CARC-WINNER", t) and not _violates("CARC-SCORE-INCOMPLETE", t)
    wrong = _mutate(t, after=lambda a: a["result"].__setitem__("winners", [2]))
    assert _violates("CARC-WINNER", wrong)
    cheap = _mutate(t, events=lambda es: [dict(e, points=7) if e["type"] == "feature-final"
                                          else e for e in es])
    assert _violates("CARC-SCORE-INCOMPLETE", cheap)
    forgot = _mutate(t, events=lambda es: [e for e in es if e["type"] != "feature-final"])
    assert _violates("CARC-SCORE-INCOMPLETE", forgot)
    twice = _mutate(t, events=lambda es: [*es, *[e for e in es
                                                 if e["type"] == "feature-final"][:1]])
    assert _violates("CARC-SCORE-INCOMPLETE", twice)
    early = _mutate(t, after=lambda a: a["result"].__setitem__("reason", "points-limit"))
    assert _violates("CARC-END-POINTS", early)
    road = _completed_road()
    assert not _violates("CARC-END-TILES", road)
    stalled = _mutate(road, after=lambda a: (a.__setitem__("deck", {}),
                                             a.__setitem__("step", "place")))
    assert _violates("CARC-END-TILES", stalled)


def test_move_oracles_flag_illegal_moves_taken_as_made() -> None:
    """An engine that applied an illegal move: the check hooks see it from before + action."""
    s = load(crafted(ROAD_END, hands=[["W", "U"], [], [], []]))
    t = transition(s, ("place", T.index["W"], pack(2, -1), 1))
    bad = Transition(t.before, dict(t.action, rotation=3), t.after, t.events)  # field on road
    assert _violates("CARC-PLACE-MATCH", bad)
    far = Transition(t.before, dict(t.action, at=[9, 9]), t.after, t.events)
    assert _violates("CARC-PLACE-ADJACENT", far)
    discard = Transition(t.before, {"type": "discard", "tile": "U"}, t.after, t.events)
    assert _violates("CARC-HAND-NOFIT", discard)


def test_judges_flag_accepted_illegal_actions() -> None:
    prof = profile()
    s = ENGINE.observe(load(crafted(ROAD_END, hands=[["W", "U"], [], [], []])))
    bad_place = {"type": "place", "tile": "W", "at": [2, -1], "rotation": 3}
    with pytest.raises(IllegalAction):
        ENGINE.apply(load(s), ENGINE.action_from_json(load(s), bad_place))
    assert isinstance(BY_RULE["CARC-PLACE-MATCH"].judge(s, bad_place, True, prof), Violation)  # type: ignore[misc]
    assert BY_RULE["CARC-PLACE-MATCH"].judge(s, bad_place, False, prof) is NA  # type: ignore[misc]
    discard = {"type": "discard", "tile": "W"}
    assert isinstance(BY_RULE["CARC-HAND-NOFIT"].judge(s, discard, True, prof), Violation)  # type: ignore[misc]
    stuck = ENGINE.observe(load(crafted(ROAD_END[:2], hands=[["C"], [], [], []])))
    refused = BY_RULE["CARC-HAND-NOFIT"].judge(stuck, {"type": "discard", "tile": "C"}, False,  # type: ignore[misc]
                                               prof)
    assert isinstance(refused, Violation)
    claimed = load(crafted(ROAD_END, meeples=[(1, -1, "right", 2)], hands=[["U"], [], [], []]))
    placed = ENGINE.observe(ENGINE.apply(claimed, ("place", T.index["U"], pack(2, -1), 1))[0])
    claim = {"type": "claim", "on": "right"}
    assert isinstance(BY_RULE["CARC-CLAIM-UNCLAIMED"].judge(placed, claim, True, prof),  # type: ignore[misc]
                      Violation)
    top = {"type": "claim", "on": "top"}  # the U's top edge is a field
    assert isinstance(BY_RULE["CARC-CLAIM-PLACED-TILE"].judge(placed, top, True, prof),  # type: ignore[misc]
                      Violation)


def _river_state(pid: str | None = None) -> dict[str, Any]:
    o = crafted([(0, 0, "RS", 0), (0, -1, "R5", 2)], pid=pid, phase="river",
                hands=[["R9"], [], [], []],
                river_pile={"R1": 1, "R2": 2, "R3": 1, "R4": 1, "R6": 1, "R7": 1, "R8": 1,
                            "RE": 1})
    o["discarded"] = []
    o["deck"] = {t.id: t.count for t in T.tiles.of_set("land")}
    return o


def test_uturn_oracle_and_z3_river_check_flag_a_u_turn() -> None:
    prof = profile()
    o = _river_state()
    uturn = {"type": "place", "tile": "R9", "at": [1, -1], "rotation": 2}
    fine = {"type": "place", "tile": "R9", "at": [1, -1], "rotation": 3}
    assert isinstance(BY_RULE["CARC-RIVER-NO-UTURN"].judge(o, uturn, True, prof), Violation)  # type: ignore[misc]
    assert BY_RULE["CARC-RIVER-NO-UTURN"].judge(o, fine, True, prof) is OK  # type: ignore[misc]
    assert isinstance(Z.check_river(o, uturn, prof), Violation)
    assert Z.check_river(o, fine, prof) is OK
    elsewhere = {"type": "place", "tile": "R9", "at": [0, -2], "rotation": 0}
    assert isinstance(BY_RULE["CARC-RIVER-CONTIGUOUS"].judge(o, elsewhere, True, prof),  # type: ignore[misc]
                      Violation)
    assert Z.placements(o, prof) == {("R9", (1, -1), 3)}


# --- z3 ------------------------------------------------------------------------------------------
def test_z3_placements_equal_the_engine_legal_lists() -> None:
    checked = 0
    for pid in ("syncs-2025-base", "syncs-2025-river-lookahead"):
        prof = profile(pid)
        for n, (before, _, _, _) in enumerate(play(prof, 31)):
            if before.step != 1 or (n % 40 and before.phase != 0):
                continue
            legal = [ENGINE.action_to_json(before, a) for a in ENGINE.legal(before)]
            assert Z.check_legal_placements(ENGINE.observe(before), legal, prof) is OK
            checked += 1
    assert checked > 20


def test_z3_placement_check_catches_wrong_lists() -> None:
    prof = profile()
    s = load(crafted(ROAD_END, hands=[["W", "U"], [], [], []]))
    o = ENGINE.observe(s)
    legal = [ENGINE.action_to_json(s, a) for a in ENGINE.legal(s)]
    assert Z.check_legal_placements(o, legal, prof) is OK
    assert isinstance(Z.check_legal_placements(o, legal[1:], prof), Violation)
    extra = {"type": "place", "tile": "W", "at": [2, -1], "rotation": 3}
    assert isinstance(Z.check_legal_placements(o, [*legal, extra], prof), Violation)
    assert isinstance(Z.check_legal_placements(o, [{"type": "discard", "tile": "W"}], prof),
                      Violation)
    stuck = load(crafted(ROAD_END[:2], hands=[["C"], [], [], []]))
    assert Z.check_legal_placements(ENGINE.observe(stuck), [{"type": "discard", "tile": "C"}],
                                    prof) is OK


def test_z3_proves_the_engine_majority_and_refutes_a_wrong_one() -> None:
    for pid in ("syncs-2025-base", "syncs-2025-base-2p", "syncs-2025-base-5p"):
        assert Z.prove_majority(ENGINE, profile(pid)).proved

    class StrictMajority:
        """A plausible bug: ties score nothing."""

        def award_points(self, counts: Any, points: Any, max2: Any, ite: Any) -> list[Any]:
            out = []
            for i, c in enumerate(counts):
                beats_all = [c > d for j, d in enumerate(counts) if j != i]
                out.append(ite(Z.z3.And(*beats_all), points, 0))
            return out

    result = Z.prove_majority(StrictMajority(), profile())
    assert not result.proved and result.counterexample is not None
    cx = result.counterexample
    counts = [cx[f"c{i}"] for i in range(1, 5)]
    assert counts.count(max(counts)) >= 2 and max(counts) > 0 and cx["points"] > 0


def test_award_check_on_events() -> None:
    good = {"type": "feature-completed", "meeples": [2, 2, 1, 0], "points": 6,
            "scorers": [1, 2]}
    assert Z.check_award(good) is OK
    assert isinstance(Z.check_award(dict(good, scorers=[1])), Violation)
    assert Z.check_award({"type": "tile-placed"}) is NA


def test_tie_positions_score_exact_ties() -> None:
    prof = profile()
    dists = Z.tie_distributions(4, 9, 7, limit=30)
    assert len(dists) == 30
    for d in dists:
        top = max(d)
        assert top > 0 and d.count(top) >= 2 and sum(d) <= 9
    for _, state in Z.tie_positions(prof, limit=6):
        s = load(state)
        end = len(state["meeples"]) + 1
        action = ENGINE.action_from_json(s, {"type": "place", "tile": "W", "at": [end, -1],
                                             "rotation": 1})
        after, events = ENGINE.apply(s, action)
        done = [e for e in events if e["type"] == "feature-completed"]
        assert len(done) == 1 and len(done[0]["scorers"]) >= 2
        assert Z.check_award(done[0]) is OK
        assert sorted(after.scores)[-2] == max(after.scores) == done[0]["points"]
