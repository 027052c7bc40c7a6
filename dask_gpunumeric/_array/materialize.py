"""Materialization boundaries: computing an expression to host memory, or persisting it."""

from __future__ import annotations

import dask
import numpy

from .._backends import get_backend
from .._ir.expr import Expr
from .._ir.leaves import DaskData
from .._lowering import lower


def compute_expr(expr: Expr) -> numpy.ndarray:
    """The value of ``expr`` as a host NumPy array (the explicit device-to-host step)."""
    backend = get_backend()
    (result,) = dask.compute(lower(expr, backend.name))
    return numpy.asarray(backend.to_host(result)).reshape(expr.shape)


def persist_expr(expr: Expr) -> Expr:
    """A leaf holding ``expr``'s computed chunks (on the workers when a client is active)."""
    if isinstance(expr, DaskData) and expr.materialized:
        return expr
    (persisted,) = dask.persist(lower(expr))
    return DaskData(persisted, materialized=True)
