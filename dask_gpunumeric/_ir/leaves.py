"""Leaves: values not computed from other nodes (creation routines, host data, dask arrays)."""

from __future__ import annotations

import functools
from typing import Any

import numpy

from .array_size import check_addressable
from .expr import Expr, current_annotations, fresh_number

Chunks = tuple[tuple[int, ...], ...]


class Leaf(Expr):
    """A leaf may carry user ``chunks``; ``None`` lets the runtime choose."""

    __slots__ = ("chunks",)

    def __init__(self, shape: tuple[int, ...], dtype: Any, chunks: Chunks | None = None) -> None:
        super().__init__(shape, dtype)
        check_addressable(self.shape, self.dtype)
        self.chunks = chunks


class Fill(Leaf):
    """``full(shape, value)``; ``value=None`` means uninitialized (``empty``). ``paints``
    are writes of scalars made into it before anything read it (``grid[0, :] = 40.0``),
    applied in order as each block is filled: ``(region, value)``, ``value`` a 0-d array
    of the fill's dtype (``_passes/paint_fills.py``)."""

    __slots__ = ("value", "paints")

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: Any,
        value: Any,
        chunks: Chunks | None = None,
        paints: tuple[tuple[Any, numpy.ndarray], ...] = (),
    ):
        super().__init__(shape, dtype, chunks)
        self.value = value
        self.paints = paints


class Arange(Leaf):
    """``arange(start, stop, step)`` as NumPy fills it: elements 0 and 1 are ``start`` and
    ``second`` (what NumPy stores first), element i > 1 is ``start + i * step``, where
    ``step`` is ``second - start`` in the result dtype."""

    __slots__ = ("start", "step", "second")

    def __init__(
        self,
        length: int,
        dtype: Any,
        start: Any,
        step: Any,
        second: Any,
        chunks: Chunks | None = None,
    ):
        super().__init__((length,), dtype, chunks)
        self.start = start
        self.step = step
        self.second = second


class Linspace(Leaf):
    """``linspace(start, stop, num, endpoint)`` along axis 0 of shape (num,) + start.shape,
    computed in the inexact dtype ``computing`` (NumPy's), then cast to ``dtype``."""

    __slots__ = ("computing", "start", "stop", "endpoint")

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: Any,
        computing: Any,
        start: Any,
        stop: Any,
        endpoint: bool,
        chunks: Chunks | None = None,
    ):
        super().__init__(shape, dtype, chunks)
        self.computing = numpy.dtype(computing)
        self.start = start
        self.stop = stop
        self.endpoint = endpoint


class Eye(Leaf):
    """``eye(N, M, k)``."""

    __slots__ = ("k",)

    def __init__(self, shape: tuple[int, int], dtype: Any, k: int, chunks: Chunks | None = None):
        super().__init__(shape, dtype, chunks)
        self.k = k


class HostData(Leaf):
    """A host NumPy array given by the user; lowering ships it to the workers in chunks.

    The node keeps a read-only copy: the value is captured at the call, as NumPy's results
    are, so later writes to the user's array (or by anyone to ours) cannot change it. A
    caller that made ``data`` for this node alone passes ``owned=True``: no second copy.
    """

    __slots__ = ("data",)

    def __init__(
        self, data: numpy.ndarray, chunks: Chunks | None = None, *, owned: bool = False
    ) -> None:
        super().__init__(data.shape, data.dtype, chunks)
        if data.flags.writeable:
            data = data if owned else data.copy()
            data.flags.writeable = False
        self.data = data


class DaskData(Leaf):
    """A dask array (opaque here: ``_ir`` does not import dask). ``backend`` names the chunk
    backend whose chunks it holds (a persisted store version), or is None for a user's
    dask array, whose chunks are moved to the backend when lowered."""

    __slots__ = ("array", "backend")

    def __init__(self, array: Any, backend: str | None = None) -> None:
        super().__init__(array.shape, array.dtype, tuple(map(tuple, array.chunks)))
        self.array = array
        self.backend = backend


@functools.lru_cache(maxsize=256)
def _one_block(shape: tuple[int, ...]) -> Chunks:
    """The chunks of one block of ``shape`` (kept per shape: a tiny value's, per operation)."""
    return tuple([(n,) for n in shape])


class ChunkValue(Leaf):
    """A small value already computed in this (the client) process: one chunk of the
    backend named ``backend``. Small expressions are evaluated where they are built rather
    than sent to the cluster (``_kernels/in_process.py``); the chunk is never mutated."""

    __slots__ = ("value", "backend")

    def __init__(self, value: Any, backend: str) -> None:
        # Built per tiny operation (``_array/tiny_ufuncs.py``): the fields set here, as
        # ``Expr``'s and ``Leaf``'s constructors would, less their checks: an array that
        # exists has a shape of ints, a dtype, and a size that can be addressed.
        shape = value.shape  # a tuple for every backend's chunks
        self.shape = shape if type(shape) is tuple else tuple(shape)
        self.dtype = value.dtype
        self.children = ()
        self.depth = 1
        self.number = fresh_number()
        self.annotations = current_annotations()
        self.chunks = _one_block(self.shape)
        self.value = value
        self.backend = backend
