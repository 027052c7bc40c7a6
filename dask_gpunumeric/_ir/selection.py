"""Selections whose size depends on data (DESIGN.md §3): built once the data that decides
their size is known (per-block counts), so shapes stay exact."""

from __future__ import annotations

import numpy

from .expr import Expr


class FlatNonzero(Expr):
    """The flat positions of ``mask``'s true elements, in order; ``mask`` is 1-d bool and
    ``block_counts[b]`` is how many of them its block b (as lowered) holds."""

    __slots__ = ("block_counts",)

    def __init__(self, mask: Expr, block_counts: tuple[int, ...]) -> None:
        assert mask.ndim == 1 and mask.dtype == bool, "a flat boolean mask"
        super().__init__((sum(block_counts),), numpy.intp, (mask,))
        self.block_counts = block_counts
