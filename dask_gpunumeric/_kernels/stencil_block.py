"""The task body of a ``Stencil`` block, run on the workers.

One call per output block. It receives the pieces of each base the block reads (whole
blocks where it reads a whole block, its own block above all, and thin ghost slabs of its
neighbours otherwise), allocates the output block, copies the cells the write does not
cover from the old block, and runs the fused program into the rest:

- the *interior*, where every access stays inside one piece per base (for an aligned
  stencil: the own block), from zero-copy shifted views of that piece, in one evaluator
  call writing through ``out=`` (one kernel over the views on a GPU);
- the *rim* (at most ``2 * ndim`` thin boxes along the block's faces), each from a small
  array assembled from the pieces it straddles.

So a block is read once and written once; only rim-sized copies are made.

A stepped stencil (``StencilSpec.steps``, red-black's ``u[1::2, 2::2] = ...``) has its
own task body, ``stencil_lattice.lattice_block``; the helpers here (``interior``,
``operands``, ``read_box``) work in output indices for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy

from .._backends.base import ChunkBackend
from .._ir.scalar_program import ScalarProgram
from .._ir.stencil import Access
from . import integer_powers
from .boxes import (
    Box,
    Steps,
    bounding,
    box_shape,
    contains,
    difference,
    intersect,
    local,
    slices,
    strided,
)

Pieces = dict[int, list[tuple[Box, Any]]]  # base -> (box in base coordinates, array)


@dataclass(frozen=True)
class StencilSpec:
    """What every block of one stencil computes (shared by its tasks); ``steps`` are the
    output axes' (``Stencil.steps``)."""

    program: ScalarProgram
    accesses: tuple[Access, ...]
    dtype: numpy.dtype
    ndim: int
    steps: Steps


@dataclass(frozen=True)
class BlockPlan:
    """One output block: its shape, the box of it the program writes (block-local; of a
    stepped stencil, the box from its first written cell to its last, every ``steps``-th
    cell of it written), the first written cell's index in the output, whether the old
    block comes first among the arguments (cells the program leaves are copied from it),
    and the base and box (base coordinates) of each further argument."""

    shape: tuple[int, ...]
    written: Box
    origin: tuple[int, ...]
    copies_old: bool
    pieces: tuple[tuple[int, Box], ...]


def read_box(access: Access, box: Box, steps: Steps) -> Box:
    """The box of its base that ``access`` reads for the output ``box`` (non-empty): from
    the cell read for its first element to just past the one read for its last (every
    ``steps``-th cell of it read)."""
    lead = len(box) - len(access.starts)
    return tuple(
        (0, 1)
        if start is None
        else (
            start + steps[lead + a] * box[lead + a][0],
            start + steps[lead + a] * (box[lead + a][1] - 1) + 1,
        )
        for a, start in enumerate(access.starts)
    )


def stencil_block(backend: ChunkBackend, spec: StencilSpec, plan: BlockPlan, *arrays: Any) -> Any:
    """The output block ``plan`` describes (see the module docstring): the interior first
    (the flat route may write scratch values around it), then the cells the write leaves,
    then the rim. Steps of 1 only (a stepped stencil's is ``lattice_block``)."""
    out = backend.empty_block(plan.shape, spec.dtype)
    old, pieces = split_arguments(plan, arrays)
    # Write targets are views: ``+ (Ellipsis,)`` keeps a 0-d block's ``out[()]`` a view
    # (without it NumPy returns a scalar copy, the writes are lost and the block keeps
    # whatever its pooled buffer held before).
    target = out[slices(plan.written) + (Ellipsis,)]
    whole = tuple((o, o + n) for o, n in zip(plan.origin, box_shape(plan.written), strict=True))
    inner, homes = interior(spec, pieces, whole)
    rim = [whole]
    if inner is not None:
        if not flat_interior(backend, spec, plan, homes, inner, out):
            views = operands(backend, spec, pieces, inner)
            evaluate_into(backend, spec, views, target[local(inner, whole) + (Ellipsis,)])
        rim = difference(whole, inner)
    if old is not None:
        for box in difference(tuple((0, n) for n in plan.shape), plan.written):
            out[slices(box)] = old[slices(box)]
    for box in rim:
        views = operands(backend, spec, pieces, box)
        evaluate_into(backend, spec, views, target[local(box, whole) + (Ellipsis,)])
    return out


def split_arguments(plan: BlockPlan, arrays: tuple[Any, ...]) -> tuple[Any, Pieces]:
    """A block task's arguments: the old block (None when the plan copies none) and the
    pieces of each base."""
    given = list(arrays)
    old = given.pop(0) if plan.copies_old else None
    pieces: Pieces = {}
    for (base, box), array in zip(plan.pieces, given, strict=True):
        pieces.setdefault(base, []).append((box, array))
    return old, pieces


def flat_interior(
    backend: ChunkBackend, spec: StencilSpec, plan: BlockPlan, homes: Pieces, inner: Box, out: Any
) -> bool:
    """Evaluate the interior as one 1-D range of the C-ordered block (the rows between its
    first and last cell, whole): every shifted view is then a contiguous range of its own
    block, the fastest form for numexpr and a GPU kernel alike. Cells between the
    interior's rows but outside it get scratch values, overwritten afterwards. Only for
    evaluators that never warn (scratch cells must not raise NumPy's FP warnings), and
    blocks laid out alike; returns False (nothing written) otherwise."""
    program = spec.program
    if program.dtype_of(program.outputs[0]) != out.dtype or not backend.evaluates_quietly(program):
        return False
    first = [
        low - o + w for (low, _), o, (w, _) in zip(inner, plan.origin, plan.written, strict=True)
    ]
    start = int(numpy.ravel_multi_index(first, plan.shape))
    length = (
        int(
            numpy.ravel_multi_index(
                [f + n - 1 for f, n in zip(first, box_shape(inner), strict=True)], plan.shape
            )
        )
        - start
        + 1
    )
    views = []
    for access in spec.accesses:
        ((box, array),) = homes[access.base]
        shape = box_shape(box)
        if (
            None in access.starts
            or shape[1:] != plan.shape[1:]
            or len(shape) != spec.ndim
            or not array.flags.c_contiguous
        ):
            return False
        starts = [s or 0 for s in access.starts]
        corner = [low + s - b for (low, _), s, (b, _) in zip(inner, starts, box, strict=True)]
        offset = int(numpy.ravel_multi_index(corner, shape))
        views.append(array.reshape(-1)[offset : offset + length])
    target = out.reshape(-1)[start : start + length]
    if not compiled_into(backend, spec, views, target):
        evaluate_into(backend, spec, views, target)
    return True


def compiled_into(backend: ChunkBackend, spec: StencilSpec, views: list[Any], target: Any) -> bool:
    """Run the backend's compiled loop of the program (a host backend's, for large blocks
    once the program is hot) over the flat views into ``target``; False (nothing written)
    when there is none."""
    kernel = backend.compiled_loop(spec.program, target.size)
    if kernel is None:
        return False
    try:
        kernel(*views, target)
    except TypeError:  # views of other layouts than the kernel was compiled for
        return False
    return True


def interior(spec: StencilSpec, pieces: Pieces, whole: Box) -> tuple[Box | None, Pieces]:
    """The largest box of ``whole`` where every access reads inside one piece of its base
    (the piece it reads most of: its home, also returned), or None when that box is empty.
    Boxes of output indices: an access reads its base at ``start + step * k``."""
    low = [a for a, _ in whole]
    high = [b for _, b in whole]
    homes: Pieces = {}
    for base, available in pieces.items():
        mine = [a for a in spec.accesses if a.base == base]
        needed = bounding([read_box(a, whole, spec.steps) for a in mine])
        homes[base] = [max(available, key=lambda p: _volume(intersect(p[0], needed)))]
        home = homes[base][0][0]
        lead = spec.ndim - len(home)
        for access in mine:
            for axis, start in enumerate(access.starts):
                if start is None:
                    if not home[axis][0] <= 0 < home[axis][1]:
                        return None, homes
                    continue
                step = spec.steps[lead + axis]  # k with home low <= start + step * k < home high
                low[lead + axis] = max(low[lead + axis], -((start - home[axis][0]) // step))
                high[lead + axis] = min(high[lead + axis], (home[axis][1] - 1 - start) // step + 1)
    if any(b <= a for a, b in zip(low, high, strict=True)):
        return None, homes
    return tuple(zip(low, high, strict=True)), homes


def _volume(box: Box) -> int:
    return int(numpy.prod([max(0, b - a) for a, b in box]))


def operands(backend: ChunkBackend, spec: StencilSpec, pieces: Pieces, box: Box) -> list[Any]:
    """The program's inputs for the output ``box``: a view per access into one array per
    base (a piece itself when it holds everything read, else assembled from the pieces)."""
    regions: dict[int, tuple[Box, Any]] = {}
    for base in pieces:
        reads = [read_box(a, box, spec.steps) for a in spec.accesses if a.base == base]
        needed = bounding(reads)
        regions[base] = (needed, region_from_pieces(backend, pieces[base], needed))
    views = []
    for access in spec.accesses:
        needed, array = regions[access.base]
        lead = spec.ndim - len(access.starts)
        steps = tuple(
            1 if start is None else step
            for start, step in zip(access.starts, spec.steps[lead:], strict=True)
        )
        read = read_box(access, box, spec.steps)
        views.append(array[strided(read, needed, steps) + (Ellipsis,)])
    return views


def region_from_pieces(backend: ChunkBackend, available: list[tuple[Box, Any]], needed: Box) -> Any:
    """``needed`` (a box of one base) as one array: a view of the piece holding it all, or
    a new array filled from the pieces it meets. Cells no piece holds are never read (the
    plan gives every cell some access reads)."""
    for box, array in available:
        if contains(box, needed):
            return array[local(needed, box) + (Ellipsis,)]
    return assembled(backend, available, needed)


def assembled(
    backend: ChunkBackend, available: list[tuple[Box, Any]], needed: Box, result: Any = None
) -> Any:
    """A new array (or ``result``, of its shape) holding ``needed`` (a box of one base),
    copied from the pieces it meets."""
    if result is None:
        result = backend.xp.empty(box_shape(needed), dtype=available[0][1].dtype)
    for box, array in available:
        overlap = intersect(box, needed)
        if all(a < b for a, b in overlap):
            result[local(overlap, needed)] = array[local(overlap, box)]
    return result


def evaluate_into(backend: ChunkBackend, spec: StencilSpec, inputs: list[Any], target: Any) -> None:
    """The program over ``inputs`` written into ``target`` (cast as an assignment casts
    when the program's dtype is not the written array's)."""
    integer_powers.check_program(backend, spec.program, tuple(inputs))
    if spec.program.dtype_of(spec.program.outputs[0]) == target.dtype:
        backend.evaluate_program(spec.program, *inputs, out=target)
    else:
        target[...] = backend.evaluate_program(spec.program, *inputs)
