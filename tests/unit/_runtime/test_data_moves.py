"""``data_moves``: a persisted array's blocks put together in this process."""

from __future__ import annotations

import itertools

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._runtime import data_moves


def blocks_of(value: numpy.ndarray, chunks: tuple[tuple[int, ...], ...]) -> list[numpy.ndarray]:
    starts = [numpy.cumsum((0, *sizes)) for sizes in chunks]
    return [
        value[tuple(slice(s[i], s[i + 1]) for s, i in zip(starts, index, strict=True))]
        for index in itertools.product(*(range(len(sizes)) for sizes in chunks))
    ]


@pytest.mark.parametrize(
    "shape, chunks",
    [((7,), ((3, 4),)), ((5, 6), ((2, 3), (1, 4, 1))), ((3, 4, 5), ((1, 2), (4,), (2, 2, 1)))],
)
def test_blocks_are_joined_in_place_or_by_concatenate(shape, chunks) -> None:
    value = numpy.arange(numpy.prod(shape), dtype=float).reshape(shape)
    blocks = blocks_of(value, chunks)
    numpy.testing.assert_array_equal(data_moves._joined(blocks, chunks), value)
    backend = get_backend()  # numpy's or the simulated device's chunks
    device = [backend.from_host(block) for block in blocks]
    joined = data_moves._joined(device, chunks)
    assert type(joined) is type(device[0])
    numpy.testing.assert_array_equal(backend.to_host(joined), value)


@pytest.mark.usefixtures("four_workers")
def test_an_array_persisted_here_is_fetched_whole() -> None:
    host = numpy.arange(20_000.0).reshape(100, 200)
    with dnp.config.set(scheduler="threads"):
        (x,) = dask.persist(dnp.array(host), scheduler="threads")
    array = x._read().array
    assert array.npartitions > 1
    (value,) = data_moves.fetch(array)
    numpy.testing.assert_array_equal(get_backend().to_host(value), host)
