"""The embedded cluster's scheduler runs in a process of its own: not the client's, started
with the client's dask configuration, gone (with the workers) when the client exits or is
killed, and a scheduler that cannot start says so."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import dask
import numpy
import psutil
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster
from dask_gpunumeric.testing import assert_eq

# Workers exit at once with their nannies (in the client); the scheduler checks its
# parent every PARENT_CHECK_INTERVAL (0.5 s), then closes: allow a loaded machine more.
GONE_WITHIN = 30.0
# Starts the embedded cluster, prints the scheduler's and workers' process ids, then
# either waits to be killed or exits normally.
CLIENT_SCRIPT = """
import json, os, sys, time
import dask_gpunumeric as np
print(float(np.arange(100_000.0).sum()), flush=True)
from dask_gpunumeric._runtime import cluster
client = cluster.active_client()
print(json.dumps([client.run_on_scheduler(os.getpid), *client.run(os.getpid).values()]))
sys.stdout.flush()
if sys.argv[1] == "wait":
    time.sleep(600)
"""


@pytest.fixture
def embedded() -> Iterator[None]:
    assert cluster.active_client() is None, "another test left a client active"
    with dnp.config.set(scheduler="distributed", **{"cluster.workers": 1}):
        yield
    cluster.close_embedded()


def scheduler_config(dask_scheduler: Any) -> Any:
    return dask.config.get("distributed.admin.low-level-log-length")


def test_the_scheduler_runs_in_a_child_process_with_our_config(embedded) -> None:
    x = dnp.arange(10_000.0)
    assert_eq((x * 2).sum(), (numpy.arange(10_000.0) * 2).sum())
    client = cluster.active_client()
    scheduler_pid = client.run_on_scheduler(os.getpid)
    assert scheduler_pid != os.getpid()
    assert scheduler_pid == cluster.embedded_cluster().scheduler.pid
    assert psutil.Process(scheduler_pid).ppid() == os.getpid()
    # The embedded settings (EMBEDDED_DISTRIBUTED_CONFIG) reached it, not its defaults.
    assert client.run_on_scheduler(scheduler_config) == 100
    cluster.close_embedded()
    assert wait_gone([scheduler_pid]) == []


def test_the_start_is_frozen_out_of_the_garbage_collector(embedded) -> None:
    """The scheduler (once its background imports are done) and every worker have moved
    what their start made out of the collector's reach (``gc.freeze()``): a full
    collection no longer walks some 100,000 objects in the middle of a run."""
    assert float(dnp.arange(10_000.0).sum()) == numpy.arange(10_000.0).sum()
    client = cluster.active_client()
    deadline = time.monotonic() + GONE_WITHIN
    while client.run_on_scheduler(gc.get_freeze_count) == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.run_on_scheduler(gc.get_freeze_count) > 10_000
    frozen = client.run(gc.get_freeze_count)
    assert frozen and all(count > 10_000 for count in frozen.values()), frozen
    assert gc.get_freeze_count() == 0  # the user's process is left as it is


def wait_gone(pids: list[int]) -> list[int]:
    """The ``pids`` still running after ``GONE_WITHIN`` seconds (zombies, waiting for
    whoever adopted them to reap them, count as gone)."""
    deadline = time.monotonic() + GONE_WITHIN
    while (running := [pid for pid in pids if is_running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return running


def is_running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def start_client(mode: str) -> tuple[subprocess.Popen[str], list[int]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_GPUNUMERIC__")}
    env["DASK_GPUNUMERIC__CLIENT_WORK_BYTES"] = "0"  # the cluster, however small the work
    env["PYTHONPATH"] = os.pathsep.join([os.getcwd(), env.get("PYTHONPATH", "")])
    client = subprocess.Popen(
        [sys.executable, "-c", CLIENT_SCRIPT, mode],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert client.stdout is not None
    assert float(client.stdout.readline()) == numpy.arange(100_000.0).sum()
    pids = json.loads(client.stdout.readline())
    assert len(pids) == 1 + (os.cpu_count() or 1)  # the scheduler and one worker per core
    return client, pids


@pytest.mark.slow
def test_nothing_outlives_a_killed_client(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("processes do not depend on the chunk backend")
    client, pids = start_client("wait")
    assert all(is_running(pid) for pid in pids)
    client.send_signal(signal.SIGKILL)
    client.communicate(timeout=60)
    assert wait_gone(pids) == []


@pytest.mark.slow
def test_nothing_outlives_a_client_that_exits(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("processes do not depend on the chunk backend")
    client, pids = start_client("exit")
    _, stderr = client.communicate(timeout=120)
    assert client.returncode == 0, stderr
    assert stderr == ""  # closed quietly
    assert wait_gone(pids) == []


def test_a_scheduler_that_cannot_start_says_so(embedded) -> None:
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: the scheduler cannot bind it.
    with (
        dnp.config.set(**{"cluster.host": "192.0.2.1"}),
        pytest.raises(RuntimeError, match="embedded cluster's scheduler failed: OSError"),
    ):
        float(dnp.ones(100_000).sum())
    assert cluster.embedded_cluster() is None
