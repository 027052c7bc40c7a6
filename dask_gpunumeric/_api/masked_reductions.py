"""``initial=`` and ``where=`` of the reductions, as NumPy gives them, chunk-wise.

``where=`` becomes a mask folded into the reduction's operand: unselected elements are
replaced by the reduction's identity (or ``initial``), an elementwise node that fusion
makes part of each chunk's reduction; ``initial`` is combined with the reduced value
after it. Nothing is gathered. NumPy checks the call first, on stand-ins (its errors:
``max`` with ``where=`` and no ``initial``, an integer mask, a bad axis)::

    sum(a, where=m, initial=i)     ->  sum(where(m, a, 0)) + i
    max(a, where=m, initial=i)     ->  maximum(max(where(m, a, i)), i)
    nanmax(a, initial=i)           ->  maximum(max(where(~isnan(a), a, i)), i)
    mean(a, where=m)               ->  sum(where(m, a, 0)) / sum(m)
    var(a, where=m)                ->  sum(where(m, |a - mean(a, where=m)|**2, 0)) / (sum(m) - ddof)
    any(a, where=m)                ->  any(where(m, a, 0))
"""

from __future__ import annotations

from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_tuple

from . import host_outputs
from .broadcasting import broadcast_to
from .creation import asarray
from .elementwise import where as where_
from .ndarray import ndarray
from .reductions import _check_out_shape, _NoValue, _reduce
from .ufuncs import ufuncs

# The value an unselected element stands for (the reduction's identity).
_IDENTITY = {"sum": 0, "nansum": 0, "prod": 1, "nanprod": 1, "any": 0, "all": 1}
# How ``initial`` joins the reduced value.
_WITH_INITIAL = {
    "sum": "add",
    "nansum": "add",
    "prod": "multiply",
    "nanprod": "multiply",
    "max": "maximum",
    "min": "minimum",
    "nanmax": "maximum",
    "nanmin": "minimum",
}
_MOMENTS = frozenset({"mean", "var", "std", "nanmean", "nanvar", "nanstd"})


def reduce_masked(
    kind: str,
    a: Any,
    axis: Any,
    out: Any,
    keepdims: Any,
    initial: Any = _NoValue,
    where: Any = _NoValue,
    **params: Any,
) -> Any:
    """``numpy.<kind>(a, axis, out=out, keepdims=keepdims, initial=initial, where=where,
    **params)``, lazily; ``params`` are ``dtype``/``ddof`` where the kind has them."""
    array = asarray(a)
    keepdims = False if keepdims is _NoValue else bool(keepdims)
    given: dict[str, Any] = {k: v for k, v in params.items() if v is not None}
    if initial is not _NoValue and initial is not None:
        given["initial"] = initial
    mask = None if where is _NoValue or where is True else asarray(where)
    probe = _probe(kind, array, mask, axis, keepdims, given)
    if out is not None:
        host_outputs.check_output(out)
        _probe(kind, array, mask, axis, keepdims, given, numpy.empty(probe.shape, out.dtype))
    if mask is not None:
        _check_mask_shape(mask.shape, array.shape)
        mask = broadcast_to(mask.astype(bool), array.shape)
    if array.size == 0:
        result = asarray(_on_empty(kind, array, mask, axis, keepdims, given))
    elif kind in _MOMENTS:
        result = _moment(kind, array, mask, axis, keepdims, probe.dtype, **params)
    else:
        result = _fold(kind, array, mask, axis, keepdims, given, **params)
    if out is None:
        return result
    _check_out_shape(kind, result, out)
    return host_outputs.assign(out, result)


def _probe(
    kind: str,
    array: ndarray,
    mask: ndarray | None,
    axis: Any,
    keepdims: bool,
    given: dict[str, Any],
    out: Any = None,
) -> numpy.ndarray:
    """NumPy's own call on one-element stand-ins: its result dtype, or its exception."""
    stand_in = numpy.ones((1,) * array.ndim, dtype=array.dtype)
    where = None if mask is None else numpy.ones((1,) * mask.ndim, dtype=mask.dtype)
    return numpy.asarray(_numpys(kind, stand_in, where, axis, keepdims, given, out))


def _check_mask_shape(mask_shape: tuple[int, ...], shape: tuple[int, ...]) -> None:
    try:
        broadcast = numpy.broadcast_shapes(mask_shape, shape)
    except ValueError:
        broadcast = None
    if broadcast != shape:
        raise ValueError(
            f"operands could not be broadcast together: where= of shape {mask_shape} "
            f"against an array of shape {shape}"
        )


def _on_empty(
    kind: str,
    array: ndarray,
    mask: ndarray | None,
    axis: Any,
    keepdims: bool,
    given: dict[str, Any],
) -> numpy.ndarray:
    """NumPy's answer on zero-memory stand-ins: an empty array's values do not matter."""
    stand_in = numpy.broadcast_to(numpy.zeros((), dtype=array.dtype), array.shape)
    where = None if mask is None else numpy.broadcast_to(numpy.True_, mask.shape)
    return numpy.array(_numpys(kind, stand_in, where, axis, keepdims, given))


def _numpys(
    kind: str,
    stand_in: numpy.ndarray,
    where: numpy.ndarray | None,
    axis: Any,
    keepdims: bool,
    given: dict[str, Any],
    out: Any = None,
) -> Any:
    """``numpy.<kind>`` on stand-ins, with ``where=``/``out=`` where given."""
    kwargs = dict(given, axis=axis, keepdims=keepdims)
    if where is not None:
        kwargs["where"] = where
    if out is not None:
        kwargs["out"] = out
    with numpy.errstate(all="ignore"):
        return getattr(numpy, kind)(stand_in, **kwargs)


def _initial_value(kind: str, array: ndarray, given: dict[str, Any]) -> Any:
    """``initial`` as NumPy converts it: the reduction of an empty array from it."""
    return getattr(numpy, kind)(numpy.empty((0,), dtype=array.dtype), **given)


def _fold(
    kind: str,
    array: ndarray,
    mask: ndarray | None,
    axis: Any,
    keepdims: bool,
    given: dict[str, Any],
    **params: Any,
) -> ndarray:
    """The identity-or-initial reductions: sum, prod, max, min, any, all and nan twins."""
    initial = _initial_value(kind, array, given) if "initial" in given else None
    reduced_kind = kind
    if kind in ("nanmax", "nanmin") and array.dtype.kind in "fc":
        # With an initial, a NaN is one more unselected element (fmax ignores it); plain
        # max then never meets an all-NaN lane.
        keep = ufuncs["logical_not"](ufuncs["isnan"](array))
        mask = keep if mask is None else ufuncs["logical_and"](mask, keep)
        reduced_kind = kind[3:]
    operand = array
    if mask is not None:
        fill = initial if kind in ("max", "min", "nanmax", "nanmin") else _IDENTITY[kind]
        operand = where_(mask, array, numpy.asarray(fill).astype(array.dtype)[()])
    result = _reduce(reduced_kind, operand, axis, None, keepdims, **params)
    if initial is not None:
        combine = ufuncs[_WITH_INITIAL[kind]]
        result = combine(result, numpy.asarray(initial).astype(result.dtype)[()])
    return result


def _reduced_shape(shape: tuple[int, ...], axis: Any, keepdims: bool) -> tuple[int, ...]:
    """The shape of a reduction of an array of ``shape`` over ``axis`` (checked by the
    probe already)."""
    axes = range(len(shape)) if axis is None else normalize_axis_tuple(axis, len(shape))
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _sum_dtype(array: ndarray, dtype: Any) -> numpy.dtype:
    """The dtype NumPy's ``_mean``/``_var`` sum in."""
    if dtype is not None:
        return numpy.dtype(dtype)
    if array.dtype.kind in "biu":
        return numpy.dtype("f8")
    if array.dtype == numpy.float16:
        return numpy.dtype("f4")
    return array.dtype


def _moment(
    kind: str,
    array: ndarray,
    mask: ndarray | None,
    axis: Any,
    keepdims: bool,
    result_dtype: numpy.dtype,
    dtype: Any = None,
    ddof: Any = 0,
) -> ndarray:
    """``mean``/``var``/``std`` (and nan twins) over the selected elements only."""
    keep = mask
    if kind.startswith("nan") and array.dtype.kind in "fc":
        not_nan = ufuncs["logical_not"](ufuncs["isnan"](array))
        keep = not_nan if keep is None else ufuncs["logical_and"](keep, not_nan)
    if keep is None:
        keep = broadcast_to(asarray(True), array.shape)
    plain = kind.removeprefix("nan")
    sum_dtype = _sum_dtype(array, dtype)
    if plain != "mean" and sum_dtype.kind in "biu":
        raise NotImplementedError(
            f"dask_gpunumeric.{kind} does not support where= with an integer dtype=; "
            "use .compute() and numpy for it"
        )
    zero = numpy.zeros((), dtype=array.dtype)[()]
    # Reduced once, the axes kept (the deviations broadcast against them), then shaped as
    # asked for the result.
    kept_count = _reduce("sum", keep, axis, None, True, dtype=numpy.intp)
    kept_total = _reduce("sum", where_(keep, array, zero), axis, None, True, dtype=sum_dtype)
    shape = _reduced_shape(array.shape, axis, keepdims)
    count = kept_count.reshape(shape)
    if plain == "mean":
        return ufuncs["divide"](kept_total.reshape(shape), count).astype(result_dtype)
    deviation = ufuncs["subtract"](array, ufuncs["divide"](kept_total, kept_count))
    if deviation.dtype.kind == "c":
        squares = ufuncs["multiply"](deviation, ufuncs["conjugate"](deviation)).real
    else:
        squares = ufuncs["multiply"](deviation, deviation)
    squares_zero = numpy.zeros((), dtype=squares.dtype)[()]
    summed = _reduce("sum", where_(keep, squares, squares_zero), axis, None, keepdims)
    divisor = ufuncs["maximum"](ufuncs["subtract"](count, ddof), 0)
    variance = ufuncs["divide"](summed, divisor)
    if plain == "std":
        variance = ufuncs["sqrt"](variance)
    return variance.astype(result_dtype)
