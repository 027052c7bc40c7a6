"""Tree reductions of per-block partial results, as our own task graphs.

dask's tree reduction (``dask.array.reductions._tree_reduce``) builds an expression when
dask's array query planning is on, whatever array it is given; the reductions lowered
here (arg reductions) build their rounds themselves, the same way under both settings:
the partial results of a group of at most ``SPLIT_EVERY`` neighbouring blocks along the
reduced axes are joined and combined into one, round after round, until one per output
block is left, which the aggregate turns into the output block::

    partials (4 blocks along the axis) -> combine(p0..p3) -> aggregate -> output block
"""

from __future__ import annotations

import itertools
import math
from functools import partial
from typing import Any

import numpy
from dask.highlevelgraph import HighLevelGraph

from .._backends.base import ChunkBackend
from .._kernels.reductions import combined_partials, concatenated_partials
from .._runtime import dask_arrays as da

# Partial results joined by one combine task (dask's default ``split_every`` is 16 too).
SPLIT_EVERY = 16


def tree_reduce(
    name: str,
    partials: da.Array,
    axes: tuple[int, ...],
    combine: Any,
    aggregate: Any,
    keepdims: bool,
    dtype: numpy.dtype,
    backend: ChunkBackend,
) -> da.Array:
    """The output of reducing ``partials`` (one block of length 1 along each of ``axes``
    per input block) over ``axes``: ``combine(joined, axis=axes, keepdims=True)`` and
    ``aggregate(joined, axis=axes, keepdims=keepdims)`` take the partials joined along the
    first of ``axes``, in block order."""
    kept = [a for a in range(partials.ndim) if a not in axes]
    graph: dict[Any, Any] = {}
    for outer in itertools.product(*(range(partials.numblocks[a]) for a in kept)):
        keys = [
            (partials.name, *_merged(outer, kept, inner, axes))
            for inner in itertools.product(*(range(partials.numblocks[a]) for a in axes))
        ]
        keys = _combined(graph, f"{name}-combine", outer, keys, combine, axes, backend)
        index = _merged(outer, kept, (0,) * len(axes), axes) if keepdims else outer
        graph[(name, *index)] = (
            partial(_aggregated, backend, aggregate, axes, keepdims),
            keys,
        )
    chunks = tuple(
        ((1,) if keepdims else None) if a in axes else partials.chunks[a]
        for a in range(partials.ndim)
    )
    sources: list[Any] = [partials]
    layer = HighLevelGraph.from_collections(name, graph, dependencies=sources)
    shape_chunks = tuple(c for c in chunks if c is not None)
    return da.Array(layer, name, shape_chunks, meta=backend.meta(len(shape_chunks), dtype))


def _merged(
    outer: tuple[int, ...], kept: list[int], inner: tuple[int, ...], axes: tuple[int, ...]
) -> tuple[int, ...]:
    index = dict(zip(kept, outer, strict=True)) | dict(zip(axes, inner, strict=True))
    return tuple(index[a] for a in sorted(index))


def _combined(
    graph: dict[Any, Any],
    name: str,
    outer: tuple[int, ...],
    keys: list[Any],
    combine: Any,
    axes: tuple[int, ...],
    backend: ChunkBackend,
) -> list[Any]:
    """Rounds of combine tasks until at most ``SPLIT_EVERY`` keys are left; those keys."""
    task = partial(combined_partials, backend, combine, axes[0], axes)
    for depth in itertools.count():
        if len(keys) <= SPLIT_EVERY:
            return keys
        groups = math.ceil(len(keys) / SPLIT_EVERY)
        combined = []
        for g in range(groups):
            key = (name, depth, *outer, g)
            graph[key] = (task, keys[g * SPLIT_EVERY : (g + 1) * SPLIT_EVERY])
            combined.append(key)
        keys = combined
    raise AssertionError("unreachable")  # pragma: no cover


def _aggregated(
    backend: ChunkBackend, aggregate: Any, axes: tuple[int, ...], keepdims: bool, parts: list
) -> Any:
    return aggregate(concatenated_partials(backend, parts, axes[0]), axis=axes, keepdims=keepdims)
