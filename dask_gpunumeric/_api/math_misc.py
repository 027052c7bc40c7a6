"""Mathematical functions (NumPy reference section) built from ufunc nodes, ``where`` and
reductions: rounding (``around``, ``round``, ``fix``), ``angle``, ``nan_to_num``, ``sinc``,
``i0``, ``real_if_close``, the array-API scans ``cumulative_sum``/``cumulative_prod``,
``ediff1d`` and ``trapezoid``. Each is lazy and partitioned like its building blocks.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._ir.elementwise import from_parts_node
from . import host_outputs
from .creation import asarray, zeros
from .elementwise import where
from .joining import concatenate
from .ndarray import ndarray
from .reductions import all as all_
from .reductions import cumprod, cumsum
from .ufuncs import ufuncs

__all__ = [
    "angle",
    "around",
    "cumulative_prod",
    "cumulative_sum",
    "ediff1d",
    "fix",
    "i0",
    "nan_to_num",
    "real_if_close",
    "round",
    "sinc",
    "trapezoid",
]


def around(a: Any, decimals: int = 0, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.around` (NumPy's scale, ``rint``,
    unscale: the same values, halves to even)."""
    x = asarray(a)
    stand_in = numpy.ones((1,) * x.ndim, dtype=x.dtype)
    numpy.around(stand_in, decimals)  # NumPy's errors
    if out is not None:
        host_outputs.check_output(out)
        numpy.around(stand_in, decimals, out=numpy.empty_like(stand_in, out.dtype))  # casting
        if out.shape != x.shape:
            raise ValueError(
                f"non-broadcastable output operand with shape {out.shape} doesn't match "
                f"the broadcast shape {x.shape}"
            )
    if x.dtype.kind == "c":
        # The parts joined, never multiplied: ``inf * 1j`` has a NaN real part.
        parts = (around(x.real, decimals)._read(), around(x.imag, decimals)._read())
        return _finish(ndarray._from_expr(from_parts_node(*parts, x.dtype)), out)
    if x.dtype.kind == "b":  # NumPy rounds booleans as rint does: to float16 (decimals=0)
        return _finish(ufuncs["rint"](x), out)
    if x.dtype.kind in "iu":
        if decimals >= 0:
            return _finish(x.copy(), out)
        factor = 10 ** (-decimals)
        scaled = ufuncs["rint"](ufuncs["true_divide"](x, factor)) * factor
        return _finish(scaled.astype(x.dtype), out)
    if decimals == 0:
        return _finish(ufuncs["rint"](x), out)
    factor = 10.0 ** abs(decimals)
    if decimals > 0:
        result = ufuncs["rint"](x * factor) / factor
    else:
        result = ufuncs["rint"](x / factor) * factor
    return _finish(result.astype(x.dtype), out)


def round(a: Any, decimals: int = 0, out: Any = None) -> ndarray:  # noqa: A001 - NumPy's name
    """dask_gpunumeric implementation of :func:`numpy.round`."""
    return around(a, decimals, out)


def _finish(result: ndarray, out: Any) -> ndarray:
    if out is None:
        return result
    host_outputs.check_output(out)
    return host_outputs.assign(out, result)


def fix(x: Any, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fix` (round towards zero)."""
    array = asarray(x)
    numpy.fix(numpy.ones((1,) * array.ndim, dtype=array.dtype))  # NumPy's errors
    rounded = where(array >= 0, ufuncs["floor"](array), ufuncs["ceil"](array))
    return _finish(rounded.astype(ufuncs["ceil"](array).dtype), out)


def angle(z: Any, deg: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.angle`."""
    array = asarray(z)
    if array.dtype.kind == "c":
        result = ufuncs["arctan2"](array.imag, array.real)
    else:
        result = ufuncs["arctan2"](0, array)
    return result * (180 / numpy.pi) if deg else result


def nan_to_num(
    x: Any, copy: bool = True, nan: float = 0.0, posinf: Any = None, neginf: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nan_to_num`.

    Differences from NumPy
    ----------------------
    ``copy=False`` writes the result back into ``x`` when it is our array (NumPy's in-place
    form); a 0-d input gives a 0-d array rather than a NumPy scalar.
    """
    array = asarray(x)
    if array.dtype.kind not in "fc":
        result = array.copy()
    elif array.dtype.kind == "c":
        real = _replace_nonfinite(array.real, nan, posinf, neginf)
        imag = _replace_nonfinite(array.imag, nan, posinf, neginf)
        result = (real + imag * 1j).astype(array.dtype)
    else:
        result = _replace_nonfinite(array, nan, posinf, neginf)
    if not copy and isinstance(x, ndarray):
        x[...] = result
        return x
    return result


def _replace_nonfinite(x: ndarray, nan: float, posinf: Any, neginf: Any) -> ndarray:
    info = numpy.finfo(x.dtype)
    high = info.max if posinf is None else posinf
    low = info.min if neginf is None else neginf
    kept = where(ufuncs["isnan"](x), nan, x)
    kept = where(ufuncs["isinf"](x) & ~ufuncs["signbit"](x), high, kept)
    kept = where(ufuncs["isinf"](x) & ufuncs["signbit"](x), low, kept)
    return kept.astype(x.dtype)


def sinc(x: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.sinc` (NumPy's formula)."""
    array = asarray(x)
    y = numpy.pi * where(array == 0, 1.0e-20, array)
    return ufuncs["sin"](y) / y


def i0(x: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.i0` (NumPy's Chebyshev series on
    each side of 8, joined with ``where``)."""
    from numpy.lib import _function_base_impl as impl

    array = asarray(x)
    if array.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if array.dtype.kind != "f":
        array = array.astype(float)
    magnitude = ufuncs["absolute"](array)
    small = magnitude <= 8.0
    low = where(small, magnitude, 0.0)
    high = where(small, 8.0, magnitude)
    # NumPy's own coefficient tables: private, so its type stubs do not declare them.
    below_8: list[float] = impl._i0A  # type: ignore[attr-defined]
    above_8: list[float] = impl._i0B  # type: ignore[attr-defined]
    inner = ufuncs["exp"](low) * _chebyshev(low / 2.0 - 2, below_8)
    outer = ufuncs["exp"](high) * _chebyshev(32.0 / high - 2.0, above_8) / ufuncs["sqrt"](high)
    return where(small, inner, outer)


def _chebyshev(x: ndarray, coefficients: list[float]) -> ndarray:
    b0: Any = coefficients[0]
    b1: Any = 0.0
    b2: Any = 0.0
    for value in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + value
    return 0.5 * (b0 - b2)


def real_if_close(a: Any, tol: float = 100) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.real_if_close`.

    The result's dtype depends on the values: one boolean is computed (a reduction), the
    array itself stays distributed.
    """
    array = asarray(a)
    if array.dtype.kind != "c":
        return array
    if tol > 1:
        tol = numpy.finfo(array.dtype.type).eps * tol
    close = all_(ufuncs["absolute"](array.imag) < tol)
    return array.real if bool(close.compute()) else array


def _cumulative(
    scan: Any, x: Any, axis: Any, dtype: Any, out: Any, include_initial: bool, name: str
) -> ndarray:
    array = asarray(x)
    probe = numpy.ones((1,) * array.ndim, dtype=array.dtype)
    getattr(numpy, name)(probe, axis=axis, dtype=dtype, include_initial=include_initial)
    axis = 0 if axis is None else axis
    result = scan(array, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(result.shape)
        shape[axis] = 1
        first = zeros(shape, dtype=result.dtype) + (0 if name == "cumulative_sum" else 1)
        result = concatenate([first.astype(result.dtype), result], axis=axis)
    return _finish(result, out)


def cumulative_sum(
    x: Any,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    include_initial: bool = False,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.cumulative_sum`."""
    return _cumulative(cumsum, x, axis, dtype, out, include_initial, "cumulative_sum")


def cumulative_prod(
    x: Any,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    include_initial: bool = False,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.cumulative_prod`."""
    return _cumulative(cumprod, x, axis, dtype, out, include_initial, "cumulative_prod")


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.ediff1d`."""
    array = asarray(ary).ravel()
    numpy.ediff1d(numpy.ones(1, dtype=array.dtype), _host(to_end), _host(to_begin))
    pieces = [array[1:] - array[:-1]]
    if to_begin is not None:
        pieces.insert(0, asarray(to_begin).ravel().astype(array.dtype))
    if to_end is not None:
        pieces.append(asarray(to_end).ravel().astype(array.dtype))
    return concatenate(pieces).astype(array.dtype) if len(pieces) > 1 else pieces[0]


def _host(value: Any) -> Any:
    """A stand-in with ``value``'s dtype for NumPy's checks (our arrays are not computed)."""
    if isinstance(value, ndarray):
        return numpy.ones(1, dtype=value.dtype)
    return value


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.trapezoid` (NumPy's formula)."""
    values = asarray(y)
    axis = numpy.lib.array_utils.normalize_axis_index(axis, values.ndim)
    if x is None:
        spacing: Any = dx
    else:
        points = asarray(x)
        spacing = points[1:] - points[:-1] if points.ndim == 1 else _diff_along(points, axis)
        if points.ndim == 1:
            shape = [1] * values.ndim
            shape[axis] = spacing.shape[0]
            spacing = spacing.reshape(shape)
    upper = _diff_slice(values.ndim, axis, slice(1, None))
    lower = _diff_slice(values.ndim, axis, slice(None, -1))
    return (spacing * (values[upper] + values[lower]) / 2.0).sum(axis)


def _diff_slice(ndim: int, axis: int, part: slice) -> tuple[slice, ...]:
    index = [slice(None)] * ndim
    index[axis] = part
    return tuple(index)


def _diff_along(points: ndarray, axis: int) -> ndarray:
    return (
        points[_diff_slice(points.ndim, axis, slice(1, None))]
        - points[_diff_slice(points.ndim, axis, slice(None, -1))]
    )
