"""Lowering of reductions and scans: dask.array's tree reductions, and our own where
dask's answer differs from NumPy's or dask has none for both kinds of its arrays:

- ``argmin``/``argmax`` (and their ``nan`` twins): a chunk step, then our own tree of
  combines (``trees.py``; dask's builds an expression with array query planning on, which
  its arg reductions cannot use). Over all axes of an N-d array (N > 1) dask breaks ties
  between blocks by block order, not by flat index, so equal minima (or NaNs) in two
  blocks could give a later index than NumPy's "first occurrence": our combine picks,
  among the blocks' candidates holding the winning value, the smallest flat index.
- ``var``/``std`` with a ``dtype=`` or of a complex array: NumPy's two passes (the mean,
  then the squared deviations), accumulating in that dtype and truncating the mean and the
  result for an integer one (unsafe casts). dask's moment formulas do not truncate; with
  query planning on they also compute in the input's dtype and fail on complex input.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy
from dask.array.reductions import arg_agg, arg_chunk, arg_combine, nanarg_agg

from .._backends.base import ChunkBackend
from .._ir.reductions import Cumulative, Reduction
from .._kernels.chunkwise import BlockSlot, call_on_blocks
from .._kernels.reductions import (
    first_arg_aggregate,
    first_arg_combine,
    nanargmax_block,
    nanargmin_block,
    value_at_arg,
)
from .._runtime import dask_arrays as da
from .._runtime.distributed_internals import meta_of
from .layers import Lowering, block_offsets, from_block_tasks
from .trees import tree_reduce

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
        result = _lower_arg_reduction(node, source, backend)
    elif node.kind in ("var", "std", "nanvar", "nanstd") and (
        params.get("dtype") is not None or source.dtype.kind == "c"
    ):
        # dask's moments lose a wider dtype= (expressions) or a complex one (sqrt)
        result = _two_pass_variance(node, source, **params)
    else:
        result = da.reduction(node.kind)(source, axis=node.axis, keepdims=node.keepdims, **params)
    result = result if result.dtype == node.dtype else result.astype(node.dtype)
    chunk_meta = backend.meta(result.ndim, node.dtype)
    if type(meta_of(result)) is not type(chunk_meta):
        # dask infers some reductions' meta (nanmin, nanmax) on NumPy whatever the chunks.
        result = da.Array(result.dask, result.name, result.chunks, meta=chunk_meta)
    return result


# kind -> a chunk's index function; the NaN-skipping ones survive all-NaN chunks on every
# chunk type (CuPy's nanargmax gives -1 there; the aggregate step raises NumPy's error if
# all are NaN).
_ARG_FUNCTIONS: dict[str, Any] = {
    "argmax": numpy.argmax,
    "argmin": numpy.argmin,
    "nanargmax": nanargmax_block,
    "nanargmin": nanargmin_block,
}


def _lower_arg_reduction(node: Reduction, source: da.Array, backend: ChunkBackend) -> da.Array:
    """A chunk step (each block's winning value and its index in the whole array), then our
    own tree of combines (``trees.py``): over all axes (or a 1-d array), the smallest flat
    index holding the winning value; along one axis, dask's combine of the blocks in
    order (the first block holding the winner gives its index)."""
    if source.ndim == 0:
        kernel = functools.partial(call_on_blocks, backend, node.kind, (BlockSlot(0),), ())
        return da.map_blocks(kernel, source, dtype=node.dtype, meta=backend.meta(0, node.dtype))
    arg_function = _ARG_FUNCTIONS[node.kind]
    flat = node.axis is None or source.ndim == 1
    axes = tuple(range(source.ndim)) if node.axis is None else (node.axis[0],)
    offsets = itertools.product(*block_offsets(source.chunks))
    value_function = functools.partial(value_at_arg, arg_function)
    chunk = functools.partial(arg_chunk, value_function, arg_function)
    tasks = {
        index: (chunk, (source.name, *index), axes, (at, source.shape) if flat else at[axes[0]])
        for index, at in zip(itertools.product(*map(range, source.numblocks)), offsets, strict=True)
    }
    partial_chunks = tuple((1,) * len(c) if a in axes else c for a, c in enumerate(source.chunks))
    name = f"{node.name}-chunk"
    partials = from_block_tasks(name, tasks, partial_chunks, node.dtype, backend, [source])
    skips_nan = node.kind.startswith("nan")
    if flat:
        combine = functools.partial(first_arg_combine, arg_function)
        aggregate = functools.partial(first_arg_aggregate, arg_function, skips_nan)
    else:
        combine = functools.partial(arg_combine, arg_function)
        aggregate = functools.partial(nanarg_agg if skips_nan else arg_agg, arg_function)
    # "aggregate" in its name: the last task of a tree (``execution.compute_finishing_here``)
    name = f"{node.kind}-aggregate-{node.name}"
    return tree_reduce(name, partials, axes, combine, aggregate, node.keepdims, node.dtype, backend)


def _two_pass_variance(
    node: Reduction, source: da.Array, dtype: numpy.dtype | None = None, ddof: int = 0
) -> da.Array:
    """NumPy's ``_var`` (``nanvar``) step by step: the mean, then the sum of squared
    deviations, both in ``dtype`` (with its truncating casts for an integer one); a complex
    deviation squared as ``real**2 + imag**2``. A NaN's squared deviation is NaN, which
    the NaN-skipping sum leaves out."""
    axes = tuple(range(source.ndim)) if node.axis is None else node.axis
    skips_nan = node.kind.startswith("nan")
    total = da.reduction("nansum" if skips_nan else "sum")
    if skips_nan:
        valid = source == source  # noqa: PLR0124 - False at NaNs
        count: Any = da.sum(valid, axis=axes, dtype=numpy.intp, keepdims=True)
        kept_count: Any = da.sum(valid, axis=axes, dtype=numpy.intp, keepdims=node.keepdims)
    else:
        count = kept_count = math.prod(source.shape[a] for a in axes)
    truncating = dtype is not None and numpy.dtype(dtype).kind in "iub"
    mean = total(source, axis=axes, dtype=dtype, keepdims=True) / count
    deviation = source - (mean.astype(dtype) if truncating else mean)
    if source.dtype.kind == "c":
        squares = deviation.real * deviation.real + deviation.imag * deviation.imag
    else:
        squares = deviation * deviation
    freedom = kept_count - ddof if skips_nan else max(kept_count - ddof, 0)
    variance = total(squares, axis=axes, dtype=dtype, keepdims=node.keepdims) / freedom
    variance = variance.astype(dtype) if truncating else variance
    if node.kind.endswith("std"):
        # NumPy casts sqrt's result back unsafely only for a scalar result (the probe has
        # already raised NumPy's casting error otherwise).
        root = da.sqrt(variance)
        return root.astype(dtype) if truncating else root
    return variance


def lower_cumulative(node: Cumulative, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    result = da.reduction(node.kind)(inputs[0], axis=node.axis, dtype=node.dtype)
    return result if result.dtype == node.dtype else result.astype(node.dtype)


lowerings: dict[type, Lowering] = {Reduction: lower_reduction, Cumulative: lower_cumulative}
