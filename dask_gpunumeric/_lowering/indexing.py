"""Lowering of views and writes. A write touches only the blocks its region meets; every
other block of the new version is the old block itself (no copy, no task work)."""

from __future__ import annotations

import itertools
from functools import partial
from typing import Any

import numpy

from .._backends.base import ChunkBackend
from .._ir import indexing as ir
from .._ir.indexing import NewAxis, Region, apply_region
from .._kernels import creation
from .._kernels.indexing import scatter_block, take_points, write_block
from .._runtime import dask_arrays as da
from .._runtime.partitioning import default_chunks
from .layers import Lowering, block_offsets, from_block_function, from_block_tasks
from .relayout import merge_slivers, relayout


def lower_slice(node: ir.Slice, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    """dask's basic indexing (a view of each block met), then, where that left a sliver
    first or last block (``x[24:]`` of 25-blocks), that sliver merged into its neighbour."""
    result = apply_region(inputs[0], node.region)
    merged = tuple(merge_slivers(c) for c in result.chunks)
    if merged != result.chunks and result.size:
        result = relayout(result, merged, backend)
    if node.ndim == 0:
        # dask indexes a chunk with integers alone, which gives a scalar; a chunk is an array.
        result = result.map_blocks(backend.as_chunk, dtype=node.dtype)
    return result


def lower_reshape(node: ir.Reshape, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    if node.size == 0:
        # Nothing to move; dask refuses reshapes of empty arrays with several chunks.
        kernel = partial(creation.fill, backend, node.dtype, 0)
        return from_block_function(
            node.name, default_chunks(node.shape), node.dtype, backend, kernel
        )
    try:
        return inputs[0].reshape(node.shape, merge_chunks=True)
    except NotImplementedError:
        # dask reshapes only by merging or splitting whole axes ((4, 6) -> (2, 12) is
        # neither); any reshape is a merge to 1-D followed by a split.
        return inputs[0].reshape((-1,), merge_chunks=True).reshape(node.shape, merge_chunks=True)


def _source_aligned(value: da.Array, region: Region) -> tuple[da.Array, list[tuple[int, int, int]]]:
    """``value`` (of the region's shape) laid out on the source axes, each with a positive
    step: new axes dropped, spanned axes in source order, fixed axes as length 1, axes with
    negative steps flipped. Returns it with the per-source-axis (start, step, count)."""
    value = value[tuple(0 if isinstance(e, NewAxis) else slice(None) for e in region.out)]
    kept = [e for e in region.out if not isinstance(e, NewAxis)]
    value = (
        value.transpose([kept.index(k) for k in sorted(kept)]) if kept != sorted(kept) else value
    )
    value = value[tuple(None if isinstance(a, int) else slice(None) for a in region.axes)]
    spans = []
    flips = []
    for axis in region.axes:
        start, step, count = (axis, 1, 1) if isinstance(axis, int) else axis
        if step < 0:
            start, step = start + step * (count - 1), -step
            flips.append(slice(None, None, -1))
        else:
            flips.append(slice(None))
        spans.append((start, step, count))
    if any(f.step for f in flips):
        value = value[tuple(flips)]
    return value, spans


def _block_hits(span: tuple[int, int, int], chunks: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """For each block along one axis that the span meets: (block, first i, end i), where the
    span's element i is at ``start + step * i``."""
    start, step, count = span
    hits = []
    for block, (low, size) in enumerate(zip(block_offsets((chunks,))[0], chunks, strict=True)):
        first = max(0, -(-(low - start) // step))
        end = min(count, -(-(low + size - start) // step))
        if first < end:
            hits.append((block, first, end))
    return hits


def lower_set_item(node: ir.SetItem, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    target, value = inputs
    region = node.region
    if 0 in region.shape:
        return target
    value, spans = _source_aligned(da.broadcast_to(value, region.shape), region)
    hits = [_block_hits(span, chunks) for span, chunks in zip(spans, target.chunks, strict=True)]
    value = value.rechunk(tuple(tuple(end - first for _, first, end in h) for h in hits))
    offsets = block_offsets(target.chunks)
    written = {}
    for pieces in itertools.product(*(enumerate(h) for h in hits)):
        block = tuple(hit[0] for _, hit in pieces)
        local = tuple(
            slice(
                start + step * first - offsets[axis][b],
                start + step * (end - 1) - offsets[axis][b] + 1,
                step,
            )
            for axis, ((start, step, _), (_, (b, first, end))) in enumerate(
                zip(spans, pieces, strict=True)
            )
        )
        written[block] = (
            write_block,
            backend,
            (target.name,) + block,
            local,
            (value.name,) + tuple(j for j, _ in pieces),
        )
    tasks = {
        block: written.get(block, (target.name,) + block)
        for block in itertools.product(*(range(len(c)) for c in target.chunks))
    }
    return from_block_tasks(node.name, tasks, target.chunks, node.dtype, backend, [target, value])


def _points_by_block(coords: tuple[numpy.ndarray, ...], chunks: tuple[tuple[int, ...], ...]):
    """For every block holding some of the points: (block, local coords, point ids)."""
    flat = [c.ravel() for c in coords]
    bounds = [numpy.cumsum((0,) + c) for c in chunks]
    block_of = [
        numpy.searchsorted(b, f, side="right") - 1 for b, f in zip(bounds, flat, strict=True)
    ]
    if not flat or flat[0].size == 0:
        return
    # Points grouped by block with one stable sort (each block's points in their order),
    # not a Python loop over every point: a mask of 400,000 points took 57 ms that way.
    counts = tuple(len(c) for c in chunks)
    linear = numpy.ravel_multi_index(tuple(block_of), counts)
    order = numpy.argsort(linear, kind="stable")
    grouped = linear[order]
    starts = numpy.flatnonzero(numpy.diff(grouped, prepend=-1))
    ends = numpy.append(starts[1:], grouped.size)
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        ids = order[start:end]
        block = tuple(int(b) for b in numpy.unravel_index(int(grouped[start]), counts))
        local = tuple(f[ids] - b[i] for f, b, i in zip(flat, bounds, block, strict=True))
        yield block, local, ids


def _last_writes(
    coords: tuple[numpy.ndarray, ...], shape: tuple[int, ...]
) -> tuple[tuple[numpy.ndarray, ...], numpy.ndarray]:
    """Each written point once, with the id of its last write: NumPy's "last one wins",
    which a GPU scatter with repeated indices does not promise (CuPy leaves it undefined)."""
    flat = tuple(c.ravel() for c in coords)
    if flat[0].size == 0:
        return flat, numpy.zeros(0, dtype=numpy.intp)
    linear = numpy.ravel_multi_index(flat, shape)
    _, first_from_end = numpy.unique(linear[::-1], return_index=True)
    ids = numpy.sort(linear.size - 1 - first_from_end)
    return tuple(c[ids] for c in flat), ids


def lower_scatter(node: ir.Scatter, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    target, value = inputs
    shape = node.coords[0].shape if node.coords else ()
    values = da.broadcast_to(value, shape).ravel().rechunk(-1)
    values_key = (values.name,) + (0,) * values.ndim
    tasks = {
        block: (target.name,) + block
        for block in itertools.product(*(range(len(c)) for c in target.chunks))
    }
    coords, point_ids = _last_writes(node.coords, node.shape)
    for block, local, ids in _points_by_block(coords, target.chunks):
        tasks[block] = (
            scatter_block,
            (target.name,) + block,
            local,
            point_ids[ids],
            values_key,
        )
    return from_block_tasks(node.name, tasks, target.chunks, node.dtype, backend, [target, values])


def lower_take_points(
    node: ir.TakePoints, inputs: list[da.Array], backend: ChunkBackend
) -> da.Array:
    source = inputs[0]
    length = int(numpy.prod(node.shape, dtype=numpy.int64))
    flat_chunks = default_chunks((length,))
    starts = block_offsets(flat_chunks)[0]
    sources: dict[int, list] = {i: [] for i in range(len(flat_chunks[0]))}
    dependencies: dict[int, list] = {i: [] for i in range(len(flat_chunks[0]))}
    for block, local, ids in _points_by_block(node.coords, source.chunks):
        owner = numpy.searchsorted(numpy.asarray(starts), ids, side="right") - 1
        for out_block in numpy.unique(owner):
            mine = owner == out_block
            sources[int(out_block)].append(
                (tuple(c[mine] for c in local), ids[mine] - starts[out_block])
            )
            dependencies[int(out_block)].append((source.name,) + block)
    tasks: dict[tuple[int, ...], Any] = {
        (i,): (
            partial(
                take_points,
                backend,
                node.dtype,
                flat_chunks[0][i],
                tuple(sources[i]),
            ),
            *dependencies[i],
        )
        for i in sources
    }
    flat = from_block_tasks(node.name + "-flat", tasks, flat_chunks, node.dtype, backend, [source])
    return flat.reshape(node.shape, merge_chunks=True) if node.ndim != 1 else flat


lowerings: dict[type, Lowering] = {
    ir.Slice: lower_slice,
    ir.Reshape: lower_reshape,
    ir.SetItem: lower_set_item,
    ir.Scatter: lower_scatter,
    ir.TakePoints: lower_take_points,
}
