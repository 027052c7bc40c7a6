"""``FusedElementwise``: a tree of elementwise nodes computed as one kernel per chunk."""

from __future__ import annotations

import hashlib
from typing import Any

from .expr import Expr
from .scalar_program import ScalarProgram


class FusedElementwise(Expr):
    """``program`` evaluated elementwise over ``children`` (input ``k`` of the program is
    ``children[k]``), broadcast together to ``shape``.

    Inputs may have fewer dimensions than the result or size-1 axes (broadcasting), and may
    be 0-d (a reduction's result used as a scalar). Built by ``_passes.fuse_elementwise``.
    """

    __slots__ = ("program", "root_name", "_name")

    def __init__(
        self,
        program: ScalarProgram,
        inputs: tuple[Expr, ...],
        shape: tuple[int, ...],
        dtype: Any,
        root_name: str,
    ) -> None:
        super().__init__(shape, dtype, inputs)
        self.program = program
        self.root_name = root_name
        # Digested once here (and again by ``with_children``, whose copy reads other
        # inputs): lowering reads a node's name several times, and a chain of fused
        # nodes would otherwise re-digest every program below it on each read.
        self._name = self.digest_name()

    def digest_name(self) -> str:
        """``name`` computed from the root's name, the program and the inputs' names."""
        content = repr((self.program, [child.name for child in self.children]))
        return f"{self.root_name}~{hashlib.sha1(content.encode()).hexdigest()[:10]}"

    @property
    def name(self) -> str:
        """The fused tree's root's name (what the user's last operation made, as dashboards
        show it) and a digest of what the kernel reads and computes: one root can be fused
        differently in two lowerings (other consumers cut the tree elsewhere, or its inputs
        are rebuilt nodes), and one key must never stand for two different tasks."""
        return self._name
