"""Interoperability on a distributed client with worker processes.

Python-level ufuncs: a ``numpy.frompyfunc`` ufunc (which NumPy cannot pickle), a lazily
typed Numba ``@vectorize`` and our ``vectorize`` run block by block on the workers and
give NumPy's result; on device chunks (CuPy's, the simulated device's) the workers refuse
them.
Host arrays as outputs (``out=h``, ``h *= ours``, a masked reduction into ``h``) receive
the values computed on the workers."""

from __future__ import annotations

from collections.abc import Iterator

import numpy
import pytest
from distributed import Client, LocalCluster

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend

numba = pytest.importorskip("numba")


@pytest.fixture(scope="module")
def client(shared_cluster: LocalCluster) -> Iterator[Client]:
    with Client(shared_cluster) as client:
        yield client


def _on_a_device(backend: str) -> bool:
    """Whether the workers' chunks are device arrays, which refuse host functions: on
    cupy too (the H100 run expected NumPy's result there and failed)."""
    return get_backend(backend).chunk_type is not numpy.ndarray


def _keys(client: Client) -> set[str]:
    """Every task key the scheduler has seen so far (its transition log, as strings)."""
    return set(
        client.run_on_scheduler(
            lambda dask_scheduler: [str(entry[0]) for entry in dask_scheduler.transition_log]
        )
    )


def test_frompyfunc_runs_on_the_workers(client: Client, distributed_scheduler, backend) -> None:
    # Defined here, as in a user's script: cloudpickle sends the function by value.
    offset = 0.5
    shifted = numpy.frompyfunc(lambda x, y: x * y + offset, 2, 1)
    host = numpy.arange(12_000.0).reshape(120, 100)
    ours = dnp.array(host, chunks=(40, 50))
    result = shifted(ours, 2.0)
    assert isinstance(result, dnp.ndarray) and result.dtype == numpy.dtype(object)
    if _on_a_device(backend):
        with pytest.raises(TypeError, match="NotImplemented"):
            result.compute()
        return
    expected = shifted(host, 2.0)
    computed = result.compute()
    assert computed.dtype == expected.dtype and computed.shape == expected.shape
    numpy.testing.assert_array_equal(computed.astype(float), expected.astype(float))
    # The blocks were tasks of the scheduler (run by the worker processes), not here.
    assert any("call_on_blocks" in key for key in _keys(client))


def test_lazily_typed_numba_ufunc_on_the_workers(
    client: Client, distributed_scheduler, backend
) -> None:
    @numba.vectorize
    def ramp(x):  # type: ignore[no-untyped-def]
        return x * 0.5 if x > 10 else 0.0

    host = numpy.arange(12_000.0).reshape(120, 100)
    result = ramp(dnp.array(host, chunks=(40, 50)))
    if _on_a_device(backend):
        with pytest.raises(ValueError, match="Numba type"):
            result.compute()
        return
    numpy.testing.assert_array_equal(result.compute(), ramp(host))


def test_our_vectorize_runs_on_the_workers(client: Client, distributed_scheduler, backend) -> None:
    function = dnp.vectorize(lambda x, y: x + y if x > 100 else -y, otypes=[float])
    host = numpy.arange(12_000.0).reshape(120, 100)
    result = function(dnp.array(host, chunks=(40, 50)), 3.0)
    if _on_a_device(backend):
        with pytest.raises(TypeError, match="Implicit conversion"):
            result.compute()
        return
    numpy.testing.assert_array_equal(result.compute(), function(host, 3.0))


def test_host_arrays_receive_results_from_the_workers(
    client: Client, distributed_scheduler, backend
) -> None:
    host = numpy.arange(12_000.0).reshape(120, 100) / 7
    ours = dnp.array(host, chunks=(40, 50))
    expected, into_host = numpy.ones((120, 100)), numpy.ones((120, 100))
    numpy.multiply(host, 3, out=expected, where=host > 100)
    assert numpy.multiply(ours, 3, out=into_host, where=ours > 100) is into_host
    numpy.testing.assert_array_equal(into_host, expected)
    expected *= host
    into_host *= ours
    numpy.testing.assert_array_equal(into_host, expected)
    row_expected, row_into = numpy.zeros(100), numpy.zeros(100)
    numpy.max(host, axis=0, where=host > 500, initial=-1.0, out=row_expected)
    numpy.max(ours, axis=0, where=ours > 500, initial=-1.0, out=row_into)
    numpy.testing.assert_array_equal(row_into, row_expected)
