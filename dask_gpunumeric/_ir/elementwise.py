"""Elementwise nodes: ufuncs, casts, ``where`` and ``clip``, with scalar broadcasting.

One node kind for all of them so the fusion pass sees a single family.
"""

from __future__ import annotations

from typing import Any

import numpy

from .dtypes import broadcast_shapes, operand_shape, stand_in
from .expr import Expr

Params = tuple[tuple[str, Any], ...]


class Elementwise(Expr):
    """``op`` applied elementwise to ``operands`` (nodes or scalars), broadcast together.

    ``op`` is a ufunc name from ``ufunc_table``, or ``"astype"``, ``"where"``, ``"clip"``.
    ``params`` are keyword arguments for the chunk call (``dtype``, ``casting``), plus
    ``output`` selecting one result of a two-output ufunc.
    """

    __slots__ = ("op", "operands", "params")

    def __init__(
        self,
        op: str,
        operands: tuple[Any, ...],
        shape: tuple[int, ...],
        dtype: Any,
        params: Params = (),
    ) -> None:
        super().__init__(shape, dtype, tuple(x for x in operands if isinstance(x, Expr)))
        self.op = op
        self.operands = operands
        self.params = params


def ufunc_node(
    op: str,
    numpy_ufunc: numpy.ufunc,
    operands: tuple[Any, ...],
    dtype: Any = None,
    casting: str = "same_kind",
) -> tuple[Elementwise, ...]:
    """Nodes for ``numpy_ufunc(*operands, dtype=dtype)``, one per output. NumPy's errors in
    NumPy's order: types first, then shapes."""
    kwargs: dict[str, Any] = {"casting": casting}
    if dtype is not None:
        kwargs["dtype"] = numpy.dtype(dtype)
    probe = numpy_ufunc(*(stand_in(x) for x in operands), **kwargs)
    shape = broadcast_shapes(*(operand_shape(x) for x in operands))
    results = probe if isinstance(probe, tuple) else (probe,)
    # The probe checked the casting; chunks get dtype and casting only when dtype was given.
    params: Params = tuple(sorted(kwargs.items())) if dtype is not None else ()
    if len(results) == 1:
        return (Elementwise(op, operands, shape, results[0].dtype, params),)
    return tuple(
        Elementwise(op, operands, shape, result.dtype, params + (("output", k),))
        for k, result in enumerate(results)
    )


def cast_node(operand: Expr, dtype: Any) -> Expr:
    """``operand.astype(dtype)`` (unsafe casting, like NumPy's default); a no-op when equal."""
    dtype = numpy.dtype(dtype)
    if operand.dtype == dtype:
        return operand
    return Elementwise("astype", (operand,), operand.shape, dtype, (("dtype", dtype),))


def where_node(condition: Any, x: Any, y: Any) -> Elementwise:
    """``where(condition, x, y)``, with NumPy's dtype for x and y (weak scalars included)."""
    shape = broadcast_shapes(*(operand_shape(v) for v in (condition, x, y)))
    dtype = numpy.where(stand_in(condition), stand_in(x), stand_in(y)).dtype
    return Elementwise("where", (condition, x, y), shape, dtype)


def clip_node(operand: Any, low: Any, high: Any) -> Elementwise:
    """``clip(operand, low, high)``; ``None`` bounds are dropped as NumPy does."""
    shape = broadcast_shapes(*(operand_shape(v) for v in (operand, low, high)))
    dtype = numpy.clip(stand_in(operand), stand_in(low), stand_in(high)).dtype
    return Elementwise("clip", (operand, low, high), shape, dtype)


def component_node(part: str, operand: Expr) -> Elementwise:
    """``numpy.real(operand)`` or ``numpy.imag(operand)`` (``part``), as a new value."""
    dtype = getattr(numpy, part)(stand_in(operand)).dtype
    return Elementwise(part, (operand,), operand.shape, dtype)


def from_parts_node(real: Expr, imag: Expr, dtype: Any) -> Elementwise:
    """The complex ``dtype`` array whose real and imaginary parts are ``real`` and ``imag``
    (broadcast together), copied exactly: ``real + 1j * imag`` would turn an infinite
    imaginary part into a NaN real part (``1j * inf`` is ``nan + infj``)."""
    dtype = numpy.dtype(dtype)
    if dtype.kind != "c":
        raise TypeError(f"from_parts builds complex arrays, not {dtype}")
    shape = broadcast_shapes(real.shape, imag.shape)
    return Elementwise("from_parts", (real, imag), shape, dtype)
