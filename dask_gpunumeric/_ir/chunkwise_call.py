"""``ChunkwiseCall``: a NumPy function applied block by block (the chunk-wise fallback).

Elementwise functions we do not implement (``numpy.sinc``, ``numpy.i0``, a ufunc without a
native row) give the same result block by block on any chunking; per-row functions
(``numpy.unwrap``, ``numpy.sort_complex``, ``numpy.gradient`` along one axis) do so once
each block holds its rows whole along ``axis``. The function is named by its path under
the backend's array namespace (``"sinc"``, ``"fft.fft"``): ``_ir`` imports neither dask
nor cupy; lowering resolves it on the worker. A user's own ufunc (a Numba ``@vectorize``)
has no such path: it is held as the callable itself and shipped to the workers. Shape and dtype are NumPy's, found by the
caller on a stand-in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .expr import Expr


class ChunkwiseCall(Expr):
    """``xp.<function>(*arguments, **keywords)`` on each block, with each ``Expr`` among
    ``arguments`` and keyword values replaced by its block. ``axis`` is None for an
    elementwise function (operands broadcast to ``shape``), else the axis every block
    holds whole (the result's length along it may differ from the operand's).
    ``signature`` is a generalized ufunc's (``"(n),(n)->()"``): every operand is an
    ``Expr`` whose trailing core dimensions each block holds whole; the leading (loop)
    dimensions broadcast and are chunked as usual."""

    __slots__ = ("function", "arguments", "keywords", "axis", "signature")

    def __init__(
        self,
        function: str | Callable[..., Any],
        arguments: tuple[Any, ...],
        keywords: tuple[tuple[str, Any], ...],
        shape: tuple[int, ...],
        dtype: Any,
        axis: int | None = None,
        signature: str | None = None,
    ) -> None:
        operands = [a for a in arguments if isinstance(a, Expr)]
        operands += [v for _, v in keywords if isinstance(v, Expr)]
        super().__init__(shape, dtype, tuple(operands))
        self.function = function
        self.arguments = arguments
        self.keywords = keywords
        self.axis = axis
        self.signature = signature
