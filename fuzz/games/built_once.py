"""Start positions and crafted boards built once per machine, not once per campaign.

A game's crafted starts (Carcassonne's pools of positions, Kingdomino's and Bot Wars' z3
boards, Flit's z3 boundary positions) take a campaign's process from a tenth of a second
to over a second to build, and every campaign, every worker process (`--jobs`) and every
test process built them again. They are a function of the code and the profile only (the
z3 models are made deterministic by their own contexts), so `built_once` keeps each as a
JSON file in the user's cache folder (`$XDG_CACHE_HOME/gamecert/starts`, as
`fuzz.search.campaign.cache_dir`), under a key that names the game, what was built, the
profile's rules, a digest of every source file the game's building reads (its plugin, its
oracles, its reference engine, the catalogue) and the z3 and Python versions: a change to
any of them builds afresh. A file that cannot be read or written is ignored (the value is
built as before), so the cache never changes what a campaign plays, only when it pays.

`GAMECERT_NO_START_CACHE=1` turns it off. This module stores and loads JSON; it must not
build positions itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from gamecert.fuzz.atomic_write import write_text
from gamecert.spec import Profile
from gamecert.spec.profile_file import record_of

JSON = Any
FORMAT = "gamecert-built-once/1"


def folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamecert" / "starts"


@cache
def sources_digest(game: str) -> str:
    """A digest of the files the game's start positions are built from: its plugin, its
    oracles (the z3 models), its reference engine and the catalogues."""
    root = Path(__file__).resolve().parents[2]  # the source tree: fuzz/, oracles/, ...
    h = hashlib.sha256()
    for part in (f"fuzz/games/{game}", f"oracles/{game}", f"reference_engine/{game}", "spec"):
        base = root / part
        for path in sorted(base.rglob("*")) if base.is_dir() else []:
            if path.suffix in (".py", ".json", ".toml", ".csv") and path.is_file():
                h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _z3_version() -> str:
    try:
        import z3
    except ImportError:
        return "none"
    return str(z3.get_version_string())


def key(game: str, what: str, profile: Profile | None, *args: Any) -> str:
    """The file name a value is kept under (see the module's docstring); `profile` None
    for a value the profiles share (its arguments then say all it depends on)."""
    record = None if profile is None else record_of(profile)
    rules = json.dumps(record, sort_keys=True, default=str) if record is not None \
        else None if profile is None else profile.id
    text = json.dumps([FORMAT, game, what, rules, list(map(repr, args)),
                       sources_digest(game), _z3_version(), sys.version_info[:2]])
    return f"{game}-{what}-{hashlib.sha256(text.encode()).hexdigest()[:24]}.json"


def built_once(game: str, what: str, profile: Profile | None, build: Callable[[], JSON],
               *args: Any) -> JSON:
    """`build()`'s JSON value, from the cache when it holds it, else built and kept."""
    if os.environ.get("GAMECERT_NO_START_CACHE"):
        return build()
    path = folder() / key(game, what, profile, *args)
    try:
        doc = json.loads(path.read_text("utf-8"))
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            return doc["value"]
    except (OSError, ValueError, KeyError):
        pass  # not there yet, or unreadable: built as before
    value = build()
    with contextlib.suppress(OSError):  # a read-only or full cache folder: still right
        write_text(path, json.dumps({"format": FORMAT, "value": value},
                                    separators=(",", ":")))
    return value
