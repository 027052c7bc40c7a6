"""Memory pressure: an array more than twice a worker's memory limit, drawn on the workers,
is reduced correctly (held blocks spill to disk; no worker is paused for good or
restarted); an array that cannot fit in the client or the cluster fails early with an
``ArrayMemoryError`` (a ``MemoryError``) naming the array and the limit."""

from __future__ import annotations

from collections.abc import Iterator

import dask.utils
import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric.testing import assert_eq

pytestmark = pytest.mark.slow

# A worker holds about 140 MiB before any block (Python, NumPy, dask, distributed, this
# library, Numba), and one thread has up to three blocks of limit/8 in flight; the nanny
# restarts a worker at 95% of its limit. At 200 MiB that left no room (a worker was restarted
# now and then under dask 2026.8); 320 MiB leaves about 60 MiB.
WORKER_MEMORY = 320 * 2**20  # per worker, two workers
ELEMENTS = 90_000_000  # float64: 720 MB, more than twice one worker's limit


@pytest.fixture(scope="module")
def small_cluster() -> Iterator[distributed.LocalCluster]:
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        memory_limit=WORKER_MEMORY,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    ) as cluster:
        yield cluster


@pytest.fixture
def on_small_cluster(small_cluster) -> Iterator[distributed.Client]:
    with (
        distributed.Client(small_cluster, set_as_default=True) as client,
        dnp.config.set(scheduler="distributed"),
    ):
        yield client


def drawn_in_the_client(x: dnp.ndarray) -> numpy.ndarray:
    """``x`` drawn again in this process (dask's threads, the cluster's chunks): a draw's
    values depend on its seed, draw order and chunking only, so the oracle needs nothing
    from the workers.
    Fetching its 600 MB through the 200 MB workers, a few blocks at a time, restarted a
    worker now and then (its unmanaged memory after the reductions, plus the blocks in
    flight): the test's own helper, not the reduction, failed it."""
    lowered = x.to_dask()  # the cluster's chunking, which the values depend on
    return get_backend().to_host(lowered.compute(scheduler="threads"))


def test_a_reduction_larger_than_the_workers_memory(on_small_cluster) -> None:
    client = on_small_cluster
    workers = set(client.scheduler_info()["workers"])
    x = dnp.random.default_rng(42).random(ELEMENTS)
    assert x.nbytes > 2 * WORKER_MEMORY
    assert max(x.to_dask().chunks[0]) * 8 <= WORKER_MEMORY // 8  # blocks sized for workers
    # var may hold x's blocks for its mean: they spill (whether dask holds or recomputes
    # them depends on its ordering under load, so spilling itself is not asserted).
    var, mean = float(x.var()), float(x.mean())
    host = drawn_in_the_client(x)
    # Blockwise partial sums against NumPy's pairwise sum of the whole: a few ulps apart.
    assert_eq(var, host.var(), rtol=1e-13)
    assert_eq(mean, host.mean(), rtol=1e-13)
    assert set(client.scheduler_info()["workers"]) == workers  # none restarted


def test_persisting_beyond_the_cluster_memory_fails_early(on_small_cluster) -> None:
    x = dnp.random.default_rng(1).random(ELEMENTS)
    with pytest.raises(MemoryError, match=rf"shape \({ELEMENTS},\) and dtype float64") as raised:
        x.persist()
    assert isinstance(raised.value, dnp.ArrayMemoryError)
    message = str(raised.value)
    assert dask.utils.format_bytes(8 * ELEMENTS) in message
    assert "2 worker(s)" in message and dask.utils.format_bytes(2 * WORKER_MEMORY) in message


def test_materializing_beyond_the_client_memory_fails_early(on_small_cluster) -> None:
    huge = dnp.ones((2**20, 2**16))  # 512 GiB: lazy is fine, reducing it would be too
    for materialize in (numpy.asarray, repr, lambda a: a.tolist()):
        with pytest.raises(dnp.ArrayMemoryError, match=r"shape \(1048576, 65536\)") as raised:
            materialize(huge)
        assert "512.00 GiB" in str(raised.value) and "client" in str(raised.value)
    with dnp.config.set(memory_check=False):
        assert_eq(huge[:3, :4], numpy.ones((3, 4)))  # slices of it are fine either way
