"""The acceptance case: examples/conjugate_gradient.py, unchanged, gives NumPy's solution."""

from __future__ import annotations

import math

import numpy
import pytest

import dask_gpunumeric as dnp
from examples.conjugate_gradient import conjugate_gradient, make_system


def _solve_both(n: int, a_chunks: object = None, b_chunks: object = None) -> tuple[object, object]:
    host_a, host_b = make_system(numpy, n)
    if a_chunks is None:
        a, b = make_system(dnp, n)
    else:
        a, b = dnp.array(host_a, chunks=a_chunks), dnp.array(host_b, chunks=b_chunks)
    assert math.prod(a.to_dask().numblocks) > 1  # dask's expression arrays: no npartitions
    return conjugate_gradient(dnp, a, b), conjugate_gradient(numpy, host_a, host_b)


@pytest.mark.usefixtures("four_workers")
def test_default_chunks_matches_numpy() -> None:
    ours, expected = _solve_both(150)
    assert isinstance(ours, dnp.ndarray)
    assert numpy.max(numpy.abs(ours.compute() - expected)) < 1e-10


def test_misaligned_chunks_matches_numpy() -> None:
    """Matrix and vector blocks that do not line up on the contracted axis."""
    ours, expected = _solve_both(120, a_chunks=(50, 35), b_chunks=(45,))
    assert numpy.max(numpy.abs(ours.compute() - expected)) < 1e-10
