"""Shapes whose byte size overflows ``intp`` raise NumPy's ``ValueError`` when the array is
created, before any graph or chunk exists; large but addressable lazy arrays are built."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_raises_like

TOO_BIG = [
    ("zeros", (2**62,), "float64"),
    ("ones", (2**40, 2**40), "float32"),
    ("empty", (2**31, 2**31, 4), "float64"),
    ("zeros", (0, 2**62), "float64"),  # empty, yet too big by NumPy's rule
    ("full", (2**40, 2**40, 0), "uint8"),
]


@pytest.mark.parametrize(("name", "shape", "dtype"), TOO_BIG)
def test_creation_with_a_too_big_shape_raises_numpys_error(name, shape, dtype) -> None:
    def call(xp):  # full takes a fill value; the others a shape and dtype
        function = getattr(xp, name)
        return function(shape, 1, dtype=dtype) if name == "full" else function(shape, dtype)

    error = assert_raises_like(lambda: call(numpy), lambda: call(dnp))
    assert "array is too big" in str(error)


@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.arange(2.0**62),
        lambda xp: xp.linspace(0, 1, 2**62),
        lambda xp: xp.eye(2**40),
        lambda xp: xp.random.default_rng(0).random(2**62),
        lambda xp: xp.zeros_like(xp.ones(3), shape=(2**62,)),
    ],
)
def test_other_creation_routines_check_too(make) -> None:
    error = assert_raises_like(lambda: make(numpy), lambda: make(dnp))
    assert "array is too big" in str(error)


def test_addressable_arrays_larger_than_memory_stay_lazy() -> None:
    # NumPy fails these with MemoryError at allocation; ours are lazy and may be reduced.
    huge = dnp.zeros((2**62,), dtype="uint8")
    assert huge.shape == (2**62,) and huge.nbytes == 2**62
    assert dnp.zeros((0, 2**62), dtype="uint8").size == 0
