"""Helpers for tests on real clusters: run ``dgn-run`` in a subprocess, share one
``LocalCluster`` per module for the tests that join an existing cluster."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import dask
import distributed
import pytest
from dask.utils import key_split

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
# Clusters start slowly on a loaded 2-core machine; distributed's 30 s connect timeout
# made cluster start-up fail there (not a bug of ours), so these tests allow more.
SLOW_MACHINE_TIMEOUT = "120s"
dask.config.set({"distributed.comm.timeouts.connect": SLOW_MACHINE_TIMEOUT})


def run_dgn(
    *args: str, backend: str = "numpy", cwd: pathlib.Path = REPO_ROOT, timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    """``dgn-run ARGS`` (as ``python -m dask_gpunumeric.cli``, so the worktree's package
    runs whatever is installed) with the chunk backend chosen by the environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_GPUNUMERIC__")}
    env["DASK_GPUNUMERIC__BACKEND"] = backend
    env["DASK_GPUNUMERIC__CLIENT_WORK_BYTES"] = "0"  # the cluster, however small the work
    env["DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT"] = SLOW_MACHINE_TIMEOUT
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "dask_gpunumeric.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def dgn_run():
    """:func:`run_dgn`, for tests (test modules here are not a package)."""
    return run_dgn


@pytest.fixture
def repo_root() -> pathlib.Path:
    return REPO_ROOT


@pytest.fixture(autouse=True)
def work_on_the_cluster() -> Iterator[None]:
    """These tests are about clusters, with arrays small enough for the small-work policy
    to keep in the client (``_array/work_placement.py``): it is off here, and tested in
    ``test_work_placement.py``, ``test_scattered_host_data.py`` and ``tests/unit/_array/test_eager_small_work.py``."""
    with dnp.config.set(client_work_bytes=0):
        yield


@pytest.fixture(scope="module")
def shared_cluster() -> Iterator[distributed.LocalCluster]:
    """Two single-threaded worker processes on 127.0.0.1, for tests that join a cluster."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def shared_client(shared_cluster: distributed.LocalCluster) -> Iterator[distributed.Client]:
    """A client of ``shared_cluster``'s worker processes."""
    with distributed.Client(shared_cluster) as client:
        yield client


def prefixes_sent_to_workers(client: distributed.Client, compute: Any) -> set[str]:
    """The task prefixes (``sum``, ``sum-aggregate``, ...) of the tasks the scheduler sent
    to a worker while ``compute()`` ran, from its transition log (a release of earlier
    results, which the counts of task states would show too, is not a task run)."""

    def now(dask_scheduler: Any) -> float:
        return time.time()

    def processed(dask_scheduler: Any, since: float) -> set[str]:
        return {
            key_split(entry.key)
            for entry in list(dask_scheduler.transition_log)
            if entry.finish == "processing" and entry.timestamp >= since
        }

    since = client.run_on_scheduler(now)
    compute()
    return client.run_on_scheduler(processed, since=since)


def tasks_arrived(scheduler: Any) -> int:
    """How many times a task reached ``scheduler``'s workers so far: sent to run
    (``processing``) or arrived in memory (a result, or data scattered there). The counts of
    all transitions would grow with a release of an earlier test's results too."""
    counts = [prefix.state_counts for prefix in scheduler.task_prefixes.values()]
    return sum(count["processing"] + count["memory"] for count in counts)


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """A client of two single-threaded in-process workers (modules may define their own)."""
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture
def distributed_scheduler(backend: str) -> Iterator[None]:
    """Computations go to the active client (the suite's default is threads)."""
    with dnp.config.set(scheduler="distributed"):
        yield


@pytest.fixture
def embedded_cluster() -> Iterator[None]:
    """Computations go to the embedded cluster (started by the first one, closed after
    the test); no other client may be active."""
    assert cluster.active_client() is None, "another test left a client active"
    with dnp.config.set(scheduler="distributed"):
        yield
    cluster.close_embedded()
