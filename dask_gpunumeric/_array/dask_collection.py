"""Our arrays are Dask collections: ``dask.compute``, ``dask.persist``, ``client.compute``
and ``dask.visualize`` work on them.

They also follow the conventions of ``dask.array.Array`` that code written for dask arrays
reads (xarray takes any duck array with ``__dask_graph__`` for a dask array and calls
``dask.array`` functions on it): ``chunks``, ``chunksize``, ``numblocks``, ``npartitions``,
``rechunk`` (a dask array), ``blocks`` (views of ours), ``_meta``, and ``to_dask_array``, which ``dask.array.asarray`` (and so every
``dask.array`` function) calls to take our array as the dask array of its value.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.leaves import DaskData
from .._lowering import core as lowering_core
from .._lowering import lower
from .._runtime import dask_arrays as da
from .._runtime import execution
from .._runtime.distributed_internals import meta_of


def _to_host(results: Any, backend: ChunkBackend, shape: tuple[int, ...]) -> numpy.ndarray:
    chunk = da.finalize(results)
    return numpy.asarray(backend.to_host(chunk)).reshape(shape)


def _from_persisted(graph: Any, array_type: Any, array_postpersist: Any, rename: Any = None) -> Any:
    """A new array of ``array_type`` (the persisted array's class) on the persisted chunks."""
    rebuild, rebuild_args = array_postpersist
    persisted = rebuild(graph, *rebuild_args, rename=rename)
    return array_type._from_expr(DaskData(persisted, backend=get_backend().name))


class DaskCollectionMixin:
    """The dask protocol for ``ArrayHandle``; the lowered graph is cached per store version."""

    __slots__ = ("_lowered",)
    _lowered: tuple[Any, da.Array] | None
    # Provided by ArrayHandle:
    _store: Any
    _view: Any

    @property
    def shape(self) -> tuple[int, ...]:
        raise NotImplementedError

    def _read(self) -> Any:
        raise NotImplementedError

    def _dask_array(self, placed: bool = True) -> da.Array:
        """The lowered value; ``placed=False``: without owner placement, the graph dask
        users get (``to_dask``: dask's fusion takes no per-key ``workers`` function)."""
        backend = get_backend()
        key = (self._store.version.number, self._view, backend.name, placed)
        if self._lowered is None or self._lowered[0] != key:
            self._lowered = (key, lower(self._read(), backend, placed=placed))
        return self._lowered[1]

    # -- dask.array's conventions --------------------------------------------------------
    @property
    def chunks(self) -> tuple[tuple[int, ...], ...]:
        """The block sizes along each axis, as ``dask.array.Array.chunks``."""
        return tuple(map(tuple, self._dask_array(placed=False).chunks))

    @property
    def chunksize(self) -> tuple[int, ...]:
        """The largest block size along each axis."""
        return tuple(max(sizes, default=0) for sizes in self.chunks)

    @property
    def numblocks(self) -> tuple[int, ...]:
        """How many blocks along each axis."""
        return tuple(len(sizes) for sizes in self.chunks)

    @property
    def npartitions(self) -> int:
        """How many blocks in all."""
        return math.prod(self.numblocks)

    def rechunk(self, chunks: Any = "auto", **kwargs: Any) -> da.Array:
        """``a.to_dask().rechunk(chunks, **kwargs)``: the value as a dask array in blocks
        of ``chunks``.

        A dask array, not ours: code written for dask arrays (xarray's ``rolling``
        through ``dask.array.sliding_window_view``) rechunks its input and hands the result
        to ``dask.array`` functions that accept ``dask.array.Array`` only.
        """
        return da.for_user(self._dask_array(placed=False).rechunk(chunks, **kwargs))

    @property
    def blocks(self) -> BlockView:
        """Blocks by block index, as ``dask.array.Array.blocks``: ``a.blocks[1, :2]`` is
        the region of those blocks, a view of ``a`` (writes through it reach ``a``)."""
        return BlockView(self)

    @property
    def _meta(self) -> Any:
        """An empty block of the backend's chunk type: dask's functions read ``x._meta``
        of arrays they are given (``sliding_window_view``, ``meta_from_array``)."""
        return meta_of(self._dask_array(placed=False))

    def to_dask_array(self) -> da.Array:
        """``to_dask()``, under the name ``dask.array.asarray`` looks for: every
        ``dask.array`` function takes our arrays as the dask arrays of their values."""
        return da.for_user(self._dask_array(placed=False))

    def __dask_graph__(self) -> Any:
        return self._dask_array().__dask_graph__()

    def __dask_keys__(self) -> Any:
        return self._dask_array().__dask_keys__()

    def __dask_layers__(self) -> Any:
        return self._dask_array().__dask_layers__()

    def __dask_tokenize__(self) -> Any:
        return self._dask_array().name

    def __dask_postcompute__(self) -> Any:
        return _to_host, (get_backend(), self.shape)

    def __dask_postpersist__(self) -> Any:
        return _from_persisted, (type(self), self._dask_array().__dask_postpersist__())

    # dask.array's, except that annotations recorded on the nodes survive it.
    __dask_optimize__ = staticmethod(lowering_core.optimize)

    # dask.compute/persist of our arrays with no default client run where ours do: the
    # embedded cluster (started on first use) when gpunumeric.scheduler is distributed.
    __dask_scheduler__ = staticmethod(execution.scheduler_get)


class BlockView:
    """``array.blocks``: integer and slice indices over the block grid, one per axis (at
    most ``ndim``; missing ones take every block), give the view of those blocks."""

    __slots__ = ("_array",)

    def __init__(self, array: Any) -> None:
        self._array = array

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._array.numblocks)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def __getitem__(self, index: Any) -> Any:
        index = index if isinstance(index, tuple) else (index,)
        chunks = self._array.chunks
        if len(index) > len(chunks):
            raise IndexError(
                f"too many indices for the block grid: it is {len(chunks)}-dimensional, "
                f"but {len(index)} were indexed"
            )
        region = tuple(_block_region(i, sizes) for i, sizes in zip(index, chunks, strict=False))
        return self._array[region]


def _block_region(index: Any, sizes: tuple[int, ...]) -> slice:
    """The element slice covering blocks ``index`` (an integer or a step-1 slice) of an
    axis of block ``sizes``; NumPy's errors for an index out of range or of a bad type."""
    picked = numpy.arange(len(sizes))[index]  # NumPy's IndexError / TypeError
    if isinstance(index, slice) and index.step not in (None, 1):
        raise NotImplementedError(
            "blocks[...] takes integers and slices of step 1; for other selections "
            "use a.to_dask().blocks[...]"
        )
    if not isinstance(index, slice) and numpy.ndim(picked) != 0:
        raise NotImplementedError(
            "blocks[...] takes integers and slices of step 1; for lists of blocks "
            "use a.to_dask().blocks[...]"
        )
    starts = numpy.cumsum((0, *sizes))
    picked = numpy.atleast_1d(picked)
    if not picked.size:
        return slice(0, 0)
    return slice(int(starts[picked[0]]), int(starts[picked[-1] + 1]))
