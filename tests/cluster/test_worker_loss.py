"""Worker loss (issue 8): one worker of a nanny ``LocalCluster`` (two workers, and four) is
killed with SIGKILL in the middle of a 200-iteration stencil, of a CG solve, and while it
holds the only copy of an array the user persisted; the nanny restarts it, the
computation completes and equals NumPy's result.

Checkpoints (``_runtime/lineage.py``) are made often here (``checkpoint-every: 2``,
shallow ``persist-depth``) so the killed worker holds checkpointed chunks, whose lineage
was cut: they come back from their backup copy on another worker; the user's ``persist()``
keeps its full lineage and is recomputed by dask."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import numpy
import pytest
from distributed import Client, LocalCluster, futures_of, wait
from distributed.core import Status

import dask_gpunumeric as dnp
from benchmarks.long_loops import cg_steps, stencil_steps
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._runtime import execution
from dask_gpunumeric.testing import assert_eq

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ITERATIONS = 200
_KILLED: set[str] = set()  # addresses of the workers killed so far
CG_ITERATIONS = 40


@pytest.fixture(scope="module", params=[2, 4], ids=["2-workers", "4-workers"])
def client(request: pytest.FixtureRequest) -> Iterator[Client]:
    """Worker processes under nannies (a killed worker is restarted), one thread each."""
    with (
        LocalCluster(
            n_workers=request.param,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture(autouse=True)
def distributed_scheduler(backend: str, client: Client) -> Iterator[None]:
    """Computations go to the module's client, with frequent checkpoints; every worker
    is up (a restarted one included) before each test."""
    _wait_settled(client)
    with dnp.config.set(scheduler="distributed", persist_depth=20, checkpoint_every=2):
        yield


def _wait_settled(client: Client) -> None:
    """Until every worker of the cluster's spec runs under its nanny and the scheduler
    lists exactly those workers, none of them a killed one (a killed worker stays listed
    until the scheduler notices; a worker killed while its nanny still starts it is not
    restarted; a nanny whose restarted worker closed is dropped: it is made again)."""
    cluster = client.cluster
    wanted = len(cluster.worker_spec)
    deadline = time.monotonic() + 120  # a loaded 2-core machine restarts slowly
    while time.monotonic() < deadline:
        if len(cluster.workers) < wanted:
            cluster.scale(wanted)
        nannies = cluster.workers.values()
        expected = {n.worker_address for n in nannies if n.status == Status.running}
        listed = set(client.scheduler_info()["workers"])
        if len(expected) == wanted and listed == expected and not listed & _KILLED:
            return
        time.sleep(0.1)
    raise TimeoutError(f"workers not back after 120 s: {client.scheduler_info()['workers']}")


def _kill_holder(client: Client, array: Any) -> str:
    """SIGKILL the worker process holding the first chunk of ``array``'s persisted
    values (waited for: the kill hits data in memory, not a task in flight)."""
    futures = futures_of(array.to_dask())
    assert futures, "the array has no persisted chunks on the cluster"
    wait(futures)
    (address, *_) = client.who_has(futures[:1])[futures[0].key]
    pid = client.run(os.getpid, workers=[address])[address]
    os.kill(pid, signal.SIGKILL)
    _KILLED.add(address)
    return address


def test_stencil_survives_a_killed_worker(client: Client) -> None:
    steps, read = stencil_steps(dnp, 70)
    expected_steps, expected_read = stencil_steps(numpy, 70)
    for _ in range(ITERATIONS // 2):
        next(steps)
        next(expected_steps)
    center = steps.gi_frame.f_locals["center"]  # type: ignore[union-attr]
    expected_center = expected_steps.gi_frame.f_locals["center"]  # type: ignore[union-attr]
    killed = _kill_holder(client, center)
    for _ in range(ITERATIONS // 2):
        next(steps)
        next(expected_steps)
    assert_eq(center, expected_center)
    assert read() == expected_read()
    assert killed not in client.scheduler_info()["workers"]


def test_cg_survives_a_killed_worker(client: Client) -> None:
    steps, read = cg_steps(dnp, 80)
    expected_steps, expected_read = cg_steps(numpy, 80)
    for _ in range(CG_ITERATIONS // 2):
        next(steps)
        next(expected_steps)
    state = steps.gi_frame.f_locals["state"]  # type: ignore[union-attr]
    _kill_holder(client, state["r"])
    for _ in range(CG_ITERATIONS // 2):
        next(steps)
        next(expected_steps)
    expected_x = expected_steps.gi_frame.f_locals["state"]["x"]  # type: ignore[union-attr]
    numpy.testing.assert_allclose(state["x"].compute(), expected_x, rtol=1e-9)
    numpy.testing.assert_allclose(read(), expected_read(), rtol=1e-9)


def test_explicitly_persisted_array_survives_losing_its_only_copy(client: Client) -> None:
    host = numpy.linspace(-1.0, 1.0, 30_000)
    x = (dnp.sin(dnp.asarray(host)) * 3 + 1).persist()
    futures = futures_of(x.to_dask())
    wait(futures)
    holders = client.who_has(futures)
    assert all(len(workers) == 1 for workers in holders.values()), "one copy of each chunk"
    _kill_holder(client, x)
    expected = numpy.sin(host) * 3 + 1
    assert_eq(x, expected)
    # a sum over chunks adds in another order than NumPy's pairwise sum (last bit)
    assert_eq(x.sum(), expected.sum(), rtol=1e-12)


def _copies(client: Client, futures: list[Any]) -> set[int]:
    """How many workers hold each of ``futures``."""
    return {len(workers) for workers in client.who_has(futures).values()}


def _checkpointed() -> tuple[numpy.ndarray, Any]:
    """Host values, and ``host * 2 + 1`` persisted with its lineage cut (a dask array)."""
    host = numpy.linspace(-1.0, 1.0, 30_000)
    (array,) = execution.persist((dnp.asarray(host) * 2 + 1).to_dask())
    (cut,) = execution.checkpoint(array)
    assert cut.name != array.name, "the checkpoint was skipped (logged at INFO: why)"
    return host, cut


def test_a_checkpoint_survives_two_losses_apart(client: Client) -> None:
    """A checkpoint's chunks are held twice; after a worker holding one copy is killed,
    the scheduler's active memory manager makes a second copy again
    (``checkpoint_copies.py``), so a second loss, later, is survived too."""
    host, cut = _checkpointed()
    futures = futures_of(cut)
    for _ in range(2):
        assert _copies(client, futures) == {2}
        (holder, *_) = client.who_has(futures[:1])[futures[0].key]
        os.kill(client.run(os.getpid, workers=[holder])[holder], signal.SIGKILL)
        _KILLED.add(holder)
        _wait_settled(client)
        deadline = time.monotonic() + 60  # the AMM runs every 2 s
        while _copies(client, futures) != {2} and time.monotonic() < deadline:
            time.sleep(0.2)
    numpy.testing.assert_array_equal(get_backend().to_host(cut.compute()), host * 2 + 1)


def test_both_copies_of_a_checkpoint_lost_is_a_clear_error(client: Client) -> None:
    """Both holders of a checkpoint's chunks killed at once (before the active memory
    manager can copy them again): the values are gone for good, and computing from them
    raises ``DataLostError`` (a ``RuntimeError`` saying what was lost and what to do)
    in bounded time, not distributed's bare ``FuturesCancelledError``; the cluster then
    computes new arrays as before."""
    host, cut = _checkpointed()
    futures = futures_of(cut)
    holders = set(client.who_has(futures[:1])[futures[0].key])
    assert len(holders) == 2
    pids = client.run(os.getpid, workers=sorted(holders))
    for address, pid in pids.items():
        os.kill(pid, signal.SIGKILL)
        _KILLED.add(address)
    start = time.monotonic()
    with pytest.raises(dnp.DataLostError, match="lost with the workers that held it"):
        execution.compute(cut.sum())
    assert time.monotonic() - start < 60
    _wait_settled(client)
    assert_eq(dnp.asarray(host) * 2, host * 2)
