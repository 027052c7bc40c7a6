"""``__getitem__`` and ``__setitem__``: basic indices give live views and writes through
them; advanced (integer-array, boolean) indices copy on read and scatter on write."""

from __future__ import annotations

from typing import Any

import numpy

from .._ir.elementwise import cast_node, where_node
from .._ir.expr import Expr
from .._ir.indexing import (
    Region,
    Reshape,
    Scatter,
    SetItem,
    Slice,
    TakePoints,
    advanced_index_coords,
    apply_region,
    basic_region,
    is_basic_index,
)
from .._ir.leaves import ChunkValue, HostData
from .._kernels.in_process import evaluate_small
from . import work_placement
from .coercion import UNSUPPORTED_KINDS, as_expr, handle_type


def _index_tuple(index: Any) -> tuple[Any, ...]:
    return index if isinstance(index, tuple) else (index,)


def _host_index(index: tuple[Any, ...]) -> tuple[Any, ...]:
    """Advanced indices as host arrays. Our arrays used as indices are materialized here:
    which blocks a fancy index touches is data, and NumPy's errors need the values."""
    return tuple(_host_item(item) for item in index)


def _host_item(item: Any) -> Any:
    if isinstance(item, list):
        host = numpy.asarray(item)
        # NumPy reads an empty list as an empty integer index, not a float array.
        return host.astype(numpy.intp) if host.size == 0 else host
    return numpy.asarray(item) if isinstance(item, handle_type()) else item


def getitem(array: Any, index: Any) -> Any:
    index = _index_tuple(index)
    if is_basic_index(index):
        region = basic_region(array.shape, index)
        if _is_element(index, array.ndim):
            # NumPy gives a scalar, a copy: ``z = a[2]; z += 1`` must leave ``a`` alone.
            # (``a[2, ...]`` is NumPy's 0-d view, and ours.)
            return type(array)._from_expr(Slice(array._read(), region))
        return type(array)._from_parts(array._store, array._view.then_region(region))
    host_index = _host_index(index)  # first: computing it may persist the array's store
    source = array._read()
    selected = work_placement.selection_here(source, host_index)
    if selected is not None:  # held here: NumPy's selection, as NumPy makes it
        return type(array)._from_expr(selected)
    coords = _coords(array, host_index)
    return type(array)._from_expr(TakePoints(_flat_if_0d(source), coords))


def _coords(array: Any, host_index: tuple[Any, ...]) -> tuple[numpy.ndarray, ...]:
    """The points an advanced index (its advanced items host arrays: ``_host_index``)
    selects (NumPy's errors), as coordinates into the array, or into its one-element 1-d
    form when it is 0-d (``a[True]`` has shape (1,))."""
    if array.ndim:
        return advanced_index_coords(array.shape, host_index)
    selected = numpy.broadcast_to(numpy.zeros((), dtype=numpy.intp), ())[host_index]
    return (numpy.zeros(numpy.shape(selected), dtype=numpy.intp),)


def _flat_if_0d(value: Expr) -> Expr:
    return Reshape(value, (1,)) if value.ndim == 0 else value


def _is_element(index: tuple[Any, ...], ndim: int) -> bool:
    """True when ``index`` picks one element by integers alone: NumPy then assigns a
    scalar (its conversion rules and errors, not array broadcasting)."""
    return len(index) == ndim and all(isinstance(item, (int, numpy.integer)) for item in index)


def _shape_stand_in(value: Any) -> Any:
    """What NumPy's element assignment sees of an array value: its shape and dtype only
    (the values stay lazy)."""
    if isinstance(value, (int, float, complex, bool, numpy.generic, numpy.ndarray)):
        return value  # already on the host
    if value is not None and hasattr(value, "shape") and hasattr(value, "dtype"):
        return numpy.zeros(value.shape, dtype=value.dtype)
    return value


def _element_value(value: Any, dtype: numpy.dtype) -> Expr:
    """The right-hand side of ``a[i, j] = value``: NumPy's scalar assignment, checked on a
    one-element host probe (``a[0] = [1.0]`` raises as in NumPy)."""
    probe = numpy.zeros(1, dtype=dtype)
    probe[0] = _shape_stand_in(value)
    if isinstance(value, (handle_type(), Expr)) or hasattr(value, "__dask_graph__"):
        rhs = cast_node(as_expr(value), dtype)
        return rhs if rhs.ndim == 0 else Reshape(rhs, ())
    if isinstance(value, numpy.ndarray):
        return HostData(value.astype(dtype).reshape(()), owned=True)
    return HostData(probe.reshape(()), owned=True)


def _value_expr(value: Any, dtype: numpy.dtype, max_ndim: int | None = None) -> Expr:
    """The right-hand side, cast as NumPy's assignment casts: unsafe for arrays; a scalar
    must fit (``uint8[...] = 300`` raises NumPy's ``OverflowError``); a nested sequence is
    converted to ``dtype`` directly (NumPy's errors for NaN into ints, out-of-range ints)
    and may not be deeper than ``max_ndim`` (a basic-index target's rank)."""
    if isinstance(value, Expr):
        return cast_node(value, dtype)
    if isinstance(value, handle_type()) or hasattr(value, "__dask_graph__"):
        return cast_node(as_expr(value), dtype)
    if isinstance(value, numpy.ndarray):
        if value.ndim == 0 or value.dtype.kind in UNSUPPORTED_KINDS:
            # Strings, objects, datetimes: NumPy's own conversion, on the host.
            return HostData(value.astype(dtype), owned=True)
        return cast_node(as_expr(value), dtype)
    if numpy.ndim(value) == 0:
        host = numpy.empty((), dtype=dtype)
        host[()] = value
        return HostData(host, owned=True)
    host = numpy.array(value, dtype=dtype)
    if max_ndim is not None and host.ndim > max_ndim:
        raise ValueError(
            "setting an array element with a sequence. The requested array would exceed "
            f"the maximum number of dimension of {max_ndim}."
        )
    return HostData(host, owned=True)


def _fit_value(value: Expr, shape: tuple[int, ...]) -> None:
    """NumPy's assignment broadcasting: leading length-1 axes of the value may be dropped."""
    value_shape = value.shape
    if value_shape == shape:
        return
    while len(value_shape) > len(shape) and value_shape[0] == 1:
        value_shape = value_shape[1:]
    try:
        if numpy.broadcast_shapes(value_shape, shape) == shape:
            return
    except ValueError:
        pass
    raise ValueError(f"could not broadcast input array from shape {value.shape} into shape {shape}")


def _squeeze_leading(value: Expr, ndim: int) -> Expr:
    if value.ndim <= ndim:
        return value
    return Reshape(value, value.shape[value.ndim - ndim :])


def setitem(array: Any, index: Any, value: Any) -> None:
    """``array[index] = value``. Every check (bounds, casting, broadcasting) happens before
    the store is replaced: a failed assignment leaves the array unchanged."""
    if array._view.read_only:  # NumPy refuses before looking at the index or the value
        raise ValueError(array._view.read_only_message)
    index = _index_tuple(index)
    if is_basic_index(index):
        region = basic_region(array.shape, index)
        if _written_back(array, region, value):
            return  # ``x[1:] -= y`` ends with Python's ``x[1:] = v``, ``v`` that view
        if _is_element(index, array.ndim):
            rhs = _element_value(value, array.dtype)
        else:
            rhs = _value_expr(value, array.dtype, max_ndim=len(region.shape))
        _fit_value(rhs, region.shape)
        rhs = _squeeze_leading(rhs, len(region.shape))
        if _assigned_now(array, region, rhs):
            return
        written = array._view.write(array._store.version, region, rhs)
        if not _writes_itself(written):
            array._store.replace(written)
        return
    rhs = _value_expr(value, array.dtype)
    _check_mask_value(array, index, rhs)
    new_value = _masked_where(array, index, rhs)
    if new_value is None:
        coords = _coords(array, _host_index(index))
        target_shape = coords[0].shape
        _fit_value(rhs, target_shape)
        rhs = _squeeze_leading(rhs, len(target_shape))
        new_value = Scatter(_flat_if_0d(array._read()), coords, rhs)
        new_value = Reshape(new_value, ()) if array.ndim == 0 else new_value
    whole = Region.identity(array.shape)
    array._store.replace(array._view.write(array._store.version, whole, new_value))


def _assigned_now(array: Any, region: Region, rhs: Expr) -> bool:
    """``array[region] = rhs`` written when built, as NumPy writes it, when ``array`` is
    a whole array or a basic-index view of a small value held here and ``rhs`` (of its
    dtype, checked) is small and computed here now (``work_placement.now_limits``):
    into the value itself when nothing but the store refers to it
    (``Store.sole_chunk``), else into a copy (``x[1:] = x[:-1]``: ``rhs`` reads its
    node); the store then holds it as a new value. ``False``
    (nothing done) otherwise: the write's node is built."""
    view = array._view.then_region(region)
    steps = view.steps
    if view.part is not None or len(steps) > 1 or (steps and type(steps[0]) is not Region):
        return False
    target_region = steps[0] if steps else None
    store = array._store
    writable = store.written_now()
    if writable is None:
        return False
    name, _, elements, nbytes = writable
    target = store.sole_chunk()  # before ``rhs``'s value is made: nothing of ours views it
    value = evaluate_small(rhs, elements, nbytes, name)
    if type(value) is not ChunkValue or value.backend != name:
        return False
    if target is None:
        current = store.held_chunk()
        if current is None:
            return False
        target = current[0].copy()
    if target_region is None:
        target[...] = value.value
    else:
        apply_region(target, target_region)[...] = value.value
    store.hold(target, name)
    return True


def _written_back(array: Any, region: Region, value: Any) -> bool:
    """Whether ``value`` is the view ``array[index]`` itself (of ``region``): Python's
    write-back of an in-place operator on a view (``x[1:] -= y``), which changes nothing,
    as in NumPy, and is answered before any node is built."""
    if not isinstance(value, handle_type()) or value._store is not array._store:
        return False
    view = array._view
    if view.is_identity:  # the common case, without building the view
        steps = () if region.is_identity else (region,)
        return value._view.steps == steps and value._view.part is None
    return value._view == view.then_region(region)


def _writes_itself(version: Expr) -> bool:
    """Whether ``version`` writes a region of the current value with that same region
    (``v = x[1:]; v -= y`` ends with Python's ``x[1:] = v``): nothing changes, as in
    NumPy, and no node is added."""
    if type(version) is not SetItem:
        return False
    target, value = version.children
    return type(value) is Slice and value.children[0] is target and value.region == version.region


def _check_mask_value(array: Any, index: tuple[Any, ...], rhs: Expr) -> None:
    """NumPy's ``a[mask] = value`` with a mask of ``a``'s rank takes 0-d or 1-d values only."""
    mask = index[0] if len(index) == 1 else None
    mask = numpy.asarray(mask) if isinstance(mask, list) else mask
    is_mask = (
        getattr(mask, "dtype", None) == numpy.dtype(bool)
        and getattr(mask, "ndim", -1) == array.ndim
    )
    if is_mask and rhs.ndim > 1:
        raise TypeError(
            "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, "
            f"input has {rhs.ndim} dimensions"
        )


def _masked_where(array: Any, index: tuple[Any, ...], rhs: Expr) -> Expr | None:
    """``a[mask] = scalar`` with a full-shape boolean mask stays lazy: ``where(mask, v, a)``."""
    if len(index) != 1 or rhs.ndim != 0:
        return None
    mask = index[0]
    if isinstance(mask, handle_type()) and mask.dtype == bool and mask.shape == array.shape:
        return where_node(mask._read(), rhs, array._read())
    if isinstance(mask, numpy.ndarray) and mask.dtype == bool and mask.shape == array.shape:
        return where_node(HostData(mask), rhs, array._read())
    return None
