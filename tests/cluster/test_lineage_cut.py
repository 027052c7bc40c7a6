"""Lineage cuts on a real ``LocalCluster`` (``_runtime/lineage.py``, ``history.py``): the
scheduler's task records and its spans' task groups stay bounded over a long loop, a
checkpoint is held in two copies on two workers with no lineage, which the scheduler's
active memory manager keeps, the
user's ``persist()`` keeps its full lineage, and results equal NumPy's."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import dask.utils
import numpy
import pytest
from distributed import Client, futures_of, wait

import dask_gpunumeric as dnp
from benchmarks.long_loops import stencil_steps
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._runtime import execution
from dask_gpunumeric.testing import assert_eq

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def distributed_scheduler(backend: str) -> Iterator[None]:
    with dnp.config.set(scheduler="distributed", persist_depth=20, checkpoint_every=2):
        yield


def _scheduler_counts(client: Client) -> tuple[int, int]:
    """Task records, and task groups referenced by spans."""

    def count(dask_scheduler: Any) -> tuple[int, int]:
        spans = dask_scheduler.extensions["spans"].spans.values()
        return len(dask_scheduler.tasks), sum(len(s.groups) for s in spans)

    return client.run_on_scheduler(count)


def test_stencil_lineage_and_span_groups_stay_bounded(client: Client) -> None:
    steps, read = stencil_steps(dnp, 70)
    counts = []
    for iteration in range(1, 301):
        next(steps)
        if iteration % 100 == 0:
            read()
            counts.append(_scheduler_counts(client))
    tasks, groups = zip(*counts, strict=True)
    # Without cuts: about 7 records and groups per iteration (2,100 at iteration 300).
    assert max(tasks) < 300, tasks
    assert max(groups) < 300, groups
    expected_steps, expected_read = stencil_steps(numpy, 70)
    for _ in range(300):
        next(expected_steps)
    assert read() == expected_read()


def _checkpoint_state(client: Client, keys: list[Any]) -> list[tuple[int, set[str]]]:
    """Each key's number of dependencies and the workers holding it, on the scheduler."""

    def state(dask_scheduler: Any, keys: list[Any]) -> list[tuple[int, set[str]]]:
        tasks = [dask_scheduler.tasks[key] for key in keys]
        return [(len(ts.dependencies), {ws.address for ws in ts.who_has}) for ts in tasks]

    return client.run_on_scheduler(state, keys=keys)


def _run_amm(client: Client) -> None:
    """One run of the scheduler's active memory manager, now."""
    client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.extensions["amm"].run_once())


def test_a_checkpoint_has_two_copies_and_no_lineage(client: Client) -> None:
    host = numpy.arange(20_000.0)
    (array,) = execution.persist((dnp.asarray(host) * 2).to_dask())
    (cut,) = execution.checkpoint(array)
    copies = futures_of(cut)
    assert len(copies) == len(futures_of(array)) > 1
    for dependencies, holders in _checkpoint_state(client, [f.key for f in copies]):
        assert dependencies == 0
        assert len(holders) == 2
    numpy.testing.assert_array_equal(get_backend().to_host(cut.compute()), host * 2)


def test_the_memory_manager_keeps_both_copies_and_reduces_other_keys(client: Client) -> None:
    """Every chunk, of a checkpoint and of an ordinary persisted array, is copied to both
    workers; after an AMM run the checkpoint keys keep their two replicas and the
    ordinary keys are reduced to one, as distributed's ``ReduceReplicas`` does."""
    host = numpy.arange(20_000.0)
    (array,) = execution.persist((dnp.asarray(host) + 1).to_dask())
    (cut,) = execution.checkpoint(array)
    (plain,) = execution.persist((dnp.asarray(host) * 3).to_dask())
    wait(futures_of(plain))
    keys = [f.key for f in futures_of(cut) + futures_of(plain)]
    client.replicate(futures_of(cut) + futures_of(plain), n=2)
    assert {len(holders) for _, holders in _checkpoint_state(client, keys)} == {2}
    _run_amm(client)  # drops leave the scheduler's who_has at once
    counts = [len(holders) for _, holders in _checkpoint_state(client, keys)]
    assert counts == [2] * len(futures_of(cut)) + [1] * len(futures_of(plain))
    numpy.testing.assert_array_equal(get_backend().to_host(cut.compute()), host + 1)


def test_explicit_persist_keeps_its_lineage(client: Client) -> None:
    host = numpy.linspace(0.0, 1.0, 20_000)
    x = (dnp.asarray(host) + 1).persist()
    futures = futures_of(x.to_dask())
    wait(futures)

    def dependencies(dask_scheduler: Any, keys: list[Any]) -> list[int]:
        return [len(dask_scheduler.tasks[key].dependencies) for key in keys]

    assert all(client.run_on_scheduler(dependencies, keys=[f.key for f in futures]))
    assert_eq(x, host + 1)


def test_checkpoint_is_the_identity_on_local_schedulers() -> None:
    with dnp.config.set(scheduler="threads"):
        (array,) = execution.persist((dnp.arange(10_000.0) * 3).to_dask())
        assert execution.checkpoint(array) == (array,)


def test_a_checkpoint_empties_every_process_cache_of_key_names(client: Client) -> None:
    """``dask.utils.key_split``'s cache (100,000 keys, never met again in a loop) is
    emptied in the client, the scheduler and the workers at each lineage cut."""

    def fill(dask_scheduler: Any = None) -> int:
        for i in range(1_000):
            dask.utils.key_split(f"gone-{i}-{os.getpid()}")
        return dask.utils.key_split.cache_info().currsize

    def size(dask_scheduler: Any = None) -> int:
        return dask.utils.key_split.cache_info().currsize

    assert fill() >= 1_000 and client.run_on_scheduler(fill) >= 1_000
    assert min(client.run(fill).values()) >= 1_000
    (array,) = execution.persist((dnp.arange(20_000.0) * 2).to_dask())
    execution.checkpoint(array)
    sizes = [size(), client.run_on_scheduler(size), *client.run(size).values()]
    assert max(sizes) < 1_000, sizes
