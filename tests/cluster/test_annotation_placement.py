"""``dask.annotate`` on a real ``LocalCluster``: two single-threaded workers, only one with
``resources={"GPU": 1}``. Every task of the annotated steps runs on that worker, whether
computed or persisted; priority and retries reach the scheduler; results equal NumPy's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import dask
import numpy
import pytest
from distributed import Client, LocalCluster, Worker, get_task_stream, wait

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq


@pytest.fixture(autouse=True)
def distributed_scheduler(backend: str) -> Iterator[None]:
    """Computations go to the active client here (the suite's default is threads)."""
    with dnp.config.set(scheduler="distributed"):
        yield


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        cluster.new_spec = {
            "cls": Worker,
            "options": {"nthreads": 1, "resources": {"GPU": 1}},
        }
        cluster.scale(2)
        with Client(cluster) as client:
            client.wait_for_workers(2)
            _wait_for_the_gpu_worker(client)
            yield client


def _wait_for_the_gpu_worker(client: Client, timeout: float = 30.0) -> None:
    """Until the scheduler lists the worker with ``resources={"GPU": 1}``: two workers
    registered is not yet their resources known (CI's newest-dask step, distributed
    2026.8, once listed two workers and no GPU in the first test the module ran)."""
    deadline = time.monotonic() + timeout
    while not _gpu_workers(client):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no worker with a GPU resource after {timeout} s")
        time.sleep(0.05)


def _gpu_workers(client: Client) -> list[str]:
    workers = client.scheduler_info(n_workers=-1)["workers"]
    return [a for a, w in workers.items() if w["resources"].get("GPU")]


def _gpu_worker(client: Client) -> str:
    (address,) = _gpu_workers(client)
    return address


def _steps() -> tuple[Any, set[str], numpy.ndarray]:
    """An unannotated step, two GPU steps, an unannotated step; x has several blocks."""
    host = numpy.linspace(0.0, 1.0, 40000)
    x = dnp.array(host, chunks=5000) + 1
    with dask.annotate(resources={"GPU": 1}):
        y = dnp.sqrt(x) * 2
    z = y - x
    gpu_nodes = {y._read().name, y._read().children[0].name}
    return z, gpu_nodes, numpy.sqrt(host + 1) * 2 - (host + 1)


def test_annotated_steps_run_on_the_gpu_worker(client: Client) -> None:
    z, gpu_nodes, expected = _steps()
    assert len(z.to_dask().chunks[0]) == 8
    with get_task_stream(client) as stream:
        result = z.compute()
    numpy.testing.assert_allclose(result, expected, rtol=1e-15)
    placed = {(t["key"], t["worker"]) for t in stream.data}
    on_gpu = {worker for key, worker in placed if _node(key) in gpu_nodes}
    assert on_gpu == {_gpu_worker(client)}
    # The other steps ran too (they may run anywhere): the check above was not vacuous.
    assert any(_node(key) not in gpu_nodes for key, _ in placed)
    assert sum(_node(key) in gpu_nodes for key, _ in placed) >= len(z.to_dask().chunks[0])


def test_persisted_annotated_steps_live_on_the_gpu_worker(client: Client) -> None:
    host = numpy.arange(40000.0)
    x = dnp.array(host, chunks=5000)
    with dask.annotate(resources={"GPU": 1}):
        y = (x * 3).persist()
    wait(y.to_dask())  # persist is asynchronous on a distributed client
    who_has = client.who_has(y.to_dask())
    assert len(who_has) == 8
    assert {worker for key in who_has for worker in who_has[key]} == {_gpu_worker(client)}
    assert_eq(y + 1, host * 3 + 1)


def test_priority_and_retries_reach_the_scheduler(client: Client) -> None:
    x = dnp.asarray(numpy.arange(40000.0))
    with dask.annotate(priority=7, retries=2):
        y = x * 2
    lazy = y.to_dask()
    (persisted,) = client.persist([lazy])
    wait(persisted)
    # the keys computed: with query planning on, persist hands back aliases of them
    names = {key[0] for key in lazy.__dask_keys__()}

    def annotations_of(dask_scheduler: Any, names: set[str]) -> list[dict[str, Any]]:
        return [
            dict(task.annotations)
            for key, task in dask_scheduler.tasks.items()
            if isinstance(key, tuple) and key[0] in names
        ]

    seen = client.run_on_scheduler(annotations_of, names=names)
    assert seen and all(a.get("priority") == 7 and a.get("retries") == 2 for a in seen)
    assert_eq(dnp.from_dask(persisted), numpy.arange(40000.0) * 2)


def _node(key: Any) -> str:
    """The node a task's key belongs to (a fused layer's name is its root's plus ``~digest``)."""
    return (key[0] if isinstance(key, tuple) else str(key)).split("~")[0]


def test_the_scheduler_logs_no_error_for_annotated_steps(client: Client) -> None:
    """Owner placement stays off the annotated layers: a loose owner without the GPU
    resource made the scheduler log ``KeyError: 'GPU'`` in ``acquire_resources``."""
    z, _, expected = _steps()
    numpy.testing.assert_allclose(z.compute(), expected, rtol=1e-15)
    host = numpy.arange(40000.0)
    with dask.annotate(resources={"GPU": 1}):
        y = (dnp.array(host, chunks=5000) * 3).persist()
    wait(y.to_dask())
    assert_eq(y + 1, host * 3 + 1)
    errors = [
        message
        for level, message in client.get_scheduler_logs(n=1000)
        if level in ("ERROR", "CRITICAL") or "acquire_resources" in message
    ]
    assert not errors, errors[0]


def test_tiny_work_under_annotate_runs_on_the_annotated_worker(client: Client) -> None:
    """Tiny arrays are computed in the client when nothing says otherwise; under
    ``dask.annotate(resources=...)`` the user placed the work: it runs on that worker,
    with the small-work policy on (``client-work-bytes`` at its default)."""
    host = numpy.arange(100.0)
    with dnp.config.set(client_work_bytes="64 MiB"):
        x = dnp.array(host)
        with dask.annotate(resources={"GPU": 1}):
            y = x * 2 + 1
        gpu_nodes = {y._read().name, y._read().children[0].name}
        with get_task_stream(client) as stream:
            assert_eq(y, host * 2 + 1)
    on_gpu = {t["worker"] for t in stream.data if _node(t["key"]) in gpu_nodes}
    assert on_gpu == {_gpu_worker(client)}
