"""The task body of a ``StencilChain`` block: its writes run one after another on the
block and the cells around it, received once (``_passes/chain_stencils.py``).

For the block to be right after the last write, each write must have computed its cells
within the block (any write may be the last to write a cell of it) and within whatever a
later write reads: the block dilated by the later writes' reaches (clipped to the base).
The first write computes the widest box, the last only the block. The task copies the
box the writes read (the block and the ghost slabs around it) into one array, runs each
write over strided views of it (its lattice, ``origin + steps * k``) into it, and returns
the block, its middle. A write whose reads may meet the cells it writes (``u[1::2] =
u[1::2] + u[3::2]``) is evaluated whole before anything is written, as NumPy's is; one
whose reads never do (red-black's: every read is a cell of the other colour) is written
straight into its cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy

from .._backends.base import ChunkBackend
from .._ir.stencil import Stage
from . import integer_powers
from .boxes import (
    Box,
    bounding,
    box_shape,
    intersect,
    is_empty,
    lattice_cells,
    lattice_indices,
    local,
    shift,
    strided,
)
from .stencil_block import assembled
from .stencil_sweeps import dilated


@dataclass(frozen=True)
class ChainPlan:
    """One output block of a chain, boxes in the base's coordinates: the block, the box
    the task receives (everything its writes read), the box within which each write
    computes its cells (``chain_regions``), and the box of each piece (argument)."""

    block: Box
    region: Box
    writes: tuple[Box, ...]
    pieces: tuple[Box, ...]


def chain_regions(
    stages: tuple[Stage, ...], block: Box, shape: tuple[int, ...]
) -> tuple[list[Box], Box]:
    """The box within which each write computes its cells (first write first), and the
    box of the base a block's task receives. A write computes what the one after it
    computes and reads, and so the block (a cell of it may be written last by any write)
    and whatever a later write reads; the task receives that and what the first write
    reads."""
    whole = tuple((0, n) for n in shape)
    needed = [block]
    for stage in reversed(stages):
        reads = intersect(dilated(needed[-1], stage.offsets), whole)
        needed.append(bounding([needed[-1], reads]) if not is_empty(reads) else needed[-1])
    return needed[-2::-1], bounding(needed)


def chain_block(
    backend: ChunkBackend, stages: tuple[Stage, ...], plan: ChainPlan, dtype: Any, *arrays: Any
) -> Any:
    """The output block ``plan`` describes (see the module docstring)."""
    pieces = list(zip(plan.pieces, arrays, strict=True))
    work = assembled(backend, pieces, plan.region, backend.xp.empty(box_shape(plan.region), dtype))
    for stage, box in zip(stages, plan.writes, strict=True):
        extent = tuple((0, n) for n in stage.extent)
        indices = lattice_indices(box, stage.origin, stage.steps, extent)
        if is_empty(indices):
            continue
        cells = lattice_cells(indices, stage.origin, stage.steps)
        views = [
            work[strided(shift(cells, offset), plan.region, stage.steps) + (Ellipsis,)]
            for offset in stage.offsets
        ]
        target = work[strided(cells, plan.region, stage.steps) + (Ellipsis,)]
        _write(backend, stage, views, target)
    out = backend.empty_block(box_shape(plan.block), dtype)
    out[...] = work[local(plan.block, plan.region)]
    return out


def _write(backend: ChunkBackend, stage: Stage, views: list[Any], target: Any) -> None:
    """The stage's program over ``views`` written into ``target`` (cast as an assignment
    casts), evaluated whole first where a read may meet a written cell."""
    program = stage.program
    integer_powers.check_program(backend, program, tuple(views))
    apart = all(
        any(k % step for k, step in zip(offset, stage.steps, strict=True))
        for offset in stage.offsets
    )
    if apart and program.dtype_of(program.outputs[0]) == numpy.dtype(target.dtype):
        backend.evaluate_program(program, *views, out=target)
    else:
        target[...] = backend.evaluate_program(program, *views)
