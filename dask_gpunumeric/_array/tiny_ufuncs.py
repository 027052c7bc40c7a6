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

"Tiny" is the placement rule's "small" (``work_placement.now_limits``): one block, or at
most ``NOW_BYTES`` (4 MiB) with the small-work policy on. A write through ``out=``
(``out[1:, :] -= u[:-1, :]``) takes basic-index views too, and writes into the value
itself when nothing else reads it (``_into``); a reduction of a whole NumPy value is
NumPy's at the call (``reduction``). Anything else (``where=``, ``dtype=``, other casting
rules, NumPy scalars, lists, lazy or large operands, two-output ufuncs, gufuncs, views
as new values' operands) returns ``NOT_TAKEN``: the caller builds the expression.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.indexing import Region, apply_region
from .._ir.leaves import ChunkValue, HostData
from .._ir.products import matmul_shape
from .._kernels import integer_powers
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
    return _into(numpy_ufunc, args, out[0])


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
        arrays = [x for x in operands if type(x) not in _WEAK_SCALARS]
        shape = numpy.broadcast_shapes(*[x.shape for x in arrays])
        _, elements, nbytes, _ = work_placement.now_limits()
        itemsize = max(x.dtype.itemsize for x in arrays)
        if not work_placement.is_small(math.prod(shape), itemsize, elements, nbytes):
            return NOT_TAKEN  # a broadcast result too large to compute when built
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
            if _tiny_here(name, value):
                return _made(numpy_ufunc(value), value, name, array_type)
    if isinstance(x, ArrayHandle) and numpy_ufunc.nout == 1 and numpy_ufunc.signature is None:
        view = x._view
        held = None if view.steps or view.part is not None else x._store.held_chunk()
        if held is not None:
            value, name = held
            if _tiny_here(name, value):
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
                and _tiny_here(
                    name, a_value if a_shape else b_value, max(a_value.itemsize, b_value.itemsize)
                )
            ):
                if numpy_ufunc is numpy.power:
                    integer_powers.check_power(get_backend(name), a_value, b_value)
                return _made(numpy_ufunc(a_value, b_value), a_value, name, array_type)
    return _binary_operands(numpy_ufunc, x, y, array_type)


def _tiny_here(name: str, like: Any, itemsize: int = 0) -> bool:
    """Whether a value of ``like``'s shape and item size (or ``itemsize``, when larger)
    made on backend ``name`` is computed here now: the placement rule computes such
    values when built (``work_placement.now_limits``: on, and outside ``dask.annotate``),
    the configured backend is ``auto`` or ``name``, and the value is small
    (``is_small``)."""
    return work_placement.small_now(name, like.size, max(like.itemsize, itemsize))


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
        or not _tiny_here(*_result_like(name, a_value, a_name, b_value, b_name))
    ):
        return new_value(numpy_ufunc, (x, y), array_type)
    backend = get_backend(name)
    if numpy_ufunc is numpy.power:
        integer_powers.check_power(backend, a_value, b_value)
    return _stored(numpy_ufunc(a_value, b_value), backend, array_type)


def _result_like(
    name: str, a_value: Any, a_name: str | None, b_value: Any, b_name: str | None
) -> tuple[str, Any, int]:
    """``_tiny_here``'s arguments for a result of two operands of one shape (or one
    0-d) of which at least one is an array (its backend's name given): the array of
    the result's shape, and the other's item size where it is an array too."""
    if b_name is None:
        return name, a_value, 0
    if a_name is None:
        return name, b_value, 0
    like, other = (a_value, b_value) if a_value.ndim else (b_value, a_value)
    return name, like, other.itemsize


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
    on, elements, nbytes, configured = work_placement.now_limits()
    if not on:
        return NOT_TAKEN
    operands: list[Any] = []
    name: str | None = None
    shape: Any = ()
    itemsize = 0
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
        name, x_shape, itemsize = x_name, value.shape, max(itemsize, value.itemsize)
        if x_shape and x_shape != shape:
            if not work_placement.is_small(value.size, itemsize, elements, nbytes):
                return NOT_TAKEN
            shape = _SEVERAL if shape else x_shape
        operands.append(value)
    if shape is not _SEVERAL and not work_placement.is_small(
        math.prod(shape), itemsize or 8, elements, nbytes
    ):
        return NOT_TAKEN  # under 2 elements, even a 0-d result is not tiny
    if name is None:  # Python scalars alone: the configured backend
        backend = get_backend()
        return (operands, backend, shape) if backend.evaluates_in_client else NOT_TAKEN
    if configured != "auto" and configured != name:
        return NOT_TAKEN  # another backend is configured: the expression converts them
    return operands, get_backend(name), shape  # made here, so it computes here


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


def _into(numpy_ufunc: numpy.ufunc, args: tuple[Any, ...], out: Any) -> Any:
    """``numpy_ufunc(*args, out=out)`` computed now, or ``NOT_TAKEN``: ``out`` a whole
    array or a basic-index view (``out[1:, :] -= u[:-1, :]``) of a small value held here,
    each operand a Python scalar or such a view of a value of the same backend. NumPy
    writes into ``out``'s part of the value, with no temporary, as its in-place operators
    do: into the value itself when nothing but ``out``'s store refers to it
    (``Store.sole_chunk``), else into a copy (a fresh chunk when ``out`` is whole), so a
    value some reader holds is never changed under it. The store then holds the result
    as a new value. NumPy raises its own errors (casting into ``out``, broadcasting)
    before it writes."""
    if numpy_ufunc.nout != 1 or numpy_ufunc.signature is not None:
        return NOT_TAKEN
    region = _region(out)
    if region is NOT_TAKEN or out._view.read_only:
        return NOT_TAKEN
    store = out._store
    writable = store.written_now()
    if writable is None:
        return NOT_TAKEN
    name, (shape, dtype), elements, nbytes = writable
    operands: list[Any] = []
    own: list[tuple[int, Any]] = []  # operands reading ``out``'s value: (position, region)
    for x in args:
        if type(x) in _WEAK_SCALARS:
            operands.append(x)
            continue
        x_region = _region(x) if isinstance(x, ArrayHandle) else NOT_TAKEN
        if x_region is NOT_TAKEN:
            return NOT_TAKEN
        if x._store is store:  # read from the target, as NumPy reads overlapping operands
            own.append((len(operands), x_region))
            operands.append(None)
            continue
        x_held = x._store.held_chunk()
        if x_held is None or x_held[1] != name:
            return NOT_TAKEN
        value = x_held[0]
        if not work_placement.is_small(value.size, value.itemsize, elements, nbytes):
            return NOT_TAKEN
        operands.append(value if x_region is None else apply_region(value, x_region))
        del x_held, value
    target = store.sole_chunk()
    if target is None and region is None and not own:
        target = get_backend(name).xp.empty(shape, dtype=dtype)  # all of it written
    elif target is None:  # a part written, or the value read (``x += x``): a copy of it
        current = store.held_chunk()
        if current is None:
            return NOT_TAKEN
        target = current[0].copy()
    for position, x_region in own:
        operands[position] = target if x_region is None else apply_region(target, x_region)
    if numpy_ufunc is numpy.power:  # before any write: a refused power leaves ``out`` alone
        integer_powers.check_power(get_backend(name), *operands)
    numpy_ufunc(*operands, out=target if region is None else apply_region(target, region))
    store.hold(target, name)
    return out


def _region(x: ArrayHandle) -> Any:
    """``None`` for a whole array, the ``Region`` of a basic-index view, else
    ``NOT_TAKEN`` (a reshape, a component, a computed or reinterpreting view)."""
    view = x._view
    if view.part is not None:
        return NOT_TAKEN
    steps = view.steps
    if not steps:
        return None
    return steps[0] if len(steps) == 1 and type(steps[0]) is Region else NOT_TAKEN


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
                and _tiny_here(made_on, a)
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
    on, elements, nbytes, configured = work_placement.now_limits()
    if not on:
        return NOT_TAKEN
    try:
        shape = matmul_shape(a.shape, b.shape)
    except ValueError:
        return NOT_TAKEN  # the node raises NumPy's error
    itemsize = max(a.dtype.itemsize, b.dtype.itemsize)
    if not work_placement.is_small(math.prod(shape), itemsize, elements, nbytes):
        return NOT_TAKEN
    name = a_name or b_name
    if (a_name and b_name and a_name != b_name) or (
        name is not None and configured != "auto" and configured != name
    ):
        return NOT_TAKEN  # values of two backends, or of one not configured: converted
    backend = get_backend(name)
    small = work_placement.is_small
    if (
        a_name
        and b_name
        and small(a.size, a.dtype.itemsize, elements, nbytes)
        and small(b.size, b.dtype.itemsize, elements, nbytes)
    ):
        values: Any = (a, b)
    else:
        values = work_placement.held_values((a, b), backend)
        if values is None:
            return NOT_TAKEN
    return _stored(numpy.matmul(*values), backend, array_type)


def reduction(
    kind: str,
    a: Any,
    axis: Any,
    keepdims: bool,
    params: dict[str, Any],
    array_type: type[ArrayHandle],
) -> Any:
    """``numpy.<kind>(a, axis=axis, keepdims=keepdims, **params)`` computed now, or
    ``NOT_TAKEN``: with the policy on (``now_limits``' bytes), of a whole small value held
    here as NumPy's own chunk (a solver's ``(r * r).sum()``). NumPy computes it, with its
    dtype, its warnings and its errors, at the call, as it does; the reduction's node
    (its probes, its plan) is never built."""
    if type(a) is not array_type or a._view.steps or a._view.part is not None:
        return NOT_TAKEN
    held = a._store.held_chunk()
    if held is None or type(held[0]) is not numpy.ndarray:
        return NOT_TAKEN  # another namespace's reductions: the node's, cast to NumPy's dtype
    value, name = held
    on, elements, nbytes, configured = work_placement.now_limits()
    if (
        not on
        or not work_placement.reduces_now(nbytes)
        or (configured != "auto" and configured != name)
        or not work_placement.is_small(value.size, value.itemsize, elements, nbytes)
    ):
        return NOT_TAKEN
    function = getattr(numpy, kind, None)
    if function is None:
        return NOT_TAKEN
    return _stored(
        function(value, axis=axis, keepdims=keepdims, **params), get_backend(name), array_type
    )


def _held(store: Store) -> tuple[Any, str | None]:
    """``(chunk, backend name)`` of a value ``store`` holds, ``(HostData node, None)`` for
    host data, else ``(None, None)``."""
    held = store.held_chunk()
    if held is not None:
        return held
    version = store.version
    return (version, None) if type(version) is HostData else (None, None)
