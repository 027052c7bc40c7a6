"""Logic functions (NumPy reference section): comparing whole arrays.

``isclose`` is elementwise and built from ufunc nodes only, so the fusion pass makes it
one kernel per chunk. ``allclose``, ``array_equal`` and ``array_equiv`` answer with a
Python ``bool``, as NumPy does: they compute one boolean (a materialization boundary).
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy

from .._array.coercion import PYTHON_SCALARS
from . import reductions
from .creation import asarray
from .elementwise import astype
from .ndarray import ndarray
from .ufuncs import ufuncs

__all__ = ["allclose", "array_equal", "array_equiv", "isclose"]


def _operand(value: Any) -> Any:
    """NumPy's reading of an ``isclose`` operand: Python scalars stay (weak) scalars."""
    return value if isinstance(value, PYTHON_SCALARS) else asarray(value)


def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.isclose`.

    Differences from NumPy: two scalars give a 0-d array, not a NumPy ``bool``.
    """
    x, y, atol, rtol = (_operand(v) for v in (a, b, atol, rtol))
    if isinstance(y, ndarray):
        # NumPy makes ``y`` inexact, so that ``abs(MIN_INT)`` cannot overflow.
        y = astype(y, numpy.result_type(y.dtype, 1.0))
    elif isinstance(y, int):
        y = float(y)
    u = ufuncs
    within = u["less_equal"](
        u["absolute"](u["subtract"](x, y)), u["add"](atol, u["multiply"](rtol, u["absolute"](y)))
    )
    result = u["logical_or"](u["logical_and"](within, u["isfinite"](y)), u["equal"](x, y))
    if equal_nan:
        both_nan = u["logical_and"](u["isnan"](x), u["isnan"](y))
        result = u["logical_or"](result, both_nan)
    return result


def allclose(
    a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False
) -> builtins.bool:
    """dask_gpunumeric implementation of :func:`numpy.allclose` (computes one boolean)."""
    close = isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return builtins.bool(reductions.all(close))


def array_equal(a1: Any, a2: Any, equal_nan: builtins.bool = False) -> builtins.bool:
    """dask_gpunumeric implementation of :func:`numpy.array_equal` (computes one boolean)."""
    try:
        x, y = asarray(a1), asarray(a2)
    except (TypeError, ValueError):
        return False
    if x.shape != y.shape:
        return False
    equal = ufuncs["equal"](x, y)
    inexact = x.dtype.kind in "fc" or y.dtype.kind in "fc"
    if equal_nan and inexact:
        both_nan = ufuncs["logical_and"](ufuncs["isnan"](x), ufuncs["isnan"](y))
        equal = ufuncs["logical_or"](equal, both_nan)
    return builtins.bool(reductions.all(equal))


def array_equiv(a1: Any, a2: Any) -> builtins.bool:
    """dask_gpunumeric implementation of :func:`numpy.array_equiv` (computes one boolean)."""
    try:
        x, y = asarray(a1), asarray(a2)
        numpy.broadcast_shapes(x.shape, y.shape)
    except (TypeError, ValueError):
        return False
    return builtins.bool(reductions.all(ufuncs["equal"](x, y)))
