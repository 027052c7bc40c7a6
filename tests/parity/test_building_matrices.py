"""Building matrices, index-array generators, window functions, logspace and geomspace
against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import assert_eq, assert_raises_like


def _each_equal(ours: tuple, theirs: tuple) -> None:
    assert len(ours) == len(theirs)
    for actual, expected in zip(ours, theirs, strict=True):
        assert_eq(actual, expected)


@pytest.mark.parametrize("name", ["hamming", "hanning", "blackman", "bartlett"])
@pytest.mark.parametrize("M", [0, 1, 2, 5, 12])
def test_windows(name: str, M: int) -> None:
    assert_eq(getattr(np, name)(M), getattr(numpy, name)(M), rtol=1e-15)


@pytest.mark.parametrize("M", [1, 2, 7])
def test_kaiser(M: int) -> None:
    assert_eq(np.kaiser(M, 5.0), numpy.kaiser(M, 5.0), rtol=1e-12)


@pytest.mark.parametrize(
    "args", [(1, 1000, 4), (2, 3, 5), (-1, -1000, 4), (1, 1000, 1), (1, 1000, 0), (1j, 1000j, 4)]
)
def test_geomspace_logspace(args: tuple) -> None:
    assert_eq(np.geomspace(*args), numpy.geomspace(*args), rtol=1e-14)
    if not isinstance(args[0], complex):
        assert_eq(np.logspace(*args), numpy.logspace(*args), rtol=1e-14)


def test_geomspace_logspace_options() -> None:
    assert_eq(
        np.geomspace(1, 256, 9, endpoint=False, dtype=int),
        numpy.geomspace(1, 256, 9, endpoint=False, dtype=int),
    )
    assert_eq(
        np.logspace(0, 3, 4, base=2.0, dtype="f4"), numpy.logspace(0, 3, 4, base=2.0, dtype="f4")
    )
    assert_raises_like(lambda: numpy.geomspace(0, 5), lambda: np.geomspace(0, 5))


@pytest.mark.parametrize("args", [(4,), (4, 5, 1), (3, 2, -1), (0, 3)])
def test_tri(args: tuple) -> None:
    assert_eq(np.tri(*args), numpy.tri(*args))
    assert_eq(np.tri(*args, dtype=int), numpy.tri(*args, dtype=int))


@pytest.mark.parametrize("N", [None, 0, 1, 3, 6])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(N: int | None, increasing: bool) -> None:
    points = numpy.array([1.5, 2.0, 3.0, -1.0])
    x = np.asarray(points, chunks=2)
    assert_eq(np.vander(x, N, increasing), numpy.vander(points, N, increasing), rtol=1e-14)
    assert_eq(np.vander(np.asarray([1, 2, 3]), N), numpy.vander([1, 2, 3], N))
    assert_raises_like(lambda: numpy.vander(numpy.ones((2, 2))), lambda: np.vander(np.ones((2, 2))))


def test_diagflat_fromfunction() -> None:
    data = numpy.array([[1, 2], [3, 4]])
    for k in (-1, 0, 2):
        assert_eq(np.diagflat(np.asarray(data, chunks=1), k), numpy.diagflat(data, k))
    assert_eq(
        np.fromfunction(lambda i, j: i * 10 + j, (3, 4)),
        numpy.fromfunction(lambda i, j: i * 10 + j, (3, 4)),
    )
    assert_eq(
        np.fromfunction(lambda i: i**2, (5,), dtype=int),
        numpy.fromfunction(lambda i: i**2, (5,), dtype=int),
    )


def test_index_generators() -> None:
    _each_equal(np.diag_indices(4, 3), numpy.diag_indices(4, 3))
    square = numpy.zeros((3, 3, 3))
    _each_equal(np.diag_indices_from(np.asarray(square)), numpy.diag_indices_from(square))
    for bad in (numpy.zeros(3), numpy.zeros((3, 4))):
        assert_raises_like(
            lambda bad=bad: numpy.diag_indices_from(bad),
            lambda bad=bad: np.diag_indices_from(np.asarray(bad)),
        )
    for args in [(4,), (4, 1, 5), (4, -1), (3, 0, 2)]:
        _each_equal(np.tril_indices(*args), numpy.tril_indices(*args))
        _each_equal(np.triu_indices(*args), numpy.triu_indices(*args))
    matrix = numpy.zeros((3, 5))
    for k in (-1, 0, 2):
        _each_equal(np.tril_indices_from(np.asarray(matrix), k), numpy.tril_indices_from(matrix, k))
        _each_equal(np.triu_indices_from(np.asarray(matrix), k), numpy.triu_indices_from(matrix, k))
    assert_raises_like(
        lambda: numpy.tril_indices_from(numpy.zeros(3)),
        lambda: np.tril_indices_from(np.zeros(3)),
    )
    _each_equal(np.mask_indices(4, np.triu, 1), numpy.mask_indices(4, numpy.triu, 1))
    _each_equal(np.mask_indices(3, np.tril), numpy.mask_indices(3, numpy.tril))


@pytest.mark.parametrize(
    ("shape", "wrap"),
    [((4, 4), False), ((7, 3), True), ((7, 3), False), ((3, 5), False), ((3, 3, 3), False)],
)
@pytest.mark.parametrize("value", [7, [5, 6]])
def test_fill_diagonal_in_place(shape: tuple, wrap: bool, value: object) -> None:
    expected = numpy.arange(numpy.prod(shape), dtype=float).reshape(shape)
    ours = np.asarray(expected.copy(), chunks=2)
    view = ours[...]
    numpy.fill_diagonal(expected, value, wrap)
    assert np.fill_diagonal(ours, value, wrap) is None
    assert_eq(ours, expected)
    assert_eq(view, expected)


def test_fill_diagonal_errors() -> None:
    assert_raises_like(
        lambda: numpy.fill_diagonal(numpy.zeros(3), 1), lambda: np.fill_diagonal(np.zeros(3), 1)
    )
    assert_raises_like(
        lambda: numpy.fill_diagonal(numpy.zeros((2, 3, 4)), 1),
        lambda: np.fill_diagonal(np.zeros((2, 3, 4)), 1),
    )
