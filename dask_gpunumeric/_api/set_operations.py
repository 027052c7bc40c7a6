"""Set routines (NumPy reference section): ``unique`` and ``isin``.

``unique``'s size depends on the data, so it is a materialization boundary: every block
finds its own unique values (with first indices and counts) where it lives, only those
travel to the client, which merges them. The inverse, as large as the input, stays
distributed: a ``searchsorted`` of every block against the unique values.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._array.materialize import compute_per_block
from .._array.ndarray import ndarray
from .._backends import get_backend
from .._ir.dask_call import DaskCall
from .._ir.dtypes import stand_in_with_ndim
from .creation import asarray, full

__all__ = ["isin", "unique"]


def _block_unique(
    backend_name: str, block: Any, offset: int, equal_nan: bool, with_index: bool
) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """One block's unique values, counts and (if asked: a stable sort, slower) first
    global indices, on the host."""
    backend = get_backend(backend_name)
    to_host = backend.to_host
    if with_index:
        values, first, counts = backend.xp.unique(
            block, return_index=True, return_counts=True, equal_nan=equal_nan
        )
        return to_host(values), to_host(first) + offset, to_host(counts)
    values, counts = backend.xp.unique(block, return_counts=True, equal_nan=equal_nan)
    host_counts = to_host(counts)
    return to_host(values), numpy.zeros(host_counts.shape, numpy.intp), host_counts


def _block_inverse(backend_name: str, sorted_values: numpy.ndarray, block: Any) -> Any:
    xp = get_backend(backend_name).xp
    return xp.searchsorted(xp.asarray(sorted_values), block).astype(numpy.intp)


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
        parts = compute_per_block(flat._read(), _block_unique, equal_nan, return_index)
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
    backend = get_backend().name
    arguments = (_block_inverse, backend, values, array._read())
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
