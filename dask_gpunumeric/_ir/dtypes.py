"""NumPy as the oracle for dtypes and errors: run the real NumPy function on empty inputs.

An ``Expr`` operand is stood in for by an empty array of its dtype (strongly typed, like
any array, including 0-d ones under NEP 50); a Python scalar is passed as itself, so it
stays weak. NumPy then resolves the result dtype, and raises its own exception for what
it refuses (``UFuncTypeError``, ``OverflowError`` for out-of-range Python ints, ...).
"""

from __future__ import annotations

from typing import Any

import numpy

from .expr import Expr


def stand_in(operand: Any) -> Any:
    """An empty array with ``operand``'s dtype, or the scalar itself."""
    if isinstance(operand, Expr):
        return numpy.empty((0,), dtype=operand.dtype)
    return operand


def stand_in_with_ndim(operand: Expr) -> numpy.ndarray:
    """A cheap array with ``operand``'s ndim and dtype for axis checks; the real (zero-memory,
    broadcast) shape when the operand is empty, since NumPy's errors then depend on it."""
    if operand.size == 0:
        return numpy.broadcast_to(numpy.zeros((), dtype=operand.dtype), operand.shape)
    return numpy.ones((1,) * operand.ndim, dtype=operand.dtype)


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """``numpy.broadcast_shapes`` with the message NumPy's ufuncs give."""
    if len(shapes) == 2 and shapes[0] == shapes[1]:  # the common case, without NumPy's cost
        return tuple(shapes[0])
    try:
        return numpy.broadcast_shapes(*shapes)
    except ValueError:
        listed = "".join(f"{shape_text(s)} " for s in shapes)
        raise ValueError(f"operands could not be broadcast together with shapes {listed}") from None


def check_output_shapes(
    input_shapes: list[tuple[int, ...]],
    output_shapes: list[tuple[int, ...]],
    mask_shapes: list[tuple[int, ...]],
) -> None:
    """A ufunc's shape checks with NumPy's messages: every operand (inputs, outputs, the
    ``where=`` mask) broadcasts together, and each output has the whole broadcast shape."""
    shapes = [*input_shapes, *output_shapes, *mask_shapes]
    try:
        full = numpy.broadcast_shapes(*shapes)
    except ValueError:
        listed = "".join(f"{shape_text(s)} " for s in shapes)
        raise ValueError(f"operands could not be broadcast together with shapes {listed}") from None
    for shape in output_shapes:
        if tuple(shape) != full:
            raise ValueError(
                f"non-broadcastable output operand with shape {shape_text(shape)} doesn't "
                f"match the broadcast shape {shape_text(full)}"
            )


def shape_text(shape: tuple[int, ...]) -> str:
    """A shape as NumPy's messages write it: ``(3,4)``, ``(3,)``, ``()``."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def operand_shape(operand: Any) -> tuple[int, ...]:
    return operand.shape if isinstance(operand, Expr) else numpy.shape(operand)
