"""Materialization boundaries: computing an expression to host memory, or persisting it."""

from __future__ import annotations

import dask
import numpy

from .._backends import get_backend
from .._ir.expr import Expr
from .._ir.leaves import DaskData
from .._lowering import lower, lower_all
from .store import Store, live_stores

# Stores shallower than this are cheap to recompute; persisting them is not worth a copy.
_WORTH_PERSISTING_DEPTH = 4


def compute_expr(expr: Expr) -> numpy.ndarray:
    """The value of ``expr`` as a host NumPy array (the explicit device-to-host step).

    Live arrays whose current value is computed on the way are persisted in the same run,
    so the next materialization starts from them instead of recomputing their history.
    """
    backend = get_backend()
    stores = _live_stores_within(expr)
    persisted = dask.persist(*lower_all([expr, *(s.version for s in stores)], backend.name))
    for store, array in zip(stores, persisted[1:], strict=True):
        store.version = DaskData(array, materialized=True)
    (result,) = dask.compute(persisted[0])
    return numpy.asarray(backend.to_host(result)).reshape(expr.shape)


def persist_expr(expr: Expr) -> Expr:
    """A leaf holding ``expr``'s computed chunks (on the workers when a client is active)."""
    if isinstance(expr, DaskData) and expr.materialized:
        return expr
    (persisted,) = dask.persist(lower(expr))
    return DaskData(persisted, materialized=True)


def _live_stores_within(expr: Expr) -> list[Store]:
    """The live stores whose current version is a node of ``expr``'s graph."""
    candidates = {
        s.version.number: s for s in list(live_stores) if s.version.depth >= _WORTH_PERSISTING_DEPTH
    }
    if not candidates:
        return []
    found: list[Store] = []
    seen: set[int] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.number in seen:
            continue
        seen.add(node.number)
        if node.number in candidates:
            found.append(candidates[node.number])
        stack.extend(node.children)
    return found
