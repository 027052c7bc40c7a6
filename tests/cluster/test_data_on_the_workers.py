"""Data that lives on the workers (persisted there), read by loops that check a value each
iteration (``_array/work_placement.py``, ``_runtime/data_moves.py``).

- A persisted array of at most ``client-work-bytes`` on workers of this machine is moved
  into the client once; the loop's work then runs there, with no task, as on host data.
- A larger one, or one on workers elsewhere, stays where it is: the products and
  reductions with small results that read it (a solver's ``a @ p``) are computed there,
  all of a check's in one computation, and only their results come back; the rest of the
  iteration (the vectors') runs in the client.
- Results equal NumPy's either way.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import dask
import distributed
import numpy
import pytest
from dask.core import flatten
from dask.utils import key_split

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import data_moves, execution, parts_in_place, placement
from dask_gpunumeric.testing import assert_eq
from tests.cluster.conftest import tasks_arrived


@pytest.fixture
def cluster(client: distributed.Client, distributed_scheduler: None) -> Any:
    """``conftest.client``'s cluster (two single-threaded in-process workers), with
    computations going to it."""
    return client.cluster


@pytest.fixture
def fetches(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The persisted arrays moved into the client, in order."""
    moved: list[Any] = []
    real = data_moves.fetch

    def counting(*arrays: Any) -> Any:
        moved.extend(arrays)
        return real(*arrays)

    monkeypatch.setattr(data_moves, "fetch", counting)
    return moved


def persisted(host: numpy.ndarray) -> Any:
    """``host`` as our array persisted on the workers, as a Dask user does it."""
    (array,) = dask.persist(dnp.array(host))
    distributed.wait(distributed.futures_of(array))
    return array


def spd(n: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    rng = numpy.random.default_rng(11)
    m = rng.random((n, n))
    return m @ m.T / n + numpy.eye(n), rng.random(n)


def cg_steps(np: Any, a: Any, b: Any, iterations: int) -> Iterator[Any]:
    """Dense CG with one ``float()`` check per iteration; yields after each check."""
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rsold = r @ r
    for _ in range(iterations):
        ap = a @ p
        alpha = rsold / (p @ ap)
        x = x + alpha * p
        r = r - alpha * ap
        rsnew = r @ r
        float(np.sqrt(rsnew))
        yield x
        p = r + (rsnew / rsold) * p
        rsold = rsnew


def last(steps: Iterator[Any]) -> Any:
    result = None
    for result in steps:  # noqa: B007 - the last value is the result
        pass
    return result


def test_a_small_array_on_workers_of_this_machine_is_moved_here_once(
    client, cluster, fetches
) -> None:
    host = numpy.arange(20_000.0)
    held = persisted(host)
    before = tasks_arrived(cluster.scheduler)
    with dnp.config.set(client_work_bytes="64 MiB"):
        assert_eq(held * 3 + 1, host * 3 + 1)
        assert float(held.sum()) == float(host.sum())
        assert float((held * held).mean()) == pytest.approx(float((host * host).mean()))
    assert tasks_arrived(cluster.scheduler) == before  # gathered, not computed: no task
    assert len(fetches) == 1  # once, then held here


def test_cg_on_a_small_persisted_matrix_runs_in_the_client(client, cluster, fetches) -> None:
    a_host, b_host = spd(300)
    a, b = persisted(a_host), persisted(b_host)
    before = tasks_arrived(cluster.scheduler)
    with dnp.config.set(client_work_bytes="64 MiB"):
        ours = last(cg_steps(dnp, a, b, 8))
        assert_eq(ours, last(cg_steps(numpy, a_host, b_host, 8)), rtol=1e-10, atol=1e-12)
    assert tasks_arrived(cluster.scheduler) == before
    assert len(fetches) == 2  # the matrix and the right-hand side, each once


def test_an_array_larger_than_client_work_bytes_keeps_elementwise_work_there(
    client, cluster, fetches
) -> None:
    host = numpy.arange(200_000.0)  # 1.6 MB
    held = persisted(host)
    before = tasks_arrived(cluster.scheduler)
    with dnp.config.set(client_work_bytes="100 kB"):
        assert_eq(held * 3 + 1, host * 3 + 1)
    assert tasks_arrived(cluster.scheduler) > before
    assert fetches == []


def test_workers_elsewhere_keep_the_work_with_the_data(
    client, cluster, fetches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client far from its workers (a laptop's client of a SLURM cluster) moves nothing."""
    monkeypatch.setattr(data_moves, "workers_share_this_machine", lambda: False)
    host = numpy.arange(20_000.0)
    held = persisted(host)
    before = tasks_arrived(cluster.scheduler)
    with dnp.config.set(client_work_bytes="64 MiB"):
        assert float(held.sum()) == float(host.sum())
        assert_eq(held * 3 + 1, host * 3 + 1)
    assert tasks_arrived(cluster.scheduler) > before
    assert held.to_dask().name not in [array.name for array in fetches]


def test_the_workers_of_a_local_cluster_share_this_machine(cluster) -> None:
    assert data_moves.workers_share_this_machine()


@pytest.fixture
def gathers_by_the_scheduler(cluster, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The keys of each gather the scheduler serves (a client that does not fetch from
    the workers itself), in order."""
    served: list[Any] = []
    real = cluster.scheduler.handlers["gather"]

    async def counting(keys: Any, serializers: Any = None) -> Any:
        served.append(keys)
        return await real(keys=keys, serializers=serializers)

    monkeypatch.setitem(cluster.scheduler.handlers, "gather", counting)
    return served


@pytest.mark.parametrize("direct", [None, False])
def test_values_come_from_the_workers_of_this_machine_directly(
    client, cluster, fetches, gathers_by_the_scheduler, monkeypatch: pytest.MonkeyPatch, direct
) -> None:
    """A user's client of workers on this machine (``direct_to_workers`` not given) fetches
    moved arrays and computed results from the workers, not through the scheduler (a
    ``LocalCluster``'s runs in the client's process: two more copies there); a client
    made with ``direct_to_workers=False`` keeps the scheduler's route."""
    monkeypatch.setattr(client, "direct_to_workers", direct)
    host = numpy.arange(20_000.0)
    held = persisted(host)
    with dnp.config.set(client_work_bytes="64 MiB"):
        assert float(held.sum()) == float(host.sum())  # moved here
    with dnp.config.set(client_work_bytes="100 kB"):
        assert_eq(persisted(host) * 3 + 1, host * 3 + 1)  # computed there, gathered
    assert len(fetches) == 1
    assert bool(gathers_by_the_scheduler) == (direct is False)


@pytest.mark.parametrize("route", ["in place", "in place, asked through the scheduler", "tasks"])
def test_cg_on_a_persisted_matrix_that_stays_computes_one_product_per_check(
    client, cluster, fetches, monkeypatch: pytest.MonkeyPatch, route: str
) -> None:
    """Per iteration on two workers, the matrix never moved and results NumPy's: the
    ``a @ p`` of the check computed by the workers holding the matrix's blocks, one
    request to each and their replies, no task (``data_moves.computed_where_held``;
    straight from the client, or through the scheduler's ``Client.run`` for a client made
    with ``direct_to_workers=False``); where that cannot be, one computation through the
    scheduler, at most 4 tasks per worker, the vector ``p`` (computed in the client)
    inside the product's tasks (no task of its own, nothing moved between workers)."""
    a_host, b_host = spd(400)  # 1.28 MB: over the 100 kB limit below; b is 3.2 kB
    a, b = persisted(a_host), persisted(b_host)
    assert a.npartitions > 1
    # our blocks' name (to_dask() is a renaming expression with query planning on)
    a_name, b_name = (next(flatten(x.__dask_keys__()))[0] for x in (a, b))
    if route == "tasks":
        monkeypatch.setattr(parts_in_place, "jobs_for", lambda *args: None)
    if route == "in place, asked through the scheduler":
        monkeypatch.setattr(client, "direct_to_workers", False)
    computations: list[str] = []
    for module, name in ((execution, "compute"), (execution, "persist"),
                         (data_moves, "computed_where_held")):  # fmt: skip
        real = getattr(module, name)

        def recording(
            *collections: Any, _real: Any = real, _name: str = name, **options: Any
        ) -> Any:
            result = _real(*collections, **options)
            computations.append(_name if result is not None else f"{_name}: refused")
            return result

        monkeypatch.setattr(module, name, recording)
    per_iteration: list[tuple[list[str], Counter[str], set[str], int]] = []
    expected = list(cg_steps(numpy, a_host, b_host, 6))
    with dnp.config.set(client_work_bytes="100 kB"):
        steps = cg_steps(dnp, a, b, 6)
        for i in range(6):
            computations.clear()
            with distributed.get_task_stream(client) as stream:
                x = next(steps)
            per_worker = Counter(task["worker"] for task in stream.data)
            prefixes = {key_split(task["key"]) for task in stream.data}
            parts = [part for task in stream.data for part in task["startstops"]]
            transfers = sum(part["action"] == "transfer" for part in parts)
            per_iteration.append((list(computations), per_worker, prefixes, transfers))
            assert_eq(x, expected[i], rtol=1e-9, atol=1e-11)
    moved = [array.name for array in fetches]  # the parts' results are gathered too
    assert a_name not in moved
    assert moved.count(b_name) == 1
    first_computed, first_per_worker, _, _ = per_iteration[0]
    if route != "tasks":
        # The first check moves b, then computes a @ x where the blocks are, then p = b -
        # a @ x here, then a @ p where the blocks are: two rounds, no task.
        assert first_computed == ["computed_where_held", "computed_where_held"]
        assert not first_per_worker
    for computed, per_worker, prefixes, transfers in per_iteration[1:]:
        if route == "tasks":
            assert computed == ["computed_where_held: refused", "persist"]
            assert per_worker and max(per_worker.values()) <= 4
            assert prefixes == {"matmul"} and transfers == 0
        else:
            assert computed == ["computed_where_held"]
            assert not per_worker


def test_threads_move_a_small_persisted_array_once(fetches) -> None:
    """On dask's threaded scheduler a persisted array's blocks are in this process: a
    small one is put together once and then computed on as NumPy would."""
    host = numpy.arange(1000.0)
    with dnp.config.set(scheduler="threads", client_work_bytes="64 MiB"):
        (held,) = dask.persist(dnp.array(host))
        y = held
        for _ in range(200):
            y = y * 1.001 + 1.0
        expected = host
        for _ in range(200):
            expected = expected * 1.001 + 1.0
        assert_eq(y, expected, rtol=1e-12)
    assert len(fetches) == 1


def test_threads_move_small_persisted_blocks_and_read_large_ones_where_they_are(
    fetches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocks persisted in this process are put together here up to client-work-bytes;
    above it a product with a small result is computed on the blocks as they are, in
    this thread (no dask thread pool: each block's product a multithreaded BLAS call)."""
    a_host, b_host = spd(300)  # 720 kB
    synchronous: list[bool] = []
    real = execution.persist

    def recording(*collections: Any, **options: Any) -> Any:
        synchronous.append(options.get("synchronous", False))
        return real(*collections, **options)

    monkeypatch.setattr(execution, "persist", recording)
    with dnp.config.set(scheduler="threads"):
        for work_bytes, moved in (("1 MB", 1), ("500 kB", 0)):
            fetches.clear()
            synchronous.clear()
            with dnp.config.set(client_work_bytes=work_bytes):
                (a,) = dask.persist(dnp.array(a_host), scheduler="threads")
                y = a @ dnp.array(b_host)
                decided = dnp.explain(y)
                assert (decided.moved_bytes > 0, decided.parts_elsewhere) == (moved == 1, 1 - moved)
                assert_eq(y, a_host @ b_host, rtol=1e-12)
            assert len([f for f in fetches if f.shape == a_host.shape]) == moved
            assert synchronous == ([] if moved else [True])


def test_a_moved_value_is_read_only_here(cluster, backend: str) -> None:
    """A value moved here is shared by every later computation (blocks of it are views,
    a one-block result is handed on as it is): NumPy's chunk is held read-only."""
    if backend != "numpy":
        pytest.skip("NumPy's chunks only: other chunk types have no write flag to set")
    host = numpy.arange(3_000.0).reshape(30, 100)
    held = persisted(host)
    with dnp.config.set(client_work_bytes="64 MiB"):
        assert float(held.sum()) == float(host.sum())  # moved here; the store holds it
    value, _ = held._store.held_chunk()
    with pytest.raises(ValueError, match="read-only"):
        value[0, 0] = -1.0
    assert_eq(held, host)


def test_blocks_held_here_stay_here_with_a_cluster_running(cluster, fetches) -> None:
    """An array persisted on dask's threads in this process, too large to move, read by
    a product with a small result while computations go to a cluster: the product is
    computed here on its blocks (nothing scattered to the cluster), NumPy's values."""
    a_host, b_host = spd(400)  # 1.28 MB: over the 100 kB limit and the 1 MiB scatter size
    before = tasks_arrived(cluster.scheduler)
    with dnp.config.set(client_work_bytes="100 kB"):
        with dnp.config.set(scheduler="threads"):  # persisted in this process
            (a,) = dask.persist(dnp.array(a_host), scheduler="threads")
        y = a @ dnp.array(b_host)
        assert dnp.explain(y).parts_elsewhere == 1
        # NumPy's values (numpy.asarray: assert_eq also reads the dask graph's chunks,
        # whose lowering for a cluster scatters the blocks there)
        numpy.testing.assert_allclose(numpy.asarray(y), a_host @ b_host, rtol=1e-12)
    assert tasks_arrived(cluster.scheduler) == before


def test_a_product_of_a_matrix_whose_rows_span_workers_moves_none_of_its_blocks(
    client, cluster, fetches
) -> None:
    """A persisted matrix cut across its columns has each row's blocks on two workers
    (owner placement): ``a @ v`` is computed piece by piece where each block is and added
    up in the client, NumPy's values, no block of the matrix moved to another worker
    (before, the first product's task per row fetched the row's other blocks: half the
    matrix)."""
    rng = numpy.random.default_rng(5)
    a_host, v_host = rng.random((100, 4000)), rng.random(4000)  # 3.2 MB, 32 kB
    a = persisted(a_host)
    a_keys = set(flatten(a.__dask_keys__()))
    holders = client.who_has(distributed.futures_of(a))
    assert a.numblocks[1] > 1
    assert len({holders[key][0] for key in a_keys}) == 2, holders
    since = time.time()
    with dnp.config.set(client_work_bytes="100 kB"):
        v = dnp.array(v_host)
        for scale in (1.0, 2.0, 3.0):
            assert_eq(a @ (v * scale), a_host @ (v_host * scale), rtol=1e-12)
    moved = [
        key
        for worker in cluster.workers.values()
        for entry in worker.transfer_incoming_log
        if entry["start"] >= since
        for key in entry["keys"]
    ]
    assert not a_keys & set(moved), moved
    assert not [array for array in fetches if array.name == next(iter(a_keys))[0]]


def test_host_data_is_finished_on_the_owners_of_its_blocks(client, cluster) -> None:
    """Each block of host data persisted on the workers is finished (copied into its own
    chunk) on its owner, where the next task on it runs: its task is placed there (a
    loose restriction, as lowering's). The scheduler would otherwise pick either holder
    of the scattered block's two copies, and the next task would fetch it (half the
    blocks of CG's matrix at 8 workers, ``benchmarks/weak_scaling.py``)."""
    host = numpy.random.default_rng(3).random((8, 40_000))  # 2.56 MB, over the scatter size
    a = persisted(host)
    workers = sorted(client.scheduler_info()["workers"])
    owners = {
        key: workers[placement.owner_position(tuple(key[1:]), a.numblocks, len(workers))]
        for key in flatten(a.__dask_keys__())
    }
    assert len(set(owners.values())) == 2

    def placed(keys: list[Any], dask_scheduler: Any) -> dict[Any, Any]:
        tasks = dask_scheduler.tasks
        return {key: (tasks[key].worker_restrictions, tasks[key].loose_restrictions,
                      {ws.address for ws in tasks[key].who_has}) for key in keys}  # fmt: skip

    for key, (restrictions, loose, holders) in client.run_on_scheduler(
        placed, list(owners)
    ).items():
        assert (restrictions, loose) == ({owners[key]}, True), key
        assert owners[key] in holders, key
    assert_eq(a, host)
