"""Blocks made where they are computed: ``zeros``/``full`` (with paints), ``arange``,
``linspace``, ``eye`` and random draws. Each takes the block's ``shape`` and ``offset``
(its first element's index in the whole array) last."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

from .._backends.base import ChunkBackend

if TYPE_CHECKING:
    from .._ir.random import RandomDraw


def fill(
    backend: ChunkBackend,
    dtype: numpy.dtype,
    value: Any,
    shape: tuple[int, ...],
    offset: tuple[int, ...],
    paints: tuple[tuple[Any, numpy.ndarray], ...] = (),
) -> Any:
    """A block of ``full(shape, value)`` at ``offset`` (uninitialised for ``value=None``),
    with the ``paints`` (a ``Fill``'s: region of the whole array and 0-d value, in order)
    that meet it written in."""
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
    backend: ChunkBackend,
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
    positions = backend.xp.arange(offset[0], offset[0] + shape[0], dtype=numpy.int64)
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
    backend: ChunkBackend,
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
    xp = backend.xp
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
    backend: ChunkBackend,
    dtype: numpy.dtype,
    k: int,
    shape: tuple[int, ...],
    offset: tuple[int, ...],
) -> Any:
    xp = backend.xp
    rows = xp.arange(offset[0], offset[0] + shape[0]).reshape(-1, 1)
    columns = xp.arange(offset[1], offset[1] + shape[1]).reshape(1, -1)
    return (columns - rows == k).astype(dtype)


def draw_function(backend: ChunkBackend, node: RandomDraw) -> Callable[..., Any]:
    """``random_block`` bound to ``node``'s draw: called with a block's shape and offset
    (the lowering's per-block tasks and the client's eager evaluation alike)."""
    return functools.partial(
        random_block,
        backend,
        node.dtype,
        node.method,
        node.arguments,
        node.keywords,
        node.entropy,
        node.stream,
    )


def random_block(
    backend: ChunkBackend,
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
    generator = backend.generator(seed)
    if not hasattr(generator, method):  # a device generator without this distribution
        generator = numpy.random.Generator(numpy.random.PCG64(seed))
    if method == "permutation":  # one chunk: the whole permutation
        values = generator.permutation(*arguments)
    else:
        values = getattr(generator, method)(*arguments, size=shape, **dict(keywords))
    values = backend.from_any(values)
    return values if values.dtype == dtype else values.astype(dtype)
