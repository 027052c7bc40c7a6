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
    elif op == "where":  # CuPy's where wants an array condition (it calls its astype)
        result = xp.where(backend.as_chunk(operands[0]), *operands[1:])
    elif op == "clip":
        result = _clip(backend, dtype, *operands)
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


def _clip(backend: ChunkBackend, dtype: numpy.dtype, value: Any, low: Any, high: Any) -> Any:
    """NumPy's clip, ``minimum(maximum(value, low), high)`` in the result dtype (as the
    fused kernels compute it, ``_passes/scalar_programs.py``): NaN bounds propagate and
    crossed bounds give the upper one. Not ``xp.clip``: CuPy's ignores NaN bounds, keeps
    its own order for crossed ones and refuses a missing bound of a bool array. A Python
    integer bound beyond ``dtype`` (``clip(int8, 0, 300)``) bounds nothing there."""
    xp = backend.xp
    result = backend.as_chunk(value)
    result = result if result.dtype == dtype else result.astype(dtype)
    for combine, bound in ((xp.maximum, low), (xp.minimum, high)):
        if bound is not None:
            result = combine(result, _bound_as(backend, dtype, bound))
    return result


def _bound_as(backend: ChunkBackend, dtype: numpy.dtype, bound: Any) -> Any:
    """A clip bound as a chunk of ``dtype``; a Python integer beyond it, at its limit."""
    if isinstance(bound, backend.chunk_type):
        chunk: Any = bound
        return chunk if chunk.dtype == dtype else chunk.astype(dtype)
    if isinstance(bound, int) and dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        bound = min(max(bound, int(info.min)), int(info.max))
    return backend.xp.asarray(bound, dtype=dtype)


def _from_parts(xp: Any, dtype: numpy.dtype, real: Any, imag: Any) -> Any:
    """The complex chunk with these parts (broadcast), each copied exactly (no arithmetic:
    infinities and NaNs stay where they are)."""
    shape = numpy.broadcast_shapes(getattr(real, "shape", ()), getattr(imag, "shape", ()))
    result = xp.empty(shape, dtype=dtype)
    # Assigning into the component views works alike on NumPy, CuPy and the simulated device.
    result.real[...] = real
    result.imag[...] = imag
    return result
