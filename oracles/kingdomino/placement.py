"""The Kingdomino placement checks: the grid well formed (KD-GRID), the rotation read as
the rules read it (KD-PLACE-ROTATION), the chained placement rules (no overlap, the
territory limit, a connection: `_chain_judge`, each action blamed on the first rule it
breaks) and discards only when the tile fits nowhere (KD-DISCARD), with the blame a refused
legal put or a discard earns under a smaller territory limit.

On canonical JSON and the oracles' own grid model, never the reference engine. Binds no
rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, ambiguous, cause, expect
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.oracles.kingdomino.common import (
    JSON,
    _acting,
    _else_plain,
    _faults,
    _fits,
    _fits_when_stricter,
    _pick_ok,
    _placing_put,
    _play,
    _put_step,
    _swap_refuses,
    _too_strict,
)
from gamecert.spec import Profile


def grid_state(s: JSON, profile: Profile) -> Verdict:
    try:
        bad = f.state_grids(s).castle_bad
    except Exception:  # a state it cannot read: the plain check's own verdict or exception
        return _grid_state_plain(s, profile)
    if bad is None:
        return OK
    return Violation(f"player {bad + 1}'s castle must be on (4, 4) and nowhere else")


def _grid_state_plain(s: JSON, profile: Profile) -> Verdict:
    for p in range(1, len(s["grids"]) + 1):
        g = b.grid(s, p)
        if b.cell(g, 4, 4) != "*0" or g.count("*") != 1:
            return Violation(f"player {p}'s castle must be on (4, 4) and nowhere else")
    return OK


def _rotation_confused(s: JSON, a: JSON, profile: Profile) -> bool:
    """An accepted PUT that breaks a placement rule with its own rotation but not with
    another rotation of the same first square: off the grid or overlapping where any other
    rotation fits, or breaking the extent or the connection alone where rotations 1 and 3
    read the other way round place it. A rotation read wrongly explains it as well as the
    rule ignored (the rotation judge says so, ambiguously, for the triage to settle)."""
    faults = _faults(s, a, profile)
    if not faults:
        return False
    x, y, r = a["put"]
    if faults[0] in ("KD-GRID", "KD-PLACE-NO-OVERLAP"):
        return any(not _faults(s, {**a, "put": [x, y, r2]}, profile)
                   for r2 in range(4) if r2 != r)
    return len(faults) == 1 and r in (1, 3) and not _faults(
        s, {**a, "put": [x, y, 4 - r]}, profile)


def grid_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _placing_put(s, a) or b.on_grid(a["put"]):
        return NA
    if accepted and _rotation_confused(s, a, profile):
        return NA
    return expect(not accepted, f"PUT {a['put']} leaves the 9 x 9 grid but was accepted")


def refused_discard_blame(s: JSON, a: JSON, accepted: bool, profile: Profile
                          ) -> tuple[str, ...]:
    """The rules an engine may break by refusing the discard of a tile that fits nowhere:
    either it found a placement (the rules whose relaxing makes the tile fit), or it never
    discards (KD-DISCARD itself). One step cannot tell the two apart where a relaxing makes
    the tile fit: KD-DISCARD is then the last of the rules named."""
    if accepted or not _play(s, a) or a.get("put") is not None:
        return ()
    tile = _acting(s)[0]
    if tile is None or _fits(s, profile) or not _pick_ok(s, a.get("pick"), profile):
        return ()
    return tuple(dict.fromkeys((*_nofit_blame(s, profile), "KD-DISCARD")))


def _other_squares(s: JSON, profile: Profile) -> list[tuple[str, str]]:
    """The acting king's tile as the catalogue's other tile lists have it, where they
    differ (the disputed tiles of KD-TILES)."""
    tile = _acting(s)[0]
    assert tile is not None
    mine = b.tiles(profile)[tile]
    return [sq for sq in b.other_lists(profile, tile) if sq != mine]


def _nofit_blame(s: JSON, profile: Profile, put: list[int] | None = None
                 ) -> tuple[str, ...]:
    """An engine treats a tile that fits nowhere as if it fitted. When it placed it with
    `put`, the rule that placement breaks is the one it ignores; otherwise the rules whose
    relaxing (a territory one square wider, no connection; else any extent) makes the tile
    fit, else KD-DISCARD itself. Two rules when both relaxings make it fit: one step cannot
    tell them apart, so both oracles name it as ambiguous (`ambiguous`) and the campaign's
    triage charges it to whichever of the two another finding shows broken."""
    tile, p = _acting(s)
    assert tile is not None
    g, squares = b.grid(s, p), b.tiles(profile)[tile]
    size = profile.param("KD-PLACE-EXTENT", "size")
    tiles: tuple[str, ...] = ()
    if any(b.fits_somewhere(g, other, size) is not None for other in _other_squares(s, profile)):
        tiles = ("KD-TILES",)
    if put is not None:
        faults = b.placement_faults(g, put, squares, size)
        if len(faults) == 1:
            return tuple(dict.fromkeys((*tiles, faults[0])))
    # one square wider is the nearer miss, so it comes first
    relaxed = (("KD-PLACE-EXTENT",) if b.fits_somewhere(g, squares, size + 1) is not None
               else ()) + (("KD-PLACE-CONNECT",)
                           if b.fits_somewhere(g, squares, size, connect=False) is not None
                           else ())
    if tiles or relaxed:
        return tiles + relaxed
    if b.fits_somewhere(g, squares, b.N) is not None:
        return ("KD-PLACE-EXTENT",)
    return ("KD-DISCARD",)


def _blamed(rule: str, blamed: tuple[str, ...], text: str) -> Verdict:
    """A violation of `rule` when it is among the `blamed`; marked ambiguous when it is
    not alone there."""
    if rule not in blamed:
        return NA
    return ambiguous(blamed, text) if len(blamed) > 1 else Violation(text)


def _other_list_fits(s: JSON, a: JSON, profile: Profile) -> bool:
    """The PUT breaks a placement rule with this tile list's squares but not with another
    list's: the engine plays another tile list (KD-TILES)."""
    g = b.grid(s, _acting(s)[1])
    size = profile.param("KD-PLACE-EXTENT", "size")
    return any(not b.placement_faults(g, a["put"], other, size)
               for other in _other_squares(s, profile))


def _other_list_refuses(s: JSON, a: JSON, profile: Profile) -> bool:
    """The PUT places the tile with this tile list's squares but breaks a placement rule
    with another list's: an engine that plays another tile list (KD-TILES) refuses it."""
    g = b.grid(s, _acting(s)[1])
    size = profile.param("KD-PLACE-EXTENT", "size")
    return any(b.placement_faults(g, a["put"], other, size)
               for other in _other_squares(s, profile))


def tiles_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    blamed = refused_discard_blame(s, a, accepted, profile)
    if "KD-TILES" in blamed:
        return _blamed("KD-TILES", blamed, f"tile {_acting(s)[0]} fits nowhere, yet its discard "
                       "was refused: the engine plays it with another tile list's squares")
    if not _placing_put(s, a) or not accepted:
        return NA
    faults = _faults(s, a, profile)
    if not faults:
        return NA
    if not _other_list_fits(s, a, profile):
        return OK
    text = (f"PUT {a['put']} accepted: it fits only with another tile list's squares for "
            f"tile {_acting(s)[0]}")
    # one broken placement rule explains it as well: one step cannot tell which
    return ambiguous(("KD-TILES", faults[0]), text) if len(faults) == 1 else Violation(text)


def _extent_too_strict(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict | None:
    """KD-PLACE-EXTENT read with a smaller limit than the profile's: a legal PUT that breaks
    the smaller limit refused, or a tile that fits nowhere within it discarded. None when
    the step is not one of these."""
    size = profile.param("KD-PLACE-EXTENT", "size")
    if not accepted and _placing_put(s, a) and not _faults(s, a, profile) \
            and _pick_ok(s, a.get("pick"), profile) and _too_strict(s, a, profile):
        text = (f"PUT {a['put']} places the tile by every rule but was refused: it keeps "
                f"the territory within {size} x {size}, not within a smaller limit")
        return ambiguous(("KD-PLACE-EXTENT", "KD-PLACE-ROTATION"), text) \
            if _swap_refuses(s, a, profile) else Violation(text)
    if accepted and _play(s, a) and a.get("put") is None and _fits(s, profile) \
            and not _fits_when_stricter(s, profile):
        return ambiguous(("KD-PLACE-EXTENT", "KD-DISCARD"),
                         f"tile {_acting(s)[0]} fits within {size} x {size}, not within a "
                         f"smaller limit, yet its discard was accepted")
    return None


# each placement rule's check as it reads without the shared facts (`_chain_judge`)
PLAIN_CHAIN_CHECKS: dict[str, Any] = {}


def _chain_judge(rule: str) -> Any:
    order = ["KD-GRID", "KD-PLACE-NO-OVERLAP", "KD-PLACE-EXTENT", "KD-PLACE-CONNECT"]

    def judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
        blamed = refused_discard_blame(s, a, accepted, profile)
        if rule in blamed:
            return _blamed(rule, blamed, f"tile {_acting(s)[0]} fits nowhere, yet its discard "
                           f"was refused: the engine places it against {rule}")
        if rule == "KD-PLACE-EXTENT":
            strict = _extent_too_strict(s, a, accepted, profile)
            if strict is not None:
                return strict
        if not _placing_put(s, a):
            return NA
        faults = _faults(s, a, profile)
        if not faults or faults[0] != rule or (accepted and _rotation_confused(s, a, profile)):
            return NA
        if accepted and _other_list_fits(s, a, profile):
            if len(faults) > 1:
                return NA  # KD-TILES's alone
            return ambiguous(("KD-TILES", rule), f"PUT {a['put']} breaks {rule} but was "
                             "accepted; it fits with another tile list's squares")
        return expect(not accepted, f"PUT {a['put']} breaks {rule} but was accepted")

    def check(t: Transition, profile: Profile) -> Verdict:
        try:  # the faults worked out once for the step's several placement checks
            step = _put_step(t, profile)
            faults = None if step is None else step.faults
        except Exception:  # a reply it cannot read: the plain check's verdict or exception
            return plain_check(t, profile)
        if faults is None:
            return NA
        if rule not in faults:
            return OK
        return Violation(f"PUT {t.action['put']} breaks {rule} but was applied")

    def plain_check(t: Transition, profile: Profile) -> Verdict:
        if not _placing_put(t.before, t.action):
            return NA
        faults = _faults(t.before, t.action, profile)
        return expect(rule not in faults, f"PUT {t.action['put']} breaks {rule} but was "
                                          "applied")

    PLAIN_CHAIN_CHECKS[rule] = plain_check  # for the speed-up tests

    assert rule in order
    return judge, check


def rotation_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _placing_put(s, a):
        return NA
    # a misread rotation shows both ways, one departure: a PUT taken that its rotation
    # forbids, a PUT refused that its rotation allows
    if accepted:
        if _rotation_confused(s, a, profile):
            # an engine that ignores the rule the PUT breaks with its own rotation accepts
            # it too: one step cannot tell the two apart (the triage settles it)
            broken = _faults(s, a, profile)[0]
            return _misread(s, a, profile, True, ambiguous(
                ("KD-PLACE-ROTATION", broken), f"PUT {a['put']} accepted: with its rotation "
                f"it breaks {broken}; another rotation would place it"))
        return NA
    if _faults(s, a, profile) or not _pick_ok(s, a.get("pick"), profile):
        return NA
    if _too_strict(s, a, profile):  # KD-PLACE-EXTENT's, or both when a swap explains it too
        both = _extent_too_strict(s, a, accepted, profile)
        return both if both is not None and _swap_refuses(s, a, profile) else NA
    text = (f"PUT {a['put']} places the tile by every rule (second square "
            f"{['right', 'below', 'left', 'above'][a['put'][2]]}) but was refused")
    if _other_list_refuses(s, a, profile):  # an engine playing another tile list refuses
        text = ambiguous(("KD-PLACE-ROTATION", "KD-TILES"), text)  # it too
    return _misread(s, a, profile, False, text)


# The misread whose name blame's departure library gives too (reference_engine/kingdomino/
# departures: blame tags it `model-rotations-1-3-swapped`): the same departure seen by this
# judge (a probe taken, a listing) and by blame (a step, a refusal) is then one cause.
MISREAD_1_3 = "model-rotations-1-3-swapped"


def _misread(s: JSON, a: JSON, profile: Profile, accepted: bool, text: str) -> Verdict:
    """The violation, named as rotations 1 and 3 swapped where that reading explains it (the
    PUT read with 1 and 3 swapped is legal when taken, illegal when refused)."""
    x, y, r = a["put"]
    if r in (1, 3):
        swapped_ok = not _faults(s, {**a, "put": [x, y, 4 - r]}, profile)
        if swapped_ok == accepted:
            return cause(MISREAD_1_3, text)
    return Violation(text)


def _rotation_fast(t: Transition, profile: Profile) -> Verdict:
    """`_rotation_plain` over the shared facts (the grid's change is KD-TILES's too)."""
    step = _put_step(t, profile)
    if step is None or step.cells is None:  # cells: the put is on the grid
        return NA
    if not step.matches:
        return NA  # other squares than the tile's: KD-TILES judges that
    first, second = f.consts(profile).tiles[step.tile]
    g = step.after[step.player - 1].g
    i, j = step.cells  # `cell(g, x, y)` is g[2 * i:2 * i + 2] for i = 9y + x
    if g[2 * i:2 * i + 2] == first and g[2 * j:2 * j + 2] == second:
        return OK
    x, y, r = step.put
    return Violation(f"PUT {x} {y} {r}: the first square goes on ({x}, {y}) and the second "
                     f"on {b.second(x, y, r)}")


def _rotation_plain(t: Transition, profile: Profile) -> Verdict:
    if not _placing_put(t.before, t.action) or not b.on_grid(t.action["put"]):
        return NA
    tile, p = _acting(t.before)
    assert tile is not None
    first, second = b.tiles(profile)[tile]
    x, y, r = t.action["put"]
    g = b.grid(t.after, p)
    diff = b.changed_cells(b.grid(t.before, p), g)
    if sorted(diff.values()) != sorted((first, second)):
        return NA  # other squares than the tile's: KD-TILES judges that
    return expect(b.cell(g, x, y) == first and b.cell(g, *b.second(x, y, r)) == second,
                  f"PUT {x} {y} {r}: the first square goes on ({x}, {y}) and the second on "
                  f"{b.second(x, y, r)}")


rotation_check = _else_plain(_rotation_fast, _rotation_plain)


def discard_judge(s: JSON, a: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not _play(s, a) or _acting(s)[0] is None or a.get("put") is not None:
        return NA
    fits = _fits(s, profile)
    if accepted:
        strict = _extent_too_strict(s, a, accepted, profile)
        if strict is not None:  # or a smaller territory limit: one step cannot tell
            return strict
        return OK if not fits else cause("discarded-though-fits", f"tile {_acting(s)[0]} fits "
                                         "somewhere but a discard was accepted")
    # a refused discard of a tile that fits nowhere means the engine thinks it fits: blamed on
    # the placement rule it must be ignoring, when relaxing one makes the tile fit
    blamed = refused_discard_blame(s, a, accepted, profile)
    if "KD-DISCARD" in blamed:
        text = f"tile {_acting(s)[0]} fits nowhere but its discard was refused"
        if len(blamed) > 1:  # or the engine thinks it fits: one step cannot tell
            return ambiguous(blamed, text)
        return cause("discard-refused", text)
    return NA


def discard_check(t: Transition, profile: Profile) -> Verdict:
    if not _play(t.before, t.action) or _acting(t.before)[0] is None \
            or t.action.get("put") is not None:
        return NA
    tile, p = _acting(t.before)
    return expect(not _fits(t.before, profile) and tile in t.after["discarded"]
                  and b.grid(t.after, p) == b.grid(t.before, p),
                  f"tile {tile} discarded; that is only allowed when it fits nowhere")
