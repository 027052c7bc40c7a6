"""Products (NumPy reference: "Linear algebra", matrix and vector products)."""

from __future__ import annotations

from typing import Any

import numpy

from .._array import tiny_ufuncs
from .._array.coercion import as_expr
from .._ir.dask_call import DaskCall
from .._ir.products import Matmul, Tensordot
from . import host_outputs
from .ndarray import ndarray
from .ufuncs import ufuncs

__all__ = [
    "dot",
    "einsum",
    "inner",
    "kron",
    "matmul",
    "matvec",
    "outer",
    "tensordot",
    "vdot",
    "vecdot",
    "vecmat",
]


def _to_out(result: ndarray, out: Any) -> ndarray:
    if out is None:
        return result
    if out.shape != result.shape or out.dtype != result.dtype:
        raise ValueError(
            "output array is not acceptable (must have the right datatype, "
            "number of dimensions, and be a C-Array)"
        )
    out[...] = result
    return out


def dot(a: Any, b: Any, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.dot`."""
    left, right = as_expr(a), as_expr(b)
    if left.ndim == 0 or right.ndim == 0:
        return _to_out(ufuncs["multiply"](ndarray._from_expr(left), ndarray._from_expr(right)), out)
    contracted = right.ndim - 2 if right.ndim >= 2 else 0
    if left.shape[-1] != right.shape[contracted]:
        raise ValueError(
            f"shapes {left.shape} and {right.shape} not aligned: {left.shape[-1]} (dim "
            f"{left.ndim - 1}) != {right.shape[contracted]} (dim {contracted})"
        )
    return _to_out(ndarray._from_expr(Tensordot(left, right, (left.ndim - 1,), (contracted,))), out)


def inner(a: Any, b: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.inner`."""
    left, right = as_expr(a), as_expr(b)
    if left.ndim == 0 or right.ndim == 0:
        return ufuncs["multiply"](ndarray._from_expr(left), ndarray._from_expr(right))
    if left.shape[-1] != right.shape[-1]:
        raise ValueError(
            f"shapes {left.shape} and {right.shape} not aligned: {left.shape[-1]} (dim "
            f"{left.ndim - 1}) != {right.shape[-1]} (dim {right.ndim - 1})"
        )
    return ndarray._from_expr(Tensordot(left, right, (left.ndim - 1,), (right.ndim - 1,)))


def vdot(a: Any, b: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.vdot` (conjugates ``a``)."""
    left = ndarray._from_expr(as_expr(a)).ravel()
    right = ndarray._from_expr(as_expr(b)).ravel()
    if left.size != right.size:
        raise ValueError(f"cannot reshape array of size {right.size} into shape ({left.size},)")
    if left.dtype.kind == "c":
        left = ufuncs["conjugate"](left)
    return ndarray._from_expr(Tensordot(as_expr(left), as_expr(right), (0,), (0,)))


def outer(a: Any, b: Any, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.outer`."""
    left = ndarray._from_expr(as_expr(a)).ravel()
    right = ndarray._from_expr(as_expr(b)).ravel()
    return ufuncs["multiply"](left[:, None], right[None, :], out=out)


# The axes NumPy's ``ndarray.__imatmul__`` passes: matmul's own defaults.
_IN_PLACE_AXES = [(-2, -1), (-2, -1), (-2, -1)]


def matmul(a: Any, b: Any, /, out: Any = None, **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.matmul`.

    Differences from NumPy: no ``casting``/``order``/``dtype``/``axes``/``axis`` arguments.
    """
    if kwargs.get("axes") == _IN_PLACE_AXES:
        del kwargs["axes"]  # ``a @= b`` passes matmul's default axes
    if kwargs:
        raise NotImplementedError(f"dask_gpunumeric.matmul does not support {sorted(kwargs)}")
    if isinstance(out, tuple):  # the ufunc protocol passes out as a 1-tuple
        (out,) = out
    if out is None:
        computed = tiny_ufuncs.matmul(a, b, ndarray)
        if computed is not tiny_ufuncs.NOT_TAKEN:
            return computed
    result = ndarray._from_expr(Matmul(as_expr(a), as_expr(b)))
    if out is None:
        return result
    return _matmul_to_out(result, out)


def _matmul_to_out(result: ndarray, out: Any) -> ndarray:
    """``out=`` as the matmul ufunc takes it (NumPy's order: ``same_kind`` casting, then
    the shape); a host array receives the result computed."""
    host_outputs.check_output(out)
    host_outputs.check_cast(numpy.matmul, "same_kind", result.dtype, out.dtype)
    if out.shape != result.shape:
        raise ValueError(
            f"matmul: Output operand 0 has a mismatch in its core dimension, with gufunc "
            f"signature (n?,k),(k,m?)->(n?,m?) (shape {out.shape} is not {result.shape})"
        )
    return host_outputs.assign(out, result)


def tensordot(a: Any, b: Any, axes: Any = 2) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.tensordot`."""
    left, right = as_expr(a), as_expr(b)
    left_axes, right_axes = _tensordot_axes(left.shape, right.shape, axes)
    return ndarray._from_expr(Tensordot(left, right, left_axes, right_axes))


def _as_axis_list(axes: Any) -> list[Any]:
    try:
        return list(axes)
    except TypeError:
        return [axes]


def _tensordot_axes(
    left: tuple[int, ...], right: tuple[int, ...], axes: Any
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """NumPy's ``tensordot`` axis handling, step for step, so that its errors are NumPy's
    (``IndexError`` for an axis out of range, ``ValueError`` for duplicates or a mismatch)."""
    try:
        iter(axes)
    except TypeError:
        left_axes, right_axes = list(range(-axes, 0)), list(range(axes))
    else:
        left_axes, right_axes = (_as_axis_list(x) for x in axes)
    if len(set(left_axes)) != len(left_axes) or len(set(right_axes)) != len(right_axes):
        raise ValueError("duplicate axes are not allowed in tensordot")
    if len(left_axes) != len(right_axes):
        raise ValueError("shape-mismatch for sum")
    for k, (i, j) in enumerate(zip(left_axes, right_axes, strict=True)):
        if left[i] != right[j]:
            raise ValueError("shape-mismatch for sum")
        left_axes[k] = i + len(left) if i < 0 else i
        right_axes[k] = j + len(right) if j < 0 else j
    if len(set(left_axes)) != len(left_axes) or len(set(right_axes)) != len(right_axes):
        raise ValueError("repeated axis in transpose")  # where NumPy's transpose refuses
    return tuple(left_axes), tuple(right_axes)


# -- math section (api-math): einsum and kron ----------------------------------------------
def einsum(
    subscripts: Any,
    *operands: Any,
    out: Any = None,
    dtype: Any = None,
    order: str = "K",
    casting: str = "safe",
    optimize: Any = False,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.einsum` (through ``dask.array.einsum``).

    Differences from NumPy: subscripts as a string only (not the interleaved
    ``(operand, sublist, ...)`` form); ``optimize`` is dask's concern and ignored.
    """
    if not isinstance(subscripts, str):
        raise NotImplementedError(
            "dask_gpunumeric.einsum takes its subscripts as a string, e.g. einsum('ij,jk', a, b)"
        )
    arrays = [ndarray._from_expr(as_expr(x)) for x in operands]
    # NumPy's errors on zero-memory stand-ins of the real shapes (einsum_path computes nothing).
    stand_ins = [numpy.broadcast_to(numpy.zeros((), a.dtype), a.shape) for a in arrays]
    numpy.einsum_path(subscripts, *stand_ins, optimize="greedy")
    ones = [numpy.ones((1,) * a.ndim, a.dtype) for a in arrays]
    einsum_probe: Any = numpy.einsum
    result_dtype = einsum_probe(subscripts, *ones, dtype=dtype, casting=casting).dtype
    # dask may sum in a wider dtype than NumPy's: cast back (integer sums wrap alike).
    result_shape = _einsum_shape(subscripts.replace(" ", ""), [a.shape for a in arrays])
    keywords = (("dtype", dtype), ("casting", casting))
    node = DaskCall(
        "einsum",
        (subscripts, *(a._read() for a in arrays)),
        result_shape,
        result_dtype,
        keywords,
    )
    return _to_out(ndarray._from_expr(node), out)


def _einsum_shape(subscripts: str, shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The output shape of valid (``einsum_path`` checked them) ``subscripts``."""
    inputs, _, output = subscripts.partition("->")
    sizes: dict[str, int] = {}
    ellipsis: tuple[int, ...] = ()
    for term, shape in zip(inputs.split(","), shapes, strict=True):
        head, dots, tail = term.partition("...")
        spread = len(shape) - len(head) - len(tail) if dots else 0
        ellipsis = numpy.broadcast_shapes(ellipsis, shape[len(head) : len(head) + spread])
        kept = shape[: len(head)] + shape[len(head) + spread :]
        for label, size in zip(head + tail, kept, strict=True):
            sizes[label] = max(sizes.get(label, 1), size)
    if "->" not in subscripts:  # implicit: broadcast dims, then labels seen once, sorted
        once = sorted(c for c in set(inputs) if c.isalpha() and inputs.count(c) == 1)
        output = "..." + "".join(once)
    head, dots, tail = output.partition("...")
    broadcast = ellipsis if dots else ()
    return (*(sizes[c] for c in head), *broadcast, *(sizes[c] for c in tail))


def kron(a: Any, b: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.kron`: the broadcast product of
    ``a`` and ``b`` with their axes interleaved, reshaped (one fused elementwise tree)."""
    left, right = ndarray._from_expr(as_expr(a)), ndarray._from_expr(as_expr(b))
    if left.ndim == 0 or right.ndim == 0:
        return ufuncs["multiply"](left, right)
    ndim = max(left.ndim, right.ndim)
    left_shape = (1,) * (ndim - left.ndim) + left.shape
    right_shape = (1,) * (ndim - right.ndim) + right.shape
    # a[i0, None, i1, None, ...] * b[None, j0, None, j1, ...]
    spread_left = left.reshape(*(n for size in left_shape for n in (size, 1)))
    spread_right = right.reshape(*(n for size in right_shape for n in (1, size)))
    product = ufuncs["multiply"](spread_left, spread_right)
    return product.reshape(*(m * n for m, n in zip(left_shape, right_shape, strict=True)))


# -- end of the math section ---------------------------------------------------------------


def _gufunc_check(name: str, x1: Any, x2: Any, axes: Any) -> tuple[ndarray, ndarray]:
    """Our operands, after NumPy's gufunc checks on cheap stand-ins of the same shapes."""
    from .creation import asarray

    a, b = asarray(x1), asarray(x2)
    stand_ins = [numpy.broadcast_to(numpy.zeros((), o.dtype), o.shape) for o in (a, b)]
    keywords = {} if axes is None else {"axes": axes}
    getattr(numpy, name)(*stand_ins, **keywords)
    return a, b


def vecdot(x1: Any, x2: Any, /, out: Any = None, *, axis: int = -1, **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.vecdot` (conjugates ``x1``)."""
    from .linalg_products import vecdot as linalg_vecdot

    a, b = _gufunc_check("vecdot", x1, x2, [(axis,), (axis,), ()])
    return _to_out(linalg_vecdot(a, b, axis=axis), out)


def matvec(x1: Any, x2: Any, /, out: Any = None, **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.matvec` (an ``einsum``)."""
    a, b = _gufunc_check("matvec", x1, x2, None)
    return _to_out(einsum("...ij,...j->...i", a, b), out)


def vecmat(x1: Any, x2: Any, /, out: Any = None, **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.vecmat` (conjugates ``x1``)."""
    a, b = _gufunc_check("vecmat", x1, x2, None)
    conjugated = ufuncs["conjugate"](a) if a.dtype.kind == "c" else a
    return _to_out(einsum("...i,...ij->...j", conjugated, b), out)
