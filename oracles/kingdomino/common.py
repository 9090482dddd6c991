"""What every Kingdomino check reads: the kinds of step (`action_kind`, and the `on` sets
the checks name), who acts, whether a play puts a tile and what is wrong with the put, the
smaller territory limits a season's engine may wrongly keep, the shared facts of a put
(`_put_step`) and a fast check's fall-back to its plain reading (`_else_plain`).

On canonical JSON and the oracles' own grid model (`board`, `facts`), never the reference
engine. Judges nothing and names no rule: the checks (`material`, `turns`, `placement`,
`scoring`, `protocol`) do.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import Transition, Verdict
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.spec import Profile

JSON = Any

# The kinds of step (`action_kind`) and those a player's turn takes: the reference accepts a
# deal only in the deal phase, an order only in the order phase, the rest only in play.
K_PUT, K_PLAY, K_INVALID_PUT, K_STOP, K_DEAL, K_ORDER = (
    "put", "play", "invalid-put", "stop", "deal", "order")
PLAY_PHASE = frozenset({K_PUT, K_PLAY, K_INVALID_PUT, K_STOP})
ON_PUT, ON_DEAL = frozenset({K_PUT}), frozenset({K_DEAL})


def action_kind(action: JSON) -> str:
    """The kind of a step, from its action alone (the oracles' `on` sets name these): a
    play with a PUT (a list) is a "put", any other play a "play"; an unknown type "other"."""
    kind = action.get("type")
    if kind == K_DEAL:  # the commonest (nearly half the steps): what `str(kind)` gives
        return K_DEAL
    if kind == "play":
        return K_PUT if isinstance(action.get("put"), list) else K_PLAY
    return str(kind) if kind in (K_INVALID_PUT, K_STOP, K_DEAL, K_ORDER) else "other"


def _acting(s: JSON) -> tuple[int | None, int]:
    k = s["placing"][s["next"]]
    return k["tile"], k["player"]


def _last(s: JSON, profile: Profile) -> bool:
    return bool(s["turn"] >= f.consts(profile).turns)


def _free_tiles(s: JSON) -> list[int]:
    return [e["tile"] for e in s["line"] if e["player"] is None]


def _pick_ok(s: JSON, pick: Any, profile: Profile) -> bool:
    return pick is None if _last(s, profile) else pick in _free_tiles(s)


def _play(s: JSON, a: JSON) -> bool:
    return bool(s["phase"] == "play" and a.get("type") == "play")


def _placing_put(s: JSON, a: JSON) -> bool:
    """A play that puts a tile (not the first turn, put given, well-shaped)."""
    put = a.get("put")
    # `_play(s, a)` and `_acting(s)[0] is not None`, read in the same order
    if s["phase"] != "play" or a.get("type") != "play":
        return False
    k = s["placing"][s["next"]]
    tile, _ = k["tile"], k["player"]  # what `_acting` reads
    if tile is None:
        return False
    return (isinstance(put, list) and len(put) == 3 and type(put[0]) is int
            and type(put[1]) is int and type(put[2]) is int)


def _faults(s: JSON, a: JSON, profile: Profile) -> list[str]:
    tile, p = _acting(s)
    assert tile is not None
    return b.placement_faults(b.grid(s, p), a["put"], b.tiles(profile)[tile],
                              profile.param("KD-PLACE-EXTENT", "size"))


def _fits(s: JSON, profile: Profile) -> bool:
    tile, p = _acting(s)
    if tile is None:
        return False
    return b.fits_somewhere(b.grid(s, p), b.tiles(profile)[tile],
                            profile.param("KD-PLACE-EXTENT", "size")) is not None


def _put_ok(s: JSON, a: JSON, profile: Profile) -> bool:
    if _acting(s)[0] is None:
        return a.get("put") is None
    if a.get("put") is None:
        return not _fits(s, profile)
    return _placing_put(s, a) and not _faults(s, a, profile)


def _swap_refuses(s: JSON, a: JSON, profile: Profile) -> bool:
    """A refused legal PUT that rotations 1 and 3 swapped would make illegal."""
    x, y, r = a["put"]
    return r in (1, 3) and bool(_faults(s, {**a, "put": [x, y, 4 - r]}, profile))


def _stricter_sizes(profile: Profile) -> list[int]:
    """The smaller territory limit an engine may wrongly play: the value a season raised the
    limit from (an engine left at the shipped value). None for a shipped profile: there a
    refused legal PUT is KD-PLACE-ROTATION's and a discard of a tile that fits KD-DISCARD's,
    as ever."""
    size = profile.param("KD-PLACE-EXTENT", "size")
    was = [c.was for c in profile.changes if (c.kind, c.rule, c.name)
           == ("parameter", "KD-PLACE-EXTENT", "size") and isinstance(c.was, int)]
    return sorted({k for k in was if 2 <= k < size})


def _too_strict(s: JSON, a: JSON, profile: Profile) -> bool:
    """A legal PUT that breaks KD-PLACE-EXTENT under a smaller limit (`_stricter_sizes`):
    what an engine that plays that limit refuses."""
    tile, p = _acting(s)
    if tile is None:
        return False
    g, squares = b.grid(s, p), b.tiles(profile)[tile]
    return any("KD-PLACE-EXTENT" in b.placement_faults(g, a["put"], squares, k)
               for k in _stricter_sizes(profile))


def _fits_when_stricter(s: JSON, profile: Profile) -> bool:
    """The acting tile still fits somewhere under every smaller limit of `_stricter_sizes`
    (so an engine that discards it is not explained by one)."""
    tile, p = _acting(s)
    if tile is None:
        return False
    g, squares = b.grid(s, p), b.tiles(profile)[tile]
    return all(b.fits_somewhere(g, squares, k) is not None for k in _stricter_sizes(profile))


def _put_step(t: Transition, profile: Profile) -> f.PutStep | None:
    """`t`'s facts when it puts a tile, else None; shared by the checks of one step."""
    last = f._LAST
    if last[0] is t and last[1] is profile:
        return last[2]
    return f.put_step(t, profile, _placing_put(t.before, t.action))


def _else_plain(quick: Any, plain: Any) -> Any:
    """A check: `quick`'s verdict, or on a reply it cannot read (it raises), the plain
    check's own verdict or exception."""
    def check(t: Transition, profile: Profile) -> Verdict:
        try:
            return quick(t, profile)  # type: ignore[no-any-return]
        except Exception:
            return plain(t, profile)  # type: ignore[no-any-return]
    return check
