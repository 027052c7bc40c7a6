"""Discrete Fourier transforms (NumPy reference: "Discrete Fourier Transform (numpy.fft)").

Each 1-D transform is one ``dask.array.fft`` call (a ``DaskCall``) on its input rechunked
so that the transformed axis is whole and the other axes are split: every block is
transformed on the worker holding it. An n-D transform is a sequence of 1-D transforms,
one axis at a time, as NumPy computes it; between two axes the array is rechunked (the
"pencil" transposition of distributed FFTs), so no worker ever holds the whole array.
"""

from __future__ import annotations

from typing import Any

import numpy
from numpy.fft import _pocketfft  # NumPy's own handling of s= and axes= (its errors, warnings)
from numpy.lib.array_utils import normalize_axis_index

from .._ir.dask_call import DaskCall
from .._ir.expr import Expr
from . import fft_four_step
from .array_api import check_device
from .creation import asarray
from .ndarray import ndarray
from .numerical_ranges import arange
from .ufuncs import ufuncs
from .whole_axes import with_whole_axes

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]

_NORMS = (None, "backward", "ortho", "forward")


def _default_length(kind: str, length: int) -> int:
    """The ``n`` NumPy uses when none is given, from the input axis' length."""
    return 2 * (length - 1) if kind in ("irfft", "hfft") else length


def _output_length(kind: str, n: int) -> int:
    return n // 2 + 1 if kind in ("rfft", "ihfft") else n


def _transform(kind: str, expr: Expr, n: int | None, axis: int, norm: str | None) -> Expr:
    """One 1-D transform of ``expr`` along ``axis``, with NumPy's checks and dtype."""
    axis = normalize_axis_index(axis, expr.ndim)
    if n is None:
        n = _default_length(kind, expr.shape[axis])
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
    dtype = getattr(numpy.fft, kind)(numpy.ones(2, dtype=expr.dtype)).dtype
    shape = list(expr.shape)
    shape[axis] = _output_length(kind, n)
    keywords = (("n", n), ("axis", axis), ("norm", norm))
    return DaskCall(f"fft.{kind}", (with_whole_axes(expr, (axis,)),), tuple(shape), dtype, keywords)


def _to_out(result: ndarray, out: Any) -> ndarray:
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"out has shape {out.shape}, the result has shape {result.shape}")
    out[...] = result
    return out


def _one_dimensional(kind: str, a: Any, n: Any, axis: int, norm: Any, out: Any) -> ndarray:
    expr = asarray(a)._read()
    result = ndarray._from_expr(_transform(kind, expr, n, axis, norm))  # NumPy's checks
    whole_signal = expr.ndim == 1 and n in (None, expr.shape[0]) and kind in ("fft", "ifft")
    if whole_signal and fft_four_step.worth_splitting(expr.shape[0], result.dtype.itemsize):
        transform = fft if kind == "fft" else ifft
        result = fft_four_step.four_step(transform, kind == "ifft", ndarray._from_expr(expr), norm)
    return _to_out(result, out)


def fft(a: Any, n: int | None = None, axis: int = -1, norm: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.fft`."""
    return _one_dimensional("fft", a, n, axis, norm, out)


def ifft(
    a: Any, n: int | None = None, axis: int = -1, norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.ifft`."""
    return _one_dimensional("ifft", a, n, axis, norm, out)


def rfft(
    a: Any, n: int | None = None, axis: int = -1, norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.rfft`."""
    return _one_dimensional("rfft", a, n, axis, norm, out)


def irfft(
    a: Any, n: int | None = None, axis: int = -1, norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.irfft`."""
    return _one_dimensional("irfft", a, n, axis, norm, out)


def hfft(
    a: Any, n: int | None = None, axis: int = -1, norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.hfft`."""
    return _one_dimensional("hfft", a, n, axis, norm, out)


def ihfft(
    a: Any, n: int | None = None, axis: int = -1, norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.ihfft`."""
    return _one_dimensional("ihfft", a, n, axis, norm, out)


def _n_dimensional(
    kind: str, a: Any, s: Any, axes: Any, norm: Any, out: Any, inverse_real: bool = False
) -> ndarray:
    """NumPy's n-D transforms as 1-D ones: complex ones along every axis, last axis first;
    ``rfftn`` does its real axis (the last) first, ``irfftn`` its real axis last."""
    expr = asarray(a)._read()
    stand_in = numpy.broadcast_to(numpy.zeros((), dtype=expr.dtype), expr.shape)
    lengths, axes = _pocketfft._cook_nd_args(  # type: ignore[attr-defined]
        stand_in, s, axes, invreal=inverse_real
    )
    steps = [
        ("fft" if kind == "rfft" else kind, n, axis) for n, axis in zip(lengths, axes, strict=True)
    ]
    if kind == "rfft":
        steps = [("rfft", lengths[-1], axes[-1])] + list(reversed(steps[:-1]))
    elif kind == "irfft":
        steps = [("ifft", n, axis) for n, axis in zip(lengths[:-1], axes[:-1], strict=True)]
        steps.append(("irfft", lengths[-1], axes[-1]))
    else:
        steps.reverse()
    for step_kind, n, axis in steps:
        expr = _transform(step_kind, expr, n, axis, norm)
    return _to_out(ndarray._from_expr(expr), out)


def fftn(a: Any, s: Any = None, axes: Any = None, norm: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.fftn`."""
    return _n_dimensional("fft", a, s, axes, norm, out)


def ifftn(a: Any, s: Any = None, axes: Any = None, norm: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.ifftn`."""
    return _n_dimensional("ifft", a, s, axes, norm, out)


def rfftn(a: Any, s: Any = None, axes: Any = None, norm: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.rfftn`."""
    return _n_dimensional("rfft", a, s, axes, norm, out)


def irfftn(a: Any, s: Any = None, axes: Any = None, norm: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.irfftn`."""
    return _n_dimensional("irfft", a, s, axes, norm, out, inverse_real=True)


def fft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.fft2`."""
    return _n_dimensional("fft", a, s, axes, norm, out)


def ifft2(
    a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.ifft2`."""
    return _n_dimensional("ifft", a, s, axes, norm, out)


def rfft2(
    a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.rfft2`."""
    return _n_dimensional("rfft", a, s, axes, norm, out)


def irfft2(
    a: Any, s: Any = None, axes: Any = (-2, -1), norm: Any = None, out: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.irfft2`."""
    return _n_dimensional("irfft", a, s, axes, norm, out, inverse_real=True)


def fftfreq(n: int, d: Any = 1.0, device: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.fftfreq`."""
    check_device(device)
    if not isinstance(n, (int, numpy.integer)):
        raise ValueError("n should be an integer")
    value = 1.0 / (n * d)
    return ufuncs["multiply"](_wrap_index(arange(n), n), value)


def _wrap_index(k: ndarray, n: int) -> ndarray:
    """``k`` for the first half, ``k - n`` for the second (NumPy's negative frequencies)."""
    second_half = ufuncs["greater_equal"](k, (n + 1) // 2)
    return ufuncs["subtract"](k, ufuncs["multiply"](n, second_half))


def rfftfreq(n: int, d: Any = 1.0, device: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.rfftfreq`."""
    check_device(device)
    if not isinstance(n, (int, numpy.integer)):
        raise ValueError("n should be an integer")
    return ufuncs["multiply"](arange(n // 2 + 1), 1.0 / (n * d))


def _shift(x: Any, axes: Any, inverse: bool) -> ndarray:
    expr = asarray(x)._read()
    if axes is None:
        axes = tuple(range(expr.ndim))
    elif isinstance(axes, (int, numpy.integer)):
        axes = (axes,)
    axes = tuple(normalize_axis_index(axis, expr.ndim) for axis in axes)
    shift = [(-(expr.shape[axis] // 2) if inverse else expr.shape[axis] // 2) for axis in axes]
    keywords = (("shift", tuple(shift)), ("axis", axes))
    return ndarray._from_expr(DaskCall("roll", (expr,), expr.shape, expr.dtype, keywords))


def fftshift(x: Any, axes: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.fftshift`."""
    return _shift(x, axes, inverse=False)


def ifftshift(x: Any, axes: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.fft.ifftshift`."""
    return _shift(x, axes, inverse=True)
