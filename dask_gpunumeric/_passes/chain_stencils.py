"""``chain_stencils``: consecutive different writes of one base become one node.

A red-black iteration writes four lattices of ``u`` in a row (``u[1::2, 1::2] = ...``,
then ``u[2::2, 2::2] = ...``, ...), each reading what the one before wrote;
``merge_sweeps`` merges only repetitions of one write. Chained, the writes run one after
another in one task per block (``_kernels/stencil_chain.py``), fed once by ghost slabs as
deep as their reaches together: one exchange, and one wait for the scheduler, per chain
instead of per write. Before/after, two writes::

    Stencil(black, bases=(Stencil(red, bases=(u,)),))
    -> StencilChain((Stage(red), Stage(black)), base=u)

Only written stencils of one sweep and one base, of the base's dtype, reading it at fixed
shifts of the written cell and inside it (no roll's wrap-around, no broadcast axis), under
the same ``dask.annotate`` context, are chained: at most ``max_stages`` writes, while
their reaches add up to at most ``max_depth`` cells. Runs after ``merge_sweeps``, whose
nodes of several sweeps (compiled and tiled on the host) it leaves as they are.
"""

from __future__ import annotations

from collections.abc import Callable

from .._ir.expr import Expr
from .._ir.stencil import Stage, Stencil, StencilChain
from .merge_sweeps import writes_its_base_at_fixed_shifts
from .rebuild import count_uses, keep, rebuild


def chain_stencils(roots: list[Expr], max_stages: int, max_depth: int) -> list[Expr]:
    """``roots`` with runs of written stencils of one base chained. Pure."""
    uses = count_uses(roots)

    def replace(node: Expr, new_of: Callable[[Expr], Expr]) -> Expr:
        stage = as_stage(node)
        if stage is None:
            return keep(node, new_of)
        (child,) = node.children
        before = new_of(child)
        stages = stages_of(before)
        if (
            uses[child.number] == 1
            and stages is not None
            and before.annotations == node.annotations
            and len(stages) < max_stages
            and sum(map(reach, (*stages, stage))) <= max_depth
        ):
            chained = StencilChain((*stages, stage), before.children[0], node.dtype)
            chained.annotations = node.annotations
            return chained
        return keep(node, new_of)

    return rebuild(roots, replace)


def as_stage(node: Expr) -> Stage | None:
    """``node`` as one stage of a chain, or None where it cannot be one."""
    if not (
        isinstance(node, Stencil)
        and writes_its_base_at_fixed_shifts(node)
        and node.sweeps == 1
        and node.dtype == node.children[0].dtype
    ):
        return None
    for access in node.accesses:
        for start, step, count, n in zip(
            access.starts, node.steps, node.extent, node.shape, strict=True
        ):
            if not 0 <= start <= start + step * (count - 1) < n:  # type: ignore[operator]
                return None  # a read around the base's ends (a roll's)
    offsets = tuple(
        tuple(s - o for s, o in zip(a.starts, node.origin, strict=True))  # type: ignore[operator]
        for a in node.accesses
    )
    return Stage(node.program, offsets, node.origin, node.extent, node.steps)


def stages_of(node: Expr) -> tuple[Stage, ...] | None:
    """The stages ``node`` applies to its base, or None where it is no chain's link."""
    if isinstance(node, StencilChain):
        return node.stages
    stage = as_stage(node)
    return None if stage is None else (stage,)


def reach(stage: Stage) -> int:
    """How far a stage reads from the cells it writes (cells, the largest over axes)."""
    return max(abs(k) for offset in stage.offsets for k in offset)
