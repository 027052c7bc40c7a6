"""The embedded cluster's batched streams (client to scheduler, scheduler to workers and
clients, workers to scheduler) send with ``gpunumeric.cluster.send-interval`` (0 by
default), on workers that join later too; ``null`` keeps distributed's intervals, and a
cluster the user started keeps its own. Values stay NumPy's either way."""

from __future__ import annotations

from typing import Any

import dask
import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster
from dask_gpunumeric._runtime.distributed_internals import (
    client_send_stream,
    scheduler_send_streams,
    worker_send_stream,
)
from dask_gpunumeric.testing import assert_eq

# distributed's own intervals (distributed/client.py, scheduler.py, worker.py)
CLIENT_DEFAULT = 0.01
SCHEDULER_DEFAULTS = {0.005, 0.002}  # to a worker, to a client
WORKER_DEFAULT = 0.002


def intervals(client: distributed.Client) -> tuple[float, set[float], set[float]]:
    """The client's, the scheduler's (every stream) and the workers' send intervals."""

    def on_scheduler(dask_scheduler: Any) -> list[float]:
        return [stream.interval for stream in scheduler_send_streams(dask_scheduler)]

    def on_worker(dask_worker: Any) -> float:
        return float(worker_send_stream(dask_worker).interval)

    return (
        client_send_stream(client).interval,
        set(client.run_on_scheduler(on_scheduler)),
        set(client.run(on_worker).values()),
    )


def a_check() -> None:
    """A computation on the embedded cluster, checked against NumPy."""
    host = numpy.random.default_rng(3).random((300, 300))
    with dnp.config.set(client_work_bytes=0):
        x = dnp.array(host)
        assert_eq((x * 2 + 1).sum(axis=0), (host * 2 + 1).sum(axis=0), rtol=1e-13)
        assert float(x[0] @ x[1]) == pytest.approx(float(host[0] @ host[1]), rel=1e-13)


def test_every_stream_sends_at_once_by_default(embedded_cluster: None) -> None:
    a_check()
    client = cluster.active_client()
    assert client is not None
    client_interval, scheduler_intervals, worker_intervals = intervals(client)
    assert client_interval == 0.0
    assert scheduler_intervals == {0.0}  # the workers' streams and the client's
    assert worker_intervals == {0.0}


def test_a_configured_interval_is_used_everywhere(embedded_cluster: None) -> None:
    with dask.config.set({"gpunumeric.cluster.send-interval": "3ms"}):
        a_check()
    client = cluster.active_client()
    assert client is not None
    assert intervals(client) == (0.003, {0.003}, {0.003})


def test_a_worker_that_joins_later_sends_at_once_too(embedded_cluster: None) -> None:
    a_check()
    client = cluster.active_client()
    running = cluster.embedded_cluster()
    assert client is not None and running is not None
    before = len(client.scheduler_info()["workers"])
    running.scale(before + 1)
    client.wait_for_workers(before + 1, timeout=120)
    a_check()
    client_interval, scheduler_intervals, worker_intervals = intervals(client)
    assert len(client.scheduler_info()["workers"]) == before + 1
    assert (client_interval, scheduler_intervals, worker_intervals) == (0.0, {0.0}, {0.0})


def test_null_keeps_distributeds_intervals(embedded_cluster: None) -> None:
    with dask.config.set({"gpunumeric.cluster.send-interval": None}):
        a_check()
    client = cluster.active_client()
    assert client is not None
    client_interval, scheduler_intervals, worker_intervals = intervals(client)
    assert client_interval == CLIENT_DEFAULT
    assert scheduler_intervals <= SCHEDULER_DEFAULTS and 0.005 in scheduler_intervals
    assert worker_intervals == {WORKER_DEFAULT}


def test_a_users_own_cluster_keeps_its_intervals(embedded_cluster: None) -> None:
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as theirs,
        distributed.Client(theirs) as client,
    ):
        a_check()
        assert intervals(client) == (CLIENT_DEFAULT, {0.005, 0.002}, {WORKER_DEFAULT})
    assert cluster.embedded_cluster() is None


@pytest.mark.parametrize("value", ["-1ms", "soon", -2])
def test_a_bad_interval_is_refused_with_the_key_named(
    embedded_cluster: None, value: object
) -> None:
    x = dnp.array(numpy.arange(200_000.0))
    with (
        dask.config.set({"gpunumeric.cluster.send-interval": value}),
        pytest.raises(ValueError) as error,
    ):
        float((x * 2).sum())
    assert "gpunumeric.cluster.send-interval" in str(error.value)
    assert cluster.embedded_cluster() is None  # nothing left half-started


def test_a_cluster_that_refuses_the_plugins_still_computes(
    embedded_cluster: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(self: distributed.Client, plugin: object, name: object = None) -> None:
        raise RuntimeError("plugins are not allowed here")

    monkeypatch.setattr(distributed.Client, "register_plugin", refused)
    with pytest.warns(RuntimeWarning, match="send-interval could not be applied"):
        a_check()
    client = cluster.active_client()
    assert client is not None
    assert intervals(client)[2] == {WORKER_DEFAULT}  # the workers keep distributed's
    a_check()  # and later computations run without a warning
