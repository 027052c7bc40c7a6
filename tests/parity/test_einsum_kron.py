"""einsum, kron and tensordot against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import assert_eq, assert_raises_like

RNG = numpy.random.default_rng(6)
A = RNG.integers(-3, 3, (4, 5)).astype("int16")
B = RNG.standard_normal((5, 3)).astype("float32")
C = RNG.standard_normal(3)


@pytest.mark.parametrize(
    ("subscripts", "operands"),
    [
        ("ij,jk->ik", (A, B)),
        ("ij,jk,k", (A, B, C)),
        ("ii->i", (A[:4, :4],)),
        ("ij->", (A,)),
        ("...j,j", (A, A[0])),
        ("ij,ij->ij", (A > 0, A < 1)),
        ("ij->ji", (B,)),
        ("i,j->ij", (C, C + 1j)),
        ("...ij,...jk", (RNG.standard_normal((2, 4, 5)), RNG.standard_normal((1, 5, 3)))),
        ("bij,jk->bik", (RNG.standard_normal((3, 4, 5)), B)),
        ("ji", (A,)),
    ],
)
def test_einsum(subscripts: str, operands: tuple[numpy.ndarray, ...]) -> None:
    expected = numpy.asarray(numpy.einsum(subscripts, *operands))
    tolerance = 1e-6 if expected.dtype.kind in "fc" else 0
    for chunks in (2, 3):  # each operand chunked its own way: a label, several chunkings
        ours = [np.asarray(x, chunks=chunks + i) for i, x in enumerate(operands)]
        assert_eq(np.einsum(subscripts, *ours), expected, rtol=tolerance)


def test_einsum_dtype_and_out() -> None:
    x = np.asarray(A, chunks=3)
    assert_eq(np.einsum("ij->ji", x, dtype="float64"), numpy.einsum("ij->ji", A, dtype="float64"))
    out = np.zeros((5, 4), dtype="int16")
    np.einsum("ij->ji", x, out=out)
    assert_eq(out, A.T)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.einsum("ij,jk", A, A),
        lambda xp: xp.einsum("ij,j", A),
        lambda xp: xp.einsum("ij->ik", A),
        lambda xp: xp.einsum("ij->j", A, dtype="int8", casting="safe"),
    ],
)
def test_einsum_bad_input_raises_like_numpy(call: object) -> None:
    assert_raises_like(lambda: call(numpy), lambda: call(np))  # type: ignore[operator]


@pytest.mark.parametrize(
    ("left", "right"),
    [(A, B), (C, A), (A[0], C), (A, RNG.integers(0, 3, (2, 2, 2))), (A > 0, A[:2, :2] < 1)],
)
def test_kron(left: numpy.ndarray, right: numpy.ndarray) -> None:
    ours = np.kron(np.asarray(left, chunks=2), np.asarray(right, chunks=2))
    assert_eq(ours, numpy.kron(left, right))


def test_kron_with_a_scalar() -> None:
    assert_eq(np.kron(np.asarray(3), np.asarray(C)), numpy.kron(3, C))


@pytest.mark.parametrize("axes", [1, 0, ([1], [0]), ([0, 1], [1, 0])])
def test_tensordot(axes: object) -> None:
    square = RNG.standard_normal((5, 5))
    left, right = (A, B) if axes in (1, ([1], [0])) else (square, square.T)
    ours = np.tensordot(np.asarray(left, chunks=2), np.asarray(right, chunks=3), axes=axes)
    assert_eq(ours, numpy.asarray(numpy.tensordot(left, right, axes=axes)), rtol=1e-6)
