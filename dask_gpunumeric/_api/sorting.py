"""Sorting, searching, and counting (NumPy reference section of that name).

``searchsorted`` lives with indexing (api-manipulation). Sorts and partitions run on whole
lanes (``_ir/lanes.py``): the sorted axis is rechunked into one chunk, the other axes keep
theirs, and NumPy's (CuPy's on GPUs) own function sorts every block, so the result is
NumPy's exactly, NaNs last and stable kinds stable.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._ir.dask_call import DaskCall
from .._ir.dtypes import stand_in_with_ndim
from .._ir.lanes import Lanes
from . import reductions
from .creation import asarray
from .elementwise import astype
from .manipulation import flip
from .ndarray import ndarray
from .ufuncs import ufuncs

__all__ = ["argpartition", "argsort", "count_nonzero", "lexsort", "partition", "sort"]

_AXIS_NOTE = """
    Differences from NumPy: each lane along ``axis`` is held by one chunk (the array is
    rechunked along that axis only); with ``axis=None`` the flattened array is gathered
    into one chunk, so it must fit one worker's memory.
"""


def along_lanes(
    function: str, a: Any, axis: Any, dtype: Any, length: int | None = None, **params: Any
) -> ndarray:
    """``numpy.<function>`` on every lane along ``axis`` (``None``: the flattened array),
    NumPy's exceptions raised here first by the same call on a stand-in."""
    array = asarray(a)
    probe_params = {k: v for k, v in params.items() if k not in ("kth", "q")}
    if function not in ("partition", "argpartition"):
        getattr(numpy, function)(stand_in_with_ndim(array._read()), axis=axis, **probe_params)
    if axis is None:
        array, axis = array.ravel(), 0
    axis = numpy.lib.array_utils.normalize_axis_index(axis, array.ndim)
    lane_length = array.shape[axis] if length is None else length
    node = Lanes(function, array._read(), axis, lane_length, dtype, tuple(sorted(params.items())))
    return ndarray._from_expr(node)


def _kind(kind: Any, stable: Any, order: Any) -> Any:
    if order is not None:
        raise NotImplementedError(
            "dask_gpunumeric arrays have no structured dtypes: order= is not supported"
        )
    if stable is not None:
        if kind is not None:
            raise ValueError("`kind` and `stable` parameters can't be provided at the same time")
        return "stable" if stable else None
    return kind


def sort(
    a: Any,
    axis: Any = -1,
    kind: Any = None,
    order: Any = None,
    *,
    stable: Any = None,
    descending: bool = False,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.sort`, with the array API
    standard's ``descending=`` (which NumPy 2.4 lacks): the ascending sort reversed, so
    NaNs come first."""
    array = asarray(a)
    result = along_lanes("sort", array, axis, array.dtype, kind=_kind(kind, stable, order))
    return flip(result, -1 if axis is None else axis) if descending else result


sort.__doc__ = (sort.__doc__ or "") + _AXIS_NOTE


def argsort(
    a: Any,
    axis: Any = -1,
    kind: Any = None,
    order: Any = None,
    *,
    stable: Any = None,
    descending: bool = False,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.argsort`, with the array API
    standard's ``descending=`` (which NumPy 2.4 lacks): equal values keep their order
    under ``stable=True``, as a descending stable sort must."""
    kind = _kind(kind, stable, order)
    if not descending:
        return along_lanes("argsort", a, axis, numpy.intp, kind=kind)
    array = asarray(a)
    if axis is None:
        array, axis = array.ravel(), -1
    # Sorting the reversed lanes ascending keeps equal values' order reversed; reversing
    # the result and counting positions from the end restores it.
    reversed_order = along_lanes("argsort", flip(array, axis), axis, numpy.intp, kind=kind)
    last = array.shape[axis] - 1 if array.ndim else 0
    return ufuncs["subtract"](last, flip(reversed_order, axis))


argsort.__doc__ = (argsort.__doc__ or "") + _AXIS_NOTE


def _kth(kth: Any, length: int) -> Any:
    """NumPy's ``kth`` check: integers within the axis, negative ones counted from the end."""
    values = numpy.asarray(kth)
    if values.dtype.kind not in "iub":
        raise TypeError("Partition index must be integer")
    if values.ndim > 1:
        raise ValueError("kth array must have dimension <= 1")
    for k in values.ravel().tolist():
        if not -length <= k < length:
            raise ValueError(f"kth(={k}) out of bounds ({length})")
    return operator.index(kth) if values.ndim == 0 else tuple(values.tolist())


def _partition(kind: str, a: Any, kth: Any, axis: Any, method: str, order: Any) -> ndarray:
    array = asarray(a)
    _kind(None, None, order)
    if method != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {method!r})")
    if axis is None:
        array, axis = array.ravel(), 0
    axis = numpy.lib.array_utils.normalize_axis_index(axis, array.ndim)
    dtype = array.dtype if kind == "partition" else numpy.dtype(numpy.intp)
    kth = _kth(kth, array.shape[axis])
    return along_lanes(kind, array, axis, dtype, kth=kth)


def partition(
    a: Any, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.partition` (NumPy's own order of the
    elements around ``kth`` on CPUs; CuPy's, equally valid, on GPUs)."""
    return _partition("partition", a, kth, axis, kind, order)


partition.__doc__ = (partition.__doc__ or "") + _AXIS_NOTE


def argpartition(
    a: Any, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.argpartition`."""
    return _partition("argpartition", a, kth, axis, kind, order)


argpartition.__doc__ = (argpartition.__doc__ or "") + _AXIS_NOTE


def lexsort(keys: Any, axis: int = -1) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.lexsort`.

    Differences from NumPy: the keys are stacked into one array of their common dtype
    (``numpy.result_type``), so keys of different dtypes must convert to it exactly; each
    lane along ``axis`` (all keys) is held by one chunk.
    """
    if getattr(keys, "ndim", None) == 0 or not numpy.iterable(keys):  # no sequence of keys
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if isinstance(keys, ndarray):  # NumPy's keys are its rows: 0-d keys for a 1-d array
        keys = [keys[i, ...] for i in range(keys.shape[0])]
    arrays = [asarray(k) for k in keys]
    if not arrays:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    probes = [stand_in_with_ndim(k._read()) for k in arrays]
    numpy.lexsort(probes, axis=axis)  # NumPy's errors for a bad axis
    if len({k.shape for k in arrays}) > 1:
        raise ValueError("all keys need to be the same shape")
    if arrays[0].ndim == 0:  # one element to sort: NumPy's index 0
        return asarray(numpy.zeros((), dtype=numpy.intp))
    dtype = numpy.result_type(*(k.dtype for k in arrays))
    shape = (len(arrays), *arrays[0].shape)
    stacked = DaskCall("stack", ([astype(k, dtype)._read() for k in arrays],), shape, dtype)
    lane_axis = 1 + numpy.lib.array_utils.normalize_axis_index(axis, arrays[0].ndim)
    node = Lanes("lexsort", stacked, lane_axis, shape[lane_axis], numpy.intp, drops_leading=True)
    return ndarray._from_expr(node)


def count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.count_nonzero`.

    Differences from NumPy: with ``axis=None`` the count is a 0-d array (NumPy gives an
    ``int``); it converts with ``int()``.
    """
    array = asarray(a)
    numpy.count_nonzero(stand_in_with_ndim(array._read()), axis=axis, keepdims=keepdims)
    nonzero = ufuncs["not_equal"](array, 0) if array.dtype != bool else array
    return reductions.sum(nonzero, axis=axis, dtype=numpy.intp, keepdims=keepdims)
