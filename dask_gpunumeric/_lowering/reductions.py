"""Lowering of reductions and scans through dask.array's own tree reductions.

Two places where dask's answer differs from NumPy's are lowered differently:

- ``argmin``/``argmax`` (and their ``nan`` twins) over all axes of an N-d array (N > 1): dask breaks ties between
  blocks by block order, not by flat index, so equal minima (or NaNs) in two blocks can give
  a later index than NumPy's "first occurrence". Our combine step picks, among the blocks'
  candidates holding the winning value, the smallest flat index.
- ``var``/``std`` with an integer ``dtype=``: NumPy accumulates in that dtype and truncates
  the mean and the result (unsafe casts); dask's moment formulas do not.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy
from dask.array.reductions import arg_chunk

from .._backends.base import ChunkBackend
from .._ir.reductions import Cumulative, Reduction
from .._kernels.reductions import (
    first_arg_aggregate,
    first_arg_combine,
    nanargmax_block,
    nanargmin_block,
)
from .._runtime import dask_arrays as da
from .._runtime.distributed_internals import meta_of
from .layers import Lowering

# Kinds lowered to a tree reduction whose last task aggregates small per-block (or
# per-group) partial results; such a result can be finished in the client
# (``execution.compute_finishing_here``).
TREE_REDUCED = frozenset(
    {"sum", "prod", "min", "max", "mean", "var", "std", "any", "all", "nansum", "nanprod",
     "nanmin", "nanmax", "nanmean", "nanvar", "nanstd", "argmin", "argmax", "nanargmin",
     "nanargmax"}
)  # fmt: skip


def lower_reduction(node: Reduction, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    (source,) = inputs
    params = dict(node.params)
    if node.kind in _ARG_FUNCTIONS:
        result = _lower_arg_reduction(node, source)
    elif node.kind in ("var", "std") and params.get("dtype", numpy.dtype(float)).kind in "iub":
        result = _integer_variance(node, source, **params)
    else:
        result = da.reduction(node.kind)(source, axis=node.axis, keepdims=node.keepdims, **params)
    result = result if result.dtype == node.dtype else result.astype(node.dtype)
    chunk_meta = backend.meta(result.ndim, node.dtype)
    if type(meta_of(result)) is not type(chunk_meta):
        # dask infers some reductions' meta (nanmin, nanmax) on NumPy whatever the chunks.
        result = da.Array(result.dask, result.name, result.chunks, meta=chunk_meta)
    return result


# kind -> (the chunk's winning value, its index); the NaN-skipping index functions
# survive all-NaN chunks on every chunk type (the aggregate step raises NumPy's error if
# all are NaN).
_ARG_FUNCTIONS: dict[str, tuple[Any, Any]] = {
    "argmax": (numpy.max, numpy.argmax),
    "argmin": (numpy.min, numpy.argmin),
    "nanargmax": (numpy.nanmax, nanargmax_block),
    "nanargmin": (numpy.nanmin, nanargmin_block),
}


def _lower_arg_reduction(node: Reduction, source: da.Array) -> da.Array:
    if node.axis is not None:
        return da.reduction(node.kind)(source, axis=node.axis[0], keepdims=node.keepdims)
    if source.ndim <= 1 and not node.kind.startswith("nan"):
        # (dask's nanarg* of a vector unravels its chunks' -1 from CuPy's nanargmax of an
        # all-NaN chunk: "invalid entry in index array"; ours below does not.)
        return da.reduction(node.kind)(source, keepdims=node.keepdims)
    value_function, arg_function = _ARG_FUNCTIONS[node.kind]
    return da.arg_reduction(
        source,
        functools.partial(arg_chunk, value_function, arg_function),
        functools.partial(first_arg_combine, arg_function),
        functools.partial(first_arg_aggregate, arg_function, node.kind.startswith("nan")),
        axis=None,
        keepdims=node.keepdims,
    )


def _integer_variance(
    node: Reduction, source: da.Array, dtype: numpy.dtype, ddof: int = 0
) -> da.Array:
    """NumPy's ``_var`` step by step, with its truncating casts into ``dtype``."""
    axes = tuple(range(source.ndim)) if node.axis is None else node.axis
    count = math.prod(source.shape[a] for a in axes)
    mean = (da.sum(source, axis=axes, dtype=dtype, keepdims=True) / count).astype(dtype)
    deviation = source - mean
    squares = da.sum(deviation * deviation, axis=axes, dtype=dtype, keepdims=node.keepdims)
    variance = (squares / max(count - ddof, 0)).astype(dtype)
    if node.kind == "std":
        # NumPy casts sqrt's result back unsafely only for a scalar result (the probe has
        # already raised NumPy's casting error otherwise).
        return da.sqrt(variance).astype(dtype)
    return variance


def lower_cumulative(node: Cumulative, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    result = da.reduction(node.kind)(inputs[0], axis=node.axis, dtype=node.dtype)
    return result if result.dtype == node.dtype else result.astype(node.dtype)


lowerings: dict[type, Lowering] = {Reduction: lower_reduction, Cumulative: lower_cumulative}
