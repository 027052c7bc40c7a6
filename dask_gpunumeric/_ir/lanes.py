"""``Lanes``: a NumPy function applied to whole lanes along one axis.

Sorting, partitioning and order statistics (``sort``, ``argsort``, ``partition``,
``median``, ``quantile``...) need every element of a lane at once, and dask.array has no
distributed route for them. Each lane along ``axis`` is independent, though, so the array
is rechunked to hold that axis whole (the other axes keep their chunks: no gather across
them) and NumPy's (or CuPy's) own function runs on every block. The result is then
NumPy's exactly, element for element, including NaN placement and stable orders.
"""

from __future__ import annotations

from typing import Any

from .expr import Expr

# Kinds whose result along the lane axis has one entry per requested quantile; the kernel
# moves NumPy's leading quantile axis into the lane axis.
QUANTILE_KINDS = frozenset({"quantile", "nanquantile", "percentile", "nanpercentile"})


class Lanes(Expr):
    """``numpy.<kind>(block, axis=axis, **params)`` on blocks holding ``axis`` whole.

    The result has ``source``'s shape with ``axis`` of length ``length``. With
    ``drops_leading`` (``lexsort``: the keys are stacked along axis 0) axis 0 is also
    held whole and is absent from the result.
    """

    __slots__ = ("kind", "axis", "params", "drops_leading")

    def __init__(
        self,
        kind: str,
        source: Expr,
        axis: int,
        length: int,
        dtype: Any,
        params: tuple[tuple[str, Any], ...] = (),
        drops_leading: bool = False,
    ) -> None:
        shape = list(source.shape)
        shape[axis] = length
        super().__init__(tuple(shape[1:] if drops_leading else shape), dtype, (source,))
        self.kind = kind
        self.axis = axis
        self.params = params
        self.drops_leading = drops_leading
