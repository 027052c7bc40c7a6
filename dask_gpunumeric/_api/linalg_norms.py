"""Norms and other numbers (NumPy reference: "Linear algebra", norms and other numbers).

Vector norms and the matrix norms 'fro', 1, -1, inf, -inf are distributed reductions, as
NumPy writes them (absolute values, sums, maxima); the matrix norms 2, -2 and 'nuc' and
``cond`` need singular values, computed on whole matrices (``svd``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_index

from .._array import views
from .creation import asarray
from .elementwise import astype, imag, real, where
from .linalg import svd
from .linalg_gather import as_matrices, gathered, numpy_dtypes, stand_in
from .linear_algebra import dot
from .ndarray import ndarray
from .reductions import all as all_
from .reductions import any as any_
from .reductions import max as max_
from .reductions import min as min_
from .reductions import sum as sum_
from .ufuncs import ufuncs

__all__ = ["cond", "diagonal", "matrix_norm", "matrix_rank", "norm", "trace", "vector_norm"]

_REDUCTIONS: dict[str, Callable[..., ndarray]] = {"max": max_, "min": min_, "sum": sum_}


def _squared_magnitudes(x: ndarray) -> ndarray:
    """``(x.conj() * x).real``, NumPy's sum-of-squares operand."""
    product = ufuncs["multiply"](ufuncs["conjugate"](x), x)
    return real(product) if product.dtype.kind == "c" else product


def _vector_norm(x: ndarray, ord: Any, axis: tuple[int, ...], keepdims: bool) -> ndarray:
    magnitudes = ufuncs["absolute"](x)
    if ord == numpy.inf:
        return max_(magnitudes, axis=axis, keepdims=keepdims)
    if ord == -numpy.inf:
        return min_(magnitudes, axis=axis, keepdims=keepdims)
    if ord == 0:
        nonzero = astype(ufuncs["not_equal"](x, 0), real(x).dtype)
        return sum_(nonzero, axis=axis, keepdims=keepdims)
    if ord == 1:
        return sum_(magnitudes, axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return ufuncs["sqrt"](sum_(_squared_magnitudes(x), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    total = sum_(ufuncs["power"](magnitudes, ord), axis=axis, keepdims=keepdims)
    return ufuncs["power"](total, numpy.reciprocal(ord, dtype=total.dtype))


def _svd_norm(x: ndarray, rows: int, columns: int, reduction: str) -> ndarray:
    order = [axis for axis in range(x.ndim) if axis not in (rows, columns)] + [rows, columns]
    values = svd(views.transpose(x, tuple(order)), compute_uv=False)
    return _REDUCTIONS[reduction](values, axis=-1)


def _matrix_norm(x: ndarray, ord: Any, rows: int, columns: int) -> ndarray:
    if ord in (2, -2):
        return _svd_norm(x, rows, columns, "max" if ord == 2 else "min")
    if ord == "nuc":
        return _svd_norm(x, rows, columns, "sum")
    if ord in (None, "fro", "f"):
        return ufuncs["sqrt"](sum_(_squared_magnitudes(x), axis=(rows, columns)))
    if ord not in (1, -1, numpy.inf, -numpy.inf):
        raise ValueError("Invalid norm order for matrices.")
    summed, extreme = (rows, columns) if ord in (1, -1) else (columns, rows)
    if extreme > summed:
        extreme -= 1
    sums = sum_(ufuncs["absolute"](x), axis=summed)
    if ord in (1, numpy.inf):
        return max_(sums, axis=extreme)
    return min_(sums, axis=extreme)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.norm`."""
    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = astype(x, numpy.float64)
    if axis is None:
        if ord is None or (ord in ("f", "fro") and x.ndim == 2) or (ord == 2 and x.ndim == 1):
            flat = x.ravel()
            parts = [real(flat), imag(flat)] if flat.dtype.kind == "c" else [flat]
            squares = [dot(part, part) for part in parts]
            result = ufuncs["sqrt"](squares[0] if len(parts) == 1 else ufuncs["add"](*squares))
            return result.reshape((1,) * x.ndim) if keepdims else result
        axis = tuple(range(x.ndim))
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError as error:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from error
    if len(axis) == 1:
        return _vector_norm(x, ord, axis, keepdims)
    if len(axis) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    rows, columns = (normalize_axis_index(a, x.ndim) for a in axis)
    if rows == columns:
        raise ValueError("Duplicate axes given.")
    result = _matrix_norm(x, ord, rows, columns)
    if keepdims:
        shape = [1 if a in (rows, columns) else n for a, n in enumerate(x.shape)]
        result = result.reshape(tuple(shape))
    return result


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.vector_norm`."""
    x = asarray(x)
    shape = x.shape
    if axis is None:
        flat = x.ravel()
        result = norm(flat, ord=ord, axis=0)
        return result.reshape((1,) * len(shape)) if keepdims else result
    if isinstance(axis, tuple) and len(axis) > 1:
        axes = tuple(normalize_axis_index(a, x.ndim) for a in axis)
        rest = [a for a in range(x.ndim) if a not in axes]
        moved = views.transpose(x, tuple(axes) + tuple(rest))
        merged = moved.reshape((-1,) + tuple(shape[a] for a in rest))
        result = norm(merged, ord=ord, axis=0)
        if keepdims:
            result = result.reshape(tuple(1 if a in axes else n for a, n in enumerate(shape)))
        return result
    return norm(x, ord=ord, axis=axis, keepdims=keepdims)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.matrix_norm`."""
    expr = as_matrices(x)
    return norm(ndarray._from_expr(expr), ord=ord, axis=(-2, -1), keepdims=keepdims)


def cond(x: Any, p: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.cond`."""
    matrices = ndarray._from_expr(as_matrices(x, square=p not in (None, 2, -2)))
    if p in (None, 2, -2):
        values = svd(matrices, compute_uv=False)
        first, last = values[..., 0], values[..., -1]
        ratio = ufuncs["divide"](*((last, first) if p == -2 else (first, last)))
        # NumPy: a NaN from a singular matrix is inf unless the matrix itself holds NaN.
        has_nan = any_(ufuncs["isnan"](matrices), axis=(-2, -1))
        singular = ufuncs["logical_and"](ufuncs["isnan"](ratio), ufuncs["logical_not"](has_nan))
        return where(singular, numpy.inf, ratio)
    expr = matrices._read()
    (dtype,) = numpy_dtypes(numpy.linalg.cond, stand_in(expr, 2), p=p)
    return gathered("linalg.cond", [expr], [2], [(expr.shape[:-2], dtype)], {"p": p})[0]


def matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:  # noqa: N803
    """dask_gpunumeric implementation of :func:`numpy.linalg.matrix_rank`.

    Differences from NumPy: ``tol`` and ``rtol`` are scalars (not arrays).
    """
    a = asarray(A)
    if a.ndim < 2:
        return int(not bool(all_(ufuncs["equal"](a, 0))))
    expr = a._read()
    keywords = {"tol": tol, "rtol": rtol, "hermitian": True if hermitian else None}
    (dtype,) = numpy_dtypes(numpy.linalg.matrix_rank, stand_in(expr, 2), **keywords)
    return gathered("linalg.matrix_rank", [expr], [2], [(expr.shape[:-2], dtype)], keywords)[0]


def diagonal(x: Any, /, *, offset: int = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.diagonal` (the last two axes)."""
    expr = as_matrices(x)
    m, n = expr.shape[-2:]
    length = max(0, min(m + min(offset, 0), n - max(offset, 0)))
    keywords = {"offset": offset, "axis1": -2, "axis2": -1}
    outputs = [(expr.shape[:-2] + (length,), expr.dtype)]
    return gathered("diagonal", [expr], [2], outputs, keywords)[0]


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.trace` (the last two axes)."""
    expr = as_matrices(x)
    result_dtype = numpy.linalg.trace(stand_in(expr, 2), offset=offset, dtype=dtype).dtype
    return sum_(diagonal(ndarray._from_expr(expr), offset=offset), axis=-1, dtype=result_dtype)
