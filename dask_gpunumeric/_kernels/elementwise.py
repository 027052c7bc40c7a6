"""Elementwise work on a block: one NumPy-named operation, or one fused program (a single
kernel over the block's operands: ``ChunkBackend.evaluate_program``)."""

from __future__ import annotations

from typing import Any

import numpy

from .._backends.base import ChunkBackend
from .._ir.scalar_program import ScalarProgram
from . import integer_powers


def elementwise(
    backend: ChunkBackend,
    op: str,
    params: tuple[tuple[str, Any], ...],
    dtype: numpy.dtype,
    *operands: Any,
) -> Any:
    """``xp.<op>(*operands)`` (or the cast, ``where``, ``clip``, part or complex assembly
    ``op`` names) as a chunk of ``dtype``."""
    xp = backend.xp
    kwargs = dict(params)
    output = kwargs.pop("output", None)
    if op == "astype":
        result = operands[0].astype(kwargs["dtype"])
    elif op == "where":
        result = xp.where(*operands)
    elif op == "clip":
        result = xp.clip(*operands)
    elif op in ("real", "imag"):
        result = getattr(xp, op)(operands[0]).copy()
    elif op == "from_parts":
        result = _from_parts(xp, dtype, *operands)
    else:
        if op == "power":
            integer_powers.check_power(backend, *operands)
        result = getattr(xp, op)(*operands, **kwargs)
    if output is not None:
        result = result[output]
    result = backend.as_chunk(result)
    return result if result.dtype == dtype else result.astype(dtype)


def fused_elementwise(backend: ChunkBackend, program: ScalarProgram, *operands: Any) -> Any:
    """One fused kernel call: ``program`` over this chunk's operands."""
    integer_powers.check_program(backend, program, operands)
    return backend.evaluate_program(program, *operands)


def _from_parts(xp: Any, dtype: numpy.dtype, real: Any, imag: Any) -> Any:
    """The complex chunk with these parts (broadcast), each copied exactly (no arithmetic:
    infinities and NaNs stay where they are)."""
    shape = numpy.broadcast_shapes(getattr(real, "shape", ()), getattr(imag, "shape", ()))
    result = xp.empty(shape, dtype=dtype)
    # Assigning into the component views works alike on NumPy, CuPy and the simulated device.
    result.real[...] = real
    result.imag[...] = imag
    return result
