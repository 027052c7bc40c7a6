"""Array type testing and memory layout (NumPy's "Logic functions: array type testing",
"Data type routines" and layout helpers): ``iscomplex``, ``isreal``, ``isposinf``,
``isneginf`` are ufunc compositions; ``iscomplexobj``, ``common_type``... read only
dtypes; the layout functions (``ascontiguousarray``, ``isfortran``...) read and make the
layouts ``_array.memory_order`` keeps (a Fortran array is a transposed view).
"""

from __future__ import annotations

from typing import Any

import numpy

from .._array import memory_order
from .creation import asarray, zeros
from .ndarray import ndarray
from .reductions import all as all_
from .ufuncs import ufuncs

__all__ = [
    "asarray_chkfinite",
    "ascontiguousarray",
    "asfortranarray",
    "common_type",
    "iscomplex",
    "iscomplexobj",
    "isfortran",
    "isneginf",
    "isposinf",
    "isreal",
    "isrealobj",
    "may_share_memory",
    "min_scalar_type",
    "require",
    "shares_memory",
]


def _dtype_stand_in(value: Any) -> Any:
    """An empty NumPy array with our array's dtype; anything else unchanged."""
    return numpy.empty(0, dtype=value.dtype) if isinstance(value, ndarray) else value


def iscomplex(x: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.iscomplex`."""
    array = asarray(x)
    if array.dtype.kind == "c":
        return array.imag != 0
    return zeros(array.shape, dtype=bool)


def isreal(x: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.isreal`."""
    array = asarray(x)
    if array.dtype.kind == "c":
        return array.imag == 0
    nothing: Any = zeros(array.shape, dtype=bool)
    return nothing == 0


def iscomplexobj(x: Any) -> bool:
    """dask_gpunumeric implementation of :func:`numpy.iscomplexobj` (reads the dtype only)."""
    return bool(numpy.iscomplexobj(_dtype_stand_in(x)))


def isrealobj(x: Any) -> bool:
    """dask_gpunumeric implementation of :func:`numpy.isrealobj` (reads the dtype only)."""
    return bool(numpy.isrealobj(_dtype_stand_in(x)))


def isfortran(a: Any) -> bool:
    """dask_gpunumeric implementation of :func:`numpy.isfortran` (our array's layout: a
    Fortran-ordered array, or a transpose, is F- and not C-contiguous)."""
    if isinstance(a, ndarray):
        return memory_order.is_fortran(a)
    return bool(numpy.isfortran(a))


def _infinite_with_sign(x: Any, negative: bool, out: Any) -> ndarray:
    array = asarray(x)
    if array.dtype.kind == "c":
        raise TypeError(
            f"This operation is not supported for {array.dtype} values because it would be "
            "ambiguous; test the real and imaginary parts separately."
        )
    sign = ufuncs["signbit"](array)
    result = ufuncs["isinf"](array) & (sign if negative else ~sign)
    if out is None:
        return result
    out[...] = result
    return out


def isposinf(x: Any, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.isposinf`."""
    return _infinite_with_sign(x, False, out)


def isneginf(x: Any, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.isneginf`."""
    return _infinite_with_sign(x, True, out)


def common_type(*arrays: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.common_type` (reads dtypes only)."""
    return numpy.common_type(*(_dtype_stand_in(a) for a in arrays))


def min_scalar_type(a: Any, /) -> numpy.dtype:
    """dask_gpunumeric implementation of :func:`numpy.min_scalar_type` (a 0-d array of ours
    computes its one value)."""
    if isinstance(a, ndarray):
        if a.ndim:
            return a.dtype
        return numpy.min_scalar_type(a.compute())
    return numpy.min_scalar_type(a)


def shares_memory(a: Any, b: Any, /, max_work: Any = None) -> bool:
    """dask_gpunumeric implementation of :func:`numpy.shares_memory`.

    Differences from NumPy
    ----------------------
    Two of our arrays share memory when they are views of one store (the same base),
    even when the views select disjoint elements.
    """
    if isinstance(a, ndarray) or isinstance(b, ndarray):
        return isinstance(a, ndarray) and isinstance(b, ndarray) and a._store is b._store
    return bool(numpy.shares_memory(a, b, max_work=max_work))


def may_share_memory(a: Any, b: Any, /, max_work: Any = None) -> bool:
    """dask_gpunumeric implementation of :func:`numpy.may_share_memory` (see
    ``shares_memory``)."""
    if isinstance(a, ndarray) or isinstance(b, ndarray):
        return shares_memory(a, b)
    return bool(numpy.may_share_memory(a, b, max_work=max_work))


def asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.asarray_chkfinite` (computes one
    boolean, NumPy's eager check)."""
    array = asarray(a, dtype=dtype)
    if array.dtype.kind in "fc" and not bool(all_(ufuncs["isfinite"](array)).compute()):
        raise ValueError("array must not contain infs or NaNs; clean it with np.nan_to_num")
    return array


def ascontiguousarray(a: Any, dtype: Any = None, *, like: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.ascontiguousarray` (at least 1-d)."""
    array = asarray(a, dtype=dtype, order="C")
    return array.reshape(1) if array.ndim == 0 else array


def asfortranarray(a: Any, dtype: Any = None, *, like: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.asfortranarray` (at least 1-d)."""
    array = asarray(a, dtype=dtype, order="F")
    return array.reshape(1) if array.ndim == 0 else array


def require(a: Any, dtype: Any = None, requirements: Any = None, *, like: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.require` (requirements are checked
    like NumPy's; ``'C'`` and ``'F'`` lay the array out so; ``'W'`` and ``'O'`` copy an
    array that is read-only or does not own its data; every array of ours is aligned and
    already a base-class array, ``'E'``)."""
    numpy.require(numpy.empty(0), None, requirements)
    # NumPy's names of the flags all start with their letter (C_CONTIGUOUS, WRITEABLE...).
    letters = {str(name).upper()[:1] for name in requirements or ()}
    order = "C" if "C" in letters else "F" if "F" in letters else None
    result = asarray(a, dtype=dtype, order=order)
    flags = result.flags
    if ("W" in letters and not flags.writeable) or ("O" in letters and not flags.owndata):
        result = asarray(result, order=order).copy(order=order or "K")
    return result
