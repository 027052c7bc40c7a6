"""``cluster_shape()``: what the partitioning policy needs to know of the cluster.

From the active client's ``scheduler_info()`` when a client is active; else from the
embedded cluster that *would* start here (cores, GPUs, memory of this machine), without
starting it, so creating an array never needs a cluster.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

import psutil
from dask.utils import parse_bytes

from . import config
from .cluster import active_client, local_cluster_spec

# scheduler_info() is a round trip; array creation asks often, workers change rarely.
_REFRESH_SECONDS = 2.0


@dataclass(frozen=True)
class ClusterShape:
    """Worker count, memory of one worker in bytes (device memory for GPU workers) and
    whether the workers are GPUs."""

    workers: int
    memory_per_worker: int
    device: bool


class _Cache:
    shapes: dict[str, tuple[float, ClusterShape]] = {}


def cluster_shape() -> ClusterShape:
    """The shape of the cluster computations go to now (see the module docstring)."""
    client = active_client() if config.get("scheduler") == "distributed" else None
    if client is None:
        return local_shape()
    address = client.scheduler.address
    cached = _Cache.shapes.get(address)
    if cached is None or time.monotonic() - cached[0] > _REFRESH_SECONDS:
        cached = (time.monotonic(), shape_from_scheduler_info(client.scheduler_info()))
        _Cache.shapes[address] = cached
    return cached[1]


@functools.cache
def machine_memory() -> int:
    """This machine's memory in bytes, read once (``psutil`` takes about 20 us, and
    ``local_shape`` runs at every array creation without a cluster)."""
    return int(psutil.virtual_memory().total)


def local_shape() -> ClusterShape:
    """The embedded cluster that would start on this machine."""
    spec = local_cluster_spec()
    if spec.gpus:
        return ClusterShape(spec.gpus, _local_device_memory(), device=True)
    total = machine_memory()
    return ClusterShape(
        spec.workers, _memory_limit_bytes(spec.memory_limit, total, spec.workers), False
    )


def shape_from_scheduler_info(info: dict[str, Any]) -> ClusterShape:
    """A ``ClusterShape`` from ``Client.scheduler_info()`` (the smallest worker counts:
    chunks must fit everywhere). GPU workers report ``gpu-memory-total`` in their metrics
    (distributed's NVML monitor) or a ``GPU`` resource."""
    workers = list(info.get("workers", {}).values())
    if not workers:
        return local_shape()
    device_memory = [w.get("metrics", {}).get("gpu-memory-total") for w in workers]
    device = all(
        m is not None or w.get("resources", {}).get("GPU")
        for w, m in zip(workers, device_memory, strict=True)
    )
    if device and all(device_memory):
        memory = min(int(m) for m in device_memory if m)
    else:
        limits = [int(w.get("memory_limit") or 0) for w in workers]
        unlimited = machine_memory() // len(workers)
        memory = min(limit or unlimited for limit in limits)
    return ClusterShape(len(workers), memory, device)


def _memory_limit_bytes(limit: Any, total: int, workers: int) -> int:
    """A worker's ``memory_limit`` in bytes, read as LocalCluster reads it."""
    if limit in (None, 0, "auto"):
        return total // workers
    if isinstance(limit, str):
        return parse_bytes(limit)
    return int(limit * total) if limit <= 1 else int(limit)


def _local_device_memory() -> int:
    from distributed.diagnostics import nvml

    return int(nvml.one_time()["memory-total"])
