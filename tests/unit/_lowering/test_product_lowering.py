"""Tensordot and matmul lower to one layer of our own (``_lowering/products.py``), with
dask's array query planning off or on: empty operands included (dask's ``tensordot`` has
no form for expression arrays), where NumPy gives zeros or an empty result."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric._ir.products import Matmul, Tensordot
from dask_gpunumeric._lowering.core import lower_all
from dask_gpunumeric.testing import assert_eq

CASES = [
    ((0, 3), (3, 4), ((1,), (0,))),  # an empty free axis
    ((3, 0), (0, 4), ((1,), (0,))),  # an empty contracted axis: zeros
    ((2, 0, 3), (0, 3, 5), ((1, 2), (0, 1))),
    ((5, 6), (6, 7), ((1,), (0,))),
]


@pytest.mark.parametrize(("left_shape", "right_shape", "axes"), CASES)
def test_a_lowered_tensordot_equals_numpys(
    left_shape: tuple[int, ...], right_shape: tuple[int, ...], axes: tuple[tuple[int, ...], ...]
) -> None:
    rng = numpy.random.default_rng(0)
    left = rng.random(left_shape)
    right = rng.random(right_shape).astype(numpy.float32)
    node = Tensordot(np.asarray(left)._read(), np.asarray(right)._read(), *axes)
    (lowered,) = lower_all([node])
    expected = numpy.tensordot(left, right, axes=axes)
    assert_eq(np.from_dask(lowered), expected)


@pytest.mark.parametrize(("left_shape", "right_shape"), [((0, 3), (3, 2)), ((4, 0), (0, 2))])
def test_a_lowered_matmul_of_empty_operands_equals_numpys(
    left_shape: tuple[int, ...], right_shape: tuple[int, ...]
) -> None:
    left, right = numpy.ones(left_shape), numpy.ones(right_shape, dtype=numpy.int64)
    node = Matmul(np.asarray(left)._read(), np.asarray(right)._read())
    (lowered,) = lower_all([node])
    expected = left @ right
    assert_eq(np.from_dask(lowered), expected)
