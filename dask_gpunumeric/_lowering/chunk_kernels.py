"""Functions that run on the workers, one call per chunk.

They take the backend's *name* and look the backend up where they run, so tasks carry
only picklable data, never modules or compiled objects.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy

from .._backends import get_backend
from .._ir.scalar_program import ScalarProgram
from . import stencil_buffers


def as_chunk(backend_name: str, value: Any) -> Any:
    """NumPy returns scalars from 0-d operations; a chunk must be an array."""
    backend = get_backend(backend_name)
    if isinstance(value, backend.chunk_type):
        return value
    return backend.xp.asarray(value)


def elementwise(
    backend_name: str,
    op: str,
    params: tuple[tuple[str, Any], ...],
    dtype: numpy.dtype,
    *operands: Any,
) -> Any:
    xp = get_backend(backend_name).xp
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
        result = getattr(xp, op)(*operands, **kwargs)
    if output is not None:
        result = result[output]
    result = as_chunk(backend_name, result)
    return result if result.dtype == dtype else result.astype(dtype)


def fused_elementwise(backend_name: str, program: ScalarProgram, *operands: Any) -> Any:
    """One fused kernel call: ``program`` over this chunk's operands."""
    return get_backend(backend_name).evaluate_program(program, *operands)


def _from_parts(xp: Any, dtype: numpy.dtype, real: Any, imag: Any) -> Any:
    """The complex chunk with these parts (broadcast), each copied exactly (no arithmetic:
    infinities and NaNs stay where they are)."""
    shape = numpy.broadcast_shapes(getattr(real, "shape", ()), getattr(imag, "shape", ()))
    result = xp.empty(shape, dtype=dtype)
    # Assigning into the component views works alike on NumPy, CuPy and the simulated device.
    result.real[...] = real
    result.imag[...] = imag
    return result


def fill(
    backend_name: str,
    dtype: numpy.dtype,
    value: Any,
    shape: tuple[int, ...],
    offset: tuple[int, ...],
    paints: tuple[tuple[Any, numpy.ndarray], ...] = (),
) -> Any:
    """A block of ``full(shape, value)`` at ``offset``, with the ``paints`` (a ``Fill``'s:
    region of the whole array and 0-d value, in order) that meet it written in."""
    backend = get_backend(backend_name)
    xp = backend.xp
    if value is None:
        block = xp.empty(shape, dtype=dtype)
    else:
        probe = numpy.empty((), dtype=dtype)
        numpy.copyto(probe, value, casting="unsafe")  # as numpy.full converts it
        # All-zero bits: calloc'd pages are only touched when first written.
        zero = not probe.tobytes().strip(b"\0")
        block = xp.zeros(shape, dtype=dtype) if zero else xp.full(shape, value, dtype=dtype)
    for region, painted in paints:
        index = region_in_block(region.axes, shape, offset)
        if index is not None:
            block[index] = backend.from_host(painted)
    return block


def region_in_block(
    axes: tuple[Any, ...], shape: tuple[int, ...], offset: tuple[int, ...]
) -> tuple[slice, ...] | None:
    """The cells of a region (its ``axes``: an int or a ``(start, step, count)`` span per
    axis of the whole array) inside the block of ``shape`` at ``offset``, as slices of the
    block (ascending; the order does not matter for a scalar), or None if there are none."""
    index = []
    for axis, n, low in zip(axes, shape, offset, strict=True):
        if isinstance(axis, int):
            start, step, count = axis, 1, 1
        else:
            start, step, count = axis
        if count == 0:
            return None
        first, last = sorted((start, start + step * (count - 1)))
        stride = abs(step)
        if first < low:
            first += -(-(low - first) // stride) * stride
        if last >= low + n:
            last -= -(-(last - low - n + 1) // stride) * stride
        if first > last:
            return None
        index.append(slice(first - low, last - low + 1, stride))
    return tuple(index)


def arange(
    backend_name: str,
    dtype: numpy.dtype,
    start: Any,
    delta: Any,
    second: Any,
    shape: tuple[int, ...],
    offset: tuple[int, ...],
) -> Any:
    """Elements ``offset[0]:offset[0]+shape[0]`` of ``numpy.arange``, as NumPy's fill
    computes them: ``start + i * delta`` in the dtype's arithmetic, wrapping for integers;
    float16 is computed in float32, as NumPy's half fill does."""
    xp = get_backend(backend_name).xp
    positions = xp.arange(offset[0], offset[0] + shape[0], dtype=numpy.int64)
    if dtype.kind in "iu":
        # Modular uint64 arithmetic leaves the same residues as NumPy's wrapping C integers.
        wrapped = positions.astype(numpy.uint64) * numpy.uint64(delta % 2**64)
        values = (wrapped + numpy.uint64(start % 2**64)).astype(dtype)
    else:
        compute = numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype
        values = positions.astype(compute) * compute.type(delta) + compute.type(start)
        values = values.astype(dtype)
    # NumPy stores elements 0 and 1 before its fill: -0.0 stays -0.0, and element 1 is
    # start + step rounded once, not start + (second - start).
    for position, value in ((0, start), (1, second)):
        if offset[0] <= position < offset[0] + shape[0]:
            values[position - offset[0]] = value
    return values


def linspace(
    backend_name: str,
    dtype: numpy.dtype,
    compute_dtype: numpy.dtype,
    start: Any,
    stop: Any,
    endpoint: bool,
    num: int,
    shape: tuple[int, ...],
    offset: tuple[int, ...],
) -> Any:
    """The rows ``offset[0]:offset[0]+shape[0]`` of ``numpy.linspace``, same arithmetic in
    the same dtype (NumPy casts start and stop to it before any operation)."""
    xp = get_backend(backend_name).xp
    start_array = xp.asarray(numpy.asarray(start, dtype=compute_dtype))
    stop_array = xp.asarray(numpy.asarray(stop, dtype=compute_dtype))
    divisor = (num - 1) if endpoint else num
    delta = stop_array - start_array
    rows = xp.arange(offset[0], offset[0] + shape[0], dtype=compute_dtype).reshape(
        (-1,) + (1,) * (len(shape) - 1)
    )
    if divisor > 0:
        step = delta / divisor
        any_step_zero = bool(xp.any(step == 0)) if getattr(step, "ndim", 0) else step == 0
        values = rows / divisor * delta if any_step_zero else rows * step
    else:
        values = rows * delta
    values = values + start_array
    if endpoint and num > 1 and offset[0] + shape[0] == num:
        values[-1, ...] = stop_array
    values = values * xp.ones(shape, dtype=compute_dtype)
    if dtype.kind in "iu":
        values = xp.floor(values)
    return values.astype(dtype)


def eye(
    backend_name: str, dtype: numpy.dtype, k: int, shape: tuple[int, ...], offset: tuple[int, ...]
) -> Any:
    xp = get_backend(backend_name).xp
    rows = xp.arange(offset[0], offset[0] + shape[0]).reshape(-1, 1)
    columns = xp.arange(offset[1], offset[1] + shape[1]).reshape(1, -1)
    return (columns - rows == k).astype(dtype)


def to_device(backend_name: str, chunk: Any) -> Any:
    """``chunk`` (host, or another backend's: ``.get()`` is CuPy's explicit transfer) as a
    chunk of the named backend."""
    backend = get_backend(backend_name)
    if isinstance(chunk, backend.chunk_type):
        return chunk
    host = chunk.get() if hasattr(chunk, "get") and not isinstance(chunk, numpy.ndarray) else chunk
    return backend.from_host(numpy.asarray(host))


def write_block(block: Any, local: tuple[slice, ...], piece: Any) -> Any:
    """A copy of ``block`` with ``block[local] = piece``: old versions stay intact. A large
    host block is copied into a released block's buffer when there is one (no page faults:
    ``stencil_buffers``)."""
    if type(block) is numpy.ndarray and block.nbytes >= stencil_buffers.MIN_BYTES:
        updated = stencil_buffers.empty_block(block.shape, block.dtype)
        numpy.copyto(updated, block)
    else:
        updated = block.copy()
    updated[local] = piece
    return updated


def scatter_block(
    block: Any, local_coords: tuple[numpy.ndarray, ...], point_ids: numpy.ndarray, values: Any
) -> Any:
    """A copy of ``block`` with its points set; the points are distinct (the lowering kept
    each one's last write), so the result does not depend on the device's write order."""
    updated = block.copy()
    updated[local_coords] = values[point_ids]
    return updated


def gather_points(
    backend_name: str,
    dtype: numpy.dtype,
    length: int,
    sources: tuple[tuple[tuple[numpy.ndarray, ...], numpy.ndarray], ...],
    *blocks: Any,
) -> Any:
    """Element ``positions[i]`` of the result is ``block[local_coords][i]``, per source block."""
    xp = get_backend(backend_name).xp
    result = xp.empty((length,), dtype=dtype)
    for (local_coords, positions), block in zip(sources, blocks, strict=True):
        result[positions] = block[local_coords]
    return result


def tensordot_blocks(
    backend_name: str,
    dtype: numpy.dtype,
    left_axes: tuple[int, ...],
    right_axes: tuple[int, ...],
    slices: tuple[tuple[tuple[slice, ...], tuple[slice, ...]], ...],
    *blocks: Any,
) -> Any:
    """The sum over the contracted pieces of their tensordot products."""
    xp = get_backend(backend_name).xp
    total = None
    for k, (left_slices, right_slices) in enumerate(slices):
        left, right = blocks[2 * k][left_slices], blocks[2 * k + 1][right_slices]
        product = xp.tensordot(left, right, axes=(left_axes, right_axes))
        total = product if total is None else total + product
    result = xp.asarray(total)
    return result if result.dtype == dtype else result.astype(dtype)


def linalg_call(backend_name: str, function: str, keywords: dict[str, Any], *blocks: Any) -> Any:
    """The backend's ``function`` (a path such as ``linalg.svd``) on whole matrices; a
    singular matrix raises ``numpy.linalg.LinAlgError`` here, at compute time."""
    xp = get_backend(backend_name).xp
    return functools.reduce(getattr, function.split("."), xp)(*blocks, **keywords)


def linalg_pick(backend_name: str, output: int | None, dtype: numpy.dtype, result: Any) -> Any:
    """Result ``output`` of a ``linalg_call`` (all of it for ``None``) as a chunk of ``dtype``."""
    chosen = result if output is None else result[output]
    chosen = as_chunk(backend_name, chosen)
    return chosen if chosen.dtype == dtype else chosen.astype(dtype)


def random_block(
    backend_name: str,
    dtype: numpy.dtype,
    method: str,
    arguments: tuple[Any, ...],
    keywords: tuple[tuple[str, Any], ...],
    entropy: int | tuple[int, ...],
    stream: tuple[int, ...],
    shape: tuple[int, ...],
    offset: tuple[int, ...],
) -> Any:
    """The block at ``offset`` of a ``RandomDraw``: its own stream, keyed by its offset."""
    seed = numpy.random.SeedSequence(entropy, spawn_key=stream + offset)
    generator = get_backend(backend_name).generator(seed)
    if not hasattr(generator, method):  # a device generator without this distribution
        generator = numpy.random.Generator(numpy.random.PCG64(seed))
    if method == "permutation":  # one chunk: the whole permutation
        values = generator.permutation(*arguments)
    else:
        values = getattr(generator, method)(*arguments, size=shape, **dict(keywords))
    values = to_device(backend_name, values)
    return values if values.dtype == dtype else values.astype(dtype)
