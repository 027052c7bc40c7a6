"""A scheduler that goes away mid-computation: a clear ``SchedulerLostError`` naming its
address within ``gpunumeric.scheduler-timeout``, not a hang. Killed (SIGKILL: connections
close) and frozen (SIGSTOP: connections stay open, nothing answers) scheduler processes;
the embedded default cluster is restarted, with a warning, at the next computation."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster
from dask_gpunumeric.testing import assert_eq

pytestmark = pytest.mark.slow

SCHEDULER_TIMEOUT = 2.0  # seconds: short, so a frozen scheduler is given up on quickly
# Seconds from the loss to our error: the watchdog's wait plus its unanswered ping, with
# room for a loaded 2-core machine; a hang would take forever.
ERROR_WITHIN = 4 * SCHEDULER_TIMEOUT + 10


class ProcessCluster:
    """A scheduler and one worker as separate processes: a loss looks as a real one does."""

    def __init__(self, tmp_path) -> None:
        scheduler_file = tmp_path / "scheduler.json"
        self.scheduler = self._spawn(
            "distributed.cli.dask_scheduler",
            "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--scheduler-file", str(scheduler_file),
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while not scheduler_file.exists() or not scheduler_file.read_text():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        self.address = json.loads(scheduler_file.read_text())["address"]
        self.worker = self._spawn(
            "distributed.cli.dask_worker", self.address, "--nthreads", "1", "--no-dashboard"
        )

    @staticmethod
    def _spawn(module: str, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def close(self) -> None:
        for process in (self.worker, self.scheduler):
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)  # a frozen one must run to die
                process.kill()
            process.wait(timeout=60)


@pytest.fixture
def process_cluster(tmp_path) -> Iterator[tuple[ProcessCluster, distributed.Client]]:
    processes = ProcessCluster(tmp_path)
    client = distributed.Client(processes.address, set_as_default=True)
    try:
        client.wait_for_workers(1, timeout=120)
        with dnp.config.set(scheduler="distributed", scheduler_timeout=SCHEDULER_TIMEOUT):
            yield processes, client
    finally:
        processes.close()
        client.close(timeout=10)


def long_reduction() -> dnp.ndarray:
    """A sum that keeps one single-threaded worker busy for seconds (256 blocks)."""
    x = dnp.random.default_rng(7).random((8192, 8192), chunks=(512, 512))
    return dnp.sqrt(dnp.exp(x) * dnp.log1p(x)).sum()


def when_processing(client: distributed.Client, action) -> threading.Thread:
    """Run ``action`` as soon as the scheduler has tasks running (mid-computation)."""

    def watch() -> None:
        while not any(client.processing().values()):
            time.sleep(0.05)
        action()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(
    ("how", "checkpoint_every"),
    [(signal.SIGKILL, 16), (signal.SIGSTOP, 16), (signal.SIGKILL, 1)],
    ids=["killed", "frozen", "killed-while-cutting-lineage"],
)
def test_a_lost_scheduler_raises_a_clear_error_in_bounded_time(
    process_cluster, how, checkpoint_every
) -> None:
    """``checkpoint_every=1``: every materialization cuts the lineage of the arrays it
    persists (``lineage.py``), whose waits and requests must be watched as well."""
    processes, client = process_cluster
    with dnp.config.set(checkpoint_every=checkpoint_every):
        assert_eq(dnp.arange(10_000.0).sum(), numpy.arange(10_000.0).sum())  # it worked before
        lost_at: list[float] = []

        def lose_scheduler() -> None:
            lost_at.append(time.monotonic())
            processes.scheduler.send_signal(how)

        when_processing(client, lose_scheduler)
        with pytest.raises(dnp.SchedulerLostError, match=processes.address) as raised:
            float(long_reduction())
        assert lost_at, "the computation finished before the scheduler was lost: make it longer"
        assert time.monotonic() - lost_at[0] < ERROR_WITHIN
        assert "Start the scheduler again" in str(raised.value)  # says what to do next
        if how == signal.SIGKILL:
            a_computation_after_the_loss_fails_at_once(client, processes.address)


def a_computation_after_the_loss_fails_at_once(client: distributed.Client, address: str) -> None:
    while client.status == "running":  # distributed notices the closed connection
        time.sleep(0.05)
    started = time.monotonic()
    with pytest.raises(dnp.SchedulerLostError, match=address):
        float((dnp.ones(100_000) * 3).sum())
    assert time.monotonic() - started < ERROR_WITHIN


@pytest.fixture
def embedded_mode() -> Iterator[None]:
    assert cluster.active_client() is None, "another test left a client active"
    settings = {"scheduler": "distributed", "scheduler_timeout": SCHEDULER_TIMEOUT}
    with dnp.config.set(**settings, **{"cluster.workers": 1}):  # one worker starts faster
        yield
    cluster.close_embedded()


def test_the_embedded_cluster_is_restarted_after_losing_its_scheduler(embedded_mode) -> None:
    x = dnp.arange(100_000.0)
    assert_eq((x + 1).sum(), (numpy.arange(100_000.0) + 1).sum())
    lost = cluster.embedded_cluster()
    client = cluster.active_client()
    os.kill(lost.scheduler.pid, signal.SIGKILL)  # its scheduler process goes away
    deadline = time.monotonic() + 30
    while client.status == "running" and time.monotonic() < deadline:
        time.sleep(0.05)  # noticed first: a loss noticed mid-computation raises instead
    with pytest.warns(cluster.EmbeddedClusterRestartedWarning, match=lost.scheduler_address):
        assert_eq((x * 2).sum(), (numpy.arange(100_000.0) * 2).sum())
    restarted = cluster.embedded_cluster()
    assert restarted is not lost and restarted.scheduler_address != lost.scheduler_address
    assert cluster.active_client().status == "running"
