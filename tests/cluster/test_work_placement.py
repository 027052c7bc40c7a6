"""The small-work policy (``_array/work_placement.py``) on a distributed scheduler: work
whose inputs live in the client and whose arrays are at most ``client-work-bytes`` is
computed in the client (no task reaches the scheduler), anything else goes to the
cluster, and the values are the same either way (NumPy's). Inputs held by the cluster:
``test_data_on_the_workers.py``."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._array import work_placement
from dask_gpunumeric.testing import assert_eq
from tests.cluster.conftest import tasks_arrived


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.LocalCluster]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        yield cluster


@pytest.fixture(autouse=True)
def work_on_the_cluster() -> Iterator[None]:
    """The policy at its default (``tests/cluster/conftest.py`` turns it off elsewhere)."""
    with dnp.config.set(client_work_bytes="64 MiB"):
        yield


@pytest.fixture
def client(cluster: distributed.LocalCluster) -> Iterator[distributed.Client]:
    with distributed.Client(cluster) as client, dnp.config.set(scheduler="distributed"):
        yield client


def conjugate_gradient(np: Any, a_host: numpy.ndarray, b_host: numpy.ndarray) -> Any:
    """CG as a user writes it: inputs from ``np.array(host)``, a ``float()`` per step."""
    a, b = np.array(a_host), np.array(b_host)
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rs = float(r @ r)
    for _ in range(8):
        ap = a @ p
        alpha = rs / float(p @ ap)
        x = x + alpha * p
        r = r - alpha * ap
        rs_new = float(r @ r)
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x


def spd(n: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    rng = numpy.random.default_rng(7)
    m = rng.random((n, n))
    return m @ m.T / n + numpy.eye(n), rng.random(n)


def test_small_work_with_inputs_in_the_client_makes_no_task(client, cluster) -> None:
    a, b = spd(400)  # 1.3 MB: far below client-work-bytes
    before = tasks_arrived(cluster.scheduler)
    ours = conjugate_gradient(dnp, a, b)
    assert_eq(ours, conjugate_gradient(numpy, a, b), rtol=1e-12, atol=1e-12)
    assert tasks_arrived(cluster.scheduler) == before


def test_with_the_policy_off_the_same_work_runs_on_the_cluster(client, cluster) -> None:
    a, b = spd(400)
    before = tasks_arrived(cluster.scheduler)
    with dnp.config.set(client_work_bytes=0):
        ours = conjugate_gradient(dnp, a, b)
    # Blockwise products round differently; CG amplifies it a little.
    assert_eq(ours, conjugate_gradient(numpy, a, b), rtol=1e-7, atol=1e-9)
    assert tasks_arrived(cluster.scheduler) > before


def test_work_larger_than_the_limit_goes_to_the_cluster(client, cluster) -> None:
    vector = numpy.arange(1000.0)
    with dnp.config.set(client_work_bytes="100 kB"):
        before = tasks_arrived(cluster.scheduler)
        total = float((dnp.ones((400, 500)) * 2).sum())  # made from nothing: 1.6 MB
        assert total == 400_000.0
        assert tasks_arrived(cluster.scheduler) > before
        before = tasks_arrived(cluster.scheduler)
        ours = dnp.array(vector)
        outer = float(dnp.outer(ours, ours).sum())  # 8 MB made from 8 kB read
        assert outer == float(numpy.outer(vector, vector).sum())
        assert tasks_arrived(cluster.scheduler) > before


def test_random_draws_are_the_same_here_and_on_the_cluster(client) -> None:
    """A draw's values depend on its chunks only: where it is computed must not matter."""
    with dnp.config.set(client_work_bytes=0):  # lowered: not computed when built
        blocks = dnp.random.default_rng(2026).standard_normal((300, 700)).to_dask()
    # several blocks at the suite's chunk size (numblocks: expression arrays have no npartitions)
    assert math.prod(blocks.numblocks) > 1
    x = dnp.random.default_rng(2026).standard_normal((300, 700))  # computed here, by blocks
    here = numpy.asarray(x)
    with dnp.config.set(client_work_bytes=0):
        there = numpy.asarray(dnp.random.default_rng(2026).standard_normal((300, 700)))
    numpy.testing.assert_array_equal(here, there)


def test_small_reductions_and_products_here_are_numpys(client) -> None:
    host = numpy.random.default_rng(3).random((300, 400))
    ours = dnp.array(host)
    for reduce in ("sum", "mean", "std", "var", "max", "argmin", "prod"):
        assert_eq(getattr(ours, reduce)(axis=0), getattr(host, reduce)(axis=0))
        assert_eq(getattr(ours, reduce)(), getattr(host, reduce)())
    assert_eq(ours @ ours.T, host @ host.T)
    assert_eq(dnp.tensordot(ours, ours, axes=([1], [1])), numpy.tensordot(host, host, ([1], [1])))


def test_short_expressions_are_eager_and_loop_bodies_run_on_threads_here(
    client, cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A convergence check's few nodes are computed node by node (no dask at all); a
    stencil's many iterations go to dask's threads in this process (fused, halo), and
    still make no task on the cluster."""
    from dask_gpunumeric._runtime import execution

    runs: list[bool] = []
    for name in ("compute", "persist"):  # a loop's automatic persists run its body
        real = getattr(execution, name)

        def recording(*collections: Any, _real: Any = real) -> Any:
            runs.append(execution.on_cluster())
            return _real(*collections)

        monkeypatch.setattr(execution, name, recording)
    before = tasks_arrived(cluster.scheduler)
    a, b = spd(300)
    conjugate_gradient(dnp, a, b)
    assert runs == []  # every float() eager
    # A grid over the now rule's bytes (here 64 KiB): not computed when built
    monkeypatch.setattr(work_placement, "NOW_BYTES", 2**16)
    host = numpy.zeros((302, 302))
    grid = dnp.array(host)
    for values in (host, grid):
        values[0, :] = 40.0
        for _ in range(12):
            values[1:-1, 1:-1] = 0.25 * (
                values[:-2, 1:-1] + values[2:, 1:-1] + values[1:-1, :-2] + values[1:-1, 2:]
            )
    assert float(grid.sum()) == pytest.approx(float(host.sum()), rel=1e-12)
    assert runs and not any(runs)  # dask, in this process
    assert tasks_arrived(cluster.scheduler) == before


def test_data_already_here_stays_while_the_work_makes_small_arrays(client, cluster) -> None:
    """A solver on a host matrix larger than client-work-bytes stays where the matrix is
    (its products are vectors); work that makes an array of the matrix's size goes out."""
    a, b = spd(400)  # 1.3 MB of host data; every array CG makes is 3.2 kB
    with dnp.config.set(client_work_bytes="100 kB", client_data_bytes="10 MB"):
        before = tasks_arrived(cluster.scheduler)
        ours = conjugate_gradient(dnp, a, b)
        assert tasks_arrived(cluster.scheduler) == before
        assert_eq(ours, conjugate_gradient(numpy, a, b), rtol=1e-12, atol=1e-12)
        doubled = float((dnp.array(a) * 2.0).sum())  # no larger than the data it reads
        assert tasks_arrived(cluster.scheduler) == before
        assert doubled == pytest.approx(float((a * 2.0).sum()), rel=1e-12)
        outer = float(dnp.outer(dnp.array(b), dnp.array(b)).sum())  # 1.3 MB from 3.2 kB
        assert tasks_arrived(cluster.scheduler) > before
        assert outer == pytest.approx(float(numpy.outer(b, b).sum()), rel=1e-12)
    with dnp.config.set(client_work_bytes="100 kB", client_data_bytes="1 MB"):
        before = tasks_arrived(cluster.scheduler)
        conjugate_gradient(dnp, a, b)  # the matrix is more data than may stay here
        assert tasks_arrived(cluster.scheduler) > before


def test_work_built_under_dask_annotate_goes_where_the_annotations_say(client, cluster) -> None:
    import dask

    host = numpy.arange(20_000.0)  # above min-chunk-elements: not a tiny in-process value
    x = dnp.array(host)
    before = tasks_arrived(cluster.scheduler)
    with dask.annotate(priority=5):
        y = x * 2 + 1
    assert_eq(y, host * 2 + 1)
    assert (
        tasks_arrived(cluster.scheduler) > before
    )  # small, but placed by the user: on the cluster
