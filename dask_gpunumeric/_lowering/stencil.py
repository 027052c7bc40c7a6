"""Lowering of ``Stencil``: one task per output block, fed by its own blocks and ghost slabs.

For each output block (the written base's blocks, or the anchor base's blocks shifted onto
the new array), each base contributes the boxes the block's accesses read, cut along the
base's blocks. A cut that is a whole block is passed as that block's key (the own block,
no copy); any other cut is a *slab task* (``block[-d:, :]``: a view, and the only data that
crosses workers). Two layers: ``<name>-slab`` (the slabs) and ``<name>`` (one compute task
per output block, ``stencil_block``, ``lattice_block`` for a stepped write,
``sweeps_block`` for k sweeps or ``chain_block`` for a ``StencilChain``'s writes; a block
the write does not touch is the old block's key itself).
Works for any chunkings; when the bases are chunked like the output, the slabs are exactly
the ghost cells. A read past a base's end (a roll's) wraps around: its slab is cut from
the block at the other end and handed to the block task as lying past the end. A stepped
stencil's block writes the lattice cells ``origin + steps * k`` it holds; its first one
sits at an odd or even offset in the block, wherever the block starts, and a block holding
none is the old block's key.
"""

from __future__ import annotations

import functools
import itertools
import operator
from typing import Any

from dask.highlevelgraph import HighLevelGraph, MaterializedLayer

from .._backends.base import ChunkBackend
from .._ir.stencil import Stage, Stencil, StencilChain
from .._kernels.boxes import (
    Box,
    Chunks,
    block_box,
    blocks_meeting,
    boundaries,
    bounding,
    box_shape,
    intersect,
    is_empty,
    lattice_cells,
    lattice_indices,
    lattice_shape,
    shift,
    slices,
)
from .._kernels.stencil_block import BlockPlan, StencilSpec, read_box, stencil_block
from .._kernels.stencil_chain import ChainPlan, chain_block, chain_regions
from .._kernels.stencil_lattice import lattice_block
from .._kernels.stencil_sweeps import SweepPlan, sweep_regions, sweeps_block
from .._runtime import dask_arrays as da
from .layers import Lowering
from .relayout import merge_slivers

Edges = list[tuple[int, ...]]

Block = tuple[tuple[int, ...], Box, Box | None]  # index, box in the result, box written


def output_blocks(node: Stencil, anchor_chunks: Chunks) -> tuple[Chunks, list[Block]]:
    """The result's chunks, and per block: its index, its box in the result and the box
    the program writes there in output coordinates (None: not written)."""
    if node.writes:
        extent = tuple((0, n) for n in node.extent)
        edges = boundaries(anchor_chunks)
        blocks = []
        for index in blocks_meeting(edges, tuple((0, n) for n in node.shape)):
            box = block_box(edges, index)
            part = lattice_indices(box, node.origin, node.steps, extent)
            blocks.append((index, box, None if is_empty(part) else part))
        return anchor_chunks, blocks
    chunks = tuple(
        shifted_chunks(c, s, n)
        for c, s, n in zip(anchor_chunks, node.origin, node.extent, strict=True)
    )
    edges = boundaries(chunks)
    whole = tuple((0, n) for n in node.shape)
    return chunks, [
        (index, block_box(edges, index), block_box(edges, index))
        for index in blocks_meeting(edges, whole)
    ]


def shifted_chunks(chunks: tuple[int, ...], start: int, extent: int) -> tuple[int, ...]:
    """The blocks of ``chunks`` seen through the window ``[start, start + extent)``, a first
    or last block smaller than half its neighbour merged into it (no slivers)."""
    edges = [0, *sorted({min(max(e - start, 0), extent) for e in boundaries((chunks,))[0]})]
    return merge_slivers(tuple(b - a for a, b in itertools.pairwise(edges)))


Cut = tuple[tuple[int, ...], tuple[int, ...]]  # a block of a base, the period it is read at


def cuts(node: Stencil, base: int, written: Box, edges: Edges) -> dict[Cut, Box]:
    """Per block of ``base`` that the accesses read for ``written``, and per period it is
    read at (how far the read is from the base itself: a roll's read past an end wraps
    around), the box read there, in the base's coordinates."""
    shape = tuple(axis_edges[-1] for axis_edges in edges)
    found: dict[Cut, list[Box]] = {}
    for access in node.accesses:
        if access.base != base:
            continue
        for box, period in wrapped(read_box(access, written, node.steps), shape):
            for index in blocks_meeting(edges, box):
                found.setdefault((index, period), []).append(
                    intersect(box, block_box(edges, index))
                )
    return {cut: bounding(boxes) for cut, boxes in found.items()}


def wrapped(box: Box, shape: tuple[int, ...]) -> list[tuple[Box, tuple[int, ...]]]:
    """``box`` (of a base of ``shape``, possibly past its ends) as boxes inside the base,
    each with the period that moves it back: ``(-1, 3)`` of 10 is ``(9, 10)`` at -10 and
    ``(0, 3)`` at 0."""
    per_axis = []
    for (low, high), n in zip(box, shape, strict=True):
        parts = []
        for turn in range(low // n, -(-high // n)):
            start, stop = max(low, turn * n), min(high, (turn + 1) * n)
            parts.append(((start - turn * n, stop - turn * n), turn * n))
        per_axis.append(parts)
    return [
        (tuple(part for part, _ in parts), tuple(period for _, period in parts))
        for parts in itertools.product(*per_axis)
    ]


def slab_layer_name(node: Stencil | StencilChain) -> str:
    return f"{node.name}-slab"


def slab_sources(slabs: Any) -> dict[Any, Any]:
    """The key of the block each slab task of a slab layer cuts its slab from."""
    return {key: task[1] for key, task in slabs.items()}


class _Layers:
    """The two task tables of one stencil: slabs (deduplicated) and blocks."""

    def __init__(self, node: Any, inputs: list[da.Array], backend: ChunkBackend) -> None:
        self.node, self.inputs, self.backend = node, inputs, backend
        self.edges = [boundaries(array.chunks) for array in inputs]
        self.slab_name = slab_layer_name(node)
        self.slabs: dict[Any, Any] = {}
        self.slab_keys: dict[tuple[Any, Box], tuple[str, int]] = {}
        self.tasks: dict[Any, Any] = {}

    def piece(self, base: int, block: tuple[int, ...], cut: Box) -> Any:
        """The key of ``cut`` of a base block: the block's own key when it is all of it."""
        key = (self.inputs[base].name, *block)
        box = block_box(self.edges[base], block)
        if cut == box:
            return key
        if (key, cut) not in self.slab_keys:
            slab = self.slab_keys[(key, cut)] = (self.slab_name, len(self.slab_keys))
            within = shift(cut, tuple(-low for low, _ in box))
            self.slabs[slab] = (operator.getitem, key, slices(within))
        return self.slab_keys[(key, cut)]

    def add_block(self, index: tuple[int, ...], box: Box, written: Box) -> None:
        node = self.node
        if node.sweeps > 1:
            self.add_sweeps_block(index, box, shift(written, node.origin))
            return
        keys: list[Any] = []
        pieces = []
        for base in sorted({a.base for a in node.accesses}):
            for (block, period), cut in cuts(node, base, written, self.edges[base]).items():
                keys.append(self.piece(base, block, cut))
                pieces.append((base, shift(cut, period)))  # where the block reads it
        whole = tuple((0, n) for n in box_shape(box))
        within = whole
        if node.writes:  # the written cells, block-local
            cells = lattice_cells(written, node.origin, node.steps)
            within = shift(cells, tuple(-low for low, _ in box))
        copies_old = lattice_shape(within, node.steps) != box_shape(box)
        if copies_old:  # cells the write leaves: copied from the old block
            keys.insert(0, (self.inputs[node.anchor].name, *index))
        origin = tuple(low for low, _ in written)
        plan = BlockPlan(box_shape(box), within, origin, copies_old, tuple(pieces))
        body = lattice_block if node.is_stepped else stencil_block
        self.tasks[(node.name, *index)] = (body, self.backend, self.spec, plan, *keys)

    def add_sweeps_block(self, index: tuple[int, ...], box: Box, written: Box) -> None:
        """A block of a multi-sweep stencil (one base, boxes in its coordinates): it
        receives the cells its sweeps read, ``sweeps`` times the reach around its own
        block, and its own block whole (the cells the write leaves)."""
        node = self.node
        window = tuple((o, o + n) for o, n in zip(node.origin, node.extent, strict=True))
        offsets = tuple(
            tuple(s - o for s, o in zip(a.starts, node.origin, strict=True))  # type: ignore[operator]
            for a in node.accesses
        )
        _, reads = sweep_regions(written, window, offsets, node.sweeps)
        needed = bounding([reads, box])
        keys, pieces = [], []
        for block in blocks_meeting(self.edges[0], needed):
            cut = intersect(needed, block_box(self.edges[0], block))
            keys.append(self.piece(0, block, cut))
            pieces.append(cut)
        plan = SweepPlan(box, written, window, offsets, node.sweeps, tuple(pieces))
        self.tasks[(node.name, *index)] = (sweeps_block, self.backend, self.spec, plan, *keys)

    @functools.cached_property
    def spec(self) -> StencilSpec:
        """What every block of a ``Stencil`` computes: one object its tasks share (a
        graph pickles it once)."""
        node = self.node
        return StencilSpec(node.program, node.accesses, node.dtype, len(node.extent), node.steps)

    def add_chain_block(self, index: tuple[int, ...], box: Box) -> None:
        """A block of a chain (one base): it receives the cells its writes read, the
        reaches of all of them around its own block, and its own block whole."""
        node = self.node
        writes, needed = chain_regions(node.stages, box, node.shape)
        keys, pieces = [], []
        for block in blocks_meeting(self.edges[0], needed):
            cut = intersect(needed, block_box(self.edges[0], block))
            keys.append(self.piece(0, block, cut))
            pieces.append(cut)
        plan = ChainPlan(box, needed, tuple(writes), tuple(pieces))
        self.tasks[(node.name, *index)] = (
            chain_block,
            self.backend,
            node.stages,
            plan,
            node.dtype,
            *keys,
        )

    def array(self, chunks: Chunks) -> da.Array:
        """The node's dask array: its inputs' layers, then the slabs, then the blocks."""
        layers: dict[str, Any] = {}
        dependencies: dict[str, Any] = {}
        for array in self.inputs:
            graph: Any = array.__dask_graph__()
            layers.update(graph.layers)
            dependencies.update(graph.dependencies)
        names = {array.name for array in self.inputs}
        layers[self.slab_name] = MaterializedLayer(self.slabs)
        dependencies[self.slab_name] = names
        layers[self.node.name] = MaterializedLayer(self.tasks)
        dependencies[self.node.name] = names | {self.slab_name}
        graph = HighLevelGraph(layers, dependencies)
        meta = self.backend.meta(self.node.ndim, self.node.dtype)
        return da.Array(graph, self.node.name, chunks, meta=meta)


def lower_stencil(node: Stencil, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    anchor = inputs[node.anchor]
    chunks, blocks = output_blocks(node, anchor.chunks)
    tables = _Layers(node, inputs, backend)
    for index, box, written in blocks:
        if written is None:  # untouched: the old block itself
            tables.tasks[(node.name, *index)] = (anchor.name, *index)
        else:
            tables.add_block(index, box, written)
    return tables.array(chunks)


def lower_chain(node: StencilChain, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    """One task per block of the base running every write of the chain on it; a block
    no write reaches is the old block itself."""
    (base,) = inputs
    tables = _Layers(node, inputs, backend)
    edges = boundaries(base.chunks)
    for index in blocks_meeting(edges, tuple((0, n) for n in node.shape)):
        box = block_box(edges, index)
        if any(_writes_in(stage, box) for stage in node.stages):
            tables.add_chain_block(index, box)
        else:
            tables.tasks[(node.name, *index)] = (base.name, *index)
    return tables.array(base.chunks)


def _writes_in(stage: Stage, box: Box) -> bool:
    """Whether ``stage`` writes a cell of ``box``."""
    extent = tuple((0, n) for n in stage.extent)
    return not is_empty(lattice_indices(box, stage.origin, stage.steps, extent))


lowerings: dict[type, Lowering] = {Stencil: lower_stencil, StencilChain: lower_chain}
