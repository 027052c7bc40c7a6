"""Reshapes NumPy allows but dask's reshape refuses (empty arrays of several chunks)."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq


@pytest.mark.parametrize(
    ("shape", "chunks", "new_shape"),
    [((0, 4), (1, 2), (2, 0, 2)), ((2, 0, 2), 1, (0, 4)), ((3, 0), (1, 1), (0,))],
)
def test_reshape_of_empty_multi_chunk_array(shape, chunks, new_shape) -> None:
    host = numpy.zeros(shape, dtype=numpy.int32)
    ours = dnp.array(host, chunks=chunks)
    assert_eq(ours.reshape(new_shape), host.reshape(new_shape))
    assert_eq(ours.reshape(new_shape) + 1, host.reshape(new_shape) + 1)
