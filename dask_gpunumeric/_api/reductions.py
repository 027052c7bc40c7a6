"""Reductions and scans (NumPy reference: "Sums, products, differences", "Statistics")."""

from __future__ import annotations

from typing import Any

import numpy

from .._array import tiny_ufuncs
from .._array.coercion import as_expr
from .._ir.dtypes import stand_in_with_ndim
from .._ir.elementwise import cast_node
from .._ir.indexing import Reshape
from .._ir.reductions import Cumulative, normalize_axis, reduction_node
from . import host_outputs
from .ndarray import ndarray

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "cumprod",
    "cumsum",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
]

_NoValue = numpy._NoValue  # type: ignore[attr-defined]


def _check_out_shape(kind: str, node: Any, out: ndarray) -> None:
    if out.shape != node.shape:
        raise ValueError(
            f"output parameter for reduction operation {kind} has the wrong number of "
            f"dimensions: Found {out.ndim} but expected {node.ndim}"
            if out.ndim != node.ndim
            else f"output parameter has the wrong shape {out.shape}, expected {node.shape}"
        )


def _given(initial: Any = _NoValue, where: Any = _NoValue) -> bool:
    """True when ``initial=``/``where=`` ask for more than the plain reduction
    (``where=True`` and ``initial=None`` are NumPy's "not given")."""
    return (initial is not _NoValue and initial is not None) or not (
        where is _NoValue or where is True
    )


def _masked(kind: str, a: Any, axis: Any, out: Any, keepdims: Any, **kwargs: Any) -> Any:
    """The reduction with ``initial=``/``where=`` (``masked_reductions``, which imports
    this module)."""
    from .masked_reductions import reduce_masked

    a, kwargs = _in_out_dtype(kind, a, out, kwargs)
    return reduce_masked(kind, a, axis, out, keepdims, **kwargs)


def _unsupported(name: str, **given: Any) -> None:
    for key, value in given.items():
        if value is not _NoValue and value is not None:
            raise NotImplementedError(
                f"dask_gpunumeric.{name} does not support {key}=; use .compute() and numpy for it"
            )


# With ``out=`` and no ``dtype``, NumPy's ufunc reductions run the loop of the two dtypes,
# ``out``'s and the input's (their promotion), and cast the result into ``out``: a larger
# ``out`` changes the arithmetic (``max(bools, out=ints, initial=3)`` is 3, not True;
# ``sum(float32s, out=float64s)`` adds in float64), a smaller one only the final cast.
# ``mean``/``nanmean`` of inexact inputs sum so too (``mean`` takes integers to float64 and
# float16 to float32 whatever ``out`` is).
_DTYPE_PARAMETER = frozenset({"sum", "prod", "nansum", "nanprod"})
_NO_DTYPE_PARAMETER = frozenset({"max", "min", "nanmax", "nanmin"})


def _in_out_dtype(kind: str, a: Any, out: Any, params: dict[str, Any]) -> tuple[Any, dict]:
    """``a`` and ``params`` for NumPy's reduction into ``out`` (module note above)."""
    if not hasattr(out, "dtype") or params.get("dtype") is not None:
        return a, params  # no out (or not an array: refused as NumPy does, later)
    source = as_expr(a)
    computing = numpy.promote_types(source.dtype, out.dtype)
    if computing == source.dtype:
        return a, params
    if kind in _NO_DTYPE_PARAMETER:
        return ndarray._from_expr(cast_node(source, computing)), params
    inexact = source.dtype.kind in "fc"
    if (
        kind in _DTYPE_PARAMETER
        or (kind == "mean" and inexact and source.dtype != numpy.float16)
        or (kind == "nanmean" and inexact)
    ):
        return a, {**params, "dtype": computing}
    return a, params


def _reduce(kind: str, a: Any, axis: Any, out: Any, keepdims: Any, **params: Any) -> ndarray:
    keepdims = False if keepdims is _NoValue else keepdims
    if out is None:
        computed = tiny_ufuncs.reduction(kind, a, axis, keepdims, params, ndarray)
        if computed is not tiny_ufuncs.NOT_TAKEN:  # a check's ``(r * r).sum()``, at once
            return computed
    a, params = _in_out_dtype(kind, a, out, params)
    source = as_expr(a)
    node = reduction_node(kind, source, axis=axis, keepdims=keepdims, **params)
    if out is None:
        return ndarray._from_expr(node)
    host_outputs.check_output(out)
    _check_out_shape(kind, node, out)
    if out.dtype != node.dtype:
        # Only NumPy's check (std into integers, argmax into floats): the node is built.
        reduction_node(kind, source, axis=axis, keepdims=keepdims, out_dtype=out.dtype, **params)
    return host_outputs.assign(out, ndarray._from_expr(node))


def sum(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: Any = False,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:  # noqa: A001
    """dask_gpunumeric implementation of :func:`numpy.sum`."""
    if _given(initial, where):
        return _masked("sum", a, axis, out, keepdims, initial=initial, where=where, dtype=dtype)
    return _reduce("sum", a, axis, out, keepdims, dtype=dtype)


def prod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: Any = False,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.prod`."""
    if _given(initial, where):
        return _masked("prod", a, axis, out, keepdims, initial=initial, where=where, dtype=dtype)
    return _reduce("prod", a, axis, out, keepdims, dtype=dtype)


def mean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: Any = False,
    *,
    where: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.mean`."""
    if _given(where=where):
        return _masked("mean", a, axis, out, keepdims, where=where, dtype=dtype)
    return _reduce("mean", a, axis, out, keepdims, dtype=dtype)


def var(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = False,
    *,
    where: Any = _NoValue,
    mean: Any = _NoValue,
    correction: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.var` (no ``mean``)."""
    _unsupported("var", mean=mean)
    ddof = ddof if correction is _NoValue else correction
    if _given(where=where):
        return _masked("var", a, axis, out, keepdims, where=where, dtype=dtype, ddof=ddof)
    return _reduce("var", a, axis, out, keepdims, dtype=dtype, ddof=ddof)


def std(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = False,
    *,
    where: Any = _NoValue,
    mean: Any = _NoValue,
    correction: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.std` (no ``mean``)."""
    _unsupported("std", mean=mean)
    ddof = ddof if correction is _NoValue else correction
    if _given(where=where):
        return _masked("std", a, axis, out, keepdims, where=where, dtype=dtype, ddof=ddof)
    return _reduce("std", a, axis, out, keepdims, dtype=dtype, ddof=ddof)


def max(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: Any = False,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:  # noqa: A001
    """dask_gpunumeric implementation of :func:`numpy.max`."""
    if _given(initial, where):
        return _masked("max", a, axis, out, keepdims, initial=initial, where=where)
    return _reduce("max", a, axis, out, keepdims)


def min(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: Any = False,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:  # noqa: A001
    """dask_gpunumeric implementation of :func:`numpy.min`."""
    if _given(initial, where):
        return _masked("min", a, axis, out, keepdims, initial=initial, where=where)
    return _reduce("min", a, axis, out, keepdims)


amax = max
amin = min


def any(
    a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, *, where: Any = _NoValue
) -> ndarray:  # noqa: A001
    """dask_gpunumeric implementation of :func:`numpy.any`."""
    if _given(where=where):
        return _masked("any", a, axis, out, keepdims, where=where)
    return _reduce("any", a, axis, out, keepdims)


def all(
    a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, *, where: Any = _NoValue
) -> ndarray:  # noqa: A001
    """dask_gpunumeric implementation of :func:`numpy.all`."""
    if _given(where=where):
        return _masked("all", a, axis, out, keepdims, where=where)
    return _reduce("all", a, axis, out, keepdims)


def argmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.argmax`."""
    return _reduce("argmax", a, axis, out, keepdims)


def argmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.argmin`."""
    return _reduce("argmin", a, axis, out, keepdims)


def _cumulative(kind: str, a: Any, axis: Any, dtype: Any, out: Any) -> ndarray:
    source = as_expr(a)
    stand_in = stand_in_with_ndim(source)
    probe = getattr(numpy, kind)(stand_in, axis=axis, dtype=dtype)  # NumPy's dtype and errors
    if out is not None:
        host_outputs.check_output(out)
        # NumPy's casting rule for writing into ``out``, checked on a stand-in.
        getattr(numpy, kind)(
            stand_in, axis=axis, dtype=dtype, out=numpy.empty_like(probe, out.dtype)
        )
    scanned_axis = axis
    if axis is None or source.ndim == 0:
        # NumPy scans the flattened array; a 0-d array scans as shape (1,) along axis 0/-1.
        source = Reshape(source, (source.size,))
        scanned_axis = 0 if axis is None else axis
    (scanned_axis,) = normalize_axis(scanned_axis, source.ndim) or (0,)
    result = ndarray._from_expr(Cumulative(kind, source, scanned_axis, probe.dtype))
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError("provided out is the wrong size for the accumulation.")
    return host_outputs.assign(out, result)


def cumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.cumsum`."""
    return _cumulative("cumsum", a, axis, dtype, out)


def cumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.cumprod`."""
    return _cumulative("cumprod", a, axis, dtype, out)


# What ``ufunc.reduce`` / ``ufunc.accumulate`` of a NumPy ufunc stand for.
ufunc_reducers = {
    "add": sum,
    "multiply": prod,
    "maximum": max,
    "minimum": min,
    "logical_and": all,
    "logical_or": any,
}
ufunc_scans = {"add": cumsum, "multiply": cumprod}


def ufunc_reduce(
    reducer: Any, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None, **kwargs: Any
) -> Any:
    """``ufunc.reduce``/``accumulate``: their default axis is 0 (not None, as for ``sum``),
    ``out`` comes as a 1-tuple, and ``dtype`` only exists for the arithmetic reducers."""
    if isinstance(out, tuple):
        (out,) = out
    if dtype is not None:
        kwargs["dtype"] = dtype
    return reducer(array, axis=axis, out=out, **kwargs)
