"""Computations run by the workers among themselves (``gpunumeric.peer-runs``,
``_runtime/peer_runs.py``): the stencil's results equal NumPy's and the scheduler's
route bit for bit, the scheduler runs no task of them (its transition log), only ghost
slabs go between workers, a failing task drops the run on every worker in bounded time,
and a user's annotation keeps the scheduler's route.

On a ``LocalCluster`` of 4 single-threaded worker processes, small-work policy off."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from typing import Any

import dask
import numpy
import pytest
from dask.highlevelgraph import HighLevelGraph, MaterializedLayer
from distributed import Client, LocalCluster, wait

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import peer_runs, placement
from examples.stencil import stencil
from tests.cluster.conftest import prefixes_sent_to_workers

pytestmark = pytest.mark.usefixtures("distributed_scheduler")

N, ITERATIONS = 62, 10  # a 64 x 64 grid in 2 x 2 blocks: one per worker


@pytest.fixture(scope="module")
def client() -> Any:
    with (
        LocalCluster(n_workers=4, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture(autouse=True)
def small_blocks() -> Any:
    with dnp.config.set(min_chunk_elements=256):
        yield


def persisted_stencil(peers: bool) -> Any:
    with dnp.config.set(peer_runs=peers):
        grid = stencil(dnp, N, ITERATIONS).persist()
        wait(grid.to_dask())
    return grid


def test_the_stencil_runs_on_the_workers_with_no_task_and_equals_numpy(client: Client) -> None:
    grids: list[Any] = []
    sent = prefixes_sent_to_workers(client, lambda: grids.append(persisted_stencil(True)))
    assert sent == set()
    (grid,) = grids
    assert grid.to_dask().numblocks == (2, 2)
    expected = stencil(numpy, N, ITERATIONS)
    result = numpy.asarray(grid)
    assert result.dtype == expected.dtype and result.shape == expected.shape
    numpy.testing.assert_allclose(result, expected, rtol=1e-13, atol=1e-12)


def test_the_scheduler_runs_the_same_program_with_tasks_and_the_same_bits(
    client: Client,
) -> None:
    grids: list[Any] = []
    sent = prefixes_sent_to_workers(client, lambda: grids.append(persisted_stencil(False)))
    assert sent  # the route the peers replace: tasks on the workers
    by_peers = numpy.asarray(persisted_stencil(True))
    numpy.testing.assert_array_equal(by_peers, numpy.asarray(grids[0]))


def test_persisted_blocks_are_held_by_their_owners(client: Client) -> None:
    grid = persisted_stencil(True).to_dask()
    futures = [block for block in grid.__dask_graph__().values()]
    holders = client.who_has(futures)
    workers = placement.workers_of(client)
    for future in futures:
        index = future.key[1:]
        owner = workers[placement.owner_position(index, grid.numblocks, len(workers))]
        assert holders[future.key] == (owner,)


def test_only_ghost_slabs_go_between_the_workers(client: Client) -> None:
    since = time.time()
    persisted_stencil(True)
    received = client.run(lambda dask_worker: peer_runs.received_since(dask_worker.address, since))
    block_bytes = (N + 2) ** 2 // 4 * 8
    assert all(0 < size < block_bytes for size in received.values())
    moved = client.run(
        lambda dask_worker: [e for e in dask_worker.transfer_incoming_log if e["start"] >= since]
    )
    assert all(entries == [] for entries in moved.values())  # no transfer of the scheduler's


def _fails(value: Any) -> Any:
    raise ValueError("a failing task")


def _slowly(value: Any) -> Any:
    time.sleep(0.2)
    return value


def _asleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _placed(tasks: dict[Any, Any], owners: dict[Any, list[str]]) -> HighLevelGraph:
    """``tasks`` as a one-layer graph, each key placed on its owner as lowering does."""
    layer = MaterializedLayer(tasks, annotations=placement.annotations_of(owners))
    return HighLevelGraph({"a": layer}, {"a": set()})


def _computed_by_peers(client: Client, graph: HighLevelGraph) -> Any:
    """``peer_runs.computed`` of ``("b", 0)``, within 30 s."""
    with dnp.config.set(peer_runs=True):
        start = time.perf_counter()
        values = peer_runs.computed(client, graph, [("b", 0)], graph.layers.values())
        assert time.perf_counter() - start < 30
    return values


def left_open(dask_worker: Any) -> int:
    """On a worker: its runs not ended."""
    return sum(1 for address, _ in peer_runs._Runs.open if address == dask_worker.address)


def test_a_failing_task_drops_the_run_on_every_worker(client: Client) -> None:
    """A task on one worker raises while another worker waits for its value: the run
    ends everywhere (nothing left open) and the caller gets ``None``, in bounded time."""
    workers = placement.workers_of(client)
    tasks = {
        ("a", 0): (_slowly, 1.0),
        ("a", 1): (_fails, ("a", 0)),
        ("b", 0): (sum, [("a", 0), ("a", 1)]),
    }
    owners = {("a", 0): [workers[0]], ("a", 1): [workers[1]], ("b", 0): [workers[2]]}
    assert _computed_by_peers(client, _placed(tasks, owners)) is None
    assert set(client.run(left_open).values()) == {0}
    tasks[("a", 1)] = (_slowly, ("a", 0))  # the next run is not disturbed
    assert _computed_by_peers(client, _placed(tasks, owners)) == [2.0]


def test_a_task_failing_beside_one_waiting_for_a_peer_drops_the_run(client: Client) -> None:
    """On one worker a task fails while another there waits for a value from a peer
    (its wait cancelled): the run still ends everywhere, with nothing left open."""
    workers = placement.workers_of(client)
    tasks = {
        ("a", 0): (_slowly, 1.0),
        ("c", 0): (sum, [("a", 0), 1.0]),
        ("a", 1): (_fails, 2.0),
        ("b", 0): (sum, [("c", 0), ("a", 1)]),
    }
    owners = {("a", 0): [workers[0]], ("c", 0): [workers[1]], ("a", 1): [workers[1]]}
    owners[("b", 0)] = [workers[2]]
    assert _computed_by_peers(client, _placed(tasks, owners)) is None
    assert set(client.run(left_open).values()) == {0}


def test_values_of_a_worker_gone_before_registration_are_not_registered(client: Client) -> None:
    """A worker that replied and was removed before the registration: its keys are not
    registered (the scheduler would hold them in memory with no holder, and a
    computation reading them would wait for ever: a hang the chaos run found), those of
    the others are."""
    (alive, *_) = placement.workers_of(client)
    gone = "tcp://127.0.0.1:9"  # no worker of this cluster
    # keys of their own (a release of another test's, still on its way, would forget them)
    lost, kept = (f"peer-gone-{uuid.uuid4().hex}", 0), (f"peer-alive-{uuid.uuid4().hex}", 0)
    futures = peer_runs._registered_futures(client, {gone: {lost: 8}, alive: {kept: 8}})
    assert list(futures) == [kept]

    def known(dask_scheduler: Any) -> list[bool]:
        return [key in dask_scheduler.tasks for key in (lost, kept)]

    assert client.run_on_scheduler(known) == [False, True]


def test_a_users_annotation_keeps_the_scheduler_route(client: Client) -> None:
    grids: list[Any] = []

    def run() -> None:
        with dask.annotate(retries=2):
            grids.append(persisted_stencil(True))

    assert prefixes_sent_to_workers(client, run)
    numpy.testing.assert_allclose(
        numpy.asarray(grids[0]), stencil(numpy, N, ITERATIONS), rtol=1e-13, atol=1e-12
    )


def test_off_by_default() -> None:
    assert dnp.config.get("peer-runs") is False


@pytest.mark.slow
def test_a_worker_killed_mid_run_ends_the_run_on_the_others(backend: str) -> None:
    """SIGKILL of the worker whose value another waits for: the run ends everywhere and
    the caller gets ``None`` (then takes the scheduler's route), in bounded time."""
    if backend != "numpy":
        pytest.skip("no chunk of a backend's is computed here: one suffices")
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        first, second = placement.workers_of(client, fresh=True)
        tasks = {("a", 0): (_asleep, 20.0), ("b", 0): (sum, [("a", 0), 1.0])}
        graph = _placed(tasks, {("a", 0): [first], ("b", 0): [second]})
        pid = client.run(os.getpid, workers=[first])[first]
        killer = threading.Timer(1.0, os.kill, (pid, signal.SIGKILL))
        killer.start()
        start = time.perf_counter()
        with dnp.config.set(peer_runs=True):
            assert peer_runs.computed(client, graph, [("b", 0)], graph.layers.values()) is None
        assert time.perf_counter() - start < 15  # not the 20 s task's time: it was killed
        killer.join()
        assert client.run(left_open, workers=[second]) == {second: 0}


@pytest.mark.slow
def test_a_worker_lost_after_a_persist_of_the_peers_raises_data_lost(backend: str) -> None:
    """A persist run by the peers has no lineage: its blocks on a worker killed later
    are gone, and the next computation reading them raises ``DataLostError`` (which
    says why), in bounded time; nothing hangs."""
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster) as client,
        dnp.config.set(peer_runs=True, min_chunk_elements=64),
    ):
        grid = stencil(dnp, 30, 4).persist()
        futures = list(grid.to_dask().__dask_graph__().values())
        wait(futures)
        holder = client.who_has(futures[:1])[futures[0].key][0]
        os.kill(client.run(os.getpid, workers=[holder])[holder], signal.SIGKILL)
        start = time.perf_counter()
        with pytest.raises(dnp.DataLostError, match="peer-runs"):
            for _ in range(100):  # until the scheduler has seen the worker go
                float(grid.sum())
                time.sleep(0.1)
        assert time.perf_counter() - start < 60
