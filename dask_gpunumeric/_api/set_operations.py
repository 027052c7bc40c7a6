"""Set routines (NumPy reference section): ``unique``, ``isin``, the array-API
``unique_*`` and the 1-d set operations (NumPy's algorithms over ``unique``, ``sort``
and a computed boolean mask).

``unique``'s size depends on the data, so it is a materialization boundary: every block
finds its own unique values (with first indices and counts) where it lives, only those
travel to the client, which merges them. The inverse, as large as the input, stays
distributed: a ``searchsorted`` of every block against the unique values.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._array.materialize import compute_per_block
from .._backends import get_backend
from .._ir.dask_call import DaskCall
from .._ir.dtypes import stand_in_with_ndim
from .._kernels.set_operations import block_inverse, block_unique
from .creation import asarray, full
from .ndarray import ndarray

__all__ = [
    "intersect1d",
    "isin",
    "setdiff1d",
    "setxor1d",
    "union1d",
    "unique",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]


def _merge(parts: list[Any], equal_nan: bool) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    values, firsts, counts = (numpy.concatenate(p) for p in zip(*parts, strict=True))
    # Blocks are in order, so a value's first place in the concatenation is its first index.
    merged, where, inverse = numpy.unique(
        values, return_index=True, return_inverse=True, equal_nan=equal_nan
    )
    totals = numpy.zeros(merged.shape, dtype=numpy.intp)
    numpy.add.at(totals, inverse.ravel(), counts)
    return merged, firsts[where].astype(numpy.intp), totals


def unique(
    ar: Any,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: Any = None,
    *,
    equal_nan: bool = True,
    sorted: bool = True,  # noqa: A002 - NumPy's name
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.unique` (``axis=None`` only).

    Differences from NumPy: computes at the call (the result's size depends on the data);
    each block's unique values travel to the client, so their total must fit there. The
    inverse stays distributed. With ``equal_nan=False`` every NaN's inverse is the first
    NaN's index.
    """
    if axis is not None:
        raise NotImplementedError(
            "dask_gpunumeric.unique supports axis=None only; use numpy.unique(a.compute(), axis=...)"
        )
    array = asarray(ar)
    flat = array.ravel()
    if flat.size == 0:
        parts = [numpy.unique(numpy.empty(0, array.dtype), True, False, True)]
    else:
        parts = compute_per_block(flat._read(), block_unique, equal_nan, return_index)
    values, first, counts = _merge(parts, equal_nan)
    results = [asarray(values)]
    if return_index:
        results.append(asarray(first))
    if return_inverse:
        results.append(_inverse(array, values))
    if return_counts:
        results.append(asarray(counts))
    return results[0] if len(results) == 1 else tuple(results)


def _inverse(array: ndarray, values: numpy.ndarray) -> ndarray:
    if array.size == 0:
        return full(array.shape, 0, dtype=numpy.intp)
    arguments = (block_inverse, get_backend(), values, array._read())
    keywords = (("dtype", numpy.dtype(numpy.intp)),)
    node = DaskCall("map_blocks", arguments, array.shape, numpy.intp, keywords)
    return ndarray._from_expr(node)


def isin(
    element: Any,
    test_elements: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.isin`.

    Differences from NumPy: ``test_elements`` is sent whole to every block of ``element``
    (it is expected to be small).
    """
    array, tests = asarray(element), asarray(test_elements).ravel()
    numpy.isin(
        stand_in_with_ndim(array._read()), stand_in_with_ndim(tests._read()), kind=kind
    )  # NumPy's errors (bad kind, table for an inexact dtype)
    if tests.size == 0 or array.size == 0:
        return full(array.shape, invert, dtype=bool)
    index = tuple(range(array.ndim))
    arguments = (numpy.isin, index, array._read(), index, tests._read(), (array.ndim,))
    keywords = (
        ("dtype", numpy.dtype(bool)),
        ("concatenate", True),
        ("assume_unique", assume_unique),
        ("invert", invert),
        *((("kind", kind),) if kind is not None else ()),  # CuPy's isin takes no kind
    )
    return ndarray._from_expr(DaskCall("blockwise", arguments, array.shape, bool, keywords))


def unique_all(x: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.unique_all`."""
    from numpy.lib._arraysetops_impl import UniqueAllResult

    array = asarray(x)
    values, index, inverse, counts = unique(
        array, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    distinct = _distinct_nans(array, values, inverse)
    return UniqueAllResult(values, index, distinct, counts)  # type: ignore[arg-type]


def unique_counts(x: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.unique_counts`."""
    from numpy.lib._arraysetops_impl import UniqueCountsResult

    values, counts = unique(asarray(x), return_counts=True, equal_nan=False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.unique_inverse`."""
    from numpy.lib._arraysetops_impl import UniqueInverseResult

    array = asarray(x)
    values, inverse = unique(array, return_inverse=True, equal_nan=False)
    return UniqueInverseResult(values, _distinct_nans(array, values, inverse))  # type: ignore[arg-type]


def _distinct_nans(array: ndarray, values: ndarray, inverse: ndarray) -> ndarray:
    """``inverse`` (``array``'s shape) with each NaN mapped to its own unique entry, in
    order, as ``equal_nan=False`` asks (``unique`` maps them all to the first)."""
    from .elementwise import where
    from .reductions import cumsum
    from .sorting import count_nonzero
    from .ufuncs import ufuncs

    if array.dtype.kind not in "fc":
        return inverse.reshape(array.shape)
    numbers = int(count_nonzero(~ufuncs["isnan"](values)).compute())  # a scalar
    flat_nan = ufuncs["isnan"](array.ravel())
    rank: Any = cumsum(flat_nan.astype(numpy.intp))
    rank = rank - 1 + numbers
    return where(flat_nan, rank, inverse.ravel()).astype(numpy.intp).reshape(array.shape)


def unique_values(x: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.unique_values`."""
    return unique(asarray(x), equal_nan=False)


def union1d(ar1: Any, ar2: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.union1d`."""
    from .joining import concatenate

    return unique(concatenate([asarray(ar1), asarray(ar2)], axis=None))


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.setdiff1d`."""
    first = asarray(ar1).ravel() if assume_unique else unique(ar1)
    second = asarray(ar2) if assume_unique else unique(ar2)
    return first[isin(first, second, assume_unique=True, invert=True)]


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.setxor1d`."""
    from .joining import concatenate
    from .sorting import sort

    first = asarray(ar1) if assume_unique else unique(ar1)
    second = asarray(ar2) if assume_unique else unique(ar2)
    merged: Any = concatenate([first, second], axis=None)
    if merged.size == 0:
        return merged
    merged = sort(merged)
    edge = full(1, True)
    flags: Any = concatenate([edge, merged[1:] != merged[:-1], edge])
    return merged[flags[1:] & flags[:-1]]


def intersect1d(
    ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.intersect1d`."""
    from .joining import concatenate
    from .sorting import argsort

    first: Any = asarray(ar1)
    second: Any = asarray(ar2)
    if assume_unique:
        first, second = first.ravel(), second.ravel()
    elif return_indices:
        first, first_index = unique(first, return_index=True)
        second, second_index = unique(second, return_index=True)
    else:
        first, second = unique(first), unique(second)
    merged = concatenate([first, second])
    if merged.size == 0:
        nothing = asarray(numpy.empty(0, dtype=numpy.intp))
        return (merged, nothing, nothing) if return_indices else merged
    order = argsort(merged, kind="stable")
    merged = merged[order]
    mask = merged[1:] == merged[:-1]
    common = merged[:-1][mask]
    if not return_indices:
        return common
    in_first = order[:-1][mask]
    in_second = order[1:][mask] - first.size
    if not assume_unique:
        in_first, in_second = first_index[in_first], second_index[in_second]
    return common, in_first, in_second
