"""Array creation routines (NumPy reference: "Array creation routines": from shape or
value, from existing data, building matrices). Numerical ranges are in ``numerical_ranges``."""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._array.coercion import as_expr, check_dtype
from .._ir.leaves import DaskData, Eye, Fill, HostData
from .._runtime.dask_arrays import task_graph_array
from .._runtime.partitioning import Chunks
from .array_api import check_device
from .ndarray import ndarray

__all__ = [
    "array",
    "asanyarray",
    "asarray",
    "copy",
    "empty",
    "empty_like",
    "eye",
    "from_dask",
    "full",
    "full_like",
    "identity",
    "ones",
    "ones_like",
    "to_dask",
    "zeros",
    "zeros_like",
]

_ShapeLike = Any


def _as_tuple(shape: _ShapeLike) -> tuple[int, ...]:
    if isinstance(shape, (tuple, list)):
        dims = tuple(operator.index(n) for n in shape)
    else:
        dims = (operator.index(shape),)
    for n in dims:
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
    return dims


def _chunks(shape: tuple[int, ...], chunks: Any) -> Chunks | None:
    if chunks is None:
        return None
    from dask.array.core import normalize_chunks

    try:
        normalized = normalize_chunks(chunks, shape)
    except ZeroDivisionError:  # dask divides the shape by a block size of 0
        normalized = None
    if normalized is None or any(size < 0 for axis in normalized for size in axis):
        raise ValueError(
            f"chunks={chunks!r} do not fit shape {shape}: give positive block sizes that add "
            "up to each axis's length, -1 for a whole axis, or None for the default"
        )
    return normalized


def _check_order(order: str) -> None:
    if order not in ("C", "K", "A", None):
        raise NotImplementedError("dask_gpunumeric creates C-ordered arrays only (order='C')")


def full(
    shape: _ShapeLike,
    fill_value: Any,
    dtype: Any = None,
    order: str = "C",
    *,
    device: Any = None,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.full` (extra: ``chunks=``)."""
    _check_order(order)
    check_device(device)
    dims = _as_tuple(shape)
    if isinstance(fill_value, ndarray) or numpy.ndim(fill_value) != 0:
        base = zeros(
            dims,
            dtype=dtype if dtype is not None else numpy.asarray(fill_value).dtype,
            chunks=chunks,
        )
        base[...] = fill_value
        return base
    value = numpy.full((), fill_value, dtype=dtype)  # NumPy's dtype and its errors
    check_dtype(value.dtype)
    return ndarray._from_expr(Fill(dims, value.dtype, value.item(), _chunks(dims, chunks)))


def zeros(
    shape: _ShapeLike,
    dtype: Any = float,
    order: str = "C",
    *,
    device: Any = None,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.zeros` (extra: ``chunks=``)."""
    return full(shape, 0, dtype=numpy.dtype(dtype), order=order, device=device, chunks=chunks)


def ones(
    shape: _ShapeLike,
    dtype: Any = None,
    order: str = "C",
    *,
    device: Any = None,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.ones` (extra: ``chunks=``)."""
    return full(shape, 1, dtype=numpy.dtype(dtype), order=order, device=device, chunks=chunks)


def empty(
    shape: _ShapeLike,
    dtype: Any = float,
    order: str = "C",
    *,
    device: Any = None,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.empty`.

    Differences from NumPy: the contents are zeros, not leftover memory.
    """
    return zeros(shape, dtype=dtype, order=order, device=device, chunks=chunks)


def _like(prototype: Any, dtype: Any, shape: Any) -> tuple[tuple[int, ...], numpy.dtype]:
    proto_shape = numpy.shape(prototype) if not isinstance(prototype, ndarray) else prototype.shape
    proto_dtype = prototype.dtype if hasattr(prototype, "dtype") else numpy.asarray(prototype).dtype
    return (
        proto_shape if shape is None else _as_tuple(shape),
        numpy.dtype(proto_dtype if dtype is None else dtype),
    )


def full_like(
    a: Any,
    fill_value: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.full_like`."""
    dims, kind = _like(a, dtype, shape)
    return full(dims, fill_value, dtype=kind, device=device, chunks=chunks)


def zeros_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.zeros_like`."""
    return full_like(a, 0, dtype=dtype, shape=shape, device=device, chunks=chunks)


def ones_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.ones_like`."""
    return full_like(a, 1, dtype=dtype, shape=shape, device=device, chunks=chunks)


def empty_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    *,
    device: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.empty_like` (contents are zeros)."""
    return full_like(a, 0, dtype=dtype, shape=shape, device=device, chunks=chunks)


def array(
    object: Any,
    dtype: Any = None,
    *,
    copy: bool | None = True,
    order: str = "K",
    subok: bool = False,
    ndmin: int = 0,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.array` (extra: ``chunks=``).

    Accepts scalars, nested lists, NumPy arrays, our arrays and dask arrays.

    Differences from NumPy: string, object and datetime data raise ``TypeError`` (keep
    those in NumPy); ``copy=False`` raises for host data, which always travels to the
    workers; ``chunks=`` applies to host data only (an existing dask chunking is kept).
    """
    if (
        isinstance(object, ndarray)
        and not copy
        and (dtype is None or numpy.dtype(dtype) == object.dtype)
        and ndmin <= object.ndim
    ):
        return object
    if copy is False and (isinstance(object, ndarray) or not hasattr(object, "__dask_graph__")):
        # Host data always travels to the workers (and a dtype change or ndmin of ours is
        # a new array): a copy NumPy's copy=False forbids.
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    if isinstance(object, ndarray):
        expr = as_expr(object, dtype)
        result = ndarray._from_expr(expr)
    else:
        if not hasattr(object, "__dask_graph__"):
            host = numpy.array(object, dtype=dtype, copy=True, ndmin=ndmin)
            check_dtype(host.dtype)
            return ndarray._from_expr(HostData(host, _chunks(host.shape, chunks), owned=True))
        result = ndarray._from_expr(as_expr(object, dtype))
    while result.ndim < ndmin:
        result = result[None]
    return result


def asarray(
    a: Any,
    dtype: Any = None,
    order: str | None = None,
    *,
    device: Any = None,
    copy: bool | None = None,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.asarray`: our arrays pass through."""
    check_device(device)
    same_dtype = dtype is None or numpy.dtype(dtype) == getattr(a, "dtype", None)
    if isinstance(a, ndarray) and same_dtype and copy is not True:
        return a
    return array(a, dtype=dtype, copy=copy, chunks=chunks)


asanyarray = asarray


def copy(a: Any, order: str = "K", subok: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.copy`: a new store, same value."""
    return array(a, copy=True)


def from_dask(array: Any) -> ndarray:
    """An array holding a ``dask.array.Array``'s value (chunks moved to the backend)."""
    return ndarray._from_expr(DaskData(task_graph_array(array)))


def to_dask(a: ndarray) -> Any:
    """``a``'s value as a ``dask.array.Array`` of the backend's chunk type."""
    return a.to_dask()


def eye(
    N: int,
    M: int | None = None,
    k: int = 0,
    dtype: Any = float,
    order: str = "C",
    *,
    device: Any = None,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:  # noqa: N803
    """dask_gpunumeric implementation of :func:`numpy.eye`."""
    _check_order(order)
    check_device(device)
    shape = (operator.index(N), operator.index(N if M is None else M))
    _as_tuple(shape)
    check_dtype(numpy.dtype(dtype))
    return ndarray._from_expr(
        Eye(shape, numpy.dtype(dtype), operator.index(k), _chunks(shape, chunks))
    )


def identity(n: int, dtype: Any = None, *, like: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.identity`."""
    return eye(n, dtype=float if dtype is None else dtype)
