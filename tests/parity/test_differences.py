"""diff, gradient and cross against NumPy."""

from __future__ import annotations

import warnings

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

RNG = numpy.random.default_rng(2)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("n", [1, 2])
def test_diff(dtype: str, axis: int, n: int) -> None:
    data = RNG.integers(-5, 6, size=(6, 7)).astype(dtype)
    x = np.asarray(data, chunks=(4, 3))
    assert_eq(np.diff(x, n=n, axis=axis), numpy.diff(data, n=n, axis=axis))


def test_diff_prepend_append_and_order_zero() -> None:
    data = RNG.standard_normal((5, 6)).astype("float32")
    x = np.asarray(data, chunks=(2, 4))
    assert_eq(
        np.diff(x, prepend=0, append=data[:, :2]), numpy.diff(data, prepend=0, append=data[:, :2])
    )
    assert_eq(np.diff(x, axis=0, append=1.5), numpy.diff(data, axis=0, append=1.5))
    assert_eq(np.diff(x, n=0), data)
    assert_eq(np.diff(x, n=7, axis=1), numpy.diff(data, n=7, axis=1))  # longer than the axis


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.diff(a, n=-1),
        lambda xp, a: xp.diff(a[0, 0]),
        lambda xp, a: xp.diff(a, axis=2),
        lambda xp, a: xp.diff(a, append=a[:2, :2]),
        lambda xp, a: xp.gradient(a, edge_order=3),
        lambda xp, a: xp.gradient(a[:2], edge_order=2),
        lambda xp, a: xp.gradient(a, 1.0, 2.0, 3.0),
        lambda xp, a: xp.gradient(a, [1.0, 2.0], axis=1),
        lambda xp, a: xp.gradient(a > 0),
        lambda xp, a: xp.cross(a[:, :4], a[:, :3]),
        lambda xp, a: xp.cross(a[:, :3], a[:, :3], axisc=3),
    ],
)
def test_bad_input_raises_like_numpy(call: object) -> None:
    data = RNG.standard_normal((5, 6))
    assert_raises_like(lambda: call(numpy, data), lambda: call(np, np.asarray(data)))  # type: ignore[operator]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "complex128"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_uniform(dtype: str, edge_order: int) -> None:
    data = (RNG.standard_normal((6, 7)) * 10).astype(dtype)
    x = np.asarray(data, chunks=(4, 3))
    for ours, expected in zip(
        np.gradient(x, edge_order=edge_order),
        numpy.gradient(data, edge_order=edge_order),
        strict=True,
    ):
        assert_eq(ours, expected)
    assert_eq(
        np.gradient(x, 0.5, axis=1, edge_order=edge_order),
        numpy.gradient(data, 0.5, axis=1, edge_order=edge_order),
    )
    for ours, expected in zip(np.gradient(x, 2, 3.5), numpy.gradient(data, 2, 3.5), strict=True):
        assert_eq(ours, expected)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_with_coordinates(edge_order: int) -> None:
    data = RNG.standard_normal((6, 7)).astype("float32")
    x = np.asarray(data, chunks=(3, 5))
    uneven = numpy.array([0, 1, 1.5, 3, 4.5, 5, 7.0])
    even = numpy.arange(6) * 2  # integer coordinates, uniform: reduced to a scalar
    ours = np.gradient(x, even, np.asarray(uneven), edge_order=edge_order)
    for actual, expected in zip(
        ours, numpy.gradient(data, even, uneven, edge_order=edge_order), strict=True
    ):
        assert_eq(actual, expected)


def test_gradient_one_d_and_three_d() -> None:
    line = numpy.arange(10.0) ** 2
    assert_eq(np.gradient(np.asarray(line, chunks=3)), numpy.gradient(line))
    cube = RNG.standard_normal((4, 5, 6))
    ours = np.gradient(np.asarray(cube, chunks=(2, 2, 3)), axis=(0, 2))
    for actual, expected in zip(ours, numpy.gradient(cube, axis=(0, 2)), strict=True):
        assert_eq(actual, expected)


@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128", "uint8"])
def test_cross(dtype: str) -> None:
    a = RNG.integers(-5, 5, (4, 3)).astype(dtype)
    b = RNG.integers(-5, 5, (4, 3)).astype("float32")
    assert_eq(np.cross(np.asarray(a, chunks=2), np.asarray(b, chunks=(3, 1))), numpy.cross(a, b))
    assert_eq(
        np.cross(np.asarray(a.T), np.asarray(b), axisa=0, axisc=0),
        numpy.cross(a.T, b, axisa=0, axisc=0),
    )
    broadcast = b[:, None, :]
    assert_eq(
        np.cross(np.asarray(a.T), np.asarray(broadcast), axisa=0, axisc=1),
        numpy.cross(a.T, broadcast, axisa=0, axisc=1),
    )
    assert_eq(np.cross(np.asarray(a[0]), np.asarray(a[1])), numpy.cross(a[0], a[1]))


def test_cross_of_two_dimensional_vectors_warns_as_numpy() -> None:
    """As this NumPy does: 2.0 to 2.4 warn (DeprecationWarning), the H100 check's 2.5.2 did
    not (our unconditional warning failed there)."""
    a, b = RNG.standard_normal((4, 2)), RNG.standard_normal((4, 3))
    for left, right in ((a, a[::-1]), (a, b), (b, a)):
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            expected = numpy.cross(left, right)
        with warnings.catch_warnings(record=True) as mine:
            warnings.simplefilter("always")
            ours = np.cross(np.asarray(left, chunks=2), np.asarray(right))
        assert [(w.category, str(w.message)) for w in mine] == [
            (w.category, str(w.message)) for w in theirs
        ]
        assert all(w.filename == __file__ for w in mine)  # at the caller's line
        assert_eq(ours, expected)
