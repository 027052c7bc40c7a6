"""Sums, products, differences (NumPy reference: "Mathematical functions"): ``diff``,
``gradient``, ``cross``.

All three are shifted views and ufuncs, written into a new array region by region as
NumPy writes them: no concatenation, no rechunking. Shifted views of one array are
lowered by output blocks (DESIGN §4), and the elementwise trees fuse.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy

from .creation import asarray, empty
from .elementwise import astype
from .ndarray import ndarray
from .ufuncs import ufuncs

__all__ = ["cross", "diff", "gradient"]

_NoValue = numpy._NoValue  # type: ignore[attr-defined]


def _along(ndim: int, axis: int, index: Any) -> tuple[Any, ...]:
    """``index`` on ``axis``, everything on the other axes."""
    return tuple(index if i == axis else slice(None) for i in range(ndim))


def _moveaxis(array: ndarray, source: int, destination: int) -> ndarray:
    order = [i for i in range(array.ndim) if i != source]
    order.insert(destination % array.ndim, source)
    return array.transpose(*order)


def _edge(array: ndarray, value: Any, axis: int) -> ndarray:
    """``prepend``/``append``: a scalar becomes one slab along ``axis`` (of the scalar's
    NumPy dtype: ``0`` is int64), as in NumPy."""
    slab = asarray(value)
    if slab.ndim == 0:
        shape = list(array.shape)
        shape[axis] = 1
        full = empty(tuple(shape), dtype=slab.dtype)
        full[...] = slab
        return full
    return slab


def diff(
    a: Any, n: int = 1, axis: int = -1, prepend: Any = _NoValue, append: Any = _NoValue
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.diff`."""
    array = asarray(a)
    if n == 0:
        return array
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    if array.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = numpy.lib.array_utils.normalize_axis_index(axis, array.ndim)
    pieces = [array]
    if prepend is not _NoValue:
        pieces.insert(0, _edge(array, prepend, axis))
    if append is not _NoValue:
        pieces.append(_edge(array, append, axis))
    if len(pieces) > 1:
        array = _concatenate(pieces, axis)
    subtract = ufuncs["not_equal"] if array.dtype == bool else ufuncs["subtract"]
    for _ in range(n):
        later = array[_along(array.ndim, axis, slice(1, None))]
        earlier = array[_along(array.ndim, axis, slice(None, -1))]
        array = subtract(later, earlier)
    return array


def _concatenate(pieces: list[ndarray], axis: int) -> ndarray:
    """NumPy's ``concatenate`` (its dtype and ``ValueError``), written region by region."""
    for piece in pieces:
        if piece.ndim != pieces[0].ndim or any(
            m != n
            for i, (m, n) in enumerate(zip(piece.shape, pieces[0].shape, strict=True))
            if i != axis
        ):
            raise ValueError(
                "all the input array dimensions except for the concatenation axis must match "
                f"exactly: {pieces[0].shape} and {piece.shape}"
            )
    dtype = numpy.result_type(*(p.dtype for p in pieces))
    shape = list(pieces[0].shape)
    shape[axis] = sum(p.shape[axis] for p in pieces)
    result = empty(tuple(shape), dtype=dtype)
    start = 0
    for piece in pieces:
        stop = start + piece.shape[axis]
        result[_along(result.ndim, axis, slice(start, stop))] = piece
        start = stop
    return result


def _spacings(f: ndarray, axes: tuple[int, ...], varargs: tuple[Any, ...]) -> list[Any]:
    """Each axis's spacing: a scalar, or the differences of its (host) coordinates."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and numpy.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("invalid number of arguments")
    spacings: list[Any] = []
    for axis, given in zip(axes, varargs, strict=True):
        distances = numpy.asarray(given)  # coordinates are small: ours are computed here
        if distances.ndim == 0:
            spacings.append(given)
            continue
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(distances) != f.shape[axis]:
            raise ValueError(
                "when 1d, distances must match the length of the corresponding dimension"
            )
        if distances.dtype.kind in "iu":
            distances = distances.astype(numpy.float64)
        steps = numpy.diff(distances)
        spacings.append(steps[0] if (steps == steps[0]).all() else steps)
    return spacings


def _weighted(parts: list[tuple[Any, ndarray]]) -> ndarray:
    """``a * f0 + b * f1 + c * f2`` in NumPy's order of operations."""
    total = None
    for weight, values in parts:
        term = ufuncs["multiply"](weight, values)
        total = term if total is None else ufuncs["add"](total, term)
    assert total is not None
    return total


def _interior(f: ndarray, axis: int, spacing: Any) -> ndarray:
    ahead, behind = (
        f[_along(f.ndim, axis, slice(2, None))],
        f[_along(f.ndim, axis, slice(None, -2))],
    )
    if numpy.ndim(spacing) == 0:
        return ufuncs["divide"](ufuncs["subtract"](ahead, behind), 2.0 * spacing)
    before, after = spacing[:-1], spacing[1:]
    shape = [1] * f.ndim
    shape[axis] = -1
    weights = (
        -after / (before * (before + after)),
        (after - before) / (before * after),
        before / (after * (before + after)),
    )
    middle = f[_along(f.ndim, axis, slice(1, -1))]
    values = (behind, middle, ahead)
    return _weighted([(w.reshape(shape), v) for w, v in zip(weights, values, strict=True)])


def _edges_first_order(f: ndarray, axis: int, spacing: Any) -> tuple[ndarray, ndarray]:
    uniform = numpy.ndim(spacing) == 0
    first, last = (spacing, spacing) if uniform else (spacing[0], spacing[-1])
    at = lambda i: f[_along(f.ndim, axis, i)]  # noqa: E731
    start = ufuncs["divide"](ufuncs["subtract"](at(1), at(0)), first)
    end = ufuncs["divide"](ufuncs["subtract"](at(-1), at(-2)), last)
    return start, end


def _edges_second_order(f: ndarray, axis: int, spacing: Any) -> tuple[ndarray, ndarray]:
    if numpy.ndim(spacing) == 0:
        start_weights = (-1.5 / spacing, 2.0 / spacing, -0.5 / spacing)
        end_weights = (0.5 / spacing, -2.0 / spacing, 1.5 / spacing)
    else:
        h1, h2 = spacing[0], spacing[1]
        start_weights = (
            -(2.0 * h1 + h2) / (h1 * (h1 + h2)),
            (h1 + h2) / (h1 * h2),
            -h1 / (h2 * (h1 + h2)),
        )
        h1, h2 = spacing[-2], spacing[-1]
        end_weights = (
            h2 / (h1 * (h1 + h2)),
            -(h2 + h1) / (h1 * h2),
            (2.0 * h2 + h1) / (h2 * (h1 + h2)),
        )
    at = lambda i: f[_along(f.ndim, axis, i)]  # noqa: E731
    start = _weighted([(w, at(i)) for w, i in zip(start_weights, (0, 1, 2), strict=True)])
    end = _weighted([(w, at(i)) for w, i in zip(end_weights, (-3, -2, -1), strict=True)])
    return start, end


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.gradient`.

    Differences from NumPy: coordinate arrays (1-d spacings) are brought to the client.
    """
    array = asarray(f)
    axes = tuple(range(array.ndim)) if axis is None else _axes(axis, array.ndim)
    spacings = _spacings(array, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    dtype = array.dtype
    if dtype.kind not in "fc":
        if dtype.kind in "iu":
            array = astype(array, numpy.float64)
        dtype = numpy.dtype(numpy.float64)
    results = []
    for ax, spacing in zip(axes, spacings, strict=True):
        if array.shape[ax] < edge_order + 1:
            raise ValueError(
                "Shape of array too small to calculate a numerical gradient, "
                "at least (edge_order + 1) elements are required."
            )
        out = empty(array.shape, dtype=dtype)
        out[_along(array.ndim, ax, slice(1, -1))] = _interior(array, ax, spacing)
        edges = _edges_first_order if edge_order == 1 else _edges_second_order
        start, end = edges(array, ax, spacing)
        out[_along(array.ndim, ax, 0)] = start
        out[_along(array.ndim, ax, -1)] = end
        results.append(out)
    return results[0] if len(axes) == 1 else tuple(results)


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    return numpy._core.numeric.normalize_axis_tuple(axis, ndim)  # type: ignore[attr-defined]


def cross(
    a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.cross`."""
    left, right = asarray(a), asarray(b)
    if left.ndim == 0 or right.ndim == 0:
        raise ValueError("At least one array has zero dimension")
    if axis is not None:
        axisa = axisb = axisc = axis
    left = _moveaxis(left, numpy.lib.array_utils.normalize_axis_index(axisa, left.ndim), -1)
    right = _moveaxis(right, numpy.lib.array_utils.normalize_axis_index(axisb, right.ndim), -1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        numpy.cross(
            numpy.ones(left.shape[-1:], left.dtype), numpy.ones(right.shape[-1:], right.dtype)
        )  # NumPy's errors for vector lengths and dtypes, and its warnings
    # NumPy 2.0-2.4 deprecate 2-element vectors; the H100 check's NumPy 2.5 no longer
    # warned: whatever this NumPy says, at the caller's line.
    for warning in caught:
        warnings.warn(warning.message, warning.category, stacklevel=2)
    shape = numpy.broadcast_shapes(left.shape[:-1], right.shape[:-1])
    components = _cross_components(left, right)
    if len(components) == 1:
        return components[0]
    axisc = numpy.lib.array_utils.normalize_axis_index(axisc, len(shape) + 1)
    dtype = numpy.promote_types(left.dtype, right.dtype)
    result = empty((*shape, 3), dtype=dtype)
    for i, component in enumerate(components):
        result[..., i] = component
    return _moveaxis(result, result.ndim - 1, axisc)


def _cross_components(left: ndarray, right: ndarray) -> list[ndarray]:
    """The product's components, each as NumPy computes it (``a1*b2 - a2*b1``...)."""
    mul, sub, neg = ufuncs["multiply"], ufuncs["subtract"], ufuncs["negative"]
    a = [left[..., i] for i in range(left.shape[-1])]
    b = [right[..., i] for i in range(right.shape[-1])]
    third = sub(mul(a[0], b[1]), mul(a[1], b[0]))
    if len(a) == 2 and len(b) == 2:
        return [third]
    if len(a) == 2:
        return [mul(a[1], b[2]), neg(mul(a[0], b[2])), third]
    if len(b) == 2:
        return [neg(mul(a[2], b[1])), mul(a[2], b[0]), third]
    return [sub(mul(a[1], b[2]), mul(a[2], b[1])), sub(mul(a[2], b[0]), mul(a[0], b[2])), third]
