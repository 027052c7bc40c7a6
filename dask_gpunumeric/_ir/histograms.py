"""``Binned``: counts (or weight sums) of a 1-d array's values per bin.

Every block counts its values into all the bins, the counts are summed in a tree (as
dask.array's ``histogram`` and ``bincount`` do). dask's own functions are not used: they
need the weights chunked exactly as the values, and send the bin edges through a
delayed object or as host memory next to device chunks. The bins are known at the call
(the caller computed them first, as NumPy does), so the shape is too.
"""

from __future__ import annotations

from typing import Any

import numpy

from .expr import Expr


class Binned(Expr):
    """``numpy.histogram(values, edges, weights=...)[0]`` when ``edges`` is given, else
    ``numpy.bincount(values, weights=..., minlength=length)``."""

    __slots__ = ("edges", "weighted")

    def __init__(
        self,
        values: Expr,
        weights: Expr | None,
        edges: numpy.ndarray | None,
        length: int,
        dtype: Any,
    ) -> None:
        children = (values,) if weights is None else (values, weights)
        super().__init__((length,), dtype, children)
        self.edges = edges
        self.weighted = weights is not None
