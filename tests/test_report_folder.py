"""A --report folder is one campaign's (fuzz.reports.folder): its lock, and what a new
campaign removes of an earlier one's files (only gamecert's own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamecert.fuzz.reports.folder import LOCK_FILE, FolderBusy, claim


def _make(folder: Path, names: list[str]) -> None:
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("x")


def test_a_new_campaign_removes_the_earlier_ones_files_only(tmp_path: Path) -> None:
    ours = ["report.json", "report.xml", "report.html", "checkpoint.json",
            "database-snapshot.json", "traces/01-flit-freeze.json",
            "traces/12-engine-alive.json", "checkpoint/3fa2c1d0.json",
            ".report.json.123.abcd.tmp", "traces/.01-x.json.9.ff.tmp"]
    theirs = ["notes.md", "traces/my-own.txt", "checkpoint/readme.txt",
              ".hypothesis/examples/ab/cd", "other/report.json"]
    _make(tmp_path, ours + theirs)
    held = claim(tmp_path, resuming=False)
    try:
        assert sorted(held.removed) == sorted(ours)
        left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                      if p.is_file())
        assert left == sorted([*theirs, LOCK_FILE])
    finally:
        held.release()
    assert not (tmp_path / LOCK_FILE).exists()


def test_a_resumed_campaign_keeps_them(tmp_path: Path) -> None:
    _make(tmp_path, ["report.json", "checkpoint.json", "traces/01-flit-freeze.json"])
    held = claim(tmp_path, resuming=True)
    held.release()
    assert held.removed == [] and (tmp_path / "traces/01-flit-freeze.json").exists()


def test_a_folder_is_held_by_one_campaign_at_a_time(tmp_path: Path) -> None:
    first = claim(tmp_path, resuming=False)
    try:
        with pytest.raises(FolderBusy, match="being written by another gamecert campaign"):
            claim(tmp_path, resuming=False)
    finally:
        first.release()
    claim(tmp_path, resuming=False).release()  # free again
