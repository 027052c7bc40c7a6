"""The task body of a multi-sweep ``Stencil`` block: ``k`` iterations of a written stencil
on one block, fed once by ghost slabs ``k`` times as deep (``_passes/merge_sweeps.py``).

Each sweep writes the cells of the stencil's *window* (the box ``center[:] = ...``
writes) and reads them, and the cells around the window, shifted by its *offsets*. For the
block's written box ``E0`` to be right after ``k`` sweeps, sweep ``k - 1`` must have
computed ``E1 = dilate(E0) & window``, sweep ``k - 2`` ``E2 = dilate(E1) & window``, and so
on: the first sweep computes ``E(k-1)``, from the block's old values on
``dilate(E(k-1))``. Cells outside the window keep their old values throughout.

Where the backend has compiled sweeps for the program (the host backend, once the
program is hot: ``_backends/compiled_loops.py``), the block is swept in tiles cut along its first and last axes, about ``TILE_BYTES`` each: a
tile's cells are copied from the pieces into a small array, swept ``k`` times between two
arrays that stay in the core's cache by one call of the compiled ``sweeps``, and its
``E0`` copied into the output block. Memory is then read and written once per ``k``
sweeps instead of once per sweep; the price is recomputing the tiles' overlaps (``k``
times the reach on each cut side). Elsewhere (a device, or the host before the loops are
compiled) the block is one tile and each sweep one evaluator call over strided views.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy

from .._backends.base import ChunkBackend, Kernel
from .boxes import Box, bounding, box_shape, difference, intersect, is_empty, local, shift
from .stencil_block import StencilSpec, assembled, evaluate_into, region_from_pieces

TILE_BYTES = 1 << 20  # per tile array: two of them stay in a core's L2 cache
TILE_COLUMNS = 512  # last-axis cells per tile (rows of 4 KiB of float64)
MIN_TILE_REACHES = 8  # a tile is at least this many times the halo along each cut axis

Offset = tuple[int, ...]


@dataclass(frozen=True)
class SweepPlan:
    """One output block of a multi-sweep stencil, every box in the base's coordinates:
    the block, the box the sweeps write in it, the stencil's window, each access's offset,
    the number of sweeps, and the box of each piece (argument) the task receives."""

    block: Box
    written: Box
    window: Box
    offsets: tuple[Offset, ...]
    sweeps: int
    pieces: tuple[Box, ...]


def dilated(box: Box, offsets: tuple[Offset, ...]) -> Box:
    """The cells one sweep reads to write ``box``."""
    return tuple(
        (low + min(column), high + max(column))
        for (low, high), column in zip(box, zip(*offsets, strict=True), strict=True)
    )


def sweep_regions(
    written: Box, window: Box, offsets: tuple[Offset, ...], sweeps: int
) -> tuple[list[Box], Box]:
    """The box each sweep computes, last sweep first (``[E0, E1, ...]``; empty boxes are
    left out), and the box of old values the first sweep reads, all cells written
    included."""
    regions = [written]
    for _ in range(sweeps - 1):
        needed = intersect(dilated(regions[-1], offsets), window)
        if is_empty(needed):
            break
        regions.append(needed)
    reads = bounding([*regions, *(dilated(region, offsets) for region in regions)])
    return regions, reads


def sweeps_block(backend: ChunkBackend, spec: StencilSpec, plan: SweepPlan, *arrays: Any) -> Any:
    """The output block ``plan`` describes (see the module docstring)."""
    pieces = list(zip(plan.pieces, arrays, strict=True))
    out = backend.empty_block(box_shape(plan.block), spec.dtype)
    for box in difference(plan.block, plan.written):  # cells the sweeps leave
        out[local(box, plan.block)] = region_from_pieces(backend, pieces, box)
    elements = math.prod(box_shape(plan.written)) * plan.sweeps
    kernel = backend.compiled_sweeps(spec.program, elements)
    scratch = None
    # Tiles pay off only for the compiled sweeps: an evaluator call per sweep and tile
    # would cost more than the cache saves.
    for tile in tiles(spec, plan) if kernel is not None else [plan.written]:
        regions, reads = sweep_regions(tile, plan.window, plan.offsets, plan.sweeps)
        size = math.prod(box_shape(reads))
        if scratch is None or scratch[0].size < size:  # two arrays reused by every tile
            scratch = [backend.xp.empty(size, dtype=spec.dtype) for _ in range(2)]
        buffers = [a[:size].reshape(box_shape(reads)) for a in scratch]
        swept = sweep_tile(backend, spec, plan, pieces, (regions, reads), buffers, kernel)
        out[local(tile, plan.block)] = swept
    return out


def tiles(spec: StencilSpec, plan: SweepPlan) -> list[Box]:
    """The written box cut into tiles along its first and last axes, about ``TILE_BYTES``
    per tile array with its halo (at least ``MIN_TILE_REACHES`` times the halo along each
    cut axis), so a tile's compiled sweeps stay in the core's cache."""
    written = plan.written
    halo = plan.sweeps * max(abs(k) for offset in plan.offsets for k in offset)
    extents = [high - low + 2 * halo for low, high in written]
    least = MIN_TILE_REACHES * max(1, halo)
    columns = max(least, min(extents[-1], TILE_COLUMNS))
    per_row = spec.dtype.itemsize * math.prod(extents[1:-1]) * (columns + 2 * halo)
    rows = max(least, TILE_BYTES // max(1, per_row))
    steps = [rows, *(high - low for low, high in written[1:-1]), columns]
    if len(written) == 1:
        steps = [max(least, TILE_BYTES // spec.dtype.itemsize)]
    return [
        tuple(
            (start, min(start + step, high))
            for start, step, (_, high) in zip(corner, steps, written, strict=True)
        )
        for corner in itertools.product(
            *(range(low, high, step) for step, (low, high) in zip(steps, written, strict=True))
        )
    ]


def sweep_tile(
    backend: ChunkBackend,
    spec: StencilSpec,
    plan: SweepPlan,
    pieces: list[tuple[Box, Any]],
    boxes: tuple[list[Box], Box],
    arrays: list[Any],
    kernel: Kernel | None,
) -> Any:
    """A tile after the sweeps (a view of one of ``arrays``, two arrays over the box the
    tile's sweeps read): ``boxes`` are the tile's ``sweep_regions``."""
    regions, reads = boxes
    source, target = arrays
    assembled(backend, pieces, reads, source)
    # The second array needs only the cells outside the window: the sweeps read nothing
    # else of it that they have not written first.
    inside = intersect(reads, plan.window)
    for box in difference(reads, inside) if not is_empty(inside) else [reads]:
        target[local(box, reads)] = source[local(box, reads)]
    if kernel is not None:
        last = compiled_sweeps(kernel, plan.offsets, (source, target, reads), regions)
        return last[local(regions[0], reads)]
    for region in reversed(regions):
        sweep(backend, spec, plan.offsets, (source, target, reads), region)
        source, target = target, source
    return source[local(regions[0], reads)]


def sweep(
    backend: ChunkBackend,
    spec: StencilSpec,
    offsets: tuple[Offset, ...],
    arrays: tuple[Any, Any, Box],
    region: Box,
) -> None:
    """One sweep: ``region`` of ``target`` from ``source`` (both over the box ``reads``)."""
    source, target, reads = arrays
    views = [source[local(shift(region, offset), reads)] for offset in offsets]
    evaluate_into(backend, spec, views, target[local(region, reads) + (Ellipsis,)])  # a view


def compiled_sweeps(
    sweeper: Kernel, offsets: tuple[Offset, ...], arrays: tuple[Any, Any, Box], regions: list[Box]
) -> Any:
    """Every sweep of a tile in one call of the compiled ``sweeps``; returns the array the
    last sweep wrote."""
    source, target, reads = arrays
    shape = box_shape(reads)
    strides = [math.prod(shape[axis + 1 :]) for axis in range(len(shape))]
    boxes = numpy.array(
        [
            [(low - r, high - r) for (low, high), (r, _) in zip(region, reads, strict=True)]
            for region in reversed(regions)
        ],
        dtype=numpy.int64,
    )
    deltas = numpy.array(
        [sum(k * stride for k, stride in zip(offset, strides, strict=True)) for offset in offsets],
        dtype=numpy.int64,
    )
    sweeper(source.reshape(-1), target.reshape(-1), numpy.array(shape), boxes, deltas)
    return target if len(regions) % 2 else source
