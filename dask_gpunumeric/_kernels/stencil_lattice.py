"""The task body of a stepped ``Stencil`` block: a write of the lattice
``origin + steps * k`` (red-black Gauss-Seidel's ``u[1::2, 2::2] = ...``).

The new block is the old block with the lattice cells it holds replaced. The program runs
in output indices, as ``stencil_block``'s does (an interior from each base's home piece,
then the rim), over strided views of the pieces into a strided view of the new block: no
flat route or compiled loop, which need contiguous ranges.

The old block is copied first, since the written cells are interleaved with the ones it
keeps. Copy and write both cross the whole block, so where the backend names a band size
(``backend.band_bytes``: the host) the interior goes band by band along the first axis:
the rows of a band are copied just before the band's lattice cells are computed and
written over them, and the second pass over those rows finds them in cache. Sample
(red-black, a block of rows 5 to 12, bands of two lattice rows)::

    out[0:2] = old[0:2]; program(band 0) -> out[0:3:2, 1::2]   # rows 5, 7 written
    out[2:6] = old[2:6]; program(band 1) -> out[4:7:2, 1::2]   # rows 9, 11
    out[6:8] = old[6:8]                                        # the rows after the last
"""

from __future__ import annotations

import math
from typing import Any

from .._backends.base import ChunkBackend
from .boxes import Box, difference, lattice_shape, local, strided
from .stencil_block import (
    BlockPlan,
    StencilSpec,
    evaluate_into,
    interior,
    operands,
    split_arguments,
)


def lattice_block(backend: ChunkBackend, spec: StencilSpec, plan: BlockPlan, *arrays: Any) -> Any:
    """The output block ``plan`` describes (see the module docstring)."""
    out = backend.empty_block(plan.shape, spec.dtype)
    old, pieces = split_arguments(plan, arrays)
    block = tuple((0, n) for n in plan.shape)
    # ``+ (Ellipsis,)`` keeps views views where they select one cell (``stencil_block``)
    target = out[strided(plan.written, block, spec.steps) + (Ellipsis,)]
    whole = tuple(
        (o, o + n)
        for o, n in zip(plan.origin, lattice_shape(plan.written, spec.steps), strict=True)
    )
    inner, _ = interior(spec, pieces, whole)
    copy = _RowCopy(old, out)
    if inner is not None:
        views = operands(backend, spec, pieces, inner)
        into = target[local(inner, whole) + (Ellipsis,)]
        # A band is the same rows of every view along the output's first axis (a view
        # broadcast along it, of a size-1 or missing first axis, is passed whole).
        along = [len(a.starts) == spec.ndim and a.starts[0] is not None for a in spec.accesses]
        for rows in bands(inner, spec, plan, backend.band_bytes):
            copy.up_to(last_row(inner[0][0] + rows.stop, whole, spec, plan) + 1)
            band = [view[rows] if cut else view for view, cut in zip(views, along, strict=True)]
            evaluate_into(backend, spec, band, into[rows])
    copy.up_to(plan.shape[0])
    for box in [whole] if inner is None else difference(whole, inner):
        views = operands(backend, spec, pieces, box)
        evaluate_into(backend, spec, views, target[local(box, whole) + (Ellipsis,)])
    return out


class _RowCopy:
    """Copies the old block into the new one by leading rows, each row once, in order."""

    def __init__(self, old: Any, out: Any) -> None:
        self.old, self.out, self.done = old, out, 0

    def up_to(self, row: int) -> None:
        """Copy the rows not copied yet below ``row`` (nothing when the plan copies none:
        every cell of the block is written)."""
        if self.old is not None and row > self.done:
            self.out[self.done : row] = self.old[self.done : row]
            self.done = row


def bands(inner: Box, spec: StencilSpec, plan: BlockPlan, band_bytes: int | None) -> list[slice]:
    """The rows of ``inner`` (output indices, counted from its first row) in bands whose
    block rows hold about ``band_bytes``; all of them in one when ``band_bytes`` is None."""
    count = inner[0][1] - inner[0][0]
    if band_bytes is None:
        return [slice(0, count)]
    row_bytes = spec.dtype.itemsize * math.prod(plan.shape[1:])
    height = max(1, band_bytes // max(1, row_bytes * spec.steps[0]))
    return [slice(k, min(k + height, count)) for k in range(0, count, height)]


def last_row(end: int, whole: Box, spec: StencilSpec, plan: BlockPlan) -> int:
    """The block row of the last lattice cell before output row ``end``."""
    return plan.written[0][0] + spec.steps[0] * (end - 1 - whole[0][0])
