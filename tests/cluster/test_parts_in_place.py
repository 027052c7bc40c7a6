"""A check's partial results computed by the workers holding their blocks, in one
``Client.run`` (``_runtime/parts_in_place.py``), and the scheduler's route wherever that
cannot be: values equal NumPy's either way; which route was taken is read from the
scheduler's transition log (tasks sent to a worker, or none).

On a 2-worker ``LocalCluster`` of worker processes, with the small-work policy off."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import numpy
import pytest
from dask._task_spec import Task, TaskRef
from distributed import Client, wait

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import distributed_internals as internals
from dask_gpunumeric._runtime import parts_in_place
from tests.cluster.conftest import prefixes_sent_to_workers

pytestmark = pytest.mark.usefixtures("distributed_scheduler")


@pytest.fixture(scope="module")
def client(shared_client: Client) -> Client:
    return shared_client


HOST = numpy.random.default_rng(8).standard_normal((900, 300))  # 2 blocks, 2 workers


def persisted() -> Any:
    x = dnp.array(HOST).persist()
    wait(x.to_dask())
    return x


def tasks_run(client: Client, check: Any) -> tuple[float, set[str]]:
    """``float(check())`` and the prefixes of the tasks sent to workers meanwhile."""
    values: list[float] = []
    sent = prefixes_sent_to_workers(client, lambda: values.append(float(check())))
    return values[0], sent


@pytest.mark.parametrize("fusion", [True, False])
def test_a_check_of_a_step_on_persisted_blocks_is_computed_in_place(
    client: Client, fusion: bool
) -> None:
    x = persisted()
    with dnp.config.set(fusion=fusion):  # unfused: two tasks per part, sent together
        value, tasks = tasks_run(client, lambda: (x * 1.5).sum())
    assert tasks == set()
    assert value == pytest.approx((HOST * 1.5).sum(), rel=1e-12)


def test_a_part_of_more_than_a_few_tasks_is_refused() -> None:
    def chain(length: int) -> dict[Any, Any]:
        graph: dict[Any, Any] = {("step", 0): Task(("step", 0), abs, TaskRef("persisted"))}
        for i in range(1, length):
            graph[("step", i)] = Task(("step", i), abs, TaskRef(("step", i - 1)))
        return graph

    short = chain(parts_in_place.MAX_PART_TASKS)
    found = parts_in_place._part_graph(short, ("step", len(short) - 1))
    assert found is not None and set(found) == set(short)
    long = chain(parts_in_place.MAX_PART_TASKS + 1)
    assert parts_in_place._part_graph(long, ("step", len(long) - 1)) is None


def summed_in(threads: list[str]) -> Any:
    """``numpy.sum`` recording the name of the thread it runs in."""

    def summed(block: Any) -> Any:
        threads.append(threading.current_thread().name)
        return block.sum()

    return summed


def test_a_share_too_large_for_a_workers_event_loop_runs_in_its_thread_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    block = numpy.arange(1000.0)
    threads: list[str] = []
    task = Task("part", summed_in(threads), TaskRef("block"))
    jobs = {"part": ({"part": task}, frozenset({"block"}))}
    with ThreadPoolExecutor(1, thread_name_prefix="worker-pool") as pool:
        worker = SimpleNamespace(data={"block": block}, executors={"default": pool})
        nobody = SimpleNamespace(data={}, executors={"default": pool})
        assert asyncio.run(parts_in_place.compute_held_parts(jobs, worker)) == {"part": block.sum()}
        assert asyncio.run(parts_in_place.compute_held_parts(jobs, nobody)) == {}
        monkeypatch.setattr(parts_in_place, "IN_LOOP_BYTES", block.nbytes - 1)
        assert asyncio.run(parts_in_place.compute_held_parts(jobs, worker)) == {"part": block.sum()}
    assert threads[0] == threading.current_thread().name  # the event loop's (asyncio.run)
    assert threads[1].startswith("worker-pool")


def test_parts_no_worker_computes_go_through_the_scheduler(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A part whose blocks no one worker holds (on two workers, spilled) is in no reply."""
    x = persisted()
    workers = list(client.scheduler_info()["workers"])
    monkeypatch.setattr(client, "direct_to_workers", False)  # asked with ``Client.run``
    monkeypatch.setattr(client, "run", lambda *args, **kwargs: dict.fromkeys(workers, {}))
    value, tasks = tasks_run(client, lambda: x.sum())
    monkeypatch.undo()
    assert tasks and value == pytest.approx(HOST.sum(), rel=1e-12)


def test_a_failed_run_takes_the_scheduler_route(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    x = persisted()

    def lost(*args: Any, **kwargs: Any) -> Any:
        raise OSError("a worker went away")

    monkeypatch.setattr(client, "direct_to_workers", False)  # asked with ``Client.run``
    monkeypatch.setattr(client, "run", lost)
    value, tasks = tasks_run(client, lambda: x.sum())
    monkeypatch.undo()
    assert tasks and value == pytest.approx(HOST.sum(), rel=1e-12)


def test_inputs_not_yet_computed_are_not_read_in_place(client: Client) -> None:
    slow = client.submit(time.sleep, 0.5, pure=False)
    assert not internals.futures_finished(client, [slow.key])
    wait(slow)
    assert internals.futures_finished(client, [slow.key])
    assert not internals.futures_finished(client, ["a key nobody holds"])


@pytest.mark.parametrize(
    ("annotations", "strict"),
    [
        ({}, False),
        ({"workers": {}.get, "allow_other_workers": True}, False),  # owner placement
        ({"workers": ["tcp://127.0.0.1:1"]}, True),  # a user's placement
        ({"resources": {"GPU": 1}}, True),
    ],
)
def test_tasks_placed_by_the_user_run_where_the_scheduler_puts_them(
    annotations: dict[str, Any], strict: bool
) -> None:
    assert parts_in_place._placed_strictly(annotations) == strict
