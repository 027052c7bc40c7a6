"""Indexing routines that write (NumPy reference: "Indexing routines": inserting data
into arrays; "Array manipulation": ``copyto``). Each is one assignment through
``__setitem__``, so it writes through views exactly as ``a[index] = value`` does, and
every check happens before the target changes: a call that raises leaves it untouched."""

from __future__ import annotations

import math
from typing import Any

import numpy

from .._array.coercion import PYTHON_SCALARS, as_operand
from .._array.flags import check_writeable
from .._ir.dtypes import operand_shape, stand_in
from .._ir.elementwise import where_node
from . import host_outputs
from .creation import asarray
from .ndarray import ndarray
from .selection import along_axis_index, host_indices, take, wrap_indices
from .tiling import tile

__all__ = ["copyto", "place", "put", "put_along_axis", "putmask"]


def _into_host(function: str, a: numpy.ndarray, *args: Any, **kwargs: Any) -> None:
    """A write into a host array (``numpy.put(h, ours_indices, ours_values)``): NumPy's own
    function, our arrays among the arguments computed first (the explicit copy to the host,
    a materialization boundary)."""
    host_outputs.check_output(a)
    getattr(numpy, function)(
        a, *map(_computed, args), **{k: _computed(v) for k, v in kwargs.items()}
    )


def _computed(value: Any) -> Any:
    return value.get() if isinstance(value, ndarray) else value


# NumPy's words when the array written into is read-only, where they are not the default.
_READ_ONLY_MESSAGES = {
    "put": "put: output array is read-only",
    "putmask": "putmask: output array is read-only",
    "place": "WRITEBACKIFCOPY base is read-only",
}


def _target(a: Any, function: str) -> ndarray:
    if not isinstance(a, ndarray):
        raise TypeError(f"{function}: first argument must be an array")
    check_writeable(a, _READ_ONLY_MESSAGES.get(function, "assignment destination is read-only"))
    return a


def _cycled(values: Any, count: int) -> ndarray:
    """The first ``count`` elements of ``values`` repeated cyclically (NumPy's ``put``)."""
    flat = asarray(values).reshape(-1)
    return take(flat, numpy.arange(count) % flat.size) if flat.size != count else flat


def _values(values: Any, dtype: numpy.dtype) -> ndarray:
    """Values as NumPy's put/place/putmask read them: arrays as they are, anything else
    converted to the target's dtype (NumPy's ``OverflowError`` for out-of-range ints)."""
    if isinstance(values, ndarray | numpy.ndarray) or hasattr(values, "__dask_graph__"):
        return asarray(values)
    return asarray(numpy.asarray(values, dtype=dtype))


def put(a: Any, ind: Any, v: Any, mode: str = "raise") -> None:
    """dask_gpunumeric implementation of :func:`numpy.put` (writes through views)."""
    if host_outputs.is_host_output(a):
        _into_host("put", a, ind, v, mode=mode)
        return
    target = _target(a, "put")
    flat = wrap_indices(host_indices(ind).reshape(-1), target.size, mode)
    values = _values(v, target.dtype)
    if flat.size == 0 or values.size == 0:
        return
    if mode == "raise":
        numpy.broadcast_to(numpy.zeros((), numpy.uint8), (target.size,))[flat]  # IndexError
    if target.ndim == 0:  # every index is the one element: the last value written stays
        target[()] = _cycled(values, flat.size)[-1]
        return
    flat = numpy.where(flat < 0, flat + target.size, flat)
    target[numpy.unravel_index(flat, target.shape)] = _cycled(values, flat.size)


def put_along_axis(arr: Any, indices: Any, values: Any, axis: int | None) -> None:
    """dask_gpunumeric implementation of :func:`numpy.put_along_axis`."""
    if host_outputs.is_host_output(arr):
        _into_host("put_along_axis", arr, indices, values, axis)
        return
    target = _target(arr, "put_along_axis")
    if axis is None and target.reshape(-1)._store is not target._store:
        # NumPy writes through the flat form, which is a read-only copy when not a view.
        raise ValueError("assignment destination is read-only")
    view, index = along_axis_index(target, indices, axis)
    view[index] = values


def putmask(a: Any, mask: Any, values: Any) -> None:
    """dask_gpunumeric implementation of :func:`numpy.putmask`: ``where(mask, values, a)``
    with ``values`` repeated cyclically over ``a``'s flat positions; stays lazy."""
    if host_outputs.is_host_output(a):
        _into_host("putmask", a, mask, values)
        return
    target = _target(a, "putmask")
    condition = asarray(mask)
    if condition.size != target.size:
        raise ValueError("putmask: mask and data must be the same size")
    operand = as_operand(
        values if isinstance(values, PYTHON_SCALARS) else _values(values, target.dtype)
    )
    if not isinstance(operand, PYTHON_SCALARS):  # arrays cast 'safe': NumPy's TypeError
        numpy.putmask(numpy.empty((0,), target.dtype), numpy.empty((0,), bool), stand_in(operand))
    size = math.prod(operand_shape(operand))
    if size == 0:
        return
    if size != 1:
        flat = _values(values, target.dtype).reshape(-1)
        if size != target.size:
            flat = tile(flat, -(-target.size // size))[: target.size]
        operand = flat.reshape(target.shape)._read()
    condition = asarray(condition.reshape(target.shape), dtype=bool)
    target[...] = ndarray._from_expr(where_node(condition._read(), operand, target._read()))


def place(arr: Any, mask: Any, vals: Any) -> None:
    """dask_gpunumeric implementation of :func:`numpy.place`.

    The positions of ``mask``'s true elements come to the host (a materialization
    boundary, as for a boolean index); the values stay on the workers.
    """
    from .selection import flatnonzero

    if host_outputs.is_host_output(arr):
        _into_host("place", arr, mask, vals)
        return
    target = _target(arr, "place")
    condition = asarray(mask)
    if condition.size != target.size:
        raise ValueError("place: mask and data must be the same size")
    positions = numpy.asarray(flatnonzero(condition))
    values = _values(vals, target.dtype)
    if positions.size and values.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    if positions.size == 0:
        return
    target[numpy.unravel_index(positions, target.shape)] = _cycled(values, positions.size)


def copyto(dst: Any, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """dask_gpunumeric implementation of :func:`numpy.copyto` (writes through views; a
    host ``dst`` receives ``src`` computed)."""
    if host_outputs.is_host_output(dst):
        _into_host("copyto", dst, src, casting=casting, where=where)
        return
    target = _target(dst, "copyto")
    source = as_operand(src)
    condition = as_operand(where)
    # NumPy's casting errors, on empty stand-ins (Python scalars stay weak, NEP 50).
    numpy.copyto(
        numpy.empty((0,), target.dtype),
        stand_in(source),
        casting=casting,  # type: ignore[arg-type]
        where=stand_in(condition) if not isinstance(condition, bool) else condition,
    )
    for operand in (source, condition):
        shape = operand_shape(operand)
        if numpy.broadcast_shapes(shape, target.shape) != target.shape:
            raise ValueError(
                f"could not broadcast input array from shape {shape} into shape {target.shape}"
            )
    if condition is True:
        target[...] = source if not hasattr(source, "shape") else ndarray._from_expr(source)
        return
    new = where_node(condition, source, target._read())
    target[...] = ndarray._from_expr(new)
