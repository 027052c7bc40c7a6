"""Our arrays in code written for dask and distributed, on a cluster of two worker
processes: ``to_dask()`` after a materialization, arguments of ``client.submit`` /
``client.map`` / ``dask.delayed``, and the library used inside a task."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import dask
import dask.array as da
import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend

HOST = numpy.arange(60000.0).reshape(300, 200)
CHUNKS = (100, 200)
RESULT_TIMEOUT = 120  # a hang fails here instead of at the suite's timeout


@pytest.fixture(scope="module")
def client(shared_cluster: distributed.LocalCluster) -> Iterator[distributed.Client]:
    with distributed.Client(shared_cluster) as client:
        client.wait_for_workers(2)
        yield client


@pytest.fixture(autouse=True)
def on_the_cluster(client: distributed.Client, distributed_scheduler: None) -> None:
    """Every test computes on the module's client."""


def host_value(array: da.Array) -> numpy.ndarray:
    return numpy.asarray(get_backend().to_host(array.compute()))


@pytest.mark.not_with_query_planning(
    reason="dask's expression reductions read their argument's .expr without converting it "
    "(dask.array.sum of a NumPy array fails alike), and its graph has no layers"
)
def test_to_dask_after_a_materialization_takes_dask_operations(backend: str) -> None:
    b = dnp.array(HOST, chunks=CHUNKS) * 2
    assert float(b.sum()) == (HOST * 2).sum()  # b's store is persisted with placement
    b.persist()  # discarded, as in the issue
    d = b.to_dask()
    assert host_value(da.sum(b)) == (HOST * 2).sum()  # dask.array functions take ours
    numpy.testing.assert_array_equal(host_value(da.asarray(b)), HOST * 2)
    for layer in d.__dask_graph__().layers.values():  # annotations dask's fusion takes
        assert not callable((layer.annotations or {}).get("workers"))
    assert host_value((d + 1).sum()) == (HOST * 2 + 1).sum()
    numpy.testing.assert_array_equal(host_value(d.T[::2] - 1), (HOST * 2).T[::2] - 1)
    numpy.testing.assert_array_equal(
        host_value(da.stack([d, dnp.ones(HOST.shape, chunks=CHUNKS)])),
        numpy.stack([HOST * 2, numpy.ones(HOST.shape)]),
    )


def test_submit_and_map_refuse_our_arrays_at_once(client: distributed.Client) -> None:
    a = dnp.array(HOST, chunks=CHUNKS) + 1
    with pytest.raises(TypeError) as error:
        client.submit(numpy.sum, a)
    assert "a.compute()" in str(error.value.__cause__)
    with pytest.raises(TypeError) as error:
        client.map(numpy.sum, [a, a])
    assert "a.compute()" in str(error.value.__cause__)
    # the ways the message gives
    assert client.submit(numpy.sum, a.compute()).result(RESULT_TIMEOUT) == (HOST + 1).sum()
    future = client.compute(dask.delayed(numpy.sum)(a))
    assert future.result(RESULT_TIMEOUT) == (HOST + 1).sum()
    # outside a client call the array still pickles (as its value)
    numpy.testing.assert_array_equal(pickle.loads(pickle.dumps(a)).compute(), HOST + 1)


def test_delayed_gets_the_computed_value(client: distributed.Client) -> None:
    a = dnp.array(HOST, chunks=CHUNKS) - 3

    def describe(value: Any) -> tuple[str, float]:
        return type(value).__name__, float(value.sum())

    assert dask.delayed(describe)(a).compute() == ("ndarray", (HOST - 3).sum())
    future = client.compute(dask.delayed(describe)(a))
    assert future.result(RESULT_TIMEOUT) == ("ndarray", (HOST - 3).sum())


def test_the_library_inside_a_task_uses_the_workers_client(
    client: distributed.Client, backend: str
) -> None:
    def in_a_task(backend: str) -> tuple[float, float, bool]:
        import dask_gpunumeric as dnp
        from dask_gpunumeric._runtime.cluster import embedded_cluster

        with dnp.config.set(backend=backend, scheduler="distributed", min_chunk_elements=4096):
            small = float(dnp.ones(1000).sum())
            x = dnp.arange(60000.0, chunks=10000).reshape(300, 200)
            large = float((x * 2 + 1).sum())
        return small, large, embedded_cluster() is None

    # the backend under test, and the default (auto: the task asks the workers, too)
    for task_backend in (backend, "auto"):
        future = client.submit(in_a_task, task_backend, pure=False)
        small, large, no_cluster_started = future.result(RESULT_TIMEOUT)
        assert small == numpy.ones(1000).sum()
        assert large == (HOST * 2 + 1).sum()
        assert no_cluster_started


@pytest.mark.not_with_query_planning(
    reason="xarray over dask's expression arrays fails alike without dask_gpunumeric "
    "(xarray's rolling calls task-graph dask.array functions)"
)
def test_xarray_rolling_over_ours_on_a_cluster(backend: str) -> None:
    """xarray's dask path (``rolling``) on an array materialized on the cluster."""
    xr = pytest.importorskip("xarray")
    a = dnp.array(HOST, chunks=CHUNKS) / 7
    assert float(a.sum()) == pytest.approx((HOST / 7).sum(), rel=1e-14)
    result = xr.DataArray(a, dims=("x", "y")).rolling(x=5, center=True).mean()
    expected = xr.DataArray(HOST / 7, dims=("x", "y")).rolling(x=5, center=True).mean()
    numpy.testing.assert_allclose(host_value(result.data), expected.values, rtol=1e-13)
