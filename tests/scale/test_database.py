"""The Hypothesis example database: a repeated campaign starts from what earlier ones found,
and a seed still replays a run exactly (rounds read a snapshot taken at the start)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis.database import ExampleDatabase, InMemoryExampleDatabase

from examples.engines import engine_spec
from gamecert.fuzz.cli.args import EXIT_VIOLATIONS
from gamecert.fuzz.engines.recipes import engine_recipe
from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.fuzz.search.database import (
    SNAPSHOT_FILE,
    SUB_KEYS,
    load_snapshot,
    take_snapshot,
)
from gamecert.fuzz.search.rounds import database_key
from gamecert.schemas import first_error

ROOT = Path(__file__).resolve().parents[2]
MUTANT = engine_spec("flit", "convert_no_wrap")  # several rounds from scratch
KEY = database_key("flit", "standard")


def _run(spec: str, **how: Any) -> CampaignResult:
    db = take_snapshot(spec, KEY)
    return run_campaign("flit", engine_recipe("flit", engine=MUTANT), rounds=12, seed=0,
                        max_findings=1, database=db, database_info=db.info(), **how)


def _found(result: CampaignResult) -> list[tuple[str, int, Any]]:
    return [(d.signature, d.count, d.finding.trace) for d in result.departures]


def test_a_second_campaign_starts_from_what_the_first_found(tmp_path: Path) -> None:
    spec = f"dir:{tmp_path / 'db'}"
    first = _run(spec)
    assert [d.primary for d in first.departures] == ["FLIT-CONVERT"]
    assert first.database is not None and first.database["examples_at_start"] == 0
    second = _run(spec)
    assert [d.primary for d in second.departures] == ["FLIT-CONVERT"]
    assert second.database is not None and second.database["examples_at_start"] > 0
    # the saved failing example is replayed first: found in far fewer examples (in the
    # first one, where the first campaign needed only a few)
    assert second.coverage.examples <= max(1, first.coverage.examples // 4), \
        (second.coverage.examples, first.coverage.examples)


def test_same_seed_and_same_starting_database_give_the_same_findings(tmp_path: Path) -> None:
    spec = f"dir:{tmp_path / 'db'}"
    _run(spec)  # something to start from
    snapshot = take_snapshot(spec, KEY)
    assert snapshot.examples > 0
    runs = []
    for _ in range(2):  # each writes to the live database; both read the same snapshot
        runs.append(run_campaign("flit", engine_recipe("flit", engine=MUTANT), rounds=3,
                                 seed=5, database=snapshot))
    a, b = runs
    assert _found(a) == _found(b) and a.coverage == b.coverage
    assert a.departures, "the comparison compares something"


def _certify(report: Path, *extra: str) -> dict[str, Any]:
    run = subprocess.run([sys.executable, "-m", "gamecert", "certify", "flit", "--engine",
                          MUTANT, "--rounds", "12", "--seed", "0", "--report", str(report),
                          "--quiet", "--jobs", "1", *extra], cwd=ROOT, capture_output=True,
                         timeout=300, env={**os.environ, "PYTHONHASHSEED": "0"})
    assert run.returncode == EXIT_VIOLATIONS, run.stderr.decode()[-2000:]
    doc: dict[str, Any] = json.loads((report / "report.json").read_text())
    return doc


def test_the_report_folder_holds_the_database_and_its_snapshot(tmp_path: Path) -> None:
    report = tmp_path / "out"
    first = _certify(report)
    where = report / ".hypothesis" / "examples"
    assert first["database"]["location"] == f"dir:{where.resolve()}"
    assert first["database"]["examples_at_start"] == 0
    assert where.is_dir() and any(where.rglob("*")), "nothing was saved"
    assert first["round_seeds"] and len(first["round_seeds"]) == first["rounds"]
    assert first_error("report", first) is None
    # a repeated campaign into the same folder starts from what the first saved, and finds
    # the same; that it finds it sooner is the first test's (a campaign that ends at its
    # first finding): here every round is played, each of the two campaigns has one round
    # cut short by the finding, and which one is a seed's luck
    again = _certify(report)
    assert again["database"]["examples_at_start"] > 0
    assert [f["primary"] for f in again["findings"]] == [f["primary"] for f in first["findings"]]
    snap = load_snapshot(report, f"dir:{where.resolve()}")
    assert snap is not None and snap.digest == again["database"]["snapshot_sha256"]
    assert (report / SNAPSHOT_FILE).is_file()
    # --db none: no database, and the certificate says so
    none = _certify(tmp_path / "none", "--db", "none")
    assert none["database"] is None


class _Seen(InMemoryExampleDatabase):
    """A database that notes the keys the rounds read."""

    def __init__(self, read: list[bytes]) -> None:
        super().__init__()
        self.read = read

    def fetch(self, key: bytes) -> Iterator[bytes]:
        self.read.append(key)
        yield from super().fetch(key)


@dataclass
class _Opener:
    read: list[bytes]

    def open(self) -> ExampleDatabase:
        return _Seen(self.read)


def test_rounds_with_runs_keep_their_examples_apart() -> None:
    """Carcassonne plays seeded runs from a later round (`runs_from_round`), with a machine
    of other rules: an example saved by an early round and replayed by a later one would
    play something else, and be deleted from the database as no longer failing. So the
    rounds with runs keep their examples under a key of their own (RUNS_SUFFIX)."""
    read: list[bytes] = []
    first_with_runs = plugin_for("carcassonne").runs_from_round
    run_campaign("carcassonne", engine_recipe("carcassonne"), rounds=first_with_runs + 1,
                 seed=0, database=_Opener(read))
    key = database_key("carcassonne", "syncs-2025-base")
    # each kind of round its own corpus, secondary and front; a snapshot takes all six
    assert set(read) == {key + sub for sub in SUB_KEYS} and len(set(read)) == 6
