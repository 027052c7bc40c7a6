"""``DaskCall``: a value computed by a public ``dask.array`` function.

For operations dask.array already distributes well (``einsum``, ``linalg.qr``, ``fft``,
``concatenate``...) a section module builds one of these instead of a node kind of its
own. The function is named by its path under ``dask.array`` (``_ir`` does not import
dask); lowering resolves it and calls it on the lowered inputs. The caller gives the
result's shape and dtype (NumPy's, found on a stand-in at the call), so errors and
dtypes stay NumPy's and are raised at the call.
"""

from __future__ import annotations

from typing import Any

from .expr import Expr


class DaskCall(Expr):
    """``dask.array.<function>(*arguments, **keywords)`` with each ``Expr`` among
    ``arguments`` (top level, or inside a list or tuple argument) replaced by its lowered
    dask array; ``output`` picks one result of a function returning a tuple."""

    __slots__ = ("function", "arguments", "keywords", "output")

    def __init__(
        self,
        function: str,
        arguments: tuple[Any, ...],
        shape: tuple[int, ...],
        dtype: Any,
        keywords: tuple[tuple[str, Any], ...] = (),
        output: int | None = None,
    ) -> None:
        super().__init__(shape, dtype, tuple(_expressions_in(arguments)))
        self.function = function
        self.arguments = arguments
        self.keywords = keywords
        self.output = output


def _expressions_in(arguments: tuple[Any, ...]) -> list[Expr]:
    found: list[Expr] = []
    for argument in arguments:
        if isinstance(argument, Expr):
            found.append(argument)
        elif isinstance(argument, list | tuple):
            found.extend(x for x in argument if isinstance(x, Expr))
    return found
