"""Elementwise functions that are not ufuncs: ``where``, ``clip``, ``astype``, ``real``..."""

from __future__ import annotations

from typing import Any

import numpy

from .._array import memory_order
from .._array.coercion import as_expr, as_operand, check_dtype
from .._array.store import Store
from .._array.viewspec import ViewSpec
from .._ir.elementwise import cast_node, clip_node, where_node
from .._ir.leaves import Fill
from . import host_outputs
from .array_api import check_device
from .creation import asarray
from .ndarray import ndarray

__all__ = ["astype", "clip", "imag", "real", "where"]


# NumPy's "argument not given" marker.
_NOT_GIVEN: Any = numpy._NoValue  # type: ignore[attr-defined]


def where(condition: Any, x: Any = _NOT_GIVEN, y: Any = _NOT_GIVEN, /) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.where` (one argument: ``nonzero``)."""
    # Not None: ``where(c, a, None)`` is NumPy's object array (refused), not a missing y.
    if x is _NOT_GIVEN and y is _NOT_GIVEN:
        from .selection import nonzero

        return nonzero(condition)
    if x is _NOT_GIVEN or y is _NOT_GIVEN:
        raise ValueError("either both or neither of x and y should be given")
    return ndarray._from_expr(where_node(as_operand(condition), as_operand(x), as_operand(y)))


def clip(
    a: Any,
    a_min: Any = numpy._NoValue,
    a_max: Any = numpy._NoValue,
    out: Any = None,
    *,  # type: ignore[attr-defined]
    min: Any = numpy._NoValue,
    max: Any = numpy._NoValue,
    **kwargs: Any,
) -> ndarray:  # type: ignore[attr-defined]  # noqa: A002
    """dask_gpunumeric implementation of :func:`numpy.clip`."""
    no_value = numpy._NoValue  # type: ignore[attr-defined]
    if (min is not no_value or max is not no_value) and (
        a_min is not no_value or a_max is not no_value
    ):
        raise ValueError(
            "Passing `min` or `max` keyword argument when `a_min` and `a_max` "
            "are provided is forbidden."
        )
    low = min if a_min is no_value else a_min
    high = max if a_max is no_value else a_max
    low = None if low is no_value else low
    high = None if high is no_value else high
    result = ndarray._from_expr(
        clip_node(
            as_operand(a),
            as_operand(low) if low is not None else None,
            as_operand(high) if high is not None else None,
        )
    )
    if out is None:
        return result
    host_outputs.check_output(out)
    # NumPy's clip is a ufunc: its out= follows same_kind casting, with NumPy's error.
    numpy.clip(
        numpy.empty((0,), dtype=result.dtype), None, None, out=numpy.empty((0,), dtype=out.dtype)
    )
    _check_broadcast_into(result.shape, out.shape)
    return host_outputs.assign(out, result)


def _check_broadcast_into(shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
    if numpy.broadcast_shapes(shape, out_shape) != out_shape:
        raise ValueError(
            f"non-broadcastable output operand with shape {out_shape} doesn't match the "
            f"broadcast shape {numpy.broadcast_shapes(shape, out_shape)}"
        )


def astype(
    x: ndarray,
    dtype: Any,
    order: str = "K",
    casting: Any = "unsafe",
    subok: bool = True,
    copy: bool = True,
    *,
    device: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :meth:`numpy.ndarray.astype` and
    :func:`numpy.astype`.

    Differences from NumPy: ``order='K'`` (the default) gives C order, not ``x``'s layout
    (``'A'`` and ``'F'`` give Fortran order as NumPy does).
    """
    check_device(device)
    dtype = numpy.dtype(dtype)
    if not isinstance(x, ndarray):
        x = ndarray._from_expr(as_expr(x))
    check_dtype(dtype)
    order = memory_order.order_of(
        order, lambda o: memory_order.ORDER_STAND_IN.astype(float, order=o), none_means="K"
    )
    if not numpy.can_cast(x.dtype, dtype, casting=casting):
        raise TypeError(
            f"Cannot cast array data from {x.dtype!r} to {dtype!r} according to the rule {casting!r}"
        )
    if not copy and dtype == x.dtype and memory_order.is_laid_out(x, order):
        return x
    # A new store holding the value read now: later writes to x do not reach the copy.
    return memory_order.copied_in_order(
        x,
        lambda value: ndarray._from_expr(cast_node(value._read(), dtype)),
        memory_order.reads_fortran(x, order),
    )


def real(val: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.real` (and ``ndarray.real``).

    A live view, as in NumPy: of a complex array, its real parts (float32 for complex64,
    float64 for complex128), through which writes reach the array; of any other array, the
    array itself. A value that is not one of our arrays is converted to a new one first.
    """
    array = asarray(val)
    if array.dtype.kind != "c":
        return array
    return ndarray._from_parts(array._store, array._view.then_part("real"))


def imag(val: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.imag` (and ``ndarray.imag``).

    Of a complex array, a live view of its imaginary parts (see :func:`real`). Of any other
    array, a new read-only array of zeros of its dtype, as in NumPy: writing to it raises
    ``ValueError`` before the index or the value is even looked at.
    """
    array = asarray(val)
    if array.dtype.kind == "c":
        return ndarray._from_parts(array._store, array._view.then_part("imag"))
    zeros = Fill(array.shape, array.dtype, 0)
    return ndarray._from_parts(Store(zeros), ViewSpec(array.shape, read_only=True))
