"""``Stencil``: a fused elementwise program over shifted views of a few arrays, computed
one output block per task from each block's own inputs plus thin ghost slabs (DESIGN.md §5,
"halo exchange"). Built by ``_passes.exchange_halos``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .expr import Expr
from .scalar_program import ScalarProgram


@dataclass(frozen=True)
class Access:
    """How one program input reads a base: output element ``k`` reads
    ``base[starts + steps * k]``, ``steps`` the stencil's (all 1 but for a stepped write),
    modulo the base's shape: a read past the base's ends wraps around (only a roll's
    reads do, in step-1 stencils; a view's stay inside).

    ``base`` indexes the stencil's children. ``starts`` has one entry per base axis; the
    base's axes are the output's trailing ones (right-aligned broadcasting), and ``None``
    marks a size-1 axis broadcast along the output (element 0 is read for every ``k``).
    """

    base: int
    starts: tuple[int | None, ...]


class Stencil(Expr):
    """``program`` over ``accesses`` (input ``k`` of the program reads ``accesses[k]``).

    ``anchor`` (a base) and ``origin`` place the program's output, of shape ``extent``, in
    that base: output element ``k`` is base element ``origin + k``. With ``writes`` the node
    is the anchor base with that box replaced by the program's output (``center[:] = ...``);
    otherwise it is a new array of shape ``extent`` whose blocks follow the anchor's.

    ``sweeps`` (a written stencil of one base only) applies the write that many times in a
    row, each sweep reading what the one before wrote: ``k`` iterations of a loop, which
    exchange halos ``k`` deep once (``_passes.merge_sweeps``).

    ``steps`` (one per output axis, positive) makes the write a lattice: output element
    ``k`` is anchor element ``origin + steps * k`` and access ``a`` reads
    ``a.starts + steps * k`` (``u[1::2, 1::2] = f(u[0::2, 1::2], ...)``, red-black
    Gauss-Seidel). Only written stencils are stepped; the others have steps of 1.
    """

    __slots__ = (
        "program",
        "accesses",
        "anchor",
        "origin",
        "extent",
        "writes",
        "sweeps",
        "steps",
    )

    def __init__(
        self,
        program: ScalarProgram,
        bases: tuple[Expr, ...],
        accesses: tuple[Access, ...],
        anchor: tuple[int, tuple[int, ...]],
        extent: tuple[int, ...],
        writes: bool,
        dtype: Any,
        sweeps: int = 1,
        steps: tuple[int, ...] | None = None,
    ) -> None:
        shape = bases[anchor[0]].shape if writes else extent
        super().__init__(shape, dtype, bases)
        self.program = program
        self.accesses = accesses
        self.anchor, self.origin = anchor
        self.extent = tuple(extent)
        self.writes = writes
        self.sweeps = sweeps
        self.steps = (1,) * len(self.extent) if steps is None else tuple(steps)

    @property
    def is_stepped(self) -> bool:
        """Whether some axis has a step other than 1 (the write is a lattice, not a box)."""
        return any(step != 1 for step in self.steps)


@dataclass(frozen=True)
class Stage:
    """One write of a ``StencilChain``, in its base's coordinates: the cells
    ``origin + steps * k`` (``k`` within ``extent``) get ``program`` of the cells at each
    of ``offsets`` from them, read after the stages before it wrote."""

    program: ScalarProgram
    offsets: tuple[tuple[int, ...], ...]  # one per program input
    origin: tuple[int, ...]
    extent: tuple[int, ...]
    steps: tuple[int, ...]


class StencilChain(Expr):
    """Written stencils of one base applied in a row, each reading what the ones before
    wrote (a red-black iteration's four half-sweeps): the base with ``stages`` written in
    order. One task per block runs them all on the block, fed once by ghost slabs as deep
    as their reaches together (``_passes.chain_stencils``)."""

    __slots__ = ("stages",)

    def __init__(self, stages: tuple[Stage, ...], base: Expr, dtype: Any) -> None:
        super().__init__(base.shape, dtype, (base,))
        self.stages = stages
