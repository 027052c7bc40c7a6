"""Long loops on a real ``LocalCluster``: auto-persist goes through ``client.persist``
(futures, not in-process chunks), old persisted versions are released (the workers hold
a bounded number of results), and the result equals NumPy's. The scheduler's task records
stay bounded too: ``test_lineage_cut.py``."""

from __future__ import annotations

from typing import Any

import numpy
import pytest
from distributed import Client, Future

import dask_gpunumeric as dnp
from benchmarks.long_loops import cg_steps, run_loop, stencil_steps
from dask_gpunumeric._ir.leaves import DaskData

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("distributed_scheduler")]


def _held_results(client: Client) -> int:
    """How many task results the workers hold in memory."""

    def count(dask_scheduler: Any) -> int:
        return sum(task.state == "memory" for task in dask_scheduler.tasks.values())

    return client.run_on_scheduler(count)


def test_stencil_persists_on_the_workers_and_releases_old_versions(client: Client) -> None:
    with dnp.config.set(persist_depth=20):
        steps, read = stencil_steps(dnp, 70)
        held = []
        for sample in run_loop(steps, read, (25, 50, 100, 150), client):
            assert sample.worker_rss and sample.worker_rss > 0
            held.append(_held_results(client))
        grid = steps.gi_frame.f_locals["center"]  # type: ignore[union-attr]
        version = grid._store.version
    assert isinstance(version, DaskData)
    assert all(isinstance(v, Future) for v in dict(version.array.dask).values())
    # Bounded: the data held does not grow with the iterations done.
    # 150 versions made, a handful held at any sample (releases are asynchronous, so the
    # exact count at one sample varies by one or two between runs).
    assert max(held) <= 10
    expected_steps, expected_read = stencil_steps(numpy, 70)
    for _ in range(150):
        next(expected_steps)
    assert read() == expected_read()


def test_cg_on_the_cluster_equals_numpy(client: Client) -> None:
    steps, read = cg_steps(dnp, 80)
    samples: list[Any] = list(run_loop(steps, read, (10, 40), client))
    assert [s.iteration for s in samples] == [10, 40]
    expected_steps, expected_read = cg_steps(numpy, 80)
    for _ in range(40):
        next(expected_steps)
    numpy.testing.assert_allclose(read(), expected_read(), rtol=1e-9)
