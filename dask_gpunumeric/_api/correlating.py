"""Correlating (NumPy reference: "Statistics"): ``cov`` and ``corrcoef``, NumPy's
algorithm over ``average``, a centred ``dot`` and elementwise scaling."""

from __future__ import annotations

import warnings
from typing import Any

import numpy

from .creation import array, asarray
from .diagonals import diag
from .joining import concatenate
from .linear_algebra import dot
from .ndarray import ndarray
from .reductions import any as any_
from .statistics import average
from .ufuncs import ufuncs

__all__ = ["corrcoef", "cov"]


def _observations(m: Any, y: Any, rowvar: bool, dtype: Any) -> ndarray:
    """The variables as rows (``m`` then ``y``), in the result dtype."""
    data = asarray(m)
    if data.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    other = None if y is None else asarray(y)
    if other is not None and other.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = numpy.result_type(
            *(numpy.empty(0, a.dtype) for a in (data, other) if a is not None), numpy.float64
        )
    rows = array(data, ndmin=2, dtype=dtype)
    if not rowvar and data.ndim != 1:
        rows = rows.T
    if other is not None:
        extra = array(other, ndmin=2, dtype=dtype)
        if not rowvar and extra.shape[0] != 1:
            extra = extra.T
        rows = concatenate([rows, extra], axis=0)
    return rows


def _weights(fweights: Any, aweights: Any, observations: int) -> tuple[Any, Any]:
    """NumPy's checks of the weights (their sign is computed: one boolean each)."""
    combined: Any = None
    checked_aweights = None
    for weights, name in ((fweights, "fweights"), (aweights, "aweights")):
        if weights is None:
            continue
        w = asarray(weights, dtype=float)
        if name == "fweights" and not numpy.all(numpy.asarray(weights) == numpy.around(weights)):
            raise TypeError("fweights must be integer")
        if w.ndim > 1:
            raise RuntimeError(f"cannot handle multidimensional {name}")
        if w.shape[0] != observations:
            raise RuntimeError(f"incompatible numbers of samples and {name}")
        if bool(any_(w < 0).compute()):
            raise ValueError(f"{name} cannot be negative")
        combined = w if combined is None else combined * w
        checked_aweights = w if name == "aweights" else checked_aweights
    return combined, checked_aweights


def cov(
    m: Any,
    y: Any = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: Any = None,
    fweights: Any = None,
    aweights: Any = None,
    *,
    dtype: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.cov` (with weights, the degrees of
    freedom are one computed scalar)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    rows = _observations(m, y, rowvar, dtype)
    if rows.shape[0] == 0:
        return asarray(numpy.array([]).reshape(0, 0))
    ddof = (0 if bias else 1) if ddof is None else ddof
    w, checked_aweights = _weights(fweights, aweights, rows.shape[1])
    mean, w_sum = average(rows, axis=1, weights=w, returned=True)
    fact = _degrees_of_freedom(rows.shape[1], ddof, w, checked_aweights, w_sum[0])
    centred = rows - mean[:, None]
    product = dot(centred, (centred if w is None else centred * w).T.conj())
    # a Python scalar keeps the product's dtype, as NumPy's in-place ``c *= 1 / fact`` does
    return (product * numpy.true_divide(1, fact).item()).squeeze()


def _degrees_of_freedom(n: int, ddof: int, w: Any, aweights: Any, w_sum: ndarray) -> Any:
    """NumPy's divisor: a NumPy scalar of the weights' sum's dtype, complex for complex
    observations (as NumPy's is), or ``n - ddof`` without weights."""
    if w is None:
        fact: Any = n - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * (w * aweights).sum() / w_sum
    fact = numpy.asarray(fact.compute())[()] if isinstance(fact, ndarray) else fact
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
        fact = 0.0
    return fact


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.corrcoef`."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    stddev = ufuncs["sqrt"](diag(c).real)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        return (c.real.clip(-1, 1) + c.imag.clip(-1, 1) * 1j).astype(c.dtype)
    return c.clip(-1, 1)
