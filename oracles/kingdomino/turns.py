"""The Kingdomino checks of the turn: the deal (KD-DEAL), the first order of the kings
(KD-ORDER-FIRST) and the order after (KD-ORDER), no put on the first turn
(KD-FIRST-TURN-NO-PUT), the pick (KD-PICK), no pick on the last turn (KD-LAST-TURN-NO-PICK)
and the game's length (KD-GAME-LENGTH).

On canonical JSON and the oracles' own grid model, never the reference engine. Binds no
rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

from itertools import permutations

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause, expect
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.oracles.kingdomino.common import JSON, _acting, _free_tiles, _last, _pick_ok, _play
from gamecert.spec import Profile

# --- turns -------------------------------------------------------------------------------

def deal_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "deal" or a.get("type") != "deal":
        return NA
    ok = a.get("tile") in s["bag"]
    return expect(accepted == ok, f"tile {a.get('tile')} is {'' if ok else 'not '}among the "
                  f"tiles not yet drawn, but the engine {'accepted' if accepted else 'refused'} it")


def deal_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "deal":
        return NA
    tile = t.action["tile"]
    bag = t.before["bag"]
    if type(tile) is int and type(bag) is list and bag.count(tile) == 1:
        k = bag.index(tile)  # the one equal to it: the same as leaving out every x == tile
        want_bag = bag[:k] + bag[k + 1:]
    else:
        want_bag = [x for x in bag if x != tile]
    want_line = sorted([e["tile"] for e in t.before["line"]] + [tile])
    got_line = [e["tile"] for e in t.after["line"]]
    if t.after["turn"] != t.before["turn"]:
        return NA
    if t.after["bag"] == want_bag and got_line == want_line:
        return OK
    return Violation(f"drawing tile {tile}: the bag must lose it and the line show it in "
                     f"ascending id; line {got_line}")


def _orders(s: JSON, profile: Profile) -> list[list[int]]:
    k = b.kings(profile)
    seats = [p for _ in range(k) for p in range(1, b.players(profile) + 1)]
    if profile.variant("KD-ORDER-FIRST") == "seat-order":
        return [seats]
    return [list(o) for o in sorted(set(permutations(seats)))]


def order_first_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "order" or a.get("type") != "order":
        return NA
    ok = a.get("order") in _orders(s, profile)
    if accepted and not ok:
        return Violation(f"first-turn order {a.get('order')} accepted; allowed: "
                         f"{_orders(s, profile)[:3]}")
    return OK if accepted or not ok else Violation(
        f"first-turn order {a.get('order')} refused, but the rule allows it")


def order_first_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "order":
        return NA
    want = [{"tile": None, "player": p} for p in t.action["order"]]
    return expect(t.after["placing"] == want and t.after["phase"] == "deal",
                  f"after the order step the kings act in order {t.action['order']} with no "
                  f"tile to place; got {t.after['placing']}")


def _line_after(t: Transition) -> list[JSON]:
    pick = t.action.get("pick")
    if t.action.get("type") in ("play", "invalid-put") and pick is not None:
        p = _acting(t.before)[1]
        return [{"tile": e["tile"], "player": p if e["tile"] == pick else e["player"]}
                for e in t.before["line"]]
    return list(t.before["line"])


def order_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play" or t.after["phase"] == "over" \
            or t.after["turn"] != t.before["turn"] + 1:
        return NA
    stopped = t.after["stopped"]
    want = sorted(({"tile": e["tile"], "player": e["player"]} for e in _line_after(t)
                   if e["player"] is not None and not stopped[e["player"] - 1]),
                  key=lambda e: e["tile"])
    if t.after["placing"] == want:
        return OK
    return Violation(f"turn {t.after['turn']}: kings act by ascending picked id {want}; "
                     f"got {t.after['placing']}")


def first_turn_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _play(s, a) or _acting(s)[0] is not None or a.get("put") is None:
        return NA
    return expect(not accepted, f"PUT {a.get('put')} accepted on the first turn")


def first_turn_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play" or _acting(t.before)[0] is not None:
        return NA
    return expect(t.after["grids"] == t.before["grids"], "a grid changed on the first turn")


def pick_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play" or a.get("type") not in ("play", "invalid-put") \
            or _last(s, profile):
        return NA
    ok = _pick_ok(s, a.get("pick"), profile)
    return expect(ok or not accepted, f"PICK {a.get('pick')} accepted; free tiles "
                                      f"{_free_tiles(s)}")


def pick_check(t: Transition, profile: Profile) -> Verdict:
    # `_last`, `_acting`, `_free_tiles` and `_line_after` written out: the same reads, in
    # the same order, without their calls (it runs at every player's step)
    before, after = t.before, t.after
    if before["phase"] != "play" or t.action.get("type") not in ("play", "invalid-put") \
            or before["turn"] >= f.consts(profile).turns:
        return NA
    pick = t.action.get("pick")
    k = before["placing"][before["next"]]
    _, p = k["tile"], k["player"]
    if after["phase"] == "over":
        return NA  # a game that ends before its last turn is KD-GAME-LENGTH's
    line = before["line"]
    free = [e["tile"] for e in line if e["player"] is None]
    if pick not in free:
        return cause("not-free", f"PICK {pick} applied; free tiles were {free}")
    if after["turn"] != before["turn"]:
        return OK
    if pick is not None:
        marked = [{"tile": e["tile"], "player": p if e["tile"] == pick else e["player"]}
                  for e in line]
    else:
        marked = list(line)
    if after["line"] == marked:
        return OK
    return cause("line-marked", f"player {p} picked tile {pick}: the line should mark it and "
                 f"nothing else; got {t.after['line']}")


def last_turn_state(s: JSON, profile: Profile) -> Verdict:
    if s["turn"] < f.consts(profile).turns or s["phase"] == "over":
        return NA
    if s["phase"] == "play" and s["line"] == []:
        return OK
    return Violation(f"the last turn ({s['turn']}) draws no line; phase {s['phase']}, "
                     f"line {s['line']}")


def last_turn_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play" or a.get("type") not in ("play", "invalid-put") \
            or not _last(s, profile) or a.get("pick") is None:
        return NA
    return expect(not accepted, f"PICK {a.get('pick')} accepted on the last turn")


def length_state(s: JSON, profile: Profile) -> Verdict:
    turns = f.consts(profile).turns
    if s["turn"] <= turns:
        return OK
    return cause("goes-on", f"turn {s['turn']}: the game lasts {turns} turns")


def length_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "play":
        return NA
    stopped = t.after["stopped"]
    rest = [k for k in t.before["placing"][t.before["next"] + 1:]
            if not stopped[k["player"] - 1]]
    alone = f.consts(profile).alone
    everyone_out = stopped.count(False) <= alone
    should_end = everyone_out or (not rest and _last(t.before, profile))
    if t.after["phase"] == "over":
        if should_end or (not rest and not _kings_next(t)):
            return OK
        return cause("ends-early", f"the game ended on turn {t.before['turn']} of "
                     f"{f.consts(profile).turns}")
    if not should_end:
        return OK
    return cause("goes-on", f"turn {t.before['turn']} is the last and every king has played, "
                 "but the game goes on")


def _kings_next(t: Transition) -> bool:
    """Whether a king of a player still in holds a tile of the new line once this step's
    PICK is made: without one, no king acts next turn and the game cannot go on (a player
    kept in after a bad command, with no PICK made, is another rule's departure)."""
    stopped = t.after["stopped"]
    return any(e["player"] is not None and not stopped[e["player"] - 1]
               for e in _line_after(t))
