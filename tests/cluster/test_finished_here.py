"""A small reduction's last step runs in the client (``execution.compute_finishing_here``):
on a distributed cluster the per-block partial results are computed there, by the
workers holding the blocks in one ``Client.run`` (``_runtime/parts_in_place.py``: no
task reaches the scheduler) or, where that cannot be, as tasks gathered in one round
trip; the aggregate runs here. Values equal NumPy's and the aggregate computed on the
cluster; no aggregate task reaches the scheduler and no partial result moves between
workers; the aggregate's warnings are not repeated (the call's probe gave NumPy's).

On a 2-worker ``LocalCluster`` of worker processes, with the small-work policy off."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy
import pytest
from distributed import Client, wait

import dask_gpunumeric as dnp
from dask_gpunumeric._array import work_placement
from dask_gpunumeric._lowering.reductions import TREE_REDUCED
from dask_gpunumeric._runtime import parts_in_place
from tests.cluster.conftest import prefixes_sent_to_workers


@pytest.fixture(scope="module")
def client(shared_client: Client) -> Client:
    return shared_client


@pytest.fixture(autouse=True)
def distributed_scheduler(backend: str) -> Iterator[None]:
    with dnp.config.set(scheduler="distributed"):
        yield


def host_data(kind: str) -> numpy.ndarray:
    host = numpy.random.default_rng(5).standard_normal((700, 400))  # 2 blocks
    if kind.startswith("nan"):
        host[3, 5] = host[650, 7] = numpy.nan
    if kind in ("any", "all"):
        return host > -3.5
    return host


def on_the_cluster(host: numpy.ndarray) -> Any:
    x = dnp.array(host).persist()
    wait(x.to_dask())
    return x


def moved_between_workers(client: Client) -> int:
    """Keys a worker fetched from another since the last call, but the second copies of
    blocks scattered from the client (``Client.scatter``'s ``ndarray-`` keys: host data
    is held twice, ``execution.scatter_to``), which the scheduler's active memory
    manager makes whenever it runs."""

    def drain(dask_worker: Any) -> int:
        fetched = sum(
            not str(key).startswith("ndarray-")
            for entry in dask_worker.transfer_incoming_log
            for key in entry["keys"]
        )
        dask_worker.transfer_incoming_log.clear()
        return fetched

    return sum(client.run(drain).values())


def through_the_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The partial results as tasks (what a graph ``parts_in_place`` refuses takes)."""
    monkeypatch.setattr(parts_in_place, "computed_where_held", lambda *args: None)


@pytest.mark.parametrize("route", ["in place", "scheduler"])
@pytest.mark.parametrize("kind", sorted(TREE_REDUCED))
def test_every_tree_reduction_equals_numpy_and_the_cluster_aggregate(
    client: Client, kind: str, route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = host_data(kind)
    x = on_the_cluster(host)
    expected = numpy.asarray(getattr(numpy, kind)(host))
    results = []
    if route == "scheduler":
        through_the_scheduler(monkeypatch)
    ran_here = prefixes_sent_to_workers(
        client, lambda: results.append(numpy.asarray(getattr(dnp, kind)(x)))
    )
    monkeypatch.setattr(work_placement, "FINISHED_HERE_BYTES", 0)  # the aggregate as a task
    ran_there = prefixes_sent_to_workers(
        client, lambda: results.append(numpy.asarray(getattr(dnp, kind)(x)))
    )
    here, there = results
    if route == "in place":
        assert ran_here == set() and ran_there  # no task at all: the workers' data read
    else:
        assert ran_here and ran_there - ran_here  # the partial results there, aggregate here
    assert here.dtype == there.dtype == expected.dtype and here.shape == expected.shape
    numpy.testing.assert_array_equal(here, there)  # the same functions on the same values
    numpy.testing.assert_allclose(here, expected, rtol=1e-12)  # blockwise vs pairwise sums


@pytest.mark.parametrize("route", ["in place", "scheduler"])
def test_a_check_moves_no_partial_result_between_workers(
    client: Client, route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = numpy.random.default_rng(1).random(1 << 18)
    x = on_the_cluster(host)
    if route == "scheduler":
        through_the_scheduler(monkeypatch)
    moved_between_workers(client)
    for scale in (1.0, 2.0, 3.0):  # as a solver's checks: new values each time
        ran = prefixes_sent_to_workers(client, lambda scale=scale: float((x * scale).sum()))
        assert float((x * scale).sum()) == pytest.approx((host * scale).sum(), rel=1e-12)
        assert (ran == set()) == (route == "in place")  # in place: x * scale too
    assert moved_between_workers(client) == 0
    monkeypatch.setattr(work_placement, "FINISHED_HERE_BYTES", 0)
    assert float((x * 4.0).sum()) == pytest.approx((host * 4.0).sum(), rel=1e-12)
    assert moved_between_workers(client) > 0  # the aggregate fetched the other's partial


def test_an_axis_reduction_of_small_output_is_finished_here(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = numpy.random.default_rng(2).standard_normal((8000, 30))  # 2 blocks
    x = on_the_cluster(host)
    results = []
    ran_here = prefixes_sent_to_workers(
        client, lambda: results.append(numpy.asarray(x.sum(axis=0)))
    )
    monkeypatch.setattr(work_placement, "FINISHED_HERE_BYTES", 0)
    ran_there = prefixes_sent_to_workers(
        client, lambda: results.append(numpy.asarray(x.sum(axis=0)))
    )
    assert ran_here == set() and ran_there  # the partial sums in place, then as tasks
    for result in results:
        numpy.testing.assert_allclose(result, host.sum(axis=0), rtol=1e-12)


def test_a_single_block_is_computed_as_before(client: Client) -> None:
    host = numpy.random.default_rng(3).standard_normal(1000)  # one block: one task anyway
    x = on_the_cluster(host)
    assert float(x.sum()) == pytest.approx(host.sum(), rel=1e-12)


def test_finishing_here_adds_no_warning(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """The aggregate's own warnings (a division by a zero count of an all-NaN slice) are
    ignored here as on a worker; the call's probe gives the ones it gives."""
    host = numpy.full((700, 400), numpy.nan)
    x = on_the_cluster(host)

    def warned() -> list[tuple[type, str]]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert numpy.isnan(float(dnp.nanmean(x)))
        return [(w.category, str(w.message)) for w in caught]

    here = warned()
    monkeypatch.setattr(work_placement, "FINISHED_HERE_BYTES", 0)
    assert here == warned()
