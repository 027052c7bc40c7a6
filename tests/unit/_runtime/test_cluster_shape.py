"""``cluster_shape()``: from a client's ``scheduler_info()``, else from the embedded
cluster that would start here, without starting it."""

from __future__ import annotations

import os

import psutil

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster
from dask_gpunumeric._runtime.cluster_shape import (
    ClusterShape,
    cluster_shape,
    local_shape,
    shape_from_scheduler_info,
)

GIB = 2**30


def worker(memory_limit: int, **extra) -> dict:
    return {"memory_limit": memory_limit, "nthreads": 1, "resources": {}, "metrics": {}, **extra}


def test_cpu_workers_from_scheduler_info_take_the_smallest_memory_limit() -> None:
    info = {"workers": {f"tcp://w{i}": worker((i + 2) * GIB) for i in range(4)}}
    assert shape_from_scheduler_info(info) == ClusterShape(4, 2 * GIB, device=False)


def test_unlimited_workers_share_the_machines_memory() -> None:
    info = {"workers": {"tcp://a": worker(0), "tcp://b": worker(0)}}
    expected = psutil.virtual_memory().total // 2
    assert shape_from_scheduler_info(info) == ClusterShape(2, expected, device=False)


def test_gpu_workers_report_device_memory() -> None:
    gpu = {"metrics": {"gpu-memory-total": 16 * GIB}}
    info = {"workers": {f"ucx://g{i}": worker(64 * GIB, **gpu) for i in range(8)}}
    assert shape_from_scheduler_info(info) == ClusterShape(8, 16 * GIB, device=True)


def test_a_mixed_cluster_is_not_a_device_cluster() -> None:
    gpu = worker(8 * GIB, metrics={"gpu-memory-total": 16 * GIB})
    info = {"workers": {"tcp://g": gpu, "tcp://c": worker(4 * GIB)}}
    assert shape_from_scheduler_info(info) == ClusterShape(2, 4 * GIB, device=False)


def test_without_a_client_the_cluster_that_would_start_and_none_starts() -> None:
    with dnp.config.set(scheduler="distributed"):
        shape = cluster_shape()
        assert shape == local_shape()
        gpus = cluster.local_gpu_count()  # 0 where NVML sees none: CPU workers, one per core
        assert shape.workers == cluster.local_cluster_spec().workers == (gpus or os.cpu_count())
        assert shape.device == bool(gpus)
    assert cluster.embedded_cluster() is None


def test_configured_workers_and_memory_limit() -> None:
    settings = {"cluster.workers": 4, "cluster.memory-limit": "1GiB", "cluster.gpus": 0}
    with dnp.config.set(**settings):
        assert cluster_shape() == ClusterShape(4, GIB, device=False)
