"""Writing a file whole or not at all: the one helper every report, trace, checkpoint,
baseline and database snapshot goes through.

The bytes go to a temporary file in the target's folder, under a name no other writer
uses (so two writers never share one), are flushed to the disk, then renamed over the
target: a reader sees the old file or the new one, never half of one. When anything fails
(a full disk, a folder made read-only, a quota) the temporary file is removed and
`WriteError` names the file and the reason. Only a kill between the write and the rename
can leave a temporary file behind (`.NAME.PID.RANDOM.tmp`, a hidden file).

Text is encoded as UTF-8; a character UTF-8 cannot hold (a lone surrogate from an engine's
JSON) is written as its `\\udXXX` escape rather than losing the file.

This module writes bytes; it must not know what they mean.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
from pathlib import Path
from typing import Any


class WriteError(OSError):
    """A file could not be written; its text names the file and the reason."""

    def __init__(self, path: Path, exc: OSError) -> None:
        super().__init__(exc.errno or errno.EIO, exc.strerror or str(exc), str(path))
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: cannot write: {self.strerror}"


def write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all (see the module's docstring)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            _write_all(fd, data)
            os.fsync(fd)  # on the disk before it takes the target's name
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise WriteError(path, exc) from None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_text(path: Path, text: str) -> None:
    """Write `text` as UTF-8, whole or not at all."""
    write_bytes(path, text.encode("utf-8", "backslashreplace"))


def write_json(path: Path, doc: Any, *, indent: int | None = 1) -> None:
    """Write a JSON document (ASCII, so any string an engine sent survives), whole or not
    at all."""
    write_text(path, json.dumps(doc, indent=indent) + "\n")
