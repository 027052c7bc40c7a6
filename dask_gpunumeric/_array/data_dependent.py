"""Materialization boundaries for selections whose size is data (DESIGN.md §3): the mask
is persisted on the workers and only its per-block counts are computed to the client."""

from __future__ import annotations

import numpy

from .._backends import get_backend
from .._ir.expr import Expr
from .._ir.selection import FlatNonzero
from .._lowering import lower
from .._lowering.selection import block_true_counts
from .._runtime import execution
from .materialize import persist_expr


def flat_nonzero(mask: Expr) -> FlatNonzero:
    """The positions of the true elements of 1-d boolean ``mask``, as an expression whose
    shape is known: the mask is persisted, its blocks are counted, nothing else moves."""
    backend = get_backend()
    persisted = persist_expr(mask)
    (counts,) = execution.compute(block_true_counts(lower(persisted, backend), backend))
    return FlatNonzero(persisted, tuple(int(c) for c in numpy.asarray(counts)))
