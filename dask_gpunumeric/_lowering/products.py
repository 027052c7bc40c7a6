"""Lowering of tensordot and matmul.

``Tensordot`` is lowered to ONE layer of tasks, one per output block, each summing the
products of the input blocks along the contracted axes::

    out[i, j] = sum_k tensordot(left[i, k][left_slice_k], right[k, j][right_slice_k])

Contracted axes whose chunkings differ are matched by their common refinement (a block is
sliced inside the task, never rechunked). ``da.tensordot`` builds a blockwise layer, a tree
reduction, rechunks and meta computations instead: measured at ~3 ms of graph construction
per product, which dominated iterative solvers (conjugate gradient re-lowers its dot
products at every convergence check). ``Matmul`` without batch axes is the same layer;
batched matmul is one layer of our own too, each task summing the ``matmul`` products of its
blocks along the contracted axis (dask's ``matmul`` has no form for its expression arrays).
"""

from __future__ import annotations

import itertools
import math
from functools import partial
from typing import Any

from .._backends.base import ChunkBackend
from .._ir.products import Matmul, Tensordot
from .._kernels.products import matmul_blocks, tensordot_blocks, tensordot_piece
from .._runtime import dask_arrays as da
from .layers import Lowering, block_offsets, from_block_tasks

# One piece of a contracted axis: (left block, left slice, right block, right slice).
Piece = tuple[int, slice, int, slice]


def lower_tensordot(node: Tensordot, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    left, right = inputs
    return _tensordot_layer(node, left, right, node.left_axes, node.right_axes, backend)


def _tensordot_layer(
    node: Tensordot | Matmul,
    left: da.Array,
    right: da.Array,
    left_axes: tuple[int, ...],
    right_axes: tuple[int, ...],
    backend: ChunkBackend,
) -> da.Array:
    """The layer named after ``node`` computing ``tensordot(left, right, axes)`` in its dtype
    (zeros where a contracted axis is empty: one empty piece, as NumPy sums nothing)."""
    kernel = partial(tensordot_blocks, backend, node.dtype, left_axes, right_axes)
    blocks, chunks, _ = _output_blocks(left, right, left_axes, right_axes)
    tasks = {index: (partial(kernel, tuple(slices)), *keys) for index, slices, keys in blocks}
    return from_block_tasks(node.name, tasks, chunks, node.dtype, backend, [left, right])


def product_pieces(node: Tensordot | Matmul, left: da.Array, right: da.Array,
                   backend: ChunkBackend) -> da.Array | None:  # fmt: skip
    """The products of ``node``'s contracted pieces, not added up: an array of the
    pieces' count along a new first axis (one block each) by ``node``'s shape, in the
    order ``tensordot_blocks`` adds them (``_kernels/products.pieces_summed`` does, to the
    same bits). Each of its tasks reads one block of each operand: computed where a
    matrix's blocks are, a product of a matrix whose rows are spread over workers moves
    none of them. ``None`` for a batched matmul."""
    left_axes: tuple[int, ...]
    right_axes: tuple[int, ...]
    if isinstance(node, Matmul):
        if left.ndim > 2 or right.ndim > 2:
            return None
        left_axes, right_axes = (left.ndim - 1,), (0,)
    else:
        left_axes, right_axes = node.left_axes, node.right_axes
    kernel = partial(tensordot_piece, backend, left_axes, right_axes)
    blocks, chunks, count = _output_blocks(left, right, left_axes, right_axes)
    tasks = {
        (m, *index): (partial(kernel, piece), keys[2 * m], keys[2 * m + 1])
        for index, slices, keys in blocks
        for m, piece in enumerate(slices)
    }
    return from_block_tasks(f"{node.name}-pieces", tasks, ((1,) * count, *chunks), node.dtype,
                            backend, [left, right])  # fmt: skip


Slices = tuple[tuple[Any, ...], tuple[Any, ...]]


def _output_blocks(
    left: da.Array, right: da.Array, left_axes: tuple[int, ...], right_axes: tuple[int, ...]
) -> tuple[list[tuple[tuple[int, ...], list[Slices], list[Any]]], tuple[Any, ...], int]:
    """Each output block of ``tensordot(left, right, axes)``: its index, each contracted
    piece's (left slices, right slices) and the pieces' (left key, right key) pairs one
    after the other; with the output's chunks and the count of pieces per block."""
    left_free = [i for i in range(left.ndim) if i not in left_axes]
    right_free = [j for j in range(right.ndim) if j not in right_axes]
    pairs = list(zip(left_axes, right_axes, strict=True))
    pieces = [_common_pieces(left.chunks[i], right.chunks[j]) for i, j in pairs]
    blocks = []
    for left_index in itertools.product(*(range(len(left.chunks[i])) for i in left_free)):
        for right_index in itertools.product(*(range(len(right.chunks[j])) for j in right_free)):
            slices, keys = _pieces_of(
                left, right, pairs, (left_free, left_index), (right_free, right_index), pieces
            )
            blocks.append((left_index + right_index, slices, keys))
    chunks = tuple(left.chunks[i] for i in left_free) + tuple(right.chunks[j] for j in right_free)
    return blocks, chunks, math.prod(map(len, pieces))


def _common_pieces(left_chunks: tuple[int, ...], right_chunks: tuple[int, ...]) -> list[Piece]:
    """The common refinement of two chunkings of one length, as per-block local slices
    (one empty piece for an empty axis: its product is the zeros of the right shape)."""
    if sum(left_chunks) == 0:
        return [(0, slice(0, 0), 0, slice(0, 0))]
    left_offsets, right_offsets = block_offsets((left_chunks, right_chunks))
    bounds = sorted(
        set(itertools.accumulate(left_chunks)) | set(itertools.accumulate(right_chunks))
    )
    pieces = []
    start = 0
    for end in bounds:
        if end == start:
            continue
        lb = _block_at(left_offsets, start)
        rb = _block_at(right_offsets, start)
        pieces.append(
            (
                lb,
                slice(start - left_offsets[lb], end - left_offsets[lb]),
                rb,
                slice(start - right_offsets[rb], end - right_offsets[rb]),
            )
        )
        start = end
    return pieces


def _block_at(offsets: tuple[int, ...], position: int) -> int:
    """The block whose span starts at or before ``position`` (the last such one)."""
    return max(b for b, offset in enumerate(offsets) if offset <= position)


def _pieces_of(
    left: da.Array,
    right: da.Array,
    pairs: list[tuple[int, int]],
    left_position: tuple[list[int], tuple[int, ...]],
    right_position: tuple[list[int], tuple[int, ...]],
    pieces: list[list[Piece]],
) -> tuple[list[Slices], list[Any]]:
    """For the output block at (left free block indices, right free block indices), each
    contracted piece's (left slices, right slices), and its (left key, right key) pairs
    one after the other."""
    slices = []
    keys: list[Any] = []
    for combination in itertools.product(*pieces):
        left_block, left_slices = _located(left.ndim, *left_position)
        right_block, right_slices = _located(right.ndim, *right_position)
        for (i, j), (lb, ls, rb, rs) in zip(pairs, combination, strict=True):
            left_block[i], left_slices[i] = lb, ls
            right_block[j], right_slices[j] = rb, rs
        slices.append((tuple(left_slices), tuple(right_slices)))
        keys += [(left.name, *left_block), (right.name, *right_block)]
    return slices, keys


def _located(ndim: int, free: list[int], index: tuple[int, ...]) -> tuple[list[Any], list[Any]]:
    """Block index (free axes filled in) and whole-block slices, for one operand."""
    block: list[Any] = [0] * ndim
    for axis, position in zip(free, index, strict=True):
        block[axis] = position
    return block, [slice(None)] * ndim


def lower_matmul(node: Matmul, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    left, right = inputs
    if left.ndim <= 2 and right.ndim <= 2:
        # Without batch axes matmul is tensordot over (last of left, first of right).
        return _tensordot_layer(node, left, right, (left.ndim - 1,), (0,), backend)
    return _batched_matmul_layer(node, left, right, backend)


def _batched_matmul_layer(
    node: Matmul, left: da.Array, right: da.Array, backend: ChunkBackend
) -> da.Array:
    """One task per output block summing its blocks' ``matmul`` products along the
    contracted axis; the right operand rechunked where its contracted or batch axes are
    chunked unlike the left's, a batch axis of length 1 broadcast (its one block)."""
    batch_ndim = node.ndim - (left.ndim >= 2) - (right.ndim >= 2)
    left_batch = list(range(left.ndim - 2 - batch_ndim, left.ndim - 2))  # -ve: absent
    right_batch = list(range(right.ndim - 2 - batch_ndim, right.ndim - 2))
    contracted = max(right.ndim - 2, 0)
    wanted = {contracted: left.chunks[-1]}
    for b, (la, ra) in enumerate(zip(left_batch, right_batch, strict=True)):
        if la >= 0 and ra >= 0 and left.shape[la] == right.shape[ra] == node.shape[b]:
            wanted[ra] = left.chunks[la]
    if any(right.chunks[axis] != chunks for axis, chunks in wanted.items()):
        right = right.rechunk(wanted)
    chunks = [
        left.chunks[la] if la >= 0 and left.shape[la] == node.shape[b] else right.chunks[ra]
        for b, (la, ra) in enumerate(zip(left_batch, right_batch, strict=True))
    ]
    chunks += left.chunks[-2:-1] if left.ndim >= 2 else ()
    chunks += right.chunks[-1:] if right.ndim >= 2 else ()
    kernel = partial(matmul_blocks, backend, node.dtype)
    tasks = {}
    for index in itertools.product(*map(range, map(len, chunks))):
        batch = index[:batch_ndim]
        left_index = _batch_blocks(left, left_batch, batch)
        right_index = _batch_blocks(right, right_batch, batch)
        rows = index[batch_ndim : batch_ndim + 1] if left.ndim >= 2 else ()
        columns = index[-1:] if right.ndim >= 2 else ()
        keys = []
        for k in range(left.numblocks[-1]):
            keys += [(left.name, *left_index, *rows, k), (right.name, *right_index, k, *columns)]
        tasks[index] = (kernel, *keys)
    return from_block_tasks(node.name, tasks, tuple(chunks), node.dtype, backend, [left, right])


def _batch_blocks(operand: da.Array, axes: list[int], batch: tuple[int, ...]) -> tuple[int, ...]:
    """The operand's batch block indices for the output's ``batch`` ones: its own axes
    only, block 0 where it is broadcast (length 1)."""
    return tuple(
        b if operand.shape[axis] != 1 else 0
        for axis, b in zip(axes, batch, strict=True)
        if axis >= 0
    )


lowerings: dict[type, Lowering] = {Tensordot: lower_tensordot, Matmul: lower_matmul}
