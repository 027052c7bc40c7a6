"""``__getitem__`` and ``__setitem__``: basic indices give live views and writes through
them; advanced (integer-array, boolean) indices copy on read and scatter on write."""

from __future__ import annotations

from typing import Any

import numpy

from .._ir.elementwise import cast_node, where_node
from .._ir.expr import Expr
from .._ir.indexing import (
    Gather,
    Region,
    Scatter,
    advanced_index_coords,
    check_basic_index,
    is_basic_index,
)
from .._ir.leaves import HostData
from .coercion import as_expr


def _index_tuple(index: Any) -> tuple[Any, ...]:
    return index if isinstance(index, tuple) else (index,)


def _host_index(index: tuple[Any, ...]) -> tuple[Any, ...]:
    """Advanced indices as host arrays. Our arrays used as indices are materialized here:
    which blocks a fancy index touches is data, and NumPy's errors need the values."""
    from .ndarray import ndarray

    return tuple(numpy.asarray(item) if isinstance(item, (ndarray, list)) else item for item in index)


def getitem(array: Any, index: Any) -> Any:
    index = _index_tuple(index)
    if is_basic_index(index):
        check_basic_index(array.shape, index)
        region = Region.from_index(array.shape, index)
        return type(array)._from_parts(array._store, array._view.then_region(region))
    coords = advanced_index_coords(array.shape, _host_index(index))
    return type(array)._from_expr(Gather(array._read(), coords))


def _value_expr(value: Any, dtype: numpy.dtype) -> Expr:
    """The right-hand side, cast as NumPy's assignment casts (unsafe for arrays; a scalar
    must fit: ``uint8[...] = 300`` raises NumPy's ``OverflowError``)."""
    from .ndarray import ndarray

    if isinstance(value, (ndarray, Expr)):
        return cast_node(as_expr(value), dtype)
    if numpy.ndim(value) == 0 and not hasattr(value, "__dask_graph__"):
        host = numpy.empty((), dtype=dtype)
        host[()] = value
        return HostData(host)
    return cast_node(as_expr(value), dtype)


def _fit_value(value: Expr, shape: tuple[int, ...]) -> None:
    """NumPy's assignment broadcasting: leading length-1 axes of the value may be dropped."""
    value_shape = value.shape
    while len(value_shape) > len(shape) and value_shape[0] == 1:
        value_shape = value_shape[1:]
    try:
        if numpy.broadcast_shapes(value_shape, shape) == shape:
            return
    except ValueError:
        pass
    raise ValueError(
        f"could not broadcast input array from shape {value.shape} into shape {shape}"
    )


def _squeeze_leading(value: Expr, ndim: int) -> Expr:
    from .._ir.indexing import Reshape

    if value.ndim <= ndim:
        return value
    return Reshape(value, value.shape[value.ndim - ndim:])


def setitem(array: Any, index: Any, value: Any) -> None:
    index = _index_tuple(index)
    rhs = _value_expr(value, array.dtype)
    if is_basic_index(index):
        check_basic_index(array.shape, index)
        region = Region.from_index(array.shape, index)
        _fit_value(rhs, region.shape)
        rhs = _squeeze_leading(rhs, len(region.shape))
        array._store.replace(array._view.write(array._store.version, region, rhs))
        return
    new_value = _masked_where(array, index, rhs)
    if new_value is None:
        coords = advanced_index_coords(array.shape, _host_index(index))
        target_shape = coords[0].shape if coords else ()
        _fit_value(rhs, target_shape)
        new_value = Scatter(array._read(), coords, _squeeze_leading(rhs, len(target_shape)))
    whole = Region.identity(array.shape)
    array._store.replace(array._view.write(array._store.version, whole, new_value))


def _masked_where(array: Any, index: tuple[Any, ...], rhs: Expr) -> Expr | None:
    """``a[mask] = scalar`` with a full-shape boolean mask stays lazy: ``where(mask, v, a)``."""
    from .ndarray import ndarray

    if len(index) != 1 or rhs.ndim != 0:
        return None
    mask = index[0]
    if isinstance(mask, ndarray) and mask.dtype == bool and mask.shape == array.shape:
        return where_node(mask._read(), rhs, array._read())
    if isinstance(mask, numpy.ndarray) and mask.dtype == bool and mask.shape == array.shape:
        return where_node(HostData(mask), rhs, array._read())
    return None

