"""The traversal: lower every node once (iteratively: graphs can be deep), children first."""

from __future__ import annotations

from typing import Any, Callable

import dask.array as da

from .._backends import get_backend
from .._ir.expr import Expr
from . import elementwise, indexing, leaves, products, reductions

Lowering = Callable[[Any, list[da.Array], str], da.Array]

lowering_table: dict[type, Lowering] = {
    **leaves.lowerings,
    **elementwise.lowerings,
    **indexing.lowerings,
    **reductions.lowerings,
    **products.lowerings,
}


def lower(expr: Expr, backend_name: str | None = None) -> da.Array:
    """The dask array computing ``expr`` with the configured (or named) chunk backend."""
    backend_name = backend_name or get_backend().name
    lowered: dict[int, da.Array] = {}
    stack: list[tuple[Expr, bool]] = [(expr, False)]
    while stack:
        node, children_done = stack.pop()
        if node.number in lowered:
            continue
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children if child.number not in lowered)
            continue
        inputs = [lowered[child.number] for child in node.children]
        lowered[node.number] = lowering_table[type(node)](node, inputs, backend_name)
    return lowered[expr.number]
