"""Host data on a cluster (``_lowering/host_blocks.py``): ``np.array(host)`` reaches the
workers as contiguous, aligned blocks scattered once to the owners of their positions,
never inside a graph; blocks of equal index of arrays of equal chunking (random draws
included) are made on one worker, so elementwise work between them moves no block.

On a 2-worker ``LocalCluster`` of worker processes, with the small-work policy off (the
arrays here are small enough for it to keep them in the client)."""

from __future__ import annotations

import math
import pickle
import time
from collections.abc import Iterator
from typing import Any

import numpy
import pytest
from distributed import Client, LocalCluster, futures_of, wait

import dask_gpunumeric as dnp
from dask_gpunumeric._lowering import lower

pytestmark = pytest.mark.slow

GRAPH_LIMIT = 2**20  # bytes: no graph sent carries data
BLOCK = 1024  # bytes: a block moved between workers is far larger than a partial sum


@pytest.fixture(scope="module")
def client(shared_cluster: LocalCluster) -> Iterator[Client]:
    with Client(shared_cluster) as client:
        yield client


@pytest.fixture(autouse=True)
def distributed_scheduler(backend: str) -> Iterator[None]:
    with dnp.config.set(scheduler="distributed"):
        yield


def graph_bytes(array: Any) -> int:
    """The pickled size of ``array``'s lowered graph (futures pickle as their keys)."""
    graph = lower(array._read()).__dask_graph__()
    return len(pickle.dumps(dict(graph), protocol=5))


def drain_incoming(client: Client) -> list[tuple[str, int]]:
    """(key, bytes) of every key a worker fetched from another since the last call."""

    def drain(dask_worker: Any) -> list[tuple[str, int]]:
        fetched = [
            (str(key), size)
            for entry in dask_worker.transfer_incoming_log
            for key, size in entry["keys"].items()
        ]
        dask_worker.transfer_incoming_log.clear()
        return fetched

    return [item for items in client.run(drain).values() for item in items]


def test_host_data_is_scattered_once_in_contiguous_blocks(client: Client) -> None:
    host = numpy.random.default_rng(0).random((1200, 1100))  # 10.6 MB, 4 tiles
    a = dnp.array(host)
    assert graph_bytes(a) < GRAPH_LIMIT  # the blocks are futures, not data
    first = lower(a._read())
    again = lower(a._read())
    assert set(futures_of(first)) == set(futures_of(again))  # scattered once
    assert len(futures_of(first)) == first.npartitions > 1
    for _ in range(3):  # used again and again, as a solver's matrix is
        numpy.testing.assert_allclose(float((a * 2.0).sum()), (host * 2.0).sum(), rtol=1e-12)

    keys = {future.key for future in futures_of(first)}

    def layouts(dask_worker: Any) -> list[tuple[bool, bool]]:
        held = [dask_worker.data[key] for key in keys if key in dask_worker.data]
        return [  # a simulated device chunk's memory is the NumPy array it wraps
            (value.flags.c_contiguous, value.flags.aligned)
            for value in (getattr(v, "_data", v) for v in held)
            if isinstance(value, numpy.ndarray)
        ]

    held = [layout for per_worker in client.run(layouts).values() for layout in per_worker]
    assert len(held) >= len(keys)  # every block held, as a host array underneath
    assert all(c for c, _ in held), held
    who_has = client.who_has(futures_of(first))
    assert len({worker for workers in who_has.values() for worker in workers}) == 2  # owners


def test_host_data_is_held_twice(client: Client) -> None:
    """Scattered blocks have no lineage: each is kept on two workers (the active memory
    manager's copy, asked for at the scatter), so a worker lost mid-computation loses
    none of them; the owners' blocks, computed from them, are aligned."""
    host = numpy.random.default_rng(5).random((1200, 1100))
    a = dnp.array(host)
    wait(futures_of(lower(a._read())))

    def scattered() -> dict[Any, tuple[str, ...]]:  # Client.scatter names keys so
        return {k: w for k, w in client.who_has().items() if str(k).startswith("ndarray-")}

    assert len(scattered()) > 1
    deadline = time.monotonic() + 30
    while {len(workers) for workers in scattered().values()} != {2}:
        assert time.monotonic() < deadline, scattered()
        time.sleep(0.1)
    numpy.testing.assert_allclose(float(a.sum()), host.sum(), rtol=1e-12)


def test_elementwise_work_on_draws_and_host_data_moves_no_block(client: Client) -> None:
    """Monte Carlo pi: ``x`` and ``y`` blocks of one index are drawn on one worker."""
    n = 2_000_000
    float(dnp.ones(8).sum())  # the cluster is up; the logs start empty below
    drain_incoming(client)
    rng = dnp.random.default_rng(42)
    x, y = rng.random(n), rng.random(n)
    assert math.prod(x.to_dask().numblocks) >= 2  # expression arrays: no npartitions
    inside = float(((x * x + y * y) <= 1.0).sum())
    fetched = drain_incoming(client)
    assert [item for item in fetched if item[1] > BLOCK] == []  # partial sums only
    host = dnp.random.default_rng(42)
    hx, hy = numpy.asarray(host.random(n)), numpy.asarray(host.random(n))
    assert inside == float(((hx * hx + hy * hy) <= 1.0).sum())
    w = dnp.array(numpy.linspace(0.0, 1.0, n))
    drain_incoming(client)
    wait(futures_of(lower(w._read())))
    drain_incoming(client)
    assert float((x * w).sum()) == pytest.approx(float((hx * numpy.linspace(0, 1, n)).sum()))
    # the scattered blocks' second copies (test_host_data_is_held_twice) move once
    moved = [item for item in drain_incoming(client) if not item[0].startswith("ndarray-")]
    assert [item for item in moved if item[1] > BLOCK] == []


def test_a_value_computed_in_the_client_goes_to_the_cluster_once(client: Client) -> None:
    """A result of the small-work policy (a ``ChunkValue``) read by work on the cluster."""
    host = numpy.random.default_rng(1).random((700, 600))  # 3.4 MB
    with dnp.config.set(client_work_bytes="64 MiB"):
        here = dnp.array(host) * 2.0
        float(here.sum())  # computed in the client: here's store holds the value
    assert type(here._store.version).__name__ == "ChunkValue"
    big = dnp.random.default_rng(3).random((700, 600))
    assert graph_bytes(here + big) < GRAPH_LIMIT
    numpy.testing.assert_allclose(
        float((here + big).sum()),
        float((host * 2.0 + numpy.asarray(dnp.random.default_rng(3).random((700, 600)))).sum()),
        rtol=1e-12,
    )


def test_blocks_for_an_owner_that_is_gone_go_to_another_worker(client: Client) -> None:
    """The owner list is read up to 2 s before a scatter: an owner lost since is never
    listed again, and distributed would wait 30 s and raise "No valid workers found"
    (a program under worker kills stopped so); the blocks go to a worker that is up."""
    from dask_gpunumeric._runtime import execution

    gone = "tcp://127.0.0.1:9"  # no worker of this cluster
    start = time.monotonic()
    (futures,) = execution.scatter_to({gone: [numpy.arange(5.0), numpy.ones(3)]}).values()
    assert time.monotonic() - start < 15
    holders = client.who_has(futures)
    assert all(
        set(workers) <= set(client.scheduler_info()["workers"]) for workers in holders.values()
    )
    assert all(holders.values())
    numpy.testing.assert_array_equal(futures[0].result(), numpy.arange(5.0))
