"""Matrix and vector products of ``numpy.linalg`` (NumPy reference: "Linear algebra",
matrix and vector products; solving tensor equations): distributed through the products
of ``linear_algebra`` (``dot``, ``matmul``, ``tensordot``)."""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy
from numpy.linalg import LinAlgError

from .._array import views
from .creation import asarray, eye, zeros
from .linalg import inv, solve
from .linalg_gather import as_matrices, gathered, numpy_dtypes
from .linear_algebra import dot, matmul
from .linear_algebra import outer as outer_product
from .linear_algebra import tensordot as tensordot_product
from .ndarray import ndarray
from .reductions import sum as sum_
from .ufuncs import ufuncs

__all__ = [
    "cross",
    "matmul",
    "matrix_power",
    "matrix_transpose",
    "multi_dot",
    "outer",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "vecdot",
]


def matrix_power(a: Any, n: int) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.matrix_power`: repeated
    squaring with distributed ``matmul``; a negative power inverts first (gathered)."""
    matrices = ndarray._from_expr(as_matrices(a, square=True))
    try:
        n = operator.index(n)
    except TypeError as error:
        raise TypeError("exponent must be an integer") from error
    if n == 0:
        identities = zeros(matrices.shape, dtype=matrices.dtype)
        identities[...] = eye(matrices.shape[-1], dtype=matrices.dtype)
        return identities
    if n < 0:
        matrices, n = inv(matrices), -n
    result: ndarray | None = None
    square = matrices
    while n:
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
        if n:
            square = matmul(square, square)
    assert result is not None
    return result


def multi_dot(arrays: Any, *, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.multi_dot`.

    Differences from NumPy: the products are taken left to right, not in the cheapest
    order (equal up to rounding).
    """
    arrays = list(arrays)
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    operands = [asarray(x) for x in arrays]
    for x in (operands[0], operands[-1]):
        if x.ndim not in (1, 2):
            raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    for x in operands[1:-1]:
        if x.ndim != 2:
            raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    result = functools.reduce(dot, operands)
    if out is not None:
        out[...] = result
        return out
    return result


def _check_vectors(x1: ndarray, x2: ndarray, axis: int, name: str) -> None:
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"{name}: input operands differ along the contracted axis")


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.cross` (3-element vectors)."""
    a, b = asarray(x1), asarray(x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(
            f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
            f"{a.shape[axis]} and {b.shape[axis]} dimensional instead."
        )
    moved = [views.swapaxes(x, axis, -1) if x.ndim else x for x in (a, b)]
    exprs = [x._read() for x in moved]
    probe = [numpy.ones((3,), dtype=x.dtype) for x in exprs]
    (dtype,) = numpy_dtypes(numpy.cross, *probe)
    shape = numpy.broadcast_shapes(exprs[0].shape[:-1], exprs[1].shape[:-1]) + (3,)
    result = gathered("cross", exprs, [1, 1], [(shape, dtype)])[0]
    return views.swapaxes(result, axis, -1)


def outer(x1: Any, x2: Any, /) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.outer` (1-D operands)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={a.ndim} and "
            f"x2.ndim={b.ndim}."
        )
    return outer_product(a, b)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.vecdot` (conjugates ``x1``)."""
    a, b = asarray(x1), asarray(x2)
    _check_vectors(a, b, axis, "vecdot")
    conjugated = ufuncs["conjugate"](a) if a.dtype.kind == "c" else a
    products = ufuncs["multiply"](conjugated, b)
    # NumPy's vecdot keeps the operands' type (uint8 stays uint8, bool stays bool), where
    # sum would widen small integers to the platform's.
    return sum_(products, axis=axis, dtype=products.dtype)


def matrix_transpose(x: Any, /) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.matrix_transpose` (a view)."""
    a = asarray(x)
    if a.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {a.ndim}")
    return views.swapaxes(a, -1, -2)


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.tensordot`."""
    return tensordot_product(x1, x2, axes)


def tensorsolve(a: Any, b: Any, axes: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.tensorsolve`."""
    a, b = asarray(a), asarray(b)
    if axes is not None:
        order = [axis for axis in range(a.ndim) if axis not in axes] + list(axes)
        a = views.transpose(a, tuple(order))
    unknown_shape = a.shape[-(a.ndim - b.ndim) :]
    size = int(numpy.prod(unknown_shape))
    if int(numpy.prod(a.shape[: b.ndim])) != size:
        raise LinAlgError(
            "Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == "
            "prod(a.shape[:b.ndim])"
        )
    solution = solve(a.reshape((size, size)), b.ravel())
    return solution.reshape(unknown_shape)


def tensorinv(a: Any, ind: int = 2) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.tensorinv`."""
    a = asarray(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    result_shape = a.shape[ind:] + a.shape[:ind]
    rows = int(numpy.prod(a.shape[:ind]))
    inverse = inv(a.reshape((rows, -1)))
    return inverse.reshape(result_shape)
