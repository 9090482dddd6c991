"""The Hypothesis example database a campaign starts from and saves to (`certify --db`).

Where: `--db PATH` (a directory database), `--db redis://HOST:PORT/DB` (Hypothesis's own
`RedisExampleDatabase`, shared by every worker of a cluster), `--db none`; by default the
report folder's `.hypothesis/examples` when there is one, else the user's cache folder.
One corpus per game and profile (fuzz.search.rounds.database_key), whatever the engine: what
failed on one engine is tried first on the next; the rounds that play seeded runs keep theirs
beside it (`RUNS_SUFFIX`).

A seed must still replay a run exactly, and saved examples are replayed first. So the rounds
read a snapshot of the database taken when the campaign started, never the live database,
and write what they find to the live one: two runs with the same seed and the same starting
database play the same rounds, however many workers write to it meanwhile. The snapshot is
kept in the report folder, so a resumed campaign reads the one its first part read, and the
certificate names the database and the snapshot's digest.

This module opens, snapshots and describes databases; it must not run rounds.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from gamecert.fuzz.atomic_write import write_json

SNAPSHOT_FILE = "database-snapshot.json"
# The rounds that play seeded runs (a game's later rounds: fuzz.search.machine.has_runs)
# keep their examples under the campaign's key with this suffix: their machine has other
# rules, so an example of the one kind replayed by the other plays something else, and
# Hypothesis would delete it from the database as no longer failing.
RUNS_SUFFIX = b":runs"
# Hypothesis's corpus, its secondary, its front; for each kind of round
SUB_KEYS = tuple(kind + sub for kind in (b"", RUNS_SUFFIX)
                 for sub in (b"", b".secondary", b".pareto"))


class DatabaseError(Exception):
    """A database that cannot be named, opened or read; the message says which."""


def describe(spec: str) -> str:
    return spec or "none"


def open_live(spec: str) -> ExampleDatabase | None:
    """`dir:PATH`, `redis://...` or "" (none)."""
    if not spec:
        return None
    if spec.startswith("dir:"):
        return DirectoryBasedExampleDatabase(spec[4:])
    if spec.startswith(("redis://", "rediss://", "unix://")):
        try:
            import redis
            from hypothesis.extra.redis import RedisExampleDatabase
        except ImportError:
            raise DatabaseError("--db redis://... needs the redis client: pip install "
                                "'gamecert[cluster]'") from None
        try:
            client = redis.Redis.from_url(spec)
        except ValueError as exc:
            raise DatabaseError(f"--db {spec}: {exc}") from None
        return RedisExampleDatabase(client, key_prefix=b"gamecert-examples:")
    raise DatabaseError(f"--db {spec!r}: not a folder, 'none' or redis://HOST:PORT/DB")


def database_spec(db: str | None, report_dir: Path | None, cache: Path) -> str:
    """The `--db` option as a spec: the default is the report folder's, else the cache's."""
    if db is None:
        folder = report_dir / ".hypothesis" / "examples" if report_dir else cache / "examples"
        return f"dir:{folder.resolve()}"
    if db.strip().lower() == "none":
        return ""
    if db.startswith(("redis://", "rediss://", "unix://")):
        return db
    if not db.strip():
        raise DatabaseError("--db is empty: give a folder, 'none' or redis://HOST:PORT/DB")
    path = Path(db)
    if path.exists() and not path.is_dir():
        raise DatabaseError(f"--db {db!r} is a file, not a folder")
    return f"dir:{path.resolve()}"


class SnapshotDatabase(ExampleDatabase):
    """Reads from a fixed snapshot, writes to the live database (or nowhere)."""

    def __init__(self, snapshot: dict[bytes, list[bytes]], live: ExampleDatabase | None):
        super().__init__()
        self.snapshot = snapshot
        self.live = live

    def fetch(self, key: bytes) -> Iterable[bytes]:
        yield from self.snapshot.get(key, [])

    def save(self, key: bytes, value: bytes) -> None:
        if self.live is not None:
            self.live.save(key, value)

    def delete(self, key: bytes, value: bytes) -> None:
        if self.live is not None:
            self.live.delete(key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        if self.live is not None:
            self.live.move(src, dest, value)


@dataclass(frozen=True)
class RoundDatabase:
    """What a round opens its database from: plain data, so it travels to workers."""

    spec: str
    snapshot: tuple[tuple[bytes, tuple[bytes, ...]], ...]

    def open(self) -> ExampleDatabase:
        return SnapshotDatabase({k: list(v) for k, v in self.snapshot}, open_live(self.spec))

    @property
    def examples(self) -> int:
        return sum(len(v) for _, v in self.snapshot)

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for key, values in self.snapshot:
            h.update(key + b"\0")
            for v in values:
                h.update(hashlib.sha256(v).digest())
        return h.hexdigest()

    def info(self) -> dict[str, Any]:
        """For the certificate: which database, and what the rounds started from."""
        return {"location": describe(self.spec), "examples_at_start": self.examples,
                "snapshot_sha256": self.digest}


def take_snapshot(spec: str, key: bytes) -> RoundDatabase:
    """The database's examples for `key` now, sorted (a database keeps no order)."""
    live = open_live(spec)
    items: list[tuple[bytes, tuple[bytes, ...]]] = []
    if live is not None:
        try:
            for sub in SUB_KEYS:
                values = tuple(sorted(set(live.fetch(key + sub))))
                if values:
                    items.append((key + sub, values))
        except Exception as exc:  # a server that is not there: say so, before any round
            raise DatabaseError(f"--db {describe(spec)}: cannot read it: "
                                f"{type(exc).__name__}: {exc}") from None
    return RoundDatabase(spec, tuple(items))


def save_snapshot(db: RoundDatabase, directory: Path) -> None:
    doc = {"spec": db.spec,
           "snapshot": [[base64.b64encode(k).decode(), [base64.b64encode(v).decode()
                                                        for v in vs]] for k, vs in db.snapshot]}
    write_json(directory / SNAPSHOT_FILE, doc, indent=None)


def load_snapshot(directory: Path, spec: str) -> RoundDatabase | None:
    """The snapshot a campaign in `directory` started from (None if it kept none), read
    again by a resumed campaign; its live database is `spec` (today's option)."""
    path = directory / SNAPSHOT_FILE
    if not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text("utf-8"))
        items = tuple((base64.b64decode(k), tuple(base64.b64decode(v) for v in vs))
                      for k, vs in doc["snapshot"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DatabaseError(f"{path}: unreadable database snapshot ({exc})") from None
    return RoundDatabase(spec, items)
