"""Reductions (``sum``, ``argmax``, ``var`` ...) and cumulative scans, checked by NumPy."""

from __future__ import annotations

import warnings
from typing import Any

import numpy

from .dtypes import stand_in_with_ndim
from .expr import Expr
from .leaves import HostData

Axis = tuple[int, ...] | None  # normalized: non-negative, sorted; None = all axes


class Reduction(Expr):
    """``numpy.<kind>(source, axis=axis, keepdims=keepdims, **params)``."""

    __slots__ = ("kind", "axis", "keepdims", "params")

    def __init__(
        self,
        kind: str,
        source: Expr,
        axis: Axis,
        keepdims: bool,
        shape: tuple[int, ...],
        dtype: Any,
        params: tuple[tuple[str, Any], ...],
    ) -> None:
        super().__init__(shape, dtype, (source,))
        self.kind = kind
        self.axis = axis
        self.keepdims = keepdims
        self.params = params


class Cumulative(Expr):
    """``cumsum``/``cumprod`` along one axis (the caller flattens for ``axis=None``)."""

    __slots__ = ("kind", "axis")

    def __init__(self, kind: str, source: Expr, axis: int, dtype: Any) -> None:
        super().__init__(source.shape, dtype, (source,))
        self.kind = kind
        self.axis = axis


def normalize_axis(axis: Any, ndim: int) -> Axis:
    """NumPy's axis normalization, with its ``AxisError``/``TypeError``/``ValueError``."""
    if axis is None:
        return None
    axes = axis if isinstance(axis, tuple) else (axis,)
    normalized = tuple(numpy.lib.array_utils.normalize_axis_index(a, ndim) for a in axes)
    if len(set(normalized)) != len(normalized):
        raise ValueError("duplicate value in 'axis'")
    return tuple(sorted(normalized))


def _probe(
    kind: str, source: Expr, axis: Any, keepdims: bool, params: dict[str, Any]
) -> numpy.ndarray:
    """NumPy's own call on a stand-in: its result dtype, or its exception."""
    stand_in = stand_in_with_ndim(source)
    return numpy.asarray(getattr(numpy, kind)(stand_in, axis=axis, keepdims=keepdims, **params))


def _check_out_dtype(
    kind: str,
    source: Expr,
    axis: Any,
    keepdims: Any,
    params: dict[str, Any],
    shape: tuple[int, ...],
    out_dtype: Any,
) -> None:
    if out_dtype is not None:
        out = numpy.empty(shape, dtype=out_dtype)
        _probe(kind, source, axis, keepdims, {**params, "out": out})


def reduction_node(
    kind: str,
    source: Expr,
    axis: Any = None,
    keepdims: Any = False,
    out_dtype: Any = None,
    **params: Any,
) -> Expr:
    """Check the call with NumPy on a stand-in, then build the node.

    An empty source needs no computation: NumPy's answer on the (zero-memory) stand-in of
    the real shape *is* the result (``sum`` gives zeros, ``mean`` NaN, ``max`` over a
    non-empty axis an empty array), so it becomes a constant leaf. ``out_dtype``, the dtype
    of an ``out=`` array, is checked by a second probe writing into a stand-in of it (NumPy
    refuses, e.g., ``std`` into integers and ``argmax`` into floats).
    """
    params = {k: v for k, v in params.items() if v is not None}
    if "dtype" in params:
        params["dtype"] = numpy.dtype(params["dtype"])
    if source.size == 0:
        constant = _probe(kind, source, axis, keepdims, params)
        _check_out_dtype(kind, source, axis, keepdims, params, constant.shape, out_dtype)
        return HostData(numpy.array(constant), owned=True)
    with warnings.catch_warnings():
        # The 1-element stand-in warns where the real data need not (var with ddof=1 ...).
        warnings.simplefilter("ignore", RuntimeWarning)
        probe = _probe(kind, source, axis, keepdims, params)
        _check_out_dtype(kind, source, axis, keepdims, params, probe.shape, out_dtype)
    keepdims = bool(keepdims)  # NumPy (the probe) accepted it: 1 counts as True
    # NumPy's ufunc reductions accept axis 0 / -1 on a 0-d array (the probe said so): for a
    # 0-d array every accepted axis reduces nothing.
    normalized = None if source.ndim == 0 else normalize_axis(axis, source.ndim)
    reduced = range(source.ndim) if normalized is None else normalized
    shape = tuple(
        1 if i in reduced else n for i, n in enumerate(source.shape) if keepdims or i not in reduced
    )
    return Reduction(
        kind, source, normalized, keepdims, shape, probe.dtype, tuple(sorted(params.items()))
    )
