"""What the ``linalg`` sections share: NumPy's shape checks and the gathered call.

A function without a distributed algorithm runs the backend's own routine on whole
matrices (``GatheredLinalg``): each matrix is gathered into one block, up to
``gpunumeric.linalg-gather-limit`` bytes; stacks of matrices stay spread over the workers.
Result dtypes are NumPy's, found by running NumPy on tiny stand-ins (which also raises
NumPy's ``TypeError`` for dtypes it refuses, such as float16).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy
from numpy.linalg import LinAlgError

from .._ir.expr import Expr
from .._ir.linalg import GatheredLinalg
from .._runtime import config
from .creation import asarray
from .ndarray import ndarray

Output = tuple[tuple[int, ...], Any]  # (shape, dtype) of one result


def as_matrices(a: Any, square: bool = False) -> Expr:
    """``a`` as an expression of (stacked) matrices, with NumPy's ``LinAlgError``s."""
    expr = asarray(a)._read()
    if expr.ndim < 2:
        raise LinAlgError(
            f"{expr.ndim}-dimensional array given. Array must be at least two-dimensional"
        )
    if square and expr.shape[-1] != expr.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return expr


def stand_in(expr: Expr, core_ndim: int, core: tuple[int, ...] | None = None) -> numpy.ndarray:
    """A tiny well-conditioned operand of ``expr``'s dtype and ndim: identity matrices
    (``core`` sizes, default 2) so NumPy's routines succeed and tell the result dtype."""
    core = core if core is not None else (2,) * core_ndim
    batch = (1,) * (expr.ndim - core_ndim)
    if core_ndim == 2:
        host = numpy.broadcast_to(numpy.eye(core[0], core[1]), batch + core)
    else:
        host = numpy.ones(batch + core)
    return numpy.array(host, dtype=expr.dtype)


def numpy_dtypes(function: Callable[..., Any], *stand_ins: Any, **keywords: Any) -> list[Any]:
    """The dtypes of NumPy's results on stand-ins (one per result)."""
    result = function(*stand_ins, **keywords)
    results = result if isinstance(result, tuple) else (result,)
    return [numpy.asarray(x).dtype for x in results]


def check_gather_limit(expr: Expr, core_ndim: int) -> None:
    matrix_bytes = int(numpy.prod(expr.shape[expr.ndim - core_ndim :])) * expr.dtype.itemsize
    limit = config.get("linalg-gather-limit")
    if matrix_bytes > limit:
        raise MemoryError(
            f"this linalg routine gathers each matrix onto one worker, and one matrix here "
            f"is {matrix_bytes} bytes, above gpunumeric.linalg-gather-limit={limit}: raise "
            "the limit (dask_gpunumeric.config.set(linalg_gather_limit=...)) if a worker "
            "can hold it, or use a distributed route (qr/svd of tall-skinny matrices)"
        )


def gathered(
    function: str,
    operands: list[Expr],
    core_ndims: list[int],
    outputs: Sequence[Output],
    keywords: dict[str, Any] | None = None,
    picks: list[int] | None = None,
) -> list[ndarray]:
    """One array per result of ``xp.<function>`` run on whole matrices: result ``i`` of
    several, or ``picks[i]`` when only some are wanted. Keywords that are None are left
    out (the backend's defaults; CuPy's routines take fewer keywords than NumPy's)."""
    keywords = {name: value for name, value in (keywords or {}).items() if value is not None}
    for expr, core_ndim in zip(operands, core_ndims, strict=True):
        check_gather_limit(expr, core_ndim)
    batch_ndim = max(expr.ndim - core for expr, core in zip(operands, core_ndims, strict=True))
    if picks is None:
        picks = list(range(len(outputs))) if len(outputs) > 1 else [None]  # type: ignore[list-item]
    return [
        ndarray._from_expr(
            GatheredLinalg(
                function,
                tuple(operands),
                tuple(core_ndims),
                shape,
                dtype,
                len(shape) - batch_ndim,
                tuple(sorted((keywords or {}).items())),
                pick,
            )
        )
        for pick, (shape, dtype) in zip(picks, outputs, strict=True)
    ]


def batch_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The broadcast of the operands' batch shapes, with NumPy's gufunc error."""
    try:
        return numpy.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with remapped shapes [original->"
            f"remapped]: {' '.join(str(s) for s in shapes)}"
        ) from None
