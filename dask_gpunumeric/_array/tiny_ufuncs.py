"""Ufunc calls on tiny arrays computed at once, by NumPy's own ufunc on the chunks.

A tiny ``x += 2 * y`` used to build four expression nodes (NumPy's dtype and casting
probed on stand-ins for each), walk them again in ``_kernels/in_process.py`` and run the
same ufunc there (``benchmarks/latency.py``: most of the 67 us it cost on threads was that
bookkeeping, not NumPy's 1 us). When every array operand is a whole base array holding a
``ChunkValue`` of the current backend (``Store`` evaluated it when it was written), the
call is that ufunc on those chunks: NumPy (CuPy, the simulated device) computes the value,
picks the dtype, applies ``casting`` into ``out`` and raises its own errors, in its order.
The result is stored as a ``ChunkValue`` leaf, as the in-process evaluation would have
made it.

Before/after, ``x += 2 * y`` with ``x`` and ``y`` tiny::

    Elementwise(multiply, 2, y) -> ChunkValue(t); SetItem(x, all, Elementwise(add, x, t))
    -> ChunkValue(multiply(2, y.value)); ChunkValue(add(x.value, t.value, out=fresh))

Anything else (views, ``where=``, ``dtype=``, other casting rules, NumPy scalars, lists,
lazy or large operands, two-output ufuncs, gufuncs, a result as large as
``min-chunk-elements``)
returns ``NOT_TAKEN``: the caller builds the expression as before.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.leaves import ChunkValue
from .._ir.products import matmul_shape
from .._runtime import config
from .handle import ArrayHandle
from .store import Store
from .viewspec import ViewSpec

NOT_TAKEN: Any = object()
_WEAK_SCALARS = (bool, int, float, complex)


def call(
    numpy_ufunc: numpy.ufunc,
    args: tuple[Any, ...],
    out: Any,
    where: Any,
    array_type: type[ArrayHandle],
    **options: Any,
) -> Any:
    """``numpy_ufunc(*args, out=out)`` computed here, or ``NOT_TAKEN``. ``out`` is ``None``
    or a tuple of one output (``None`` or an array); a new result is an ``array_type`` (the
    public class, which this layer cannot import); ``options`` are the call's ``casting``,
    ``dtype``, ``order``, ``subok`` and ``signature`` (only their defaults are taken)."""
    if where is not True or options != _DEFAULT_OPTIONS or len(args) != numpy_ufunc.nin:
        return NOT_TAKEN
    if out is None or out[0] is None:
        return new_value(numpy_ufunc, args, array_type)
    taken = _operands(numpy_ufunc, args)
    if taken is NOT_TAKEN:
        return NOT_TAKEN
    operands, backend, limit = taken
    return _into(numpy_ufunc, operands, out[0], backend, limit)


def new_value(
    numpy_ufunc: numpy.ufunc, args: tuple[Any, ...], array_type: type[ArrayHandle]
) -> Any:
    """``call`` for a call with no ``out`` and every option at its default (the caller
    checked both, and that ``args`` are the ufunc's inputs)."""
    taken = _operands(numpy_ufunc, args)
    if taken is NOT_TAKEN:
        return NOT_TAKEN
    operands, backend, limit = taken
    return _new_array(numpy_ufunc, operands, backend, limit, array_type)


def _operands(numpy_ufunc: numpy.ufunc, args: tuple[Any, ...]) -> Any:
    """``(chunks of args, backend, min-chunk-elements)`` for a one-output ufunc whose
    operands are all taken (``_chunk``), else ``NOT_TAKEN``."""
    if numpy_ufunc.nout != 1 or numpy_ufunc.signature is not None:
        return NOT_TAKEN  # gufuncs' results are not their operands' broadcast
    backend = _in_process_backend()
    if backend is None:
        return NOT_TAKEN
    limit = config.get("min-chunk-elements")
    operands = [_chunk(x, backend.name, limit) for x in args]
    for operand in operands:
        if operand is NOT_TAKEN:
            return NOT_TAKEN
    return operands, backend, limit


_DEFAULT_OPTIONS = {
    "casting": "same_kind",
    "dtype": None,
    "order": "K",
    "subok": True,
    "signature": None,
}


def _in_process_backend() -> ChunkBackend | None:
    """The backend whose chunks tiny values are when evaluated here (``evaluate_small``'s
    conditions), else ``None``."""
    if not config.get("in-process-evaluation"):
        return None
    backend = get_backend()
    return backend if backend.evaluates_in_client else None


def _chunk(operand: Any, backend: str, limit: int) -> Any:
    """A Python scalar as itself (weak, NEP 50), a whole tiny in-process array as its
    chunk; anything else ``NOT_TAKEN``."""
    if type(operand) in _WEAK_SCALARS:
        return operand
    if not isinstance(operand, ArrayHandle) or not operand._view.is_identity:
        return NOT_TAKEN
    version = operand._store.version
    if type(version) is not ChunkValue or version.backend != backend:
        return NOT_TAKEN
    if math.prod(version.shape) >= limit:
        return NOT_TAKEN
    return version.value


def _new_array(
    numpy_ufunc: numpy.ufunc,
    operands: list[Any],
    backend: ChunkBackend,
    limit: int,
    array_type: type[ArrayHandle],
) -> Any:
    shapes = {x.shape for x in operands if type(x) not in _WEAK_SCALARS and x.shape}
    if len(shapes) > 1:
        shape = numpy.broadcast_shapes(*shapes)
    else:  # one shape, broadcast with 0-d operands (``alpha * p``) or alone
        shape = shapes.pop() if shapes else ()
    if math.prod(shape) >= limit:  # a broadcast result too large for this process
        return NOT_TAKEN
    return _stored(numpy_ufunc(*operands), backend, array_type)


def _stored(result: Any, backend: ChunkBackend, array_type: type[ArrayHandle]) -> Any:
    """A new ``array_type`` holding ``result`` (NumPy's scalar from 0-d operands or two
    vectors made a chunk) as a ``ChunkValue``."""
    if not isinstance(result, backend.chunk_type):
        result = backend.xp.asarray(result)
    return array_type._from_parts(Store(ChunkValue(result, backend.name)), ViewSpec(result.shape))


def _into(
    numpy_ufunc: numpy.ufunc, operands: list[Any], out: Any, backend: ChunkBackend, limit: int
) -> Any:
    """The ufunc written into ``out``'s store as a new value (chunks are never mutated):
    NumPy fills a fresh chunk of ``out``'s shape and dtype, checking the casting and the
    broadcast into ``out`` as it does for ``out`` itself."""
    if _chunk(out, backend.name, limit) is NOT_TAKEN or out._view.read_only:
        return NOT_TAKEN
    current = out._store.version
    fresh = backend.xp.empty(current.shape, dtype=current.dtype)
    numpy_ufunc(*operands, out=fresh)
    out._store.replace(ChunkValue(fresh, backend.name))
    return out


def matmul(left: Any, right: Any, array_type: type[ArrayHandle]) -> Any:
    """``numpy.matmul(left, right)`` of two whole tiny arrays computed here (a solver's
    ``r @ r``), or ``NOT_TAKEN`` (anything else, or a result as large as
    ``min-chunk-elements``). NumPy picks the dtype and raises its own errors."""
    backend = _in_process_backend()
    if backend is None or type(left) in _WEAK_SCALARS or type(right) in _WEAK_SCALARS:
        return NOT_TAKEN
    limit = config.get("min-chunk-elements")
    a, b = _chunk(left, backend.name, limit), _chunk(right, backend.name, limit)
    if a is NOT_TAKEN or b is NOT_TAKEN:
        return NOT_TAKEN
    try:
        shape = matmul_shape(a.shape, b.shape)
    except ValueError:
        return NOT_TAKEN  # the node raises NumPy's error
    if math.prod(shape) >= limit:
        return NOT_TAKEN
    return _stored(numpy.matmul(a, b), backend, array_type)
