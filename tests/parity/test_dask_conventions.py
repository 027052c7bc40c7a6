"""dask.array's conventions on our arrays (``chunks``, ``numblocks``, ``rechunk``,
``blocks``, ``to_dask_array``), and our arrays as inputs of ``dask.array`` functions and
``dask.delayed`` calls; compared with ``dask.array`` over the same NumPy data."""

from __future__ import annotations

import dask
import dask.array as da
import dask.array.core
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend

HOST = numpy.arange(80.0).reshape(10, 8)
CHUNKS = (4, 3)


def ours() -> dnp.ndarray:
    return dnp.array(HOST, chunks=CHUNKS)


def theirs() -> da.Array:
    # dask's task-graph array: its expression arrays (array.query-planning) have no
    # chunksize, npartitions or blocks to compare with
    return dask.array.core.from_array(HOST, chunks=CHUNKS)


def host_value(array: da.Array) -> numpy.ndarray:
    """A dask array's value on the host, whatever the backend's chunk type."""
    return numpy.asarray(get_backend().to_host(array.compute()))


def test_chunk_attributes_are_dask_arrays(backend: str) -> None:
    a, d = ours(), theirs()
    assert a.chunks == d.chunks == ((4, 4, 2), (3, 3, 2))
    assert a.chunksize == d.chunksize
    assert a.numblocks == d.numblocks
    assert a.npartitions == d.npartitions == 9
    assert type(a._meta) is get_backend().chunk_type
    assert a._meta.ndim == 2 and a._meta.dtype == HOST.dtype


def test_chunks_of_a_view_are_its_own() -> None:
    a = ours()[1:, ::2]
    assert sum(a.chunks[0]) == 9 and sum(a.chunks[1]) == 4
    assert a.npartitions == len(a.chunks[0]) * len(a.chunks[1])


def test_rechunk_is_the_dask_array_in_new_blocks(backend: str) -> None:
    rechunked = ours().rechunk({0: 5, 1: -1})
    assert isinstance(rechunked, da.Array)
    assert rechunked.chunks == theirs().rechunk({0: 5, 1: -1}).chunks == ((5, 5), (8,))
    numpy.testing.assert_array_equal(host_value(rechunked), HOST)


@pytest.mark.parametrize(
    "index",
    [(1, slice(None, 2)), -1, (slice(None), 2), (slice(1, 3), slice(0, 3)), (2, -1)],
)
def test_blocks_are_views_of_the_blocks_dask_selects(backend: str, index: object) -> None:
    a = ours()
    block = a.blocks[index]
    expected = theirs().blocks[index]
    assert isinstance(block, dnp.ndarray)
    assert block.shape == expected.shape
    numpy.testing.assert_array_equal(block.compute(), expected.compute())
    block[...] = -1.0  # a view: the write reaches the array
    host = HOST.copy()
    host[tuple(_regions(index))] = -1.0
    numpy.testing.assert_array_equal(a.compute(), host)


def _regions(index: object) -> list[slice]:
    """The element regions of dask's ``blocks[index]`` on ``CHUNKS`` of ``HOST``."""
    index = index if isinstance(index, tuple) else (index,)
    regions = []
    for axis, i in enumerate(index):
        sizes = theirs().chunks[axis]
        starts = numpy.cumsum((0, *sizes))
        picked = numpy.atleast_1d(numpy.arange(len(sizes))[i])
        regions.append(slice(int(starts[picked[0]]), int(starts[picked[-1] + 1])))
    return regions


def test_blocks_bad_indices_raise_as_dask_and_numpy() -> None:
    a = ours()
    with pytest.raises(IndexError):
        a.blocks[3]  # 3 row blocks
    with pytest.raises(IndexError):
        a.blocks[0, 0, 0]
    with pytest.raises(IndexError):  # NumPy's error for a float index
        a.blocks[1.5]
    with pytest.raises(NotImplementedError, match="to_dask"):
        a.blocks[::2]
    assert a.blocks.shape == (3, 3) and a.blocks.size == 9


@pytest.mark.not_with_query_planning(
    reason="dask's expression reductions read their argument's .expr without converting it "
    "(dask.array.sum of a NumPy array fails alike)"
)
def test_dask_array_functions_take_our_arrays(backend: str) -> None:
    a, d = ours(), theirs()
    assert isinstance(da.asarray(a), da.Array)
    assert da.asarray(a).chunks == d.chunks
    numpy.testing.assert_array_equal(host_value(da.asarray(a)), HOST)
    assert host_value(da.sum(a)) == HOST.sum()
    numpy.testing.assert_array_equal(host_value(da.sum(a, axis=0)), HOST.sum(axis=0))
    stacked = da.stack([a, a + 1])
    numpy.testing.assert_array_equal(host_value(stacked), numpy.stack([HOST, HOST + 1]))
    mapped = da.map_blocks(lambda block: block * 2, a, dtype=a.dtype)
    numpy.testing.assert_array_equal(host_value(mapped), HOST * 2)


def test_delayed_gets_the_computed_value(backend: str) -> None:
    a = ours() * 2

    @dask.delayed
    def describe(value: numpy.ndarray) -> tuple[type, float]:
        return type(value), float(value.sum())

    kind, total = describe(a).compute()
    assert kind is numpy.ndarray  # compute() gives host memory, whatever the backend
    assert total == (HOST * 2).sum()
