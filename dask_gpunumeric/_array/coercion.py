"""Turning what users pass (our arrays, scalars, nested lists, NumPy and dask arrays) into
expression operands."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy

from .._ir.elementwise import cast_node
from .._ir.expr import Expr
from .._ir.leaves import DaskData, HostData

PYTHON_SCALARS = (bool, int, float, complex)
# Kinds our arrays do not hold: objects, strings, bytes, voids, datetimes, timedeltas.
UNSUPPORTED_KINDS = "OSUVMm"


def check_dtype(dtype: numpy.dtype) -> None:
    if dtype.kind in UNSUPPORTED_KINDS:
        raise TypeError(
            f"dask_gpunumeric does not support arrays of dtype {dtype}; use numpy for those "
            "(numeric and bool dtypes only)"
        )


def as_expr(value: Any, dtype: Any = None) -> Expr:
    """An expression for any array-like ``value``, cast to ``dtype`` if given."""
    from .ndarray import ndarray

    if isinstance(value, ndarray):
        expr = value._read()
    elif isinstance(value, Expr):
        expr = value
    elif isinstance(value, da.Array):
        check_dtype(value.dtype)
        expr = DaskData(value)
    else:
        host = numpy.asarray(value, dtype=dtype)
        check_dtype(host.dtype)
        # A list's array is new; anything else may share the user's memory: copy that.
        expr = HostData(host, owned=isinstance(value, (list, tuple)))
    return expr if dtype is None else cast_node(expr, dtype)


def as_operand(value: Any) -> Any:
    """An ufunc operand: Python scalars stay weak scalars (NEP 50), NumPy scalars stay
    strong scalars, everything else becomes an expression."""
    if isinstance(value, PYTHON_SCALARS) or isinstance(value, numpy.generic):
        if isinstance(value, numpy.generic):
            check_dtype(value.dtype)
        return value
    return as_expr(value)
