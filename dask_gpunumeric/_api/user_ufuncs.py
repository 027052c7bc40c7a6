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
from .._kernels.user_functions import portable
from .ndarray import ndarray


def is_user_ufunc(ufunc: Any) -> bool:
    """True for a ufunc-like object that is not NumPy's ufunc of the same name."""
    return getattr(numpy, getattr(ufunc, "__name__", ""), None) is not ufunc and hasattr(
        ufunc, "nin"
    )


def apply_user_ufunc(ufunc: Any, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``ufunc(*inputs, out=..., where=..., casting=...)`` as one chunk-wise node, written
    into ``out`` (ours, or a host array: computed and copied) as our ufuncs write;
    ``NotImplemented`` for what that cannot express (other keywords, operands that are
    arrays of another kind); ufuncs of several outputs are refused clearly."""
    keywords = dict(kwargs)
    out, where = keywords.pop("out", None), keywords.pop("where", True)
    casting = keywords.pop("casting", "same_kind")
    if getattr(ufunc, "nout", 1) != 1:
        raise NotImplementedError(
            f"dask_gpunumeric applies user ufuncs of one output; {ufunc!r} has {ufunc.nout}: "
            "compute the arrays first (a.compute()) for it"
        )
    if keywords:
        return NotImplemented
    if any(not _is_operand(x) for x in inputs):
        return NotImplemented
    from .creation import asarray

    inputs = tuple(asarray(x) if isinstance(x, numpy.ndarray) else x for x in inputs)
    ours = [x for x in inputs if isinstance(x, ndarray)]
    shape = numpy.broadcast_shapes(*(numpy.shape(x) for x in inputs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = ufunc(*(_stand_in(x) for x in inputs))
    if not ours or shape == () or not isinstance(probe, numpy.ndarray):
        return NotImplemented
    arguments = tuple(x._read() if isinstance(x, ndarray) else x for x in inputs)
    node = ChunkwiseCall(portable(ufunc), arguments, (), shape, probe.dtype)
    if out is None and where is True:
        return ndarray._from_expr(node)
    return _write_user_result(ufunc, node, out, where, casting)


def _write_user_result(ufunc: Any, node: ChunkwiseCall, out: Any, where: Any, casting: str) -> Any:
    """The result into ``out`` under ``where``, with NumPy's casting check; a host ``out``
    receives it computed (``host_outputs``)."""
    from . import host_outputs
    from .ufuncs import _check_where, _write_output

    target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    host_outputs.check_output(target)
    _check_where(where)
    if target is not None:
        host_outputs.check_cast(ufunc, casting, node.dtype, target.dtype)
    if not host_outputs.is_host_output(target):
        return _write_output(ufunc, node, target, where, casting)
    stand_in = host_outputs.stand_in_for(target, keep_values=where is not True)
    _write_output(ufunc, node, stand_in, where, casting)
    return host_outputs.assign(target, stand_in)


def _is_operand(value: Any) -> bool:
    return isinstance(value, (ndarray, numpy.ndarray, int, float, complex, bool, numpy.generic))


def _stand_in(value: Any) -> Any:
    if isinstance(value, ndarray):
        return numpy.ones((1,) * max(value.ndim, 1), dtype=value.dtype)
    return value
