"""A user's own ufunc applied to our arrays: ``numba_ufunc(x)`` runs block by block.

A Numba ``@vectorize`` function (or ``numpy.frompyfunc``, or any ``numpy.ufunc`` that is
not one of NumPy's own) reaches ``ndarray.__array_ufunc__`` with a name our ufunc table
does not know. It is elementwise by definition, so the same result comes block by block on
any chunking: one ``ChunkwiseCall`` node holding the ufunc itself, which the workers call
on their blocks (Numba compiles there, per process, for the blocks' dtypes). Shape and
dtype are NumPy's, found at the call by running the ufunc on one-element stand-ins, so a
bad dtype raises the ufunc's own error at the call, as NumPy would.

Before/after, for ``f = numba.vectorize(lambda x, y: x * x + y)`` and ``f(a, 1.0)``::

    f(View(a), 1.0)  ->  ChunkwiseCall(f, (View(a), 1.0), shape=a.shape, dtype=float64)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy

from .._ir.chunkwise_call import ChunkwiseCall
from .ndarray import ndarray


def is_user_ufunc(ufunc: Any) -> bool:
    """True for a ufunc-like object that is not NumPy's ufunc of the same name."""
    return getattr(numpy, getattr(ufunc, "__name__", ""), None) is not ufunc and hasattr(
        ufunc, "nin"
    )


def apply_user_ufunc(ufunc: Any, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``ufunc(*inputs)`` as one chunk-wise node; ``NotImplemented`` for what that cannot
    express (keywords such as ``out=``/``where=``, several outputs, non-array operands
    that are arrays of another kind)."""
    if kwargs or getattr(ufunc, "nout", 1) != 1:
        return NotImplemented
    if any(not _is_operand(x) for x in inputs):
        return NotImplemented
    ours = [x for x in inputs if isinstance(x, ndarray)]
    shape = numpy.broadcast_shapes(*(numpy.shape(x) for x in inputs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = ufunc(*(_stand_in(x) for x in inputs))
    if not ours or shape == () or not isinstance(probe, numpy.ndarray):
        return NotImplemented
    arguments = tuple(x._read() if isinstance(x, ndarray) else x for x in inputs)
    return ndarray._from_expr(ChunkwiseCall(ufunc, arguments, (), shape, probe.dtype))


def _is_operand(value: Any) -> bool:
    return isinstance(value, (ndarray, int, float, complex, bool, numpy.generic))


def _stand_in(value: Any) -> Any:
    if isinstance(value, ndarray):
        return numpy.ones((1,) * max(value.ndim, 1), dtype=value.dtype)
    return value
