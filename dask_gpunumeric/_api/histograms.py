"""Histograms (NumPy reference: "Statistics", histograms): ``histogram``,
``histogram_bin_edges`` and ``bincount``.

The bins are fixed before counting, as NumPy fixes them: a bin count with no ``range``
needs the data's minimum and maximum, and ``bincount`` its maximum, so those scalars are
computed at the call (one pass, two numbers to the client). The counting itself is
distributed (per-block counts summed in a tree, ``_ir/histograms.py``).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._ir.dask_call import DaskCall
from .._ir.dtypes import stand_in_with_ndim
from .._ir.histograms import Binned
from . import reductions
from .creation import asarray
from .ndarray import ndarray
from .ufuncs import ufuncs

__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges"]


def _extremes(array: ndarray) -> numpy.ndarray:
    """``[min, max]`` of ``array``, computed in one pass."""
    parts = [reductions.min(array)._read(), reductions.max(array)._read()]
    both = DaskCall("stack", (parts,), (2,), array.dtype)
    return ndarray._from_expr(both).compute()


def _edges(array: ndarray, bins: Any, range: Any) -> numpy.ndarray:  # noqa: A002
    """NumPy's bin edges, from the data's extremes when NumPy would look at the data."""
    if isinstance(bins, str):
        raise NotImplementedError(
            f"dask_gpunumeric.histogram does not estimate bins ({bins!r}) from the data; pass "
            "a bin count or edges, or use numpy.histogram_bin_edges(a.compute(), bins)"
        )
    sample = numpy.empty(0, dtype=array.dtype)
    if numpy.ndim(bins) == 0 and range is None and array.size > 0:
        sample = _extremes(array)
    return numpy.histogram_bin_edges(sample, bins, range)


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> ndarray:  # noqa: A002
    """dask_gpunumeric implementation of :func:`numpy.histogram_bin_edges`.

    Differences from NumPy: no string bin estimators (``"auto"``...).
    """
    return asarray(_edges(asarray(a), bins, range))


def histogram(
    a: Any,
    bins: Any = 10,
    range: Any = None,  # noqa: A002
    density: Any = None,
    weights: Any = None,
) -> tuple[ndarray, ndarray]:
    """dask_gpunumeric implementation of :func:`numpy.histogram`.

    Differences from NumPy: no string bin estimators (``"auto"``...); a bin count without
    ``range`` computes the data's minimum and maximum at the call.
    """
    array = asarray(a)
    weight_array = None if weights is None else asarray(weights)
    if weight_array is not None and weight_array.shape != array.shape:
        raise ValueError("weights should have the same shape as a.")
    edges = _edges(array, bins, range)
    host_weights = None if weight_array is None else numpy.empty(0, weight_array.dtype)
    no_data = numpy.empty(0, array.dtype)
    if array.size == 0:
        empty = numpy.histogram(no_data, edges, weights=host_weights, density=density)[0]
        return asarray(empty), asarray(edges)
    counts_dtype = numpy.histogram(no_data, edges, weights=host_weights)[0].dtype
    weight_expr = None if weight_array is None else weight_array.ravel()._read()
    node = Binned(array.ravel()._read(), weight_expr, edges, len(edges) - 1, counts_dtype)
    counts = ndarray._from_expr(node)
    if density:  # NumPy's ``n / db / n.sum()``
        widths = numpy.diff(edges).astype(float)
        counts = ufuncs["divide"](ufuncs["divide"](counts, widths), reductions.sum(counts))
    return counts, asarray(edges)


def bincount(x: Any, /, weights: Any = None, minlength: Any = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.bincount`.

    Differences from NumPy: the largest value (and a negative one, refused) is found by
    computing the array's extremes at the call.
    """
    array = asarray(x)
    weight_array = None if weights is None else asarray(weights)
    host_weights = None if weight_array is None else numpy.empty(0, weight_array.dtype)
    probe_weights = None if weight_array is None else stand_in_with_ndim(weight_array._read())
    minlength = operator.index(minlength)
    numpy.bincount(stand_in_with_ndim(array._read()), weights=probe_weights, minlength=minlength)
    empty = numpy.bincount(numpy.empty(0, array.dtype), weights=host_weights, minlength=minlength)
    if weight_array is not None and weight_array.shape != array.shape:
        raise ValueError("The weights and list don't have the same length.")
    if array.size == 0:
        return asarray(empty)
    low, high = _extremes(array).tolist()
    if low < 0:
        raise ValueError("'list' argument must have no negative elements")
    length = max(minlength, int(high) + 1)
    weight_expr = None if weight_array is None else weight_array._read()
    dtype = numpy.dtype(numpy.intp if weight_array is None else numpy.float64)  # NumPy's
    node = Binned(array._read(), weight_expr, None, length, dtype)
    return ndarray._from_expr(node)


def digitize(x: Any, bins: Any, right: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.digitize` (a ``searchsorted``; the
    bins' monotonicity check computes them, as NumPy does; they are as small as the
    histogram)."""
    from .selection import searchsorted

    values, edges = asarray(x), asarray(bins)
    if values.dtype.kind == "c":
        raise TypeError("x may not be complex")
    host_edges = numpy.asarray(edges.compute())
    numpy.digitize(numpy.zeros(0, dtype=values.dtype), host_edges)  # NumPy's checks
    side = "left" if right else "right"
    if host_edges.size > 1 and host_edges[0] > host_edges[-1]:
        flipped = asarray(host_edges[::-1].copy())
        positions: Any = searchsorted(flipped, values, side=side)
        return (len(host_edges) - positions).astype(numpy.intp)
    return searchsorted(asarray(host_edges), values, side=side)
