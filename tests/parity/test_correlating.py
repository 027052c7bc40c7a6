"""cov, corrcoef, digitize, the vector/matrix gufuncs and the poly* functions against NumPy."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import assert_eq, assert_raises_like

RNG = numpy.random.default_rng(1)
X = RNG.random((3, 10))
Y = RNG.random((2, 10))


@pytest.mark.parametrize("chunks", [(2, 4), (3, 10)])
def test_cov(chunks: tuple[int, int]) -> None:
    x = np.asarray(X, chunks=chunks)
    assert_eq(np.cov(x), numpy.cov(X), rtol=1e-12)
    assert_eq(np.cov(x, np.asarray(Y)), numpy.cov(X, Y), rtol=1e-12)
    assert_eq(
        np.cov(x.T, rowvar=False, bias=True), numpy.cov(X.T, rowvar=False, bias=True), rtol=1e-12
    )
    assert_eq(np.cov(x[0]), numpy.cov(X[0]), rtol=1e-12)
    assert_eq(np.cov(x, ddof=3, dtype="f4"), numpy.cov(X, ddof=3, dtype="f4"), rtol=1e-5)
    fweights, aweights = RNG.integers(1, 4, 10), RNG.random(10)
    assert_eq(
        np.cov(x, fweights=fweights, aweights=aweights),
        numpy.cov(X, fweights=fweights, aweights=aweights),
        rtol=1e-12,
    )


def test_cov_errors() -> None:
    assert_raises_like(lambda: numpy.cov(numpy.ones((2, 2, 2))), lambda: np.cov(np.ones((2, 2, 2))))
    assert_raises_like(lambda: numpy.cov(X, ddof=1.5), lambda: np.cov(np.asarray(X), ddof=1.5))
    assert_raises_like(
        lambda: numpy.cov(X, aweights=-numpy.ones(10)),
        lambda: np.cov(np.asarray(X), aweights=-numpy.ones(10)),
    )
    assert_raises_like(
        lambda: numpy.cov(X, fweights=numpy.ones(3, dtype=int)),
        lambda: np.cov(np.asarray(X), fweights=numpy.ones(3, dtype=int)),
    )


def test_corrcoef() -> None:
    x = np.asarray(X, chunks=(2, 4))
    assert_eq(np.corrcoef(x), numpy.corrcoef(X), rtol=1e-12)
    assert_eq(np.corrcoef(x[0], x[1]), numpy.corrcoef(X[0], X[1]), rtol=1e-12)
    assert_eq(np.corrcoef(x, rowvar=False), numpy.corrcoef(X, rowvar=False), rtol=1e-12)
    complex_data = X + 1j * X[::-1]
    assert_eq(np.corrcoef(np.asarray(complex_data)), numpy.corrcoef(complex_data), rtol=1e-12)


COMPLEX_X = X + 1j * X[::-1]
WEIGHTS: dict[str, dict[str, Any]] = {
    "none": {},
    "fweights": {"fweights": RNG.integers(1, 4, 10)},
    "aweights": {"aweights": RNG.random(10)},
    "both": {"fweights": RNG.integers(1, 4, 10), "aweights": RNG.random(10)},
}


@pytest.mark.parametrize("weights", WEIGHTS)
@pytest.mark.parametrize("ddof", [None, 0, 2])
def test_cov_complex_with_weights(weights: str, ddof: int | None) -> None:
    """Complex observations make NumPy's divisor complex: the weighted ones must not be
    turned into a Python float (issue 30: ``TypeError: float() argument ... not 'complex'``)."""
    x = np.asarray(COMPLEX_X, chunks=(2, 4))
    kwargs = WEIGHTS[weights]
    assert_eq(np.cov(x, ddof=ddof, **kwargs), numpy.cov(COMPLEX_X, ddof=ddof, **kwargs), rtol=1e-12)
    assert_eq(
        np.cov(x[0], x[1], ddof=ddof, **kwargs),
        numpy.cov(COMPLEX_X[0], COMPLEX_X[1], ddof=ddof, **kwargs),
        rtol=1e-12,
    )
    assert_eq(
        np.cov(x, dtype="c8", **kwargs), numpy.cov(COMPLEX_X, dtype="c8", **kwargs), rtol=1e-5
    )


def test_cov_complex_weights_no_degrees_of_freedom() -> None:
    aweights = numpy.eye(10)[0]  # one observation: the divisor 1 - ddof * 1 / 1 is 0
    x = np.asarray(COMPLEX_X, chunks=(2, 4))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
        expected = numpy.cov(COMPLEX_X, aweights=aweights)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
        ours = np.cov(x, aweights=aweights)
    assert_eq(ours, expected)


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("chunks", [2, 6])
def test_digitize(right: bool, chunks: int) -> None:
    values = numpy.array([0.2, 6.4, 3.0, 1.6, -1.0, 10.0])
    bins = numpy.array([0.0, 1.0, 2.5, 4.0, 10.0])
    x = np.asarray(values, chunks=chunks)
    assert_eq(np.digitize(x, bins, right), numpy.digitize(values, bins, right))
    assert_eq(
        np.digitize(x, np.asarray(bins[::-1]), right), numpy.digitize(values, bins[::-1], right)
    )
    assert_raises_like(lambda: numpy.digitize(values, [1, 0, 2]), lambda: np.digitize(x, [1, 0, 2]))
    assert_raises_like(lambda: numpy.digitize(values + 1j, bins), lambda: np.digitize(x + 1j, bins))


def test_vector_matrix_products() -> None:
    a = RNG.random((2, 3, 4)) + 1j * RNG.random((2, 3, 4))
    v, w = RNG.random(4) + 1j * RNG.random(4), RNG.random(3) - 1j
    x = np.asarray(a, chunks=2)
    assert_eq(np.matvec(x, v), numpy.matvec(a, v), rtol=1e-13)
    assert_eq(np.vecmat(w, x), numpy.vecmat(w, a), rtol=1e-13)
    assert_eq(np.vecdot(x, np.asarray(a)), numpy.vecdot(a, a), rtol=1e-13)
    assert_eq(np.vecdot(x, a, axis=1), numpy.vecdot(a, a, axis=1), rtol=1e-13)
    ints = numpy.arange(12).reshape(3, 4)
    assert_eq(np.matvec(np.asarray(ints), numpy.arange(4)), numpy.matvec(ints, numpy.arange(4)))
    assert_raises_like(lambda: numpy.matvec(a, w), lambda: np.matvec(x, w))
    assert_raises_like(lambda: numpy.vecmat(v, a), lambda: np.vecmat(v, x))
    assert_raises_like(lambda: numpy.vecdot(a, w), lambda: np.vecdot(x, w))


P = numpy.array([3.0, 0.0, -2.0, 1.0])
Q = numpy.array([1, 2])


def test_polyval() -> None:
    points = numpy.array([0.2, 6.4, 3.0, -1.0])
    assert_eq(np.polyval(P, np.asarray(points, chunks=2)), numpy.polyval(P, points))
    assert_eq(np.polyval(np.asarray(P), points), numpy.polyval(P, points))
    assert_eq(np.polyval([1, 2, 3], np.arange(5)), numpy.polyval([1, 2, 3], numpy.arange(5)))


@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul"])
def test_poly_arithmetic(name: str) -> None:
    ours, theirs = getattr(np, name), getattr(numpy, name)
    assert_eq(ours(np.asarray(P, chunks=2), Q), theirs(P, Q))
    assert_eq(ours(Q, np.asarray(P)), theirs(Q, P))
    assert_eq(ours(P, P), theirs(P, P))


def test_polyder_polyint() -> None:
    for m in (0, 1, 2, 5):
        assert_eq(np.polyder(np.asarray(P, chunks=2), m), numpy.polyder(P, m))
    for m, k in [(0, None), (1, None), (2, None), (2, 3.0), (2, [1.0, 2.0])]:
        assert_eq(np.polyint(np.asarray(P, chunks=3), m, k), numpy.polyint(P, m, k))
    assert_raises_like(lambda: numpy.polyint(P, 3, [1, 2]), lambda: np.polyint(P, 3, [1, 2]))
    assert_raises_like(lambda: numpy.polyint(P, -1), lambda: np.polyint(P, -1))
    assert_raises_like(lambda: numpy.polyder(P, -1), lambda: np.polyder(P, -1))
