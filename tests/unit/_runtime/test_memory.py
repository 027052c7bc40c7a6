"""The persist check (``_runtime/memory.py``): an array beyond the workers' total memory is
refused before anything runs; one of at most 1 MiB fits any cluster, so persisting it asks
nothing of the cluster (a solver persists its tiny iterate)."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import memory
from dask_gpunumeric._runtime.cluster_shape import ClusterShape
from dask_gpunumeric.testing import assert_eq


@pytest.fixture
def tiny_cluster(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A cluster of two workers of 256 KiB each, as ``cluster_shape`` reports it; the
    list counts its calls."""
    calls: list[int] = []

    def shape() -> ClusterShape:
        calls.append(1)
        return ClusterShape(workers=2, memory_per_worker=256 * 1024, device=False)

    monkeypatch.setattr(memory, "cluster_shape", shape)
    return calls


def test_an_array_of_at_most_a_mebibyte_persists_without_asking(tiny_cluster: list[int]) -> None:
    host = numpy.arange(131072.0)  # exactly 1 MiB: over the tiny cluster's 512 KiB
    assert_eq(dnp.array(host).persist(), host)
    assert_eq((dnp.ones((4, 4)) * 2).persist(), numpy.full((4, 4), 2.0))
    assert tiny_cluster == []


def test_a_larger_array_is_checked_against_the_workers_memory(tiny_cluster: list[int]) -> None:
    x = dnp.zeros(131073)  # one element over 1 MiB
    with pytest.raises(dnp.ArrayMemoryError, match=r"shape \(131073,\) and dtype float64"):
        x.persist()
    assert tiny_cluster == [1]
    with dnp.config.set(memory_check=False):
        assert_eq(x.persist(), numpy.zeros(131073))
