"""Array creation routines (NumPy reference: "Array creation routines": from shape or
value, from existing data, building matrices). Numerical ranges are in ``numerical_ranges``."""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._array import memory_order
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


def _is_fortran_order(order: Any) -> bool:
    """Whether a creation function's ``order`` is ``'F'`` (NumPy's error for one that is
    neither ``'C'`` nor ``'F'``)."""
    return memory_order.order_of(order, lambda o: numpy.empty(0, order=o)) == "F"


def _is_fortran_like(prototype: Any, order: Any, same_ndim: bool) -> bool:
    """Whether a ``*_like`` function's ``order`` lays its result out in Fortran order:
    ``'F'``, or ``'A'`` of a Fortran prototype. ``'K'`` gives C order (module docstring)."""
    order = memory_order.order_of(order, lambda o: numpy.empty_like(numpy.empty(0), order=o))
    if order == "F":
        return True
    if order != "A" or not same_ndim:
        return False
    if isinstance(prototype, ndarray):
        return memory_order.is_fortran(prototype)
    return bool(numpy.isfortran(numpy.asarray(prototype)))


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
    fortran = _is_fortran_order(order)
    check_device(device)
    dims = _as_tuple(shape)
    if isinstance(fill_value, ndarray) or numpy.ndim(fill_value) != 0:
        base = zeros(
            dims,
            dtype=dtype if dtype is not None else numpy.asarray(fill_value).dtype,
            order=order,
            chunks=chunks,
        )
        base[...] = fill_value
        return base
    value = numpy.full((), fill_value, dtype=dtype)  # NumPy's dtype and its errors
    check_dtype(value.dtype)
    return memory_order.made_in_order(
        lambda store_shape, blocks: ndarray._from_expr(
            Fill(store_shape, value.dtype, value.item(), blocks)
        ),
        dims,
        _chunks(dims, chunks),
        fortran,
    )


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
    """dask_gpunumeric implementation of :func:`numpy.full_like`.

    Differences from NumPy: ``order='K'`` (the default) lays the result out in C order,
    not in the prototype's (``'A'`` and ``'F'`` give Fortran order as NumPy does).
    """
    dims, kind = _like(a, dtype, shape)
    fortran = _is_fortran_like(a, order, same_ndim=len(dims) == numpy.ndim(a))
    return full(
        dims, fill_value, dtype=kind, order="F" if fortran else "C", device=device, chunks=chunks
    )


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
    return full_like(a, 0, dtype=dtype, order=order, shape=shape, device=device, chunks=chunks)


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
    return full_like(a, 1, dtype=dtype, order=order, shape=shape, device=device, chunks=chunks)


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
    return full_like(a, 0, dtype=dtype, order=order, shape=shape, device=device, chunks=chunks)


def array(
    object: Any,
    dtype: Any = None,
    *,
    copy: bool | None = True,
    order: str | None = "K",
    subok: bool = False,
    ndmin: int = 0,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.array` (extra: ``chunks=``).

    Accepts scalars, nested lists, NumPy arrays, our arrays and dask arrays.

    Differences from NumPy: string, object and datetime data raise ``TypeError`` (keep
    those in NumPy); ``copy=False`` raises for host data, which always travels to the
    workers; ``chunks=`` applies to host data only (an existing dask chunking is kept);
    ``order='K'`` (the default) copies in C order, not in the source's layout (``'A'`` and
    ``'F'`` keep or give Fortran order as NumPy does).
    """
    order = memory_order.order_of(
        order, lambda o: numpy.array(memory_order.ORDER_STAND_IN, order=o), none_means="K"
    )
    if (
        isinstance(object, ndarray)
        and not copy
        and (dtype is None or numpy.dtype(dtype) == object.dtype)
        and ndmin <= object.ndim
        and memory_order.is_laid_out(object, order)
    ):
        return object
    if copy is False and (isinstance(object, ndarray) or not hasattr(object, "__dask_graph__")):
        # Host data always travels to the workers (and a dtype change, an ndmin or an order
        # of ours is a new array): a copy NumPy's copy=False forbids.
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    if not isinstance(object, ndarray) and not hasattr(object, "__dask_graph__"):
        return _from_host(
            numpy.array(object, dtype=dtype, copy=True, ndmin=ndmin, order=order), order, chunks
        )
    source = object if isinstance(object, ndarray) else ndarray._from_expr(as_expr(object))
    result = memory_order.copied_in_order(
        source,
        lambda value: ndarray._from_expr(as_expr(value, dtype)),
        memory_order.reads_fortran(source, order),
    )
    while result.ndim < ndmin:
        result = result[None]
    return result


def _from_host(host: numpy.ndarray, order: str, chunks: Any) -> ndarray:
    """Our array of a host array NumPy has just made in ``order``: a Fortran one (from
    ``'F'`` or ``'A'``) stays Fortran, anything else is laid out in C order."""
    check_dtype(host.dtype)
    fortran = order in ("F", "A") and numpy.isfortran(host)
    return memory_order.made_in_order(
        lambda _, blocks: ndarray._from_expr(
            HostData(host.T if fortran else host, blocks, owned=True)
        ),
        host.shape,
        _chunks(host.shape, chunks),
        fortran,
    )


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
    """dask_gpunumeric implementation of :func:`numpy.asarray`: our arrays pass through
    (copied when ``dtype`` or ``order`` asks for another dtype or layout)."""
    check_device(device)
    same_dtype = dtype is None or numpy.dtype(dtype) == getattr(a, "dtype", None)
    if isinstance(a, ndarray) and same_dtype and copy is not True:
        kept = memory_order.order_of(
            order, lambda o: numpy.asarray(memory_order.ORDER_STAND_IN, order=o), none_means="K"
        )
        if memory_order.is_laid_out(a, kept):
            return a
    return array(a, dtype=dtype, copy=copy, order=order, chunks=chunks)


asanyarray = asarray


def copy(a: Any, order: str = "K", subok: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.copy`: a new store, same value (laid
    out as :func:`array` lays it out for ``order``)."""
    return array(a, copy=True, order=order)


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
    fortran = _is_fortran_order(order)
    check_device(device)
    shape = (operator.index(N), operator.index(N if M is None else M))
    _as_tuple(shape)
    check_dtype(numpy.dtype(dtype))
    # In Fortran order the store holds the transpose: the eye of M x N, diagonal -k.
    diagonal = -operator.index(k) if fortran else operator.index(k)
    return memory_order.made_in_order(
        lambda store_shape, blocks: ndarray._from_expr(
            Eye((store_shape[0], store_shape[1]), numpy.dtype(dtype), diagonal, blocks)
        ),
        shape,
        _chunks(shape, chunks),
        fortran,
    )


def identity(n: int, dtype: Any = None, *, like: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.identity`."""
    return eye(n, dtype=float if dtype is None else dtype)
