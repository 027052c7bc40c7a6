"""The chunk-wise fallback: a NumPy function we do not implement, run block by block on
the workers (one ``ChunkwiseCall`` node), when its arguments allow it."""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Protocol

import numpy

from ..._ir.chunkwise_call import ChunkwiseCall
from ..._runtime import config
from ..ndarray import ndarray
from .classification import ChunkwiseSpec


class Mappable(Protocol):
    """What a chunk-wise call needs of a fallback function."""

    path: str
    function: Any
    signature: inspect.Signature | None
    spec: ChunkwiseSpec | None


def try_chunkwise(fallback: Mappable, args: tuple, kwargs: dict) -> ndarray | None:
    """Our array computed block by block, or None when this call must gather (an array in
    a parameter that is not mapped, a flattening ``axis=None``, a 0-d operand, a result that
    is not one array of the operand's rank)."""
    spec, function = fallback.spec, fallback.function
    if spec is None or fallback.signature is None:
        return None
    try:
        bound = fallback.signature.bind(*args, **kwargs)
    except TypeError:
        return None  # NumPy raises its own error for these arguments when it gathers
    named = bound.arguments
    operands = [named[name] for name in spec.operands if name in named]
    if not operands or not all(isinstance(x, ndarray) and x.ndim for x in operands):
        return None
    others = [v for k, v in named.items() if k not in spec.operands]
    if any(_holds_array(v) for v in others):
        return None
    axis = _axis(spec, named, operands[0].ndim)
    if spec.axis is not None and (axis is None or not _row_fits(operands[0], axis)):
        return None
    shape, dtype = _result_layout(function, bound, spec, axis)
    if shape is None:
        return None
    arguments = tuple(x._read() if isinstance(x, ndarray) else x for x in bound.args)
    keywords = tuple(
        (k, v._read() if isinstance(v, ndarray) else v) for k, v in bound.kwargs.items()
    )
    node = ChunkwiseCall(fallback.path, arguments, keywords, shape, dtype, axis)
    return ndarray._from_expr(node)


def _row_fits(operand: ndarray, axis: int) -> bool:
    """A per-row block holds whole rows: one row must fit what a fallback may gather
    (a 1-D operand is one row, so the size guard of the gathering path decides)."""
    row_bytes = operand.shape[axis] * operand.dtype.itemsize
    return operand.ndim > 1 and row_bytes <= int(config.get("fallback-max-bytes"))


def _holds_array(value: Any) -> bool:
    if isinstance(value, (ndarray, numpy.ndarray)):
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_array(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_array(v) for v in value.values())
    return False


def _axis(spec: ChunkwiseSpec, named: dict[str, Any], ndim: int) -> int | None:
    """The per-row axis, normalized; None for elementwise functions or a flattening call."""
    if spec.axis is None:
        return None
    axis = spec.axis if isinstance(spec.axis, int) else named.get(spec.axis, spec.axis_default)
    if not isinstance(axis, (int, numpy.integer)) or isinstance(axis, bool):
        return None
    if not -ndim <= axis < ndim:
        return None  # NumPy raises its AxisError when the call gathers
    return int(axis) % ndim


def _result_layout(
    function: Any, bound: inspect.BoundArguments, spec: ChunkwiseSpec, axis: int | None
) -> tuple[tuple[int, ...] | None, Any]:
    """NumPy's result shape and dtype, from the function run on a stand-in: one element
    per operand for elementwise functions, one whole row for per-row functions (so NumPy
    raises its own errors for bad dtypes or parameters, at the call)."""
    operands = {k: v for k, v in bound.arguments.items() if k in spec.operands}
    shapes = [x.shape for x in operands.values()]
    try:
        shape = numpy.broadcast_shapes(*shapes)
    except ValueError:
        return None, None
    stand_ins = bound.arguments.copy()
    for name, operand in operands.items():
        stand_in = numpy.ones((1,) * operand.ndim, dtype=operand.dtype)
        if axis is not None:  # one whole row, without the memory (a read-only broadcast)
            row = [1] * operand.ndim
            row[axis] = operand.shape[axis]
            stand_in = numpy.broadcast_to(stand_in, row)
        stand_ins[name] = stand_in
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = inspect.BoundArguments(bound.signature, stand_ins)
        result = function(*probe.args, **probe.kwargs)
    if not isinstance(result, numpy.ndarray) or result.ndim != len(shape):
        return None, None
    if axis is not None:
        shape = shape[:axis] + (result.shape[axis],) + shape[axis + 1 :]
    return tuple(shape), result.dtype
