"""The Kingdomino checks of the material: the players and their kings (KD-PLAYERS,
KD-KINGS), the tiles in play and the line's size (KD-TILES-IN-PLAY), and the squares a put
lays on the grids (KD-TILES: the fast reading over the put's shared facts, the plain one
beside it).

On canonical JSON and the oracles' own grid model, never the reference engine. Binds no
rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.oracles.kingdomino.common import JSON, _acting, _else_plain, _placing_put, _put_step
from gamecert.spec import Profile

# --- material ----------------------------------------------------------------------------

# The hooks below that run at every step build their message only for a violation (the
# same text `expect` would carry): the condition decides the verdict, as it always did.

def players_state(s: JSON, profile: Profile) -> Verdict:
    n = f.consts(profile).players
    if s["players"] == n and len(s["grids"]) == n and len(s["stopped"]) == n:
        return OK
    return Violation(f"the profile plays {n} players; the state has {s['players']} and "
                     f"{len(s['grids'])} grids")


def kings_state(s: JSON, profile: Profile) -> Verdict:
    c = f.consts(profile)
    k, kings = c.kings, s["kings"]
    # a list of whole numbers: count compares each as `v == k` does (after an identity test
    # that implies it); anything else is read as before
    if (kings.count(k) == len(kings)) if type(kings) is list else all(v == k for v in kings):
        return OK
    return Violation(f"each player has {k} king(s) with {c.players} players; "
                     f"the state says {s['kings']}")


def in_play_state(s: JSON, profile: Profile) -> Verdict:
    c = f.consts(profile)
    drawn = len(c.tiles) - len(s["bag"])
    if len(s["line"]) <= c.line_size and drawn <= c.in_play:
        return OK
    return cause("line-size" if len(s["line"]) > c.line_size else "tiles-in-play",
                 f"{drawn} tiles drawn and a line of {len(s['line'])}: at most {c.in_play} "
                 f"come into play, in lines of {c.line_size}")


def in_play_check(t: Transition, profile: Profile) -> Verdict:
    if t.action.get("type") != "deal" or t.before["phase"] != "deal":
        return NA
    size, line = f.consts(profile).line_size, len(t.after["line"])
    if t.after["phase"] == "deal":
        if line < size and t.after["bag"] != []:
            return OK
        return cause("line-size", f"a line of {size} is complete with {line} tiles, yet "
                     "another is drawn")
    if line == size or not t.after["bag"]:
        return OK
    return cause("line-size", f"the line is complete with {line} tiles; the rule says {size}")


def _tiles_fast(t: Transition, profile: Profile) -> Verdict:
    """`_tiles_plain` over the shared facts: the same grids compared in the same order."""
    step = _put_step(t, profile)
    if step is None:
        return NA
    tile, p = step.tile, step.player
    c = f.consts(profile)
    diffs = step.read()
    for q in range(1, c.players + 1):
        diff = diffs[q - 1]
        if q != p and diff:
            return cause("other-grid", f"player {q}'s grid changed when player {p} placed "
                         "a tile")
        if q == p and not step.matches:
            return cause("squares", f"tile {tile} is {'/'.join(c.tiles[tile])}; the grid "
                         f"gained {sorted(diff.values())}")
    return OK


def _tiles_plain(t: Transition, profile: Profile) -> Verdict:
    if not _placing_put(t.before, t.action):
        return NA
    tile, p = _acting(t.before)
    assert tile is not None
    for q in range(1, b.players(profile) + 1):
        diff = b.changed_cells(b.grid(t.before, q), b.grid(t.after, q))
        if q != p and diff:
            return cause("other-grid", f"player {q}'s grid changed when player {p} placed "
                         "a tile")
        if q == p and sorted(diff.values()) != sorted(b.tiles(profile)[tile]):
            return cause("squares", f"tile {tile} is {'/'.join(b.tiles(profile)[tile])}; the "
                         f"grid gained {sorted(diff.values())}")
    return OK


tiles_check = _else_plain(_tiles_fast, _tiles_plain)
