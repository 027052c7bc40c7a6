"""Building matrices and index arrays (NumPy reference: "Array creation routines: building
matrices" and "Indexing routines: generating index arrays"): ``tri``, ``vander``,
``diagflat``, ``fromfunction``, the ``diag/tril/triu/mask_indices`` families and
``fill_diagonal`` (a write through a strided view).

The ``tril``/``triu``/``mask`` index functions are nonzero of a lazily built mask: their
size is data-dependent in general, so the mask is computed (DESIGN §3).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._array.flags import check_writeable
from .._ir.dtypes import broadcast_shapes
from .broadcasting import indices
from .creation import asarray, ones, zeros
from .diagonals import diag, lower_triangle_mask
from .joining import concatenate
from .ndarray import ndarray
from .numerical_ranges import arange
from .reductions import any as any_
from .reductions import cumprod
from .selection import nonzero

__all__ = [
    "diag_indices",
    "diag_indices_from",
    "diagflat",
    "fill_diagonal",
    "fromfunction",
    "mask_indices",
    "ravel_multi_index",
    "tri",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
    "unravel_index",
    "vander",
]


def tri(
    N: int, M: int | None = None, k: int = 0, dtype: Any = float, *, like: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.tri`."""
    numpy.tri(0, 0, k, dtype)  # NumPy's errors for k and dtype
    return lower_triangle_mask(N, N if M is None else M, k).astype(dtype)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.vander` (a cumulative product, as
    NumPy's ``multiply.accumulate``)."""
    points = asarray(x)
    if points.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    columns = points.shape[0] if N is None else operator.index(N)
    dtype = numpy.promote_types(points.dtype, int)
    if columns == 0:
        return zeros((points.shape[0], 0), dtype=dtype)
    first = ones((points.shape[0], min(columns, 1)), dtype=dtype)
    repeated = (points.reshape(-1, 1) * ones((1, max(columns - 1, 0)), dtype=dtype)).astype(dtype)
    powers = concatenate([first, cumprod(repeated, axis=1)], axis=1)
    return powers if increasing else powers[:, ::-1]


def diagflat(v: Any, k: int = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.diagflat`."""
    return diag(asarray(v).ravel(), k)


def fromfunction(
    function: Any, shape: Any, *, dtype: Any = float, like: Any = None, **kwargs: Any
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.fromfunction` (``function`` gets our
    lazy index arrays)."""
    return function(*indices(shape, dtype=dtype), **kwargs)


def diag_indices(n: int, ndim: int = 2) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.diag_indices`."""
    index = arange(n)
    return (index,) * ndim


def diag_indices_from(arr: Any) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.diag_indices_from`."""
    array = asarray(arr)
    numpy.diag_indices_from(numpy.broadcast_to(numpy.zeros(()), array.shape))  # NumPy's errors
    return diag_indices(array.shape[0], array.ndim)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.tril_indices`."""
    return nonzero(tri(n, m, k=k, dtype=bool))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.triu_indices`."""
    return nonzero(~tri(n, m, k=k - 1, dtype=bool))


def _matrix_shape(arr: Any) -> tuple[int, ...]:
    shape = asarray(arr).shape
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return shape


def tril_indices_from(arr: Any, k: int = 0) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.tril_indices_from`."""
    rows, columns = _matrix_shape(arr)
    return tril_indices(rows, k=k, m=columns)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.triu_indices_from`."""
    rows, columns = _matrix_shape(arr)
    return triu_indices(rows, k=k, m=columns)


def mask_indices(n: int, mask_func: Any, k: int = 0) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.mask_indices`."""
    mask = asarray(mask_func(ones((n, n), dtype=int), k))
    return nonzero(mask != 0)


def fill_diagonal(a: ndarray, val: Any, wrap: bool = False) -> None:
    """dask_gpunumeric implementation of :func:`numpy.fill_diagonal` (in place, through a
    strided view of the flattened array, as NumPy)."""
    if not isinstance(a, ndarray):
        raise TypeError("fill_diagonal writes in place: pass a dask_gpunumeric.ndarray")
    # NumPy's own checks and messages, without a host array of a's size to run them on.
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        step = 1 + int(numpy.cumprod(a.shape[:-1]).sum())
        end = None
    check_writeable(a, "underlying array is read-only")  # its flat form may be a copy
    flat = a.reshape(-1)
    values = asarray(val, dtype=a.dtype).ravel()
    count = len(range(*slice(None, end, step).indices(a.size)))
    if values.size == 0 or count == 0:  # NumPy's ``a.flat[...] = []`` writes nothing
        return
    if values.size not in (1, count):
        values = concatenate([values] * (count // values.size + 1))[:count]
    values = values if values.size != 1 else values.reshape(())
    if flat._store is a._store:
        flat[:end:step] = values
    else:  # the flat form of a strided view is a copy: NumPy's ``a.flat`` writes to a
        positions = numpy.arange(*slice(None, end, step).indices(a.size))
        a[numpy.unravel_index(positions, a.shape)] = values


def _strides(dims: tuple[int, ...], order: str) -> list[int]:
    """Element strides of a ``dims``-shaped array in ``order`` ('C' or 'F')."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    sizes = list(dims) if order == "C" else list(dims)[::-1]
    strides = [int(numpy.prod(sizes[i + 1 :], dtype=numpy.intp)) for i in range(len(sizes))]
    return strides if order == "C" else strides[::-1]


def _check_bounds(out_of_bounds: ndarray, message: str) -> None:
    """Raise NumPy's ValueError when any flag is set (computes one boolean)."""
    if bool(any_(out_of_bounds).compute()):
        raise ValueError(message)


def _shape_argument(dims: Any) -> tuple[int, ...]:
    """A ``dims``/``shape`` argument as NumPy's shape converter reads it, with its errors."""
    if dims is None:
        raise TypeError("Use () not None as shape arguments")
    return tuple(operator.index(d) for d in (dims if numpy.iterable(dims) else (dims,)))


def ravel_multi_index(
    multi_index: Any, dims: Any, mode: Any = "raise", order: str = "C"
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.ravel_multi_index` (``mode='raise'``
    computes one boolean, NumPy's eager bounds check)."""
    coordinates = [asarray(c) for c in multi_index]
    dims = _shape_argument(dims)
    stand_ins = [numpy.zeros((1,) * c.ndim, dtype=c.dtype) for c in coordinates]
    numpy.ravel_multi_index(stand_ins, dims, mode=mode, order=order)  # type: ignore[call-overload]
    broadcast_shapes(*(c.shape for c in coordinates))  # NumPy's message for the coordinates
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    total: Any = 0
    for coordinate, size, stride, each in zip(
        coordinates, dims, _strides(dims, order), modes, strict=True
    ):
        coordinate = coordinate.astype(numpy.intp)
        if each == "raise":
            _check_bounds(
                (coordinate < 0) | (coordinate >= size), "invalid entry in coordinates array"
            )
        elif each == "wrap":
            coordinate = coordinate % size
        else:
            coordinate = coordinate.clip(0, size - 1)
        total = total + coordinate * stride
    return asarray(total).astype(numpy.intp)


def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.unravel_index` (the bounds check
    computes one boolean, as NumPy checks eagerly)."""
    flat = asarray(indices)
    shape = _shape_argument(shape)
    # (sizes below 1: NumPy names the first index out of bounds, checked below)
    checked = tuple(max(d, 1) for d in shape) or (1,)
    numpy.unravel_index(numpy.zeros((1,) * flat.ndim, dtype=flat.dtype), checked, order)  # type: ignore[call-overload]
    size = int(numpy.prod(shape, dtype=numpy.intp))
    flat = flat.astype(numpy.intp)
    out_of_bounds = (flat < 0) | (flat >= size)
    if bool(any_(out_of_bounds).compute()):  # NumPy names the first index out of bounds
        first = int(flat.reshape(-1)[int(out_of_bounds.reshape(-1).argmax())])
        raise ValueError(f"index {first} is out of bounds for array with size {size}")
    return tuple(
        (flat // stride) % dim for dim, stride in zip(shape, _strides(shape, order), strict=True)
    )
