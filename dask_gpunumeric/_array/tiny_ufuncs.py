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

import dask
import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.leaves import ChunkValue, HostData
from .._ir.products import matmul_shape
from .._kernels import integer_powers
from .._runtime import config
from . import work_placement
from .handle import ArrayHandle
from .store import Store

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
    taken = _operands(numpy_ufunc, (*args, out[0]))
    if taken is NOT_TAKEN:
        return NOT_TAKEN
    operands, backend, _ = taken
    return _into(numpy_ufunc, operands[:-1], out[0], backend)


def new_value(
    numpy_ufunc: numpy.ufunc, args: tuple[Any, ...], array_type: type[ArrayHandle]
) -> Any:
    """``call`` for a call with no ``out`` and every option at its default (the caller
    checked both, and that ``args`` are the ufunc's inputs). The operators call it first
    (``ndarray.__mul__``): it is the whole cost of a solver's tiny ``alpha * p``."""
    taken = _operands(numpy_ufunc, args)
    if taken is NOT_TAKEN:
        return NOT_TAKEN
    operands, backend, shape = taken
    if shape is _SEVERAL:
        shape = numpy.broadcast_shapes(*[x.shape for x in operands if type(x) not in _WEAK_SCALARS])
        if math.prod(shape) >= config.get("min-chunk-elements"):
            return NOT_TAKEN  # a broadcast result too large for this process
    if numpy_ufunc is numpy.power:
        integer_powers.check_power(backend, *operands)
    return _stored(numpy_ufunc(*operands), backend, array_type)


def unary(numpy_ufunc: numpy.ufunc, x: Any, array_type: type[ArrayHandle]) -> Any:
    """``new_value(numpy_ufunc, (x,), array_type)`` for a one-input call with no options
    (a solver's ``np.sqrt(rsnew)``), the common case written out: one whole tiny value of
    the configured backend (or any, under ``auto``) and a one-output ufunc."""
    if type(x) is array_type and numpy_ufunc.nout == 1 and numpy_ufunc.signature is None:
        store, view = x._store, x._view
        value = store.chunk  # read once: see ``Store``
        if value is not None and not (view.steps or view.part):
            name = store.chunk_backend  # a value made here, as ``binary`` takes first
            if _tiny_here(name, value.shape):
                return _made(numpy_ufunc(value), value, name, array_type)
    if isinstance(x, ArrayHandle) and numpy_ufunc.nout == 1 and numpy_ufunc.signature is None:
        view = x._view
        held = None if view.steps or view.part is not None else x._store.held_chunk()
        if held is not None:
            value, name = held
            enabled, limit, configured = _settings()
            if (
                enabled
                and limit > 1
                and (configured == "auto" or configured == name)
                and math.prod(value.shape) < limit
            ):
                return _stored(numpy_ufunc(value), get_backend(name), array_type)
    return new_value(numpy_ufunc, (x,), array_type)


def binary(numpy_ufunc: numpy.ufunc, x: Any, y: Any, array_type: type[ArrayHandle]) -> Any:
    """``new_value(numpy_ufunc, (x, y), array_type)`` for an operator (``alpha * p``) of
    a one-output ufunc, the common case in one step, written out: two whole tiny arrays
    of one backend and shape, or one and a 0-d array or Python scalar. Its cost is most
    of a solver's iteration beside NumPy's (``python -m benchmarks run --family
    user-programs``), each call and lookup saved here counting."""
    if type(x) is array_type and type(y) is array_type:
        # A solver's own case first: two values made here (``Store.chunk``), whole.
        x_store, y_store = x._store, y._store
        a_value, b_value = x_store.chunk, y_store.chunk  # read once: see ``Store``
        if a_value is not None and b_value is not None:
            x_view, y_view = x._view, y._view
            name, a_shape, b_shape = x_store.chunk_backend, a_value.shape, b_value.shape
            if (
                not (x_view.steps or y_view.steps or x_view.part or y_view.part)
                and name == y_store.chunk_backend
                and (a_shape == b_shape or not a_shape or not b_shape)
                and _tiny_here(name, a_shape or b_shape)
            ):
                if numpy_ufunc is numpy.power:
                    integer_powers.check_power(get_backend(name), a_value, b_value)
                return _made(numpy_ufunc(a_value, b_value), a_value, name, array_type)
    return _binary_operands(numpy_ufunc, x, y, array_type)


def _tiny_here(name: str, shape: tuple[int, ...]) -> bool:
    """Whether a value of ``shape`` made on backend ``name`` is computed here now: the
    evaluation is on, the configured backend is ``auto`` or ``name``, and the value has
    fewer than ``min-chunk-elements`` elements (``_settings``, written out)."""
    section = config.section()
    try:
        enabled = section["in-process-evaluation"]
        limit, configured = section["min-chunk-elements"], section["backend"]
    except (KeyError, TypeError):
        enabled, limit, configured = _settings()
    return bool(
        enabled
        and not dask.get_annotations()  # the user placed the work: its node goes there
        and (configured == "auto" or configured == name)
        and (math.prod(shape) if shape else 1) < limit
    )


def _binary_operands(
    numpy_ufunc: numpy.ufunc, x: Any, y: Any, array_type: type[ArrayHandle]
) -> Any:
    """``binary`` for any other operands: a Python scalar, a value some reader made a
    ``ChunkValue`` node of, or anything ``new_value`` decides on."""
    a_shape: tuple[int, ...]
    b_shape: tuple[int, ...]
    version: Any
    if type(x) in _WEAK_SCALARS:
        a_value, a_name, a_shape = x, None, ()
    elif isinstance(x, ArrayHandle):
        view, store = x._view, x._store
        if view.steps or view.part is not None:
            return new_value(numpy_ufunc, (x, y), array_type)
        a_value = store.chunk
        if a_value is not None:  # a value no reader has asked the node of
            a_name, a_shape = store.chunk_backend, a_value.shape
        else:
            version = store.version
            if type(version) is not ChunkValue:
                return new_value(numpy_ufunc, (x, y), array_type)
            a_value, a_name, a_shape = version.value, version.backend, version.shape
    else:
        return new_value(numpy_ufunc, (x, y), array_type)
    if type(y) in _WEAK_SCALARS:
        b_value, b_name, b_shape = y, None, ()
    elif isinstance(y, ArrayHandle):
        view, store = y._view, y._store
        if view.steps or view.part is not None:
            return new_value(numpy_ufunc, (x, y), array_type)
        b_value = store.chunk
        if b_value is not None:  # a value no reader has asked the node of
            b_name, b_shape = store.chunk_backend, b_value.shape
        else:
            version = store.version
            if type(version) is not ChunkValue:
                return new_value(numpy_ufunc, (x, y), array_type)
            b_value, b_name, b_shape = version.value, version.backend, version.shape
    else:
        return new_value(numpy_ufunc, (x, y), array_type)
    name = a_name or b_name
    if (
        name is None
        or (a_name and b_name and a_name != b_name)
        or (a_shape and b_shape and a_shape != b_shape)
        or not _tiny_here(name, a_shape or b_shape)
    ):
        return new_value(numpy_ufunc, (x, y), array_type)
    backend = get_backend(name)
    if numpy_ufunc is numpy.power:
        integer_powers.check_power(backend, a_value, b_value)
    return _stored(numpy_ufunc(a_value, b_value), backend, array_type)


_SEVERAL = "several shapes"  # ``_operands``' shape when the operands' differ


def _operands(numpy_ufunc: numpy.ufunc, args: tuple[Any, ...]) -> Any:
    """``_values(args)`` for a one-output ufunc, else ``NOT_TAKEN``."""
    if numpy_ufunc.nout != 1 or numpy_ufunc.signature is not None:
        return NOT_TAKEN  # gufuncs' results are not their operands' broadcast
    return _values(args)


def _values(args: tuple[Any, ...]) -> Any:
    """``(chunks of args, backend, shape)`` when every operand is taken, else
    ``NOT_TAKEN``. Taken: Python scalars (weak, NEP 50) as themselves; whole arrays
    holding a ``ChunkValue`` smaller than ``min-chunk-elements``, all of one backend, the
    configured one (``auto``: the one the values were made on, which computes here).
    ``shape`` is the arrays' one shape (``()`` for 0-d arrays or scalars alone) or
    ``_SEVERAL``."""
    enabled, limit, configured = _settings()
    if not enabled or limit <= 1:  # under 2 elements, even a 0-d result is not tiny
        return NOT_TAKEN
    operands: list[Any] = []
    name: str | None = None
    shape: Any = ()
    for x in args:
        if type(x) in _WEAK_SCALARS:
            operands.append(x)
            continue
        if not isinstance(x, ArrayHandle):
            return NOT_TAKEN
        view = x._view
        if view.steps or view.part is not None:
            return NOT_TAKEN  # a view
        held = x._store.held_chunk()
        if held is None:
            return NOT_TAKEN
        value, x_name = held
        if name is not None and x_name != name:
            return NOT_TAKEN
        name, x_shape = x_name, value.shape
        if x_shape and x_shape != shape:
            if math.prod(x_shape) >= limit:
                return NOT_TAKEN
            shape = _SEVERAL if shape else x_shape
        operands.append(value)
    if name is None:  # Python scalars alone: the configured backend
        backend = get_backend()
        return (operands, backend, shape) if backend.evaluates_in_client else NOT_TAKEN
    if configured != "auto" and configured != name:
        return NOT_TAKEN  # another backend is configured: the expression converts them
    return operands, get_backend(name), shape  # made here, so it computes here


def _settings() -> tuple[Any, int, str]:
    """``in-process-evaluation``, ``min-chunk-elements`` and ``backend``, read once per
    operation from the live section (``config.get`` for any missing there)."""
    section = config.section()
    try:
        enabled = section["in-process-evaluation"]
        limit, backend = section["min-chunk-elements"], section["backend"]
    except (KeyError, TypeError):
        keys = ("in-process-evaluation", "min-chunk-elements", "backend")
        enabled, limit, backend = (config.get(key) for key in keys)
    # Work built under dask.annotate is placed by the user: never computed here.
    return enabled and not dask.get_annotations(), limit, backend


_DEFAULT_OPTIONS = {
    "casting": "same_kind",
    "dtype": None,
    "order": "K",
    "subok": True,
    "signature": None,
}


def _stored(result: Any, backend: ChunkBackend, array_type: type[ArrayHandle]) -> Any:
    """A new ``array_type`` whose store holds ``result`` (NumPy's scalar from 0-d operands
    or two vectors made a chunk), as the chunk itself (``Store.holding_chunk``): nothing
    is computed here under ``dask.annotate`` (``_settings``, ``_tiny_here``)."""
    if not isinstance(result, backend.chunk_type):
        result = backend.xp.asarray(result)
    return array_type._holding_chunk(result, backend.name)


def _made(result: Any, like: Any, name: str, array_type: type[ArrayHandle]) -> Any:
    """``_stored(result, get_backend(name), array_type)`` for a result computed from
    ``like``, a chunk of backend ``name``, its common cases first: a chunk of ``like``'s
    type, or NumPy's scalar from 0-d NumPy chunks (``rsold / (p @ ap)``), made the 0-d
    chunk ``_stored`` would make."""
    kind = type(like)
    if type(result) is not kind and kind is numpy.ndarray and isinstance(result, numpy.generic):
        result = numpy.asarray(result)
    if type(result) is kind:
        return array_type._holding_chunk(result, name)
    return _stored(result, get_backend(name), array_type)


def _into(numpy_ufunc: numpy.ufunc, operands: list[Any], out: Any, backend: ChunkBackend) -> Any:
    """The ufunc written into ``out``'s store as a new value (chunks are never mutated):
    NumPy fills a fresh chunk of ``out``'s shape and dtype, checking the casting and the
    broadcast into ``out`` as it does for ``out`` itself."""
    if out._view.read_only:
        return NOT_TAKEN
    current = out._store.version
    fresh = backend.xp.empty(current.shape, dtype=current.dtype)
    if numpy_ufunc is numpy.power:
        integer_powers.check_power(backend, *operands)
    numpy_ufunc(*operands, out=fresh)
    out._store.replace(ChunkValue(fresh, backend.name))
    return out


def matmul(left: Any, right: Any, array_type: type[ArrayHandle]) -> Any:
    """``numpy.matmul(left, right)`` of two whole arrays computed here, or ``NOT_TAKEN``:
    tiny values (a solver's ``r @ r``), or data held here under the small-work policy
    (``work_placement.held_values``: a solver's ``a @ p`` with ``a`` from
    ``np.array(host)``), when the result is smaller than ``min-chunk-elements``. NumPy
    picks the dtype and raises its own errors; anything else builds the ``Matmul`` node
    (``work_placement.product_here`` then decides as this does). A tiny value is read as
    the chunk its store holds: no node is made for it (``Store.held_chunk``)."""
    if type(left) is array_type and type(right) is array_type:
        # A solver's ``r @ r`` first: two whole vectors of one length made here.
        left_store, right_store = left._store, right._store
        a, b = left_store.chunk, right_store.chunk  # read once: see ``Store``
        if a is not None and b is not None and a.ndim == 1 and a.shape == b.shape:
            left_view, right_view = left._view, right._view
            made_on = left_store.chunk_backend
            if (
                not (left_view.steps or right_view.steps or left_view.part or right_view.part)
                and made_on == right_store.chunk_backend
                and _tiny_here(made_on, a.shape)
            ):
                return _made(numpy.matmul(a, b), a, made_on, array_type)
    if not isinstance(left, ArrayHandle) or not isinstance(right, ArrayHandle):
        return NOT_TAKEN
    views = left._view, right._view
    if views[0].steps or views[1].steps or views[0].part is not None or views[1].part is not None:
        return NOT_TAKEN
    a, a_name = _held(left._store)
    b, b_name = _held(right._store)
    if a is None or b is None:
        return NOT_TAKEN
    enabled, limit, configured = _settings()
    if not enabled or limit <= 1:
        return NOT_TAKEN
    try:
        shape = matmul_shape(a.shape, b.shape)
    except ValueError:
        return NOT_TAKEN  # the node raises NumPy's error
    if math.prod(shape) >= limit:
        return NOT_TAKEN
    name = a_name or b_name
    if (a_name and b_name and a_name != b_name) or (
        name is not None and configured != "auto" and configured != name
    ):
        return NOT_TAKEN  # values of two backends, or of one not configured: converted
    backend = get_backend(name)
    if a_name and b_name and max(math.prod(a.shape), math.prod(b.shape)) < limit:
        values: Any = (a, b)
    else:
        values = work_placement.held_values((a, b), backend)
        if values is None:
            return NOT_TAKEN
    return _stored(numpy.matmul(*values), backend, array_type)


def _held(store: Store) -> tuple[Any, str | None]:
    """``(chunk, backend name)`` of a value ``store`` holds, ``(HostData node, None)`` for
    host data, else ``(None, None)``."""
    held = store.held_chunk()
    if held is not None:
        return held
    version = store.version
    return (version, None) if type(version) is HostData else (None, None)
