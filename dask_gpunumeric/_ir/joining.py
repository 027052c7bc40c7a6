"""Joining arrays along an existing axis."""

from __future__ import annotations

from typing import Any

from .expr import Expr


class Concatenate(Expr):
    """``operands`` (already of one dtype) joined along ``axis``. The result keeps the
    first operand's chunking along the other axes: an operand chunked differently there
    is rechunked to it, rather than every operand cut at the union of all boundaries
    (dask's ``unify_chunks`` route, which leaves slivers)."""

    __slots__ = ("axis",)

    def __init__(self, operands: tuple[Expr, ...], axis: int, shape: tuple[int, ...], dtype: Any):
        super().__init__(shape, dtype, operands)
        self.axis = axis
