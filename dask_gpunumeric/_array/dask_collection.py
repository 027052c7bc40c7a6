"""Our arrays are Dask collections: ``dask.compute``, ``dask.persist``, ``client.compute``
and ``dask.visualize`` work on them."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.leaves import DaskData
from .._lowering import core as lowering_core
from .._lowering import lower
from .._runtime import execution


def _to_host(results: Any, backend: ChunkBackend, shape: tuple[int, ...]) -> numpy.ndarray:
    chunk = da.core.finalize(results)
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

    def _dask_array(self) -> da.Array:
        backend = get_backend()
        key = (self._store.version.number, self._view, backend.name)
        if self._lowered is None or self._lowered[0] != key:
            self._lowered = (key, lower(self._read(), backend))
        return self._lowered[1]

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
