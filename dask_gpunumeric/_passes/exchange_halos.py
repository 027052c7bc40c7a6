"""``exchange_halos``: elementwise programs over shifted views become ``Stencil`` nodes,
lowered to one task per output block that reads its own block and thin ghost slabs.

Before (the seed stencil, one iteration after fusion)::

    SetItem(grid, [1:-1, 1:-1],
            FusedElementwise(0.2 * (v0 + v1 + v2 + v3 + v4),
                             grid[1:-1, 1:-1], grid[0:-2, 1:-1], grid[1:-1, 2:],
                             grid[1:-1, 0:-2], grid[2:, 1:-1]))

After (one node; its only child is ``grid``)::

    Stencil(program=0.2 * (v0 + v1 + v2 + v3 + v4), bases=(grid,),
            accesses=(grid@(1, 1), grid@(0, 1), grid@(1, 2), grid@(1, 0), grid@(2, 1)),
            anchor=grid, origin=(1, 1), extent=(N, N), writes=True)

A roll (``np.roll(u, 1, 0)``, by at most ``max_depth``) is a shifted read of the rolled
array that wraps around its ends: the periodic heat step
``u + 0.1 * (np.roll(u, 1, 0) + np.roll(u, -1, 0) + ... - 4 * u)`` becomes one stencil of
``u`` read at (0, 0), (-1, 0), (1, 0), ... whose edge blocks' ghost slabs come from the
opposite edge. A program input that is neither (a full array, a broadcast operand)
is a base of its own read at offset 0. Preconditions are listed one per line in
``can_write_through`` and ``reads_at_steps``.

A write of a lattice (``box_steps``: a positive step per axis) whose program reads views
of the same steps is a *stepped* stencil. Red-black Gauss-Seidel's half-sweep, ``u`` of
``(n + 2, n + 2)``, ``rows = 1:n+1:2``, ``cols = 2:n+1:2``, ``up``/``down`` and
``left``/``right`` those shifted by -1/+1 (the other cells sit between them)::

    u[rows, cols] = 0.25 * (u[up, cols] + u[down, cols] + u[rows, left] + u[rows, right])
    -> Stencil(program, bases=(u,), accesses=(u@(0, 2), u@(2, 2), u@(1, 1), u@(1, 3)),
               anchor=u, origin=(1, 2), extent=(n // 2, n // 2), writes=True, steps=(2, 2))

where output element ``k`` is ``u[origin + steps * k]`` and access ``a`` reads
``u[a.starts + steps * k]``. A view of other steps is then no shifted read, and an input
read whole (steps of 1) refuses the stencil: the write stays a ``SetItem``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .._ir.elementwise import Elementwise
from .._ir.expr import Expr
from .._ir.fused import FusedElementwise
from .._ir.indexing import Region, SetItem, Slice
from .._ir.rolling import Roll
from .._ir.scalar_program import ScalarProgram
from .._ir.stencil import Access, Stencil
from .rebuild import count_uses, keep, rebuild
from .scalar_programs import NotFusableError, build_program

Leaf = tuple[Expr, tuple[int | None, ...], bool]  # base, starts, is a shifted view


def exchange_halos(roots: list[Expr], max_depth: int = 8) -> list[Expr]:
    """``roots`` with stencil-shaped elementwise nodes (and writes of them) replaced by
    ``Stencil`` nodes. Pure: the input graph is not modified."""
    uses = count_uses(roots)

    def replace(node: Expr, new_of: Callable[[Expr], Expr]) -> Expr:
        stencil = None
        if isinstance(node, SetItem) and can_write_through(node, uses):
            stencil = _stencil(node.children[1], new_of, max_depth, write=node)
        elif isinstance(node, (Elementwise, FusedElementwise)):
            stencil = _stencil(node, new_of, max_depth, write=None)
        return keep(node, new_of) if stencil is None else stencil

    return rebuild(roots, replace)


def box_steps(region: Region, ndim: int) -> tuple[int, ...] | None:
    """The step of each axis when ``region`` is a lattice of its source (every axis a span
    with a positive step, in order; a span of one element has step 1), else None."""
    # as many output axes as source axes, none new, none transposed
    if region.out != tuple(range(ndim)) or len(region.axes) != ndim:
        return None
    steps = []
    for axis in region.axes:
        if isinstance(axis, int):  # an integer index drops the axis
            return None
        _, step, count = axis
        if count > 1 and step < 1:  # reversed: rows would be read in another order
            return None
        steps.append(1 if count <= 1 else step)
    return tuple(steps)


def can_write_through(node: SetItem, uses: Counter[int]) -> bool:
    """Whether the write ``node`` and the elementwise value it writes can be one stencil."""
    value = node.children[1]
    return (
        # the value is elementwise and nothing else reads it as an array
        isinstance(value, (Elementwise, FusedElementwise))
        and uses[value.number] == 1
        # it fills the written box exactly (no broadcasting in the write)
        and value.shape == node.region.shape
        # the written region is a box, or a lattice of positive steps, of the whole target
        and box_steps(node.region, node.ndim) is not None
        and 0 not in value.shape
        # built under the same dask.annotate context
        and value.annotations == node.annotations
    )


def _program(node: Expr) -> tuple[ScalarProgram, list[Expr]] | None:
    if isinstance(node, FusedElementwise):
        return node.program, list(node.children)
    assert isinstance(node, Elementwise)
    try:
        return build_program(node, {node.number})
    except NotFusableError:
        return None


def _leaf(node: Expr, shape: tuple[int, ...], steps: tuple[int, ...]) -> Leaf:
    """How a program input reads its base: a view of the output's shape and of the
    stencil's ``steps`` is a shifted read of the sliced array, a roll of the output's shape
    (step-1 stencils only) one of the rolled array that wraps around its ends
    (``np.roll(u, 1, 0)`` reads ``u`` at -1: row -1 is its last); anything else is read
    whole (broadcast axes as ``None``)."""
    if (
        isinstance(node, Slice)
        and node.shape == shape
        and box_steps(node.region, node.ndim) == steps
    ):
        starts = tuple(a[0] for a in node.region.axes)  # type: ignore[index]
        return node.children[0], starts, True
    if isinstance(node, Roll) and node.shape == shape and set(steps) <= {1}:
        rolled = [0] * node.ndim
        for axis, roll in zip(node.axes, node.shifts, strict=True):
            length = node.shape[axis]
            rolled[axis] = -roll if 2 * roll <= length else length - roll  # the nearer way
        return node.children[0], tuple(rolled), True
    lead = len(shape) - node.ndim
    starts = tuple(None if n == 1 and shape[lead + a] != 1 else 0 for a, n in enumerate(node.shape))
    return node, starts, False


def _stencil(
    value: Expr, new_of: Callable[[Expr], Expr], max_depth: int, write: SetItem | None
) -> Stencil | None:
    """The ``Stencil`` computing ``value`` (written into ``write``'s region if given)."""
    found = _program(value) if 0 not in value.shape else None
    if found is None or len(found[0].outputs) != 1:
        return None
    program, inputs = found
    steps = (1,) * value.ndim if write is None else box_steps(write.region, write.ndim)
    if steps is None:  # not a lattice (``can_write_through`` refuses it first)
        return None
    leaves = [_leaf(x, value.shape, steps) for x in inputs]
    if not any(shifted for _, _, shifted in leaves) or not reads_at_steps(leaves, steps):
        return None
    bases: dict[int, Expr] = {}
    if write is not None:
        bases[write.children[0].number] = write.children[0]
    for base, _, _ in leaves:
        bases.setdefault(base.number, base)
    order = list(bases)
    accesses = tuple(Access(order.index(base.number), starts) for base, starts, _ in leaves)
    anchor = _anchor(accesses, write, value.shape, [base.shape for base in bases.values()])
    if anchor is None or not is_shallow(accesses, anchor, max_depth):
        return None
    stencil = Stencil(
        program,
        tuple(new_of(base) for base in bases.values()),
        accesses,
        anchor,
        value.shape,
        writes=write is not None,
        dtype=write.dtype if write is not None else value.dtype,
        steps=steps,
    )
    stencil.annotations = value.annotations
    return stencil


def reads_at_steps(leaves: list[Leaf], steps: tuple[int, ...]) -> bool:
    """Whether every input reads its base at the stencil's ``steps``: a shifted view does;
    an input read whole reads at step 1, so only along axes of step 1 or broadcast ones."""
    for _, starts, shifted in leaves:
        lead = len(steps) - len(starts)
        if not shifted and any(
            start is not None and steps[lead + axis] != 1 for axis, start in enumerate(starts)
        ):
            return False
    return True


Anchor = tuple[int, tuple[int, ...]]  # a base, and where output element 0 sits in it


def _anchor(
    accesses: tuple[Access, ...],
    write: SetItem | None,
    shape: tuple[int, ...],
    base_shapes: list[tuple[int, ...]],
) -> Anchor | None:
    """Where the output sits: the written box, or the middle of the accesses of the base
    read most often with the output's dimensions (its blocks become the output's), moved
    inside that base where rolls' reads put the middle past its ends."""
    if write is not None:
        return 0, tuple(a[0] for a in write.region.axes)  # type: ignore[index]
    full = [a for a in accesses if len(a.starts) == len(shape) and None not in a.starts]
    if not full:
        return None
    base = Counter(a.base for a in full).most_common(1)[0][0]
    middle = _middle([a.starts for a in full if a.base == base])
    room = (n - extent for n, extent in zip(base_shapes[base], shape, strict=True))
    return base, tuple(min(max(m, 0), r) for m, r in zip(middle, room, strict=True))


def _middle(starts: list[tuple[int | None, ...]]) -> tuple[int, ...]:
    return tuple((min(column) + max(column)) // 2 for column in zip(*starts, strict=True))  # type: ignore[type-var, operator]


def is_shallow(accesses: tuple[Access, ...], anchor: Anchor, max_depth: int) -> bool:
    """Whether every access lies within ``max_depth`` of its base's centre: the anchor's
    origin on the anchor's base, the middle of its accesses on any other."""
    for base in {a.base for a in accesses}:
        mine = [a.starts for a in accesses if a.base == base]
        centre = anchor[1] if base == anchor[0] else _middle_or_none(mine)
        for starts in mine:
            for start, middle in zip(starts, centre, strict=True):
                if start is not None and middle is not None and abs(start - middle) > max_depth:
                    return False
    return True


def _middle_or_none(starts: list[tuple[int | None, ...]]) -> tuple[int | None, ...]:
    columns = zip(*starts, strict=True)
    return tuple(
        None if None in column else (min(column) + max(column)) // 2  # type: ignore[type-var, operator]
        for column in columns
    )
