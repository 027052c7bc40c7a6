"""``ndarray``: a thin handle on a ``Store`` through a ``ViewSpec``.

Operators, reductions and other NumPy methods are attached by ``_api.array_methods``
(as JAX attaches its array methods from its NumPy layer), so this layer never imports
the API layer above it.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._ir.expr import Expr
from .._runtime.memory import check_fits_cluster
from . import indexing, views
from .dask_collection import DaskCollectionMixin
from .html_repr import html_repr
from .materialize import compute_expr, persist_expr
from .store import Store
from .viewspec import ViewSpec


class ndarray(DaskCollectionMixin):  # noqa: N801 - NumPy's name
    """dask_gpunumeric's array: NumPy semantics, partitioned over Dask workers, lazy.

    Basic indexing, ``.T``, ``transpose``, ``swapaxes`` and view-compatible ``reshape``
    return live views of the same store: writes through any of them are seen by all.
    """

    __slots__ = ("_store", "_view")
    _store: Store
    _view: ViewSpec
    __array_priority__ = 200

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "dask_gpunumeric.ndarray is not constructed directly; use dask_gpunumeric.array, "
            "zeros, empty, ..."
        )

    @classmethod
    def _from_parts(cls, store: Store, view: ViewSpec) -> ndarray:
        self = object.__new__(cls)
        self._store = store
        self._view = view
        self._lowered = None
        return self

    @classmethod
    def _from_expr(cls, expr: Expr) -> ndarray:
        """A new base array (its own store) holding ``expr``."""
        return cls._from_parts(Store(expr), ViewSpec(expr.shape))

    def _read(self) -> Expr:
        """The current value: captures the store's version now (NumPy's order of effects)."""
        return self._view.read(self._store.version)

    # -- attributes -------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._view.shape

    @property
    def dtype(self) -> numpy.dtype:
        return self._view.dtype(self._store.version.dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(numpy.prod(self.shape, dtype=numpy.int64))

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def T(self) -> ndarray:  # noqa: N802 - NumPy's name
        return views.transpose(self)

    @property
    def mT(self) -> ndarray:  # noqa: N802 - NumPy's name
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return views.swapaxes(self, -1, -2)

    def transpose(self, *axes: Any) -> ndarray:
        return views.transpose(self, axes)

    def swapaxes(self, axis1: int, axis2: int) -> ndarray:
        return views.swapaxes(self, axis1, axis2)

    def reshape(self, *shape: Any, order: str = "C", copy: bool | None = None) -> ndarray:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return views.reshape(self, shape, order=order, copy=copy)

    def ravel(self, order: str = "C") -> ndarray:
        return views.ravel(self, order)

    # -- indexing ---------------------------------------------------------------------
    def __getitem__(self, index: Any) -> ndarray:
        return indexing.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        indexing.setitem(self, index, value)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Any:
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    # -- materialization boundaries -------------------------------------------------------
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> numpy.ndarray:
        if copy is False:
            raise ValueError(
                "dask_gpunumeric arrays live on the workers: converting to NumPy always copies"
            )
        host = compute_expr(self._read())
        return host if dtype is None else host.astype(dtype, copy=False)

    def compute(self, **kwargs: Any) -> numpy.ndarray:
        """The value as a host ``numpy.ndarray``.

        Differences from dask: always returns host memory, whatever the chunk backend.
        """
        return compute_expr(self._read())

    def get(self) -> numpy.ndarray:
        """The value as a host ``numpy.ndarray`` (``cupy.ndarray.get``)."""
        return self.compute()

    def persist(self, **kwargs: Any) -> ndarray:
        """A new array whose value is computed and held by the workers.

        Raises ``ArrayMemoryError`` (a ``MemoryError``) when the array exceeds the
        total memory of the workers (``gpunumeric.memory-check``).
        """
        check_fits_cluster(self.shape, self.dtype)
        return type(self)._from_expr(persist_expr(self._read()))

    def to_dask(self) -> Any:
        """The value as a ``dask.array.Array`` with the backend's chunk type."""
        return self._dask_array()

    def item(self, *args: Any) -> Any:
        return self.__array__().item(*args)

    def tolist(self) -> Any:
        return self.__array__().tolist()

    def __float__(self) -> float:
        return float(self.__array__())

    def __int__(self) -> int:
        return int(self.__array__())

    def __complex__(self) -> complex:
        return complex(self.__array__())

    def __bool__(self) -> bool:
        return bool(self.__array__())

    def __index__(self) -> int:
        return self.__array__().__index__()

    def __repr__(self) -> str:
        return repr(self.__array__())

    def __str__(self) -> str:
        return str(self.__array__())

    def _repr_html_(self) -> str:
        return html_repr(self)

    def __format__(self, spec: str) -> str:
        return format(self.__array__(), spec)

    def __reduce__(self) -> Any:
        return (_rebuild, (self.__array__(),))

    __hash__ = None  # type: ignore[assignment]


def _rebuild(host: numpy.ndarray) -> ndarray:
    from .._ir.leaves import HostData

    return ndarray._from_expr(HostData(host, owned=True))
