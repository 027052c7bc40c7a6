"""Lowering of ``DaskCall``: resolve the ``dask.array`` function and call it (or, for the
functions of ``block_calls.py``, build our own task graph)."""

from __future__ import annotations

from typing import Any

from .._backends.base import ChunkBackend
from .._ir.dask_call import DaskCall
from .._ir.expr import Expr
from .._runtime import dask_arrays as da
from .._runtime.distributed_internals import meta_of
from .block_calls import EXPRESSIONS_ONLY, block_calls
from .layers import Lowering


def lower_dask_call(node: DaskCall, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    lowered = iter(inputs)

    def substitute(argument: Any) -> Any:
        if isinstance(argument, Expr):
            return next(lowered)
        if isinstance(argument, list | tuple):
            return type(argument)(substitute(x) for x in argument)
        return argument

    arguments = [substitute(argument) for argument in node.arguments]
    ours = block_calls.get(node.function)
    if ours is not None and (node.function not in EXPRESSIONS_ONLY or da.query_planning()):
        return ours(node, arguments, dict(node.keywords), backend)
    function: Any = da.function(node.function)
    result = function(*arguments, **dict(node.keywords))
    if node.output is not None:
        result = result[node.output]
    if result.dtype != node.dtype:
        result = result.astype(node.dtype)
    chunk_meta = backend.meta(result.ndim, node.dtype)
    if type(meta_of(result)) is not type(chunk_meta):
        # dask fell back to a NumPy meta where running the function on an empty chunk of
        # the backend failed (``interp`` on a 0-length table); the chunks are the backend's.
        result = da.Array(result.dask, result.name, result.chunks, meta=chunk_meta)
    return result


lowerings: dict[type, Lowering] = {DaskCall: lower_dask_call}
