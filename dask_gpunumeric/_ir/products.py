"""Linear-algebra products: ``tensordot`` (which ``dot``, ``inner``, ``vdot`` lower to)
and ``matmul``."""

from __future__ import annotations

import functools

import numpy

from .expr import Expr


class Tensordot(Expr):
    """``numpy.tensordot(left, right, axes=(left_axes, right_axes))``."""

    __slots__ = ("left_axes", "right_axes")

    def __init__(
        self, left: Expr, right: Expr, left_axes: tuple[int, ...], right_axes: tuple[int, ...]
    ) -> None:
        for a, b in zip(left_axes, right_axes, strict=True):
            if left.shape[a] != right.shape[b]:
                raise ValueError("shape-mismatch for sum")
        dtype = numpy.result_type(left.dtype, right.dtype)
        shape = tuple(n for i, n in enumerate(left.shape) if i not in left_axes) + tuple(
            n for i, n in enumerate(right.shape) if i not in right_axes
        )
        super().__init__(shape, dtype, (left, right))
        self.left_axes = left_axes
        self.right_axes = right_axes


class Matmul(Expr):
    """``numpy.matmul(left, right)`` with NumPy's shape rules and errors."""

    __slots__ = ()

    def __init__(self, left: Expr, right: Expr) -> None:
        shape = matmul_shape(left.shape, right.shape)
        super().__init__(shape, _matmul_dtype(left.dtype, right.dtype), (left, right))


def matmul_shape(left: tuple[int, ...], right: tuple[int, ...]) -> tuple[int, ...]:
    if not left or not right:
        raise ValueError(
            "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core "
            "with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
        )
    if len(right) == 1 and len(left) < 3 and left[-1] == right[0]:
        return left[:-1]  # a solver's ``r @ r`` and ``a @ p``, in one step
    a = left if len(left) > 1 else (1,) + left
    b = right if len(right) > 1 else right + (1,)
    if a[-1] != b[-2]:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature (n?,k),(k,m?)->(n?,m?) (size {b[-2]} is different from {a[-1]})"
        )
    # Vectors and matrices (no batch dimensions) skip NumPy's broadcast: a solver's
    # ``a @ p`` asks this once per iteration (``_array/tiny_ufuncs.matmul``).
    batch = numpy.broadcast_shapes(a[:-2], b[:-2]) if a[:-2] or b[:-2] else ()
    shape = batch + (a[-2], b[-1])
    if len(left) == 1:
        shape = shape[:-2] + shape[-1:]
    if len(right) == 1:
        shape = shape[:-1]
    return shape


@functools.lru_cache(maxsize=256)
def _matmul_dtype(left: numpy.dtype, right: numpy.dtype) -> numpy.dtype:
    """NumPy's result dtype for ``left @ right`` (its error where it has none), probed once
    per pair: a solver builds a product per iteration."""
    units = numpy.ones(1, dtype=left), numpy.ones(1, dtype=right)
    return numpy.asarray(numpy.matmul(*units)).dtype
