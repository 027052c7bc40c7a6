"""``paint_fills``: scalar writes into a new filled array become part of its creation.

``grid = zeros((n, n)); grid[:, 0] = -273.15; grid[0, :] = 40.0`` builds a ``Fill`` and two
``SetItem`` nodes; lowered as written, each write copies every block it touches (a grid's
edge blocks twice or more) before the first computation reads it. When nothing else reads
the array in between, the writes are folded into the ``Fill`` as *paints*: each block is
filled and then painted where the writes meet it, in one task, written once. Before and
after::

    SetItem(SetItem(Fill(0.0), [:, 0], -273.15), [0, :], 40.0)
    -> Fill(0.0, paints=(([:, 0], -273.15), ([0, :], 40.0)))

Only writes of a scalar (a 0-d ``HostData``) of the array's own dtype, into a ``Fill`` that
has a value (not ``empty``'s), read by nothing else, under the same ``dask.annotate``
context.
"""

from __future__ import annotations

from collections.abc import Callable

from .._ir.expr import Expr
from .._ir.indexing import SetItem
from .._ir.leaves import Fill, HostData
from .rebuild import count_uses, keep, rebuild


def paint_fills(roots: list[Expr]) -> list[Expr]:
    """``roots`` with scalar writes into fresh fills folded into them. Pure."""
    uses = count_uses(roots)

    def replace(node: Expr, new_of: Callable[[Expr], Expr]) -> Expr:
        if isinstance(node, SetItem):
            target, value = node.children
            painted = new_of(target)
            if (
                isinstance(painted, Fill)
                and painted.value is not None
                and uses[target.number] == 1
                and isinstance(value, HostData)
                and value.shape == ()
                and value.dtype == node.dtype
                and painted.annotations == node.annotations
            ):
                return _painted(painted, node, value)
        return keep(node, new_of)

    return rebuild(roots, replace)


def _painted(fill: Fill, write: SetItem, value: HostData) -> Fill:
    painted = Fill(
        fill.shape,
        fill.dtype,
        fill.value,
        fill.chunks,
        paints=(*fill.paints, (write.region, value.data)),
    )
    painted.annotations = fill.annotations
    return painted
