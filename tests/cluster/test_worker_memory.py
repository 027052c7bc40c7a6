"""A persisted array moved into the client from workers on this machine is read straight
out of their memory (``_runtime/worker_memory.py``); where that cannot be done it is
gathered. The moved values equal the host arrays they were made from either way.

The workers here are processes (a ``LocalCluster`` with ``processes=True``): the route
reads another process's memory, and the tests check that the blocks are let go after.
"""

from __future__ import annotations

import asyncio
import ctypes
import errno
import gc
import math
import os
import subprocess
import sys
import time
import weakref
from collections import Counter
from collections.abc import Iterator
from typing import Any

import dask
import dask.array as da
import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import data_moves, nearby_workers, worker_memory
from dask_gpunumeric.testing import assert_eq
from tests.cluster.test_data_on_the_workers import cg_steps, last, spd


def _child_memory_readable() -> bool:
    """Whether this process may read a child's memory here (the kernel may refuse: a
    ptrace policy stricter than Yama's 1, a sandbox): then the route gathers, as
    ``test_a_refusal_by_the_kernel_falls_back_and_is_remembered`` checks, and the tests
    that it reads cannot run."""
    if not worker_memory.available():
        return False
    program = (
        "import numpy, sys; a = numpy.arange(4.0); "
        "print(a.__array_interface__['data'][0], flush=True); sys.stdin.read()"
    )
    with subprocess.Popen(
        [sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None and child.stdin is not None
        address = int(child.stdout.readline())
        found = numpy.zeros(4)
        try:
            read = worker_memory._copied(child.pid, address, found)
        except worker_memory._RefusedError:
            read = False
        child.stdin.close()
    return read and bool((found == numpy.arange(4.0)).all())


pytestmark = pytest.mark.skipif(
    not _child_memory_readable(), reason="this process may not read its children's memory"
)


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """A client of two single-threaded worker processes on this machine."""
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no cluster refused or registered (the plugin is registered
    again: the same name replaces it)."""
    monkeypatch.setattr(worker_memory._Clusters, "refused", set())
    monkeypatch.setattr(worker_memory._Clusters, "registered", set())


@pytest.fixture
def routes(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How the moves went: ``read`` (out of the workers' memory), ``not read`` (the route
    was tried and gave nothing back), ``asked`` (requests to the workers), ``gather``."""
    counts: Counter[str] = Counter()
    real_read, real_asked = worker_memory.read, worker_memory._asked
    real_gather = distributed.Client.gather

    def read(*args: Any) -> Any:
        values = real_read(*args)
        counts["read" if values is not None else "not read"] += 1
        return values

    async def asked(*args: Any) -> Any:
        counts["asked"] += 1
        return await real_asked(*args)

    def gather(self: distributed.Client, *args: Any, **kwargs: Any) -> Any:
        counts["gather"] += 1
        return real_gather(self, *args, **kwargs)

    monkeypatch.setattr(worker_memory, "read", read)
    monkeypatch.setattr(worker_memory, "_asked", asked)
    monkeypatch.setattr(distributed.Client, "gather", gather)
    return counts


def persisted(client: distributed.Client, host: numpy.ndarray, chunks: Any) -> Any:
    """``host`` as a dask array persisted on the workers in blocks of ``chunks``."""
    array = client.persist(da.from_array(host, chunks=chunks))
    distributed.wait(distributed.futures_of(array))
    return array


def moved(array: Any) -> numpy.ndarray:
    (value,) = data_moves.fetch(array)
    return value


CASES = [
    pytest.param((1000,), (1000,), numpy.float64, id="one-block"),
    pytest.param((1000,), (250,), numpy.bool_, id="bool-four-blocks"),
    pytest.param((600, 400), (300, 400), numpy.float64, id="rows"),
    # Blocks split along the last axis: each lands in a region that is not contiguous.
    pytest.param((600, 400), (300, 150), numpy.float32, id="tiles-uneven"),
    pytest.param((50, 7, 3), (25, 4, 3), numpy.int16, id="3d"),
    pytest.param((300,), (100,), numpy.complex128, id="complex"),
]


@pytest.mark.parametrize(("shape", "chunks", "dtype"), CASES)
def test_moved_values_equal_the_host_arrays(
    client: distributed.Client, routes: Counter[str], shape: Any, chunks: Any, dtype: Any
) -> None:
    host = (numpy.random.default_rng(3).random(shape) * 100).astype(dtype)
    value = moved(persisted(client, host, chunks))
    numpy.testing.assert_array_equal(value, host, strict=True)
    assert value.flags.c_contiguous and value.flags.writeable
    assert routes == {"read": 1, "asked": 1}


def test_arrays_of_one_move_are_read_in_one_request(
    client: distributed.Client, routes: Counter[str]
) -> None:
    hosts = [numpy.arange(12.0).reshape(3, 4), numpy.arange(7, dtype=numpy.int64)]
    arrays = [persisted(client, hosts[0], (1, 4)), persisted(client, hosts[1], (3,))]
    values = data_moves.fetch(*arrays)
    for value, host in zip(values, hosts, strict=True):
        numpy.testing.assert_array_equal(value, host, strict=True)
    assert routes == {"read": 1, "asked": 1}


def _failing_reads(code: int) -> Any:
    """A ``process_vm_readv`` that fails with ``errno`` ``code``, as the kernel's does."""

    def read(*args: Any) -> int:
        ctypes.set_errno(code)
        return -1

    return lambda: read


def test_a_refusal_by_the_kernel_falls_back_and_is_remembered(
    client: distributed.Client, routes: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(worker_memory, "_read_function", _failing_reads(errno.EPERM))
    host = numpy.arange(100.0)
    array = persisted(client, host, (50,))
    numpy.testing.assert_array_equal(moved(array), host, strict=True)
    assert routes == {"not read": 1, "asked": 1, "gather": 1}
    numpy.testing.assert_array_equal(moved(array), host, strict=True)
    # Not asked again: the cluster is remembered as one this process may not read.
    assert routes == {"not read": 2, "asked": 1, "gather": 2}


def test_a_read_failing_for_a_reason_of_the_moment_is_tried_again(
    client: distributed.Client, routes: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ESRCH`` (the worker's process gone): that move is gathered, the next is read."""
    host = numpy.arange(100.0)
    array = persisted(client, host, (50,))
    with monkeypatch.context() as patch:
        patch.setattr(worker_memory, "_read_function", _failing_reads(errno.ESRCH))
        numpy.testing.assert_array_equal(moved(array), host, strict=True)
    assert routes == {"not read": 1, "asked": 1, "gather": 1}
    numpy.testing.assert_array_equal(moved(array), host, strict=True)
    assert routes == {"not read": 1, "asked": 2, "gather": 1, "read": 1}


def test_a_worker_that_does_not_answer_leaves_nothing_held(
    client: distributed.Client, routes: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One worker answers, the other not within ``REACH``: the move is gathered, the
    worker that answered lets its blocks go, and every connection is back in the pool."""
    slow = sorted(client.scheduler_info()["workers"])[0]

    def answering_late(dask_worker: Any) -> None:
        async def late(comm: Any, keys: Any, proof: bytes) -> None:
            await asyncio.sleep(2)

        dask_worker.handlers[worker_memory.HANDLER] = late

    assert worker_memory._registered(client)  # the plugin's handler first, then this one
    client.run(answering_late, workers=[slow])
    monkeypatch.setattr(worker_memory, "REACH", 0.5)
    host = numpy.arange(4000.0)
    array = persisted(client, host, (1000,))
    keys = [future.key for future in distributed.futures_of(array)]
    numpy.testing.assert_array_equal(moved(array), host)
    assert routes == {"not read": 1, "asked": 1, "gather": 1}
    assert not any(client.rpc.occupied.values())  # every connection given back
    assert sum(client.run(_held_refs, keys).values()) == len(keys)
    del array
    _wait_until_dropped(client, keys)
    assert sum(client.run(_live_refs).values()) == 0


def test_a_process_id_naming_another_process_is_found_out_by_the_proof(
    client: distributed.Client, routes: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a worker in another PID namespace (a container sharing the network) would
    answer: its id names some other process here, where its addresses hold other bytes
    (here: this process, with decoys of the right size at every address). Every read
    succeeds; only the proof, which differs, shows they came from the wrong process."""
    real = worker_memory._asked
    decoys: list[numpy.ndarray] = []

    def decoy(nbytes: int, fill: int) -> int:
        decoys.append(numpy.full(nbytes, fill, dtype=numpy.uint8))
        return decoys[-1].__array_interface__["data"][0]

    async def elsewhere(*args: Any) -> Any:
        answers = await real(*args)
        for _, _, answer in answers:
            answer["pid"] = os.getpid()
            answer["proof"] = decoy(16, 0)
            answer["lent"] = [
                (position, decoy(numpy.dtype(dtype).itemsize * math.prod(shape), 7), dtype, shape)
                for position, _, dtype, shape in answer["lent"]
            ]
        return answers

    monkeypatch.setattr(worker_memory, "_asked", elsewhere)
    host = numpy.arange(64.0)
    numpy.testing.assert_array_equal(moved(persisted(client, host, (32,))), host, strict=True)
    assert routes == {"not read": 1, "asked": 1, "gather": 1}
    assert client.scheduler.address in worker_memory._Clusters.refused


def test_blocks_not_lent_are_gathered_and_the_route_stays_on(
    client: distributed.Client, routes: Counter[str]
) -> None:
    """A Fortran-ordered block (a transpose's) is not lent: only C-contiguous NumPy
    blocks are. That move is gathered, and the next one is read."""
    host = numpy.arange(20.0).reshape(5, 4)
    transposed = client.persist(da.from_array(host, chunks=(5, 4)).T)
    distributed.wait(distributed.futures_of(transposed))
    numpy.testing.assert_array_equal(moved(transposed), host.T)
    assert routes == {"not read": 1, "asked": 1, "gather": 1}
    assert client.scheduler.address not in worker_memory._Clusters.refused
    other = numpy.arange(20.0)
    numpy.testing.assert_array_equal(moved(persisted(client, other, (10,))), other)
    assert routes["read"] == 1


def test_a_worker_that_lost_its_handler_gets_it_again(
    client: distributed.Client, routes: Counter[str]
) -> None:
    host = numpy.arange(30.0)
    array = persisted(client, host, (15,))
    numpy.testing.assert_array_equal(moved(array), host)
    assert routes["read"] == 1

    def forget(dask_worker: Any) -> None:
        del dask_worker.handlers[worker_memory.HANDLER]

    client.run(forget)
    numpy.testing.assert_array_equal(moved(array), host)
    assert routes["gather"] == 1  # its worker answered it has no such handler
    numpy.testing.assert_array_equal(moved(array), host)
    assert routes["read"] == 2  # the plugin was registered again


def _held_refs(keys: list[Any], dask_worker: Any) -> int:
    """Weak references to the blocks of ``keys`` this worker holds, kept on the worker."""
    refs = dask_worker.__dict__["_test_refs"] = [
        weakref.ref(dask_worker.data[key]) for key in keys if key in dask_worker.data
    ]
    return len(refs)


def _live_refs(dask_worker: Any) -> int:
    """How many of the blocks referenced by ``_held_refs`` are still alive."""
    gc.collect()
    refs = dask_worker.__dict__.pop("_test_refs", [])
    return sum(ref() is not None for ref in refs)


@pytest.mark.parametrize("fails", [False, True], ids=["read", "read-fails"])
def test_the_workers_let_their_blocks_go_after_the_read(
    client: distributed.Client, routes: Counter[str], monkeypatch: pytest.MonkeyPatch, fails: bool
) -> None:
    """A lent block is referenced by the worker's handler until the reader is done, also
    when the read fails half-way; after that, releasing the futures frees it."""
    if fails:

        def broken(*args: Any) -> Any:
            raise RuntimeError("a read that fails half-way")

        monkeypatch.setattr(worker_memory, "_read_into_place", broken)
    host = numpy.arange(4000.0)
    array = persisted(client, host, (1000,))
    keys = [future.key for future in distributed.futures_of(array)]
    numpy.testing.assert_array_equal(moved(array), host)
    assert routes["read" if not fails else "gather"] == 1
    assert sum(client.run(_held_refs, keys).values()) == len(keys)
    del array
    _wait_until_dropped(client, keys)
    assert sum(client.run(_live_refs).values()) == 0


def _wait_until_dropped(client: distributed.Client, keys: list[Any]) -> None:
    """Until the workers have dropped the released ``keys`` (a failed move's traceback,
    collected here, may hold their futures in a reference cycle)."""
    gc.collect()
    for _ in range(100):
        held = client.run(lambda dask_worker: sum(k in dask_worker.data for k in keys))
        if not any(held.values()):
            return
        time.sleep(0.05)
    raise AssertionError(f"the workers still hold {held} of the released keys")


def test_off_by_config_and_for_workers_elsewhere(
    client: distributed.Client, routes: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    host = numpy.arange(10.0)
    array = persisted(client, host, (5,))
    with dnp.config.set(local_moves=False):
        numpy.testing.assert_array_equal(moved(array), host)
    monkeypatch.setattr(nearby_workers, "workers_share_this_machine", lambda client: False)
    numpy.testing.assert_array_equal(moved(array), host)
    assert routes == {"gather": 2}


def test_a_solver_on_a_persisted_matrix_reads_it_once(
    client: distributed.Client, distributed_scheduler: None, routes: Counter[str], backend: str
) -> None:
    """Dense CG on a matrix persisted on the workers: the placement rule moves it into the
    client once, read out of the workers' memory (NumPy's chunks; the simulated device's
    are gathered); the result equals NumPy's."""
    a_host, b_host = spd(200)
    (a, b) = dask.persist(dnp.array(a_host), dnp.array(b_host))
    distributed.wait(distributed.futures_of([a, b]))
    with dnp.config.set(client_work_bytes="64 MiB"):
        ours = last(cg_steps(dnp, a, b, 5))
        assert_eq(ours, last(cg_steps(numpy, a_host, b_host, 5)), rtol=1e-10, atol=1e-12)
    if backend == "numpy":
        assert routes == {"read": 1, "asked": 1}  # the matrix and the vector, together
    else:  # the simulated device's chunks are not NumPy's: not read, gathered
        assert routes == {"gather": 1}
