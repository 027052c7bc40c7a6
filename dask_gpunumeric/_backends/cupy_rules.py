"""Where CuPy's functions differ from NumPy's, replayed on the simulated device.

The simulated device computes with NumPy, so by default its chunks accept every argument
NumPy accepts and round as NumPy rounds. CuPy does not always: the first real GPU check
(``docs/gpu-results.md``) failed where our code handed CuPy what only NumPy takes. Each
entry of ``cupy_rules`` is one such CuPy function, written against NumPy arrays (the
simulated device unwraps its chunks first): it raises CuPy's error for an argument CuPy
refuses, and otherwise computes what CuPy computes, so a CPU test that passes on the
simulated device passes for that reason on CuPy too. Keys are NumPy paths without the
``numpy.`` prefix (``"quantile"``, ``"linalg.solve"``).

Each rule cites the CuPy source it follows; add one whenever the GPU finds another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy

from .._ir.scalar_program import ScalarProgram

# cupy/_statistics/order.py: _quantile_unchecked
_CUPY_QUANTILE_METHODS = frozenset({"linear", "lower", "higher", "midpoint", "nearest"})


def _quantile(a: numpy.ndarray, q: Any, axis: Any = None, **keywords: Any) -> Any:
    """``cupy.quantile``: ``q`` of at most one dimension, five methods, and the linear
    interpolation of its ``cupy_percentile_weightnening`` kernel (``_cupy_linear_quantile``)."""
    method = keywords.get("method", "linear")
    q_array = numpy.asarray(q)
    if q_array.ndim > 1:
        raise ValueError(f"Expected q to have a dimension of 1.\nActual: {q_array.ndim} != 1")
    if method not in _CUPY_QUANTILE_METHODS:
        raise ValueError(f"'{method}' method is not yet supported. Please use any other method.")
    result = numpy.quantile(a, q, axis=axis, **keywords)
    if method != "linear" or numpy.asarray(a).dtype.kind != "f":
        return result
    return _cupy_linear_quantile(numpy.asarray(a), q, axis, keywords.get("keepdims", False))


def _cupy_linear_quantile(a: numpy.ndarray, q: Any, axis: Any, keepdims: bool) -> Any:
    """The kernel of ``cupy.quantile(method='linear')`` over the sorted lanes of ``a``: the
    weight rounded to the result's dtype first, then ``a + d * w`` below one half and
    ``b - d * (1 - w)`` above, each contracted into one fused multiply-add as nvcc compiles
    it by default (NumPy rounds the product, then the sum; and computes ``1 - w`` before
    rounding a Python-float weight). The fused multiply-add is modelled for float32 (the
    product is exact in float64); float64 lanes round twice here. On the H100, float32
    quantiles differed from NumPy's in the last place."""
    dtype = numpy.result_type(a, q if isinstance(q, (int, float)) else numpy.asarray(q))
    lanes = numpy.sort(a.reshape(-1) if axis is None else numpy.moveaxis(a, axis, -1), axis=-1)
    index = numpy.asarray(q) * (lanes.shape[-1] - 1.0)
    below = numpy.floor(index).astype(numpy.intp)
    above = numpy.minimum(below + 1, lanes.shape[-1] - 1)
    weight = (index - below).astype(dtype)
    low = numpy.take(lanes, below, axis=-1)
    high = numpy.take(lanes, above, axis=-1)
    diff = (high - low).astype(dtype)
    one = dtype.type(1)
    if dtype == numpy.float32:  # fused multiply-add: one rounding of the exact result
        low, high, diff, weight = (x.astype(numpy.float64) for x in (low, high, diff, weight))
    result = numpy.where(weight < 0.5, low + diff * weight, high - diff * (one - weight))
    result = result.astype(dtype)
    result = numpy.moveaxis(result, -1, 0) if index.ndim else result
    if keepdims:
        kept = list(a.shape) if axis is not None else [1] * a.ndim
        if axis is not None:
            kept[axis % a.ndim] = 1
        result = result.reshape(index.shape + tuple(kept))
    return result


def _percentile(a: numpy.ndarray, q: Any, axis: Any = None, **keywords: Any) -> Any:
    """``cupy.percentile``: ``cupy.quantile`` of ``q / 100``."""
    return _quantile(a, numpy.true_divide(q, 100), axis, **keywords)


def _solve(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """``cupy.linalg.solve``: a multidimensional ``b`` has ``a``'s batch dimensions
    exactly (``(..., M, K)``); CuPy does not broadcast them as NumPy does."""
    a, b = numpy.asarray(a), numpy.asarray(b)
    if b.ndim > 1 and (a.ndim != b.ndim or a.shape[:-1] != b.shape[:-1]):
        raise ValueError(
            "a must have (..., M, M) shape and b must have (..., M, K) for multidimensional b"
        )
    return numpy.linalg.solve(a, b)


def _power(x1: Any, x2: Any, /, out: Any = None, **keywords: Any) -> Any:
    """``cupy.power``: an integer to a negative integer power is 0, or 1 and -1 for the
    bases 1 and -1 (its ``integral_power``, and our ``gn_power_int``), where NumPy raises
    ``ValueError``: a device kernel cannot raise."""
    target = out[0] if isinstance(out, tuple) else out
    try:
        result = numpy.power(x1, x2, **keywords)
    except ValueError as error:
        if "negative integer powers" not in str(error):
            raise
        exponent = numpy.maximum(x2, 0) if isinstance(x2, numpy.ndarray) else type(x2)(max(x2, 0))
        result = numpy.power(x1, exponent, **keywords)
        base, negative = numpy.asarray(x1), numpy.asarray(x2) < 0
        odd = numpy.asarray(x2) % 2 == 1
        at_negative = numpy.where(base == 1, 1, numpy.where(base == -1, numpy.where(odd, -1, 1), 0))
        result = numpy.where(negative, at_negative, result).astype(result.dtype)
    if target is None:
        return result
    target[...] = result
    return target


def _where(condition: Any, *branches: Any) -> Any:
    """``cupy.where``: the condition must be an array (it calls ``condition.astype``);
    NumPy takes a Python scalar too."""
    if branches and not hasattr(condition, "astype"):
        raise AttributeError(f"'{type(condition).__name__}' object has no attribute 'astype'")
    return numpy.where(condition, *branches)


def _clip(a: Any, a_min: Any = None, a_max: Any = None, out: Any = None, **keywords: Any) -> Any:
    """``cupy.clip``: a missing bound of a bool array reaches its ufunc as None (TypeError);
    otherwise its kernel ``in1 > in2 ? in2 : (in0 < in1 ? in1 : (in0 > in2 ? in2 : in0))``,
    which ignores a NaN bound and keeps the upper bound when the bounds cross (NumPy's
    clip propagates NaN bounds: ``minimum(maximum(a, low), high)``)."""
    a = numpy.asarray(a)
    kind = a.dtype.kind
    if a_min is None or a_max is None:
        if kind not in "fiu":
            raise TypeError("Unsupported type <class 'NoneType'>")
        info = numpy.finfo(a.dtype) if kind == "f" else numpy.iinfo(a.dtype)
        bounds = (-numpy.inf, numpy.inf) if kind == "f" else (info.min, info.max)
        a_min = bounds[0] if a_min is None else a_min
        a_max = bounds[1] if a_max is None else a_max
    dtype = numpy.result_type(
        *(x if isinstance(x, (int, float)) else numpy.asarray(x) for x in (a, a_min, a_max))
    )
    low, high = numpy.asarray(a_min).astype(dtype), numpy.asarray(a_max).astype(dtype)
    inner = numpy.where(a < low, low, numpy.where(a > high, high, a))
    result = numpy.where(low > high, high, inner).astype(dtype)
    if out is None:
        return result
    out[...] = result
    return out


def _polyval(p: Any, x: Any) -> Any:
    """``cupy.polyval``: the coefficients must be a 1-d array (or a poly1d), not a list."""
    if isinstance(p, numpy.poly1d):
        p = p.coeffs
    elif not isinstance(p, numpy.ndarray) or p.ndim == 0:
        raise TypeError("p must be 1d ndarray or poly1d object")
    return numpy.polyval(p, x)


def _nanarg(function: Callable[..., Any], fill: float) -> Callable[..., Any]:
    """``cupy.nanargmax``/``nanargmin``: -1 for a lane of nothing but NaN ("for
    performance reasons", its docstring says), where NumPy raises ``ValueError``."""

    def nanarg(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Any:
        a = numpy.asarray(a)
        if a.dtype.kind not in "fc":
            return function(a, axis=axis, keepdims=keepdims)
        nan = numpy.isnan(a)
        result = function(numpy.where(nan, fill, a), axis=axis, keepdims=keepdims)
        return numpy.where(numpy.all(nan, axis=axis, keepdims=keepdims), -1, result)

    return nanarg


def _unravel_index(indices: Any, shape: Any, order: str = "C") -> Any:
    """``cupy.unravel_index``: an index out of bounds (a -1 from ``nanargmax``) raises
    "invalid entry in index array" (NumPy: "index -1 is out of bounds ...")."""
    flat = numpy.asarray(indices)
    if (flat < 0).any() or (flat >= numpy.prod(shape)).any():
        raise ValueError("invalid entry in index array")
    return numpy.unravel_index(flat, shape, order)  # type: ignore[call-overload]


def has_integer_power(program: ScalarProgram) -> bool:
    """Whether ``program`` raises to integer powers (NumPy's loop may raise there)."""
    return any(ins.op == "power" and ins.dtype.kind in "iu" for ins in program.instructions)


cupy_rules: dict[str, Callable[..., Any]] = {
    "clip": _clip,
    "power": _power,
    "where": _where,
    "quantile": _quantile,
    "percentile": _percentile,
    "polyval": _polyval,
    "linalg.solve": _solve,
    "nanargmax": _nanarg(numpy.argmax, -numpy.inf),
    "nanargmin": _nanarg(numpy.argmin, numpy.inf),
    "unravel_index": _unravel_index,
}


def rule_for(function: Any) -> Callable[..., Any] | None:
    """The CuPy rule standing in for the NumPy ``function`` (``numpy.quantile``,
    ``numpy.linalg.solve``), or None where CuPy behaves as NumPy."""
    module = getattr(function, "__module__", "") or ""
    name = getattr(function, "__name__", "")
    prefix = module.removeprefix("numpy").strip(".")
    return cupy_rules.get(f"{prefix}.{name}" if prefix else name)
