"""The Kingdomino checks of the bots' protocol: stops (KD-STOP), invalid puts
(KD-PUT-INVALID), the grid rows a bot reads (KD-PROTO-INPUT), what the referee makes of a
bot's two lines (KD-PROTO-OUTPUT, and the placement rules' and KD-PICK's referee forms,
with the suspects a departure there points to) and late replies (KD-PROTO-LIMITS).

On a bot's text, canonical JSON and the oracles' own grid model, never the reference
engine. Binds no rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, expect
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.oracles.kingdomino.common import (
    JSON,
    _acting,
    _faults,
    _fits,
    _fits_when_stricter,
    _free_tiles,
    _last,
    _pick_ok,
    _swap_refuses,
    _too_strict,
)
from gamecert.oracles.kingdomino.placement import _blamed, _nofit_blame, _rotation_confused
from gamecert.spec import Profile

# --- protocol ----------------------------------------------------------------------------

def stop_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play" or a.get("type") != "stop" or a.get("cause") not in (
            "format", "pick"):
        return NA
    return expect(accepted, f"a stop ({a.get('cause')}) was refused; a bad command always "
                            "ends the player's game")


def stop_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "stop" or t.action.get("cause") == "timeout":
        return NA
    p = _acting(t.before)[1]
    return expect(t.after["stopped"][p - 1] and t.after["grids"] == t.before["grids"]
                  and t.after["to_move"] != p,
                  f"player {p}'s game ends: stopped, grid kept, never to move again")


def stop_state(s: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play":
        return NA
    if not s["stopped"][s["to_move"] - 1]:
        return OK
    return Violation(f"player {s['to_move']} is to move but its game has ended")


def put_invalid_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if s["phase"] != "play":
        return NA
    discard = profile.variant("KD-PUT-INVALID") == "discard"
    if a.get("type") == "invalid-put":
        ok = discard and _fits(s, profile) and _pick_ok(s, a.get("pick"), profile)
    elif a.get("type") == "stop" and a.get("cause") == "put":
        ok = not discard
    else:
        return NA
    # the other league's handling shows both ways, one departure: its action taken, this
    # league's refused
    return expect(accepted == ok, f"{a} {'accepted' if accepted else 'refused'}; in this "
                  f"league an invalid PUT {'discards' if discard else 'ends the game'}")


def put_invalid_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "invalid-put":
        return NA
    tile, p = _acting(t.before)
    return expect(tile in t.after["discarded"] and b.grid(t.after, p) == b.grid(t.before, p),
                  f"an invalid PUT discards tile {tile} and leaves the grid as it was")


ROW = f.ROW  # KD-PROTO-INPUT's row: 9 two-character cells


@lru_cache(maxsize=64)
def _rows_ok(rows: tuple[str, ...]) -> bool:
    """Cached: a grid's rows are the same from step to step until a tile is put on it."""
    return len(rows) == 9 and all(ROW.fullmatch(r) for r in rows)


def input_state(s: JSON, profile: Profile) -> Verdict:
    try:
        if f.state_grids(s).rows_ok:
            return OK
    except Exception:  # a state it cannot read: the plain check's own verdict or exception
        pass
    return _input_state_plain(s, profile)


def _input_state_plain(s: JSON, profile: Profile) -> Verdict:
    ok = all(_rows_ok(tuple(g)) for g in s["grids"])
    return expect(ok, "each grid is 9 lines of 9 two-character cells, as the bots read them")


PUT = re.compile(r"PUT (-?[0-9]{1,9}) (-?[0-9]{1,9}) (-?[0-9]{1,9})")
PICK = re.compile(r"PICK (-?[0-9]{1,9})(?: [^\n]*)?")


def _reply_lines(text: str) -> tuple[Any, Any] | None:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    lines = [ln.removesuffix("\r") for ln in lines]
    if len(lines) != 2:
        return None
    m1, m2 = PUT.fullmatch(lines[0]), PICK.fullmatch(lines[1])
    return None if m1 is None or m2 is None else (m1, m2)


def expected_reply(s: JSON, text: str, profile: Profile, treat: str | None = None,
                   other_league: bool = False, any_pick: bool = False) -> JSON:
    """What the two output lines amount to, by KD-PROTO-OUTPUT, KD-STOP and KD-PUT-INVALID.
    `treat` ("valid" or "invalid") reads the PUT as if it placed the tile or not, "nofit"
    the tile as if it fitted nowhere: what an engine that gets a placement rule wrong would
    make of the same lines."""
    parsed = _reply_lines(text)
    if parsed is None:
        return {"type": "stop", "cause": "format"}
    m1, m2 = parsed
    pick = None if _last(s, profile) else int(m2.group(1))
    put: list[int] | None = [int(m1.group(i)) for i in (1, 2, 3)]
    tile, _ = _acting(s)
    bad_put = False
    if tile is not None and treat == "valid":
        pass
    elif tile is not None and treat == "invalid":
        bad_put = True
    elif treat == "nofit":  # the tile read as fitting nowhere: the PUT ignored
        put = None
    elif tile is not None and _fits(s, profile):
        bad_put = bool(_faults(s, {"put": put, "type": "play"}, profile))
    else:
        put = None
    discard = (profile.variant("KD-PUT-INVALID") == "discard") != other_league
    if bad_put and not discard:
        return {"type": "stop", "cause": "put"}
    if not any_pick and not _pick_ok(s, pick, profile):
        return {"type": "stop", "cause": "pick"}
    if bad_put:
        return {"type": "invalid-put", "pick": pick}
    return {"type": "play", "put": put, "pick": pick}


def placement_referee_blame(s: JSON, text: str, action: JSON, profile: Profile
                            ) -> tuple[str, ...]:
    """The placement rules a referee decision may break (one, or two a single step cannot
    tell apart), when it is the decision the lines would get with the PUT read as valid (or
    invalid) against the rules."""
    parsed = _reply_lines(text)
    if s["phase"] != "play" or parsed is None or _acting(s)[0] is None:
        return ()
    if action == expected_reply(s, text, profile):
        return ()
    put = [int(parsed[0].group(i)) for i in (1, 2, 3)]
    a = {"type": "play", "put": put,
         "pick": action.get("pick") if isinstance(action, dict) else None}
    if not _fits(s, profile):  # the PUT is to be ignored: the engine thinks the tile fits
        if action == expected_reply(s, text, profile, treat="valid"):
            return _nofit_blame(s, profile, put)
        if action == expected_reply(s, text, profile, treat="invalid"):
            return _nofit_blame(s, profile)
        return ()
    faults = _faults(s, a, profile)
    if faults and action == expected_reply(s, text, profile, treat="valid"):
        read = ("KD-PLACE-ROTATION",) if _rotation_confused(s, a, profile) else (faults[0],)
        if not _fits_when_stricter(s, profile) and action == expected_reply(
                s, text, profile, treat="nofit"):  # or, within a smaller limit, the tile
            return (*read, "KD-PLACE-EXTENT")  # fits nowhere and the PUT is ignored
        return read
    if not faults and action == expected_reply(s, text, profile, treat="invalid"):
        if _too_strict(s, a, profile):  # a smaller limit (or, with it, a swapped rotation)
            return ("KD-PLACE-EXTENT", "KD-PLACE-ROTATION") if _swap_refuses(s, a, profile) \
                else ("KD-PLACE-EXTENT",)
        return ("KD-PLACE-ROTATION",)
    if not _fits_when_stricter(s, profile) and action == expected_reply(s, text, profile,
                                                                     treat="nofit"):
        return ("KD-PLACE-EXTENT", "KD-DISCARD")  # or it fits nowhere within a smaller limit
    return ()


def referee_suspects(s: JSON, text: str, action: JSON, profile: Profile) -> tuple[str, ...]:
    """The rules whose misreading turns the output into the engine's decision: a placement
    rule's (the PUT read as valid or invalid against it), KD-PUT-INVALID's (the other
    league's handling) and KD-PICK's (any tile taken). More than one when the same decision
    follows from each: then one step cannot tell them apart."""
    if s["phase"] != "play" or _reply_lines(text) is None:
        return ()
    if action == expected_reply(s, text, profile):
        return ()
    out = list(placement_referee_blame(s, text, action, profile))
    if _acting(s)[0] is not None and action == expected_reply(s, text, profile,
                                                              other_league=True):
        out.append("KD-PUT-INVALID")
    if not _last(s, profile) and action == expected_reply(s, text, profile, any_pick=True):
        out.append("KD-PICK")
    return tuple(dict.fromkeys(out))


def output_referee(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play":
        return NA
    want = expected_reply(s, text, profile)
    if action != want and referee_suspects(s, text, action, profile):
        return NA  # a placement rule's, KD-PUT-INVALID's or KD-PICK's own hook judges it
    return expect(action == want, f"output {text!r:.80} means {want}; the referee made it "
                                  f"{action}")


def _placement_referee(rule: str) -> Any:
    def hook(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
        if s["phase"] != "play" or _acting(s)[0] is None or _reply_lines(text) is None:
            return NA
        blamed = referee_suspects(s, text, action, profile)
        if rule in blamed:
            return _blamed(rule, blamed, f"output {text!r:.80}: the referee made it {action}, "
                           f"reading the PUT against {rule}")
        return OK
    return hook


def pick_referee(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play" or _reply_lines(text) is None or _last(s, profile):
        return NA
    blamed = referee_suspects(s, text, action, profile)
    if "KD-PICK" in blamed:
        return _blamed("KD-PICK", blamed, f"output {text!r:.80}: the referee made it {action}, "
                       f"taking a PICK of a tile that is not free (free: {_free_tiles(s)})")
    return OK


def put_invalid_referee(s: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if s["phase"] != "play" or _acting(s)[0] is None or _reply_lines(text) is None:
        return NA
    blamed = referee_suspects(s, text, action, profile)
    if "KD-PUT-INVALID" in blamed:
        want = expected_reply(s, text, profile)
        return _blamed("KD-PUT-INVALID", blamed, f"output {text!r:.80}: the referee made it "
                       f"{action}, the other league's handling of an invalid PUT; this "
                       f"league's is {want}")
    return OK


def limits_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "stop" or t.action.get("cause") != "timeout":
        return NA
    p = _acting(t.before)[1]
    return expect(t.after["stopped"][p - 1], f"player {p} answered late: its game ends")
