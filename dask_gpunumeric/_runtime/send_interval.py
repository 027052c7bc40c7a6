"""How long the embedded cluster's processes hold a message back to batch it with the next.

distributed batches the messages of its long-lived streams: after a send, the client's
stream to the scheduler waits up to 10 ms before the next, the scheduler's to a worker
5 ms, a worker's and the scheduler's to a client 2 ms. Many tiny tasks in flight gain
from that; an iterative solver's check (``if float(r @ r) < tol``, once per iteration)
pays it on every hop, since each check's messages follow the last one's within
milliseconds. On 2 cores a bare ``client.submit(...).result()`` took 10.4 ms with those
intervals and 2.8 ms with none: the round-trip lane of ``benchmarks/suite/check_overhead.py``
run with ``DASK_GPUNUMERIC__CLUSTER__SEND_INTERVAL=null`` and with the default
(``docs/performance.md``, "Checks on the cluster").

The embedded cluster's client, scheduler and workers use
``gpunumeric.cluster.send-interval`` instead (0 by default: a message leaves as soon as
the previous write is done, and what arrives meanwhile still leaves together); ``null``
keeps distributed's. A cluster the user started keeps its own settings. A client that
reconnects to the scheduler gets distributed's interval on its new stream.
"""

from __future__ import annotations

import warnings
from typing import Any

import dask.utils
import distributed
from distributed.diagnostics.plugin import SchedulerPlugin, WorkerPlugin

from . import config
from .distributed_internals import (
    client_send_stream,
    scheduler_send_streams,
    set_send_interval,
    worker_send_stream,
)

PLUGIN_NAME = "dask-gpunumeric-send-interval"


def configured_interval() -> float | None:
    """``gpunumeric.cluster.send-interval`` in seconds; ``None``: distributed's own."""
    value = config.get("cluster.send-interval")
    if value is None:
        return None
    try:
        seconds = dask.utils.parse_timedelta(value, default="s")
    except (ValueError, KeyError, TypeError):
        seconds = None
    if seconds is None or seconds < 0:
        raise ValueError(
            "gpunumeric.cluster.send-interval must be a duration of 0 or more "
            f"('0ms', '2ms', 0.001) or null; got {value!r}"
        )
    return float(seconds)


class SchedulerSendInterval(SchedulerPlugin):
    """The scheduler's streams to its workers and clients send after ``seconds``: set on
    registration, for each worker that joins, and at each graph (a client's stream is
    made after the plugins hear of the client)."""

    name = PLUGIN_NAME

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def _apply(self, scheduler: Any) -> None:
        for stream in scheduler_send_streams(scheduler):
            set_send_interval(stream, self.seconds)

    async def start(self, scheduler: Any) -> None:
        self._apply(scheduler)

    def add_worker(self, scheduler: Any, worker: str) -> None:
        self._apply(scheduler)

    def update_graph(self, scheduler: Any, **kwargs: Any) -> None:
        self._apply(scheduler)


class WorkerSendInterval(WorkerPlugin):
    """A worker's stream to the scheduler sends after ``seconds`` (set up on every worker,
    including those that join later)."""

    name = PLUGIN_NAME

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def setup(self, worker: Any) -> None:
        set_send_interval(worker_send_stream(worker), self.seconds)


def apply_send_interval(client: distributed.Client, seconds: float | None) -> None:
    """The embedded cluster (``client``'s) sends after ``seconds`` (from
    :func:`configured_interval`, read before the cluster starts), in the client, the
    scheduler and every worker; nothing where it is ``None``."""
    if seconds is None:
        return
    set_send_interval(client_send_stream(client), seconds)
    try:
        client.register_plugin(SchedulerSendInterval(seconds))
        client.register_plugin(WorkerSendInterval(seconds))
    except Exception as error:  # the cluster works without: it only batches its messages
        warnings.warn(
            f"the embedded cluster keeps distributed's message batching "
            f"(gpunumeric.cluster.send-interval could not be applied: "
            f"{type(error).__name__}: {error}); checks on it cost more round-trip time",
            RuntimeWarning,
            stacklevel=2,
        )
