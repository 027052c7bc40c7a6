"""Turning what users pass (our arrays, scalars, nested lists, NumPy and dask arrays) into
expression operands."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy

from .._ir.elementwise import cast_node
from .._ir.expr import Expr
from .._ir.leaves import DaskData, HostData
from .._runtime import dask_arrays as da

if TYPE_CHECKING:
    from .handle import ArrayHandle

PYTHON_SCALARS = (bool, int, float, complex)
# Kinds our arrays do not hold: objects, strings, bytes, voids, datetimes, timedeltas.
UNSUPPORTED_KINDS = "OSUVMm"


def check_dtype(dtype: numpy.dtype) -> None:
    if dtype.kind in UNSUPPORTED_KINDS:
        raise TypeError(
            f"dask_gpunumeric does not support arrays of dtype {dtype}; use numpy for those "
            "(numeric and bool dtypes only)"
        )


@functools.cache
def handle_type() -> type[ArrayHandle]:
    """Our arrays' base class, imported once (``handle.py`` imports this module, so a
    module-level import would be circular; an import per call costs about as much as a tiny
    ufunc)."""
    from .handle import ArrayHandle

    return ArrayHandle


def as_expr(value: Any, dtype: Any = None) -> Expr:
    """An expression for any array-like ``value``, cast to ``dtype`` if given."""
    if isinstance(value, Expr):
        expr = value
    elif isinstance(value, handle_type()):
        expr = value._read()
    elif da.is_dask_array(value):
        check_dtype(value.dtype)
        expr = DaskData(da.task_graph_array(value))
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
