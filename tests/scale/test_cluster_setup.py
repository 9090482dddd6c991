"""A cluster campaign sends its setup (the engine's recipe, the seed and the example
database's snapshot, which grows with every campaign that saves to that database) to the
Dask workers once, not with every round: each round's task names the scattered setup.
Run on a real in-process Dask cluster (a scheduler and a worker on threads); the
multi-process cluster with Redis is `test_cluster.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamecert.fuzz.search.cluster import DaskRunner
from gamecert.fuzz.search.database import RoundDatabase
from gamecert.fuzz.search.rounds import RoundJob, RoundSetup, database_key


def test_a_campaigns_setup_goes_to_the_cluster_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    key = database_key("flit", "standard")
    # a database of 2,000 saved examples: about what a year of nightly runs leaves
    snapshot = RoundDatabase("", ((key + b".pareto",
                                   tuple(i.to_bytes(2, "big") * 40 for i in range(2000))),))
    # six examples a round: a round's first examples are its simplest, often without a step
    setup = RoundSetup("flit", {"kind": "python", "object": "reference"}, "standard", seed=0,
                       examples=6, steps=5, database=snapshot)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=":0", local_directory=str(tmp_path)) as cluster:
        runner = DaskRunner(cluster.scheduler_address, setup)
        try:
            for n in range(3):
                runner.submit(RoundJob(n, frozenset()))
            futures = list(runner.futures)  # held: the scheduler keeps their tasks
            outcomes = [runner.next_outcome() for _ in futures]
            keys = [future.key for future in futures]
            needs = runner.client.run_on_scheduler(
                lambda dask_scheduler: {k: sorted(d.key for d in
                                                  dask_scheduler.tasks[k].dependencies)
                                        for k in keys})
            assert needs == {k: [runner.setup_ref.key] for k in keys}
        finally:
            runner.close()
    assert [o.round_no for o in outcomes] == [0, 1, 2]
    assert all(o.coverage.examples > 0 and not o.found for o in outcomes)
    assert sum(o.coverage.steps for o in outcomes) > 0
