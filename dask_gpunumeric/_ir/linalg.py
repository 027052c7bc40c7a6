"""``GatheredLinalg``: a linear-algebra function applied to whole matrices.

NumPy's ``linalg`` functions work on the last one or two axes ("core" axes) of stacked
operands. Where dask.array has no distributed algorithm (``inv``, ``det``, ``eig``...),
each matrix is gathered whole into one block and the backend's own function (``numpy.
linalg.inv``, ``cupy.linalg.inv``) runs on it; the leading ("batch") axes stay split, so a
stack of matrices is still spread over the workers. A function with several results
(``svd``, ``eigh``, ``slogdet``) is one node per result, picked by ``output``; their
lowerings share the call, so it runs once.
"""

from __future__ import annotations

from typing import Any

from .expr import Expr


class GatheredLinalg(Expr):
    """``xp.<function>(*operands, **keywords)[output]`` on blocks holding each operand's
    last ``core_ndims[i]`` axes whole; the result has ``output_core_ndim`` core axes after
    the broadcast batch axes. ``function`` is a path under the backend's namespace
    (``"linalg.inv"``, ``"cross"``)."""

    __slots__ = ("function", "core_ndims", "output_core_ndim", "keywords", "output")

    def __init__(
        self,
        function: str,
        operands: tuple[Expr, ...],
        core_ndims: tuple[int, ...],
        shape: tuple[int, ...],
        dtype: Any,
        output_core_ndim: int,
        keywords: tuple[tuple[str, Any], ...] = (),
        output: int | None = None,
    ) -> None:
        super().__init__(shape, dtype, operands)
        self.function = function
        self.core_ndims = core_ndims
        self.output_core_ndim = output_core_ndim
        self.keywords = keywords
        self.output = output
