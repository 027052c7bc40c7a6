"""Lineage cuts on a real ``LocalCluster`` (``_runtime/lineage.py``, ``history.py``): the
scheduler's task records and its spans' task groups stay bounded over a long loop, a
checkpoint is held in two copies on two workers with the primary one task deep, the
user's ``persist()`` keeps its full lineage, and results equal NumPy's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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


def test_a_checkpoint_has_two_copies_and_a_one_task_lineage(client: Client) -> None:
    host = numpy.arange(20_000.0)
    (array,) = execution.persist((dnp.asarray(host) * 2).to_dask())
    (cut,) = execution.checkpoint(array)
    primaries = futures_of(cut)
    assert len(primaries) == len(futures_of(array)) > 1
    wait(primaries)

    def lineage(dask_scheduler: Any, keys: list[Any]) -> list[tuple[Any, ...]]:
        found = []
        for key in keys:
            (backup,) = dask_scheduler.tasks[key].dependencies
            found.append((key, len(backup.dependencies), {w.address for w in backup.who_has}))
        return found

    holders = client.who_has(primaries)
    for key, backup_dependencies, backup_holders in client.run_on_scheduler(
        lineage, keys=[f.key for f in primaries]
    ):
        assert backup_dependencies == 0
        assert backup_holders and not backup_holders & set(holders[key])
    numpy.testing.assert_array_equal(get_backend().to_host(cut.compute()), host * 2)


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
