"""``merge_sweeps``: consecutive iterations of one written stencil become one node.

A loop ``for _ in range(k): center[:] = f(center, north, ...)`` builds ``k`` written
``Stencil`` nodes, each the only reader of the one before. Merged into one node of ``k``
sweeps, its blocks receive ghost slabs ``k`` times as deep once, and each task runs the
``k`` sweeps on its block in cache-sized tiles (``_kernels/stencil_sweeps.py``): the grid
crosses memory once per ``k`` iterations instead of once per iteration. Before/after, the
seed stencil, 3 iterations::

    Stencil(f, bases=(Stencil(f, bases=(Stencil(f, bases=(grid,)),)),))
    -> Stencil(f, bases=(grid,), sweeps=3)

Only stencils that write into their one base, read it at fixed shifts (no broadcast
axis) inside it (a roll's reads wrap around: not merged), run the same program (compared
by its text, so ``-0.0`` is not ``0.0``) over the same box under the same
``dask.annotate`` context are merged, at most ``max_sweeps`` deep and only while the halo
stays within ``max_depth`` cells. Stepped stencils (red-black half-sweeps) are not
merged: the sweeps' kernels dilate boxes, not lattices, and a red-black iteration
alternates four different writes, which no chain of one repeats; ``chain_stencils``
runs those, and other runs of different writes, one after another in one task.
"""

from __future__ import annotations

from collections.abc import Callable

from .._ir.expr import Expr
from .._ir.stencil import Stencil
from .rebuild import count_uses, keep, rebuild


def merge_sweeps(roots: list[Expr], max_sweeps: int, max_depth: int) -> list[Expr]:
    """``roots`` with chains of one written stencil merged into multi-sweep nodes. Pure."""
    uses = count_uses(roots)

    def replace(node: Expr, new_of: Callable[[Expr], Expr]) -> Expr:
        if not (isinstance(node, Stencil) and is_sweepable(node)):
            return keep(node, new_of)
        (child,) = node.children
        before = new_of(child)
        if (
            uses[child.number] == 1
            and isinstance(before, Stencil)
            and same_step(node, before)
            and node.sweeps + before.sweeps <= max_sweeps
            and (node.sweeps + before.sweeps) * reach(node) <= max_depth
        ):
            return _merged(node, before)
        return keep(node, new_of)

    return rebuild(roots, replace)


def is_sweepable(node: Stencil) -> bool:
    """A stencil writing into its one base, every read at a fixed shift of the output
    and inside the base, with steps of 1 (a box, not a lattice)."""
    return (
        writes_its_base_at_fixed_shifts(node)
        and not node.is_stepped
        # no read wraps around the base (a roll's): sweeps read past the window only into
        # cells no sweep writes
        and all(
            0 <= start and start + extent <= n  # type: ignore[operator]
            for a in node.accesses
            for start, extent, n in zip(a.starts, node.extent, node.shape, strict=True)
        )
    )


def writes_its_base_at_fixed_shifts(node: Stencil) -> bool:
    """A stencil writing into its one base, every read of it at a fixed shift of the
    written cell (no broadcast axis): a sweep's and a chain's link's first condition."""
    return (
        node.writes
        and len(node.children) == 1
        and all(
            a.base == 0 and None not in a.starts and len(a.starts) == node.ndim
            for a in node.accesses
        )
    )


def same_step(node: Stencil, other: Stencil) -> bool:
    """Whether ``other`` is another application of ``node``'s write."""
    return (
        is_sweepable(other)
        and repr(node.program) == repr(other.program)
        and node.accesses == other.accesses
        and node.origin == other.origin
        and node.extent == other.extent
        and node.dtype == other.dtype
        and node.annotations == other.annotations
    )


def reach(node: Stencil) -> int:
    """How far one sweep reads from the cell it writes (cells, the largest over axes)."""
    return max(
        abs(start - origin)  # type: ignore[operator]
        for access in node.accesses
        for start, origin in zip(access.starts, node.origin, strict=True)
    )


def _merged(node: Stencil, before: Stencil) -> Stencil:
    merged = Stencil(
        node.program,
        before.children,
        node.accesses,
        (node.anchor, node.origin),
        node.extent,
        writes=True,
        dtype=node.dtype,
        sweeps=node.sweeps + before.sweeps,
    )
    merged.annotations = node.annotations
    return merged
