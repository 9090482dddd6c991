"""A `--report` folder belongs to one campaign at a time, and holds that campaign's files only.

`claim` is called before a campaign starts. It takes the folder's lock (`.gamecert.lock`,
an advisory `flock` the kernel drops when the process ends, however it ends): a second
campaign writing the same folder at once is refused, naming the one that holds it, instead
of the two mixing their reports. A new campaign (not `--resume`) then removes what an
earlier campaign left there: its report, checkpoint and trace files, which would otherwise
sit beside the new ones as if this run had found them. Only files of the names gamecert
writes are removed; anything else in the folder, and the example database
(`.hypothesis/`), stays.

This module owns the folder's lock and its stale files; it must not write reports.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

LOCK_FILE = ".gamecert.lock"
# what a campaign writes at the top of its folder (fuzz.reports.certificate, fuzz.search.checkpoint,
# fuzz.search.database)
TOP_FILES = ("report.json", "report.xml", "report.html", "checkpoint.json",
             "database-snapshot.json")
# traces/NN-rule.json (fuzz.reports.certificate) and checkpoint/<cause id>.json
# (fuzz.search.checkpoint)
TRACE = re.compile(r"^[0-9]{2,}-[a-z0-9-]+\.json$")
CHECKPOINT_TRACE = re.compile(r"^[0-9a-f]{8}\.json$")
# what an atomic write killed mid-way leaves (fuzz.atomic_write)
LEFTOVER = re.compile(r"^\..+\.tmp$")


class FolderBusy(Exception):
    """Another campaign is writing this folder now."""


@dataclass
class Claim:
    """A report folder held by this process; `release` (or the process's end) frees it."""

    folder: Path
    removed: list[str] = field(default_factory=list)  # stale files, relative to `folder`
    handle: IO[str] | None = None

    def release(self) -> None:
        """Remove the lock file, then drop the lock (a campaign that opened the old file
        meanwhile sees it is no longer the folder's lock file, and tries again)."""
        if self.handle is not None:
            with contextlib.suppress(OSError):
                (self.folder / LOCK_FILE).unlink()
            with contextlib.suppress(OSError):
                self.handle.close()  # closing the file drops the lock
            self.handle = None


def claim(folder: Path, *, resuming: bool) -> Claim:
    """Lock `folder` for this campaign; for a new campaign, remove the earlier one's files.
    Raises `FolderBusy` when another process holds it, `OSError` when it cannot be locked."""
    folder.mkdir(parents=True, exist_ok=True)
    handle = _lock(folder / LOCK_FILE)
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}\n")
    handle.flush()
    held = Claim(folder, handle=handle)
    held.removed = [] if resuming else _remove_stale(folder)
    return held


def _lock(path: Path) -> IO[str]:
    """The lock file, open and locked by this process."""
    for _ in range(20):
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held open: the lock)
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise FolderBusy(f"{path.parent} is being written by another gamecert campaign "
                             f"({holder}); give another --report folder, or wait") from None
        except OSError:
            handle.close()
            raise
        try:  # still the folder's lock file, not one its holder removed as we opened it?
            if os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino:
                return handle
        except FileNotFoundError:
            pass
        handle.close()
    raise FolderBusy(f"{path.parent}: cannot take its lock ({path.name} keeps changing)")


def stale_files(folder: Path) -> list[Path]:
    """The files an earlier campaign wrote in `folder` (none of anyone else's)."""
    found = [folder / name for name in TOP_FILES if (folder / name).is_file()]
    for sub, pattern in (("traces", TRACE), ("checkpoint", CHECKPOINT_TRACE)):
        if (folder / sub).is_dir():
            found += [p for p in sorted((folder / sub).iterdir())
                      if p.is_file() and (pattern.match(p.name) or LEFTOVER.match(p.name))]
    found += [p for p in sorted(folder.iterdir())
              if p.is_file() and LEFTOVER.match(p.name)]
    return found


def _remove_stale(folder: Path) -> list[str]:
    removed = []
    for path in stale_files(folder):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(path.relative_to(folder).as_posix())
    for sub in ("traces", "checkpoint"):
        with contextlib.suppress(OSError):  # only when empty: anything else stays
            (folder / sub).rmdir()
    return removed
