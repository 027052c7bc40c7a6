"""``ArrayHandle``: a thin handle on a ``Store`` through a ``ViewSpec``.

The public ``ndarray`` (``_api/ndarray.py``) subclasses it and defines the operators,
reductions and other NumPy methods, each a call into the API layer; this layer never
imports that layer, so everything here types against ``ArrayHandle`` and makes new arrays
of the class of an array it was given (``type(array)._from_expr``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from .._ir.expr import Expr
from .._ir.leaves import HostData
from .._runtime import dask_arrays
from .._runtime.cluster import inside_client_call
from .._runtime.memory import check_fits_cluster
from . import indexing, views
from .dask_collection import DaskCollectionMixin
from .flags import ArrayFlags, array_flags, byte_order_of, set_flags
from .html_repr import html_repr
from .materialize import compute_expr, persist_expr
from .store import Store
from .viewspec import ViewSpec, whole_view

# Iterating a 1-d array computes it in pieces of at most this many bytes.
_ITERATION_BYTES = 64 * 2**20

if TYPE_CHECKING:
    from typing_extensions import Self


class ArrayHandle(DaskCollectionMixin):
    """What an array is: a ``Store`` seen through a ``ViewSpec``, with its attributes,
    views, indexing, materialization boundaries and the dask collection protocol.

    Basic indexing, ``.T``, ``transpose``, ``swapaxes`` and view-compatible ``reshape``
    return live views of the same store: writes through any of them are seen by all.
    """

    __slots__ = ("_store", "_view", "_owns_data")
    _store: Store
    _view: ViewSpec
    _owns_data: bool  # made with its store (NumPy's OWNDATA), not a view of another array
    __array_priority__ = 200

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "dask_gpunumeric.ndarray is not constructed directly; use dask_gpunumeric.array, "
            "zeros, empty, ..."
        )

    @classmethod
    def _from_parts(cls, store: Store, view: ViewSpec) -> Self:
        self = object.__new__(cls)
        self._store = store
        self._view = view
        self._owns_data = False
        self._lowered = None
        return self

    @classmethod
    def _holding_chunk(cls, chunk: Any, backend: str) -> Self:
        """A new base array holding a tiny operation's value ``chunk`` made outside any
        ``dask.annotate`` block (``Store.holding_chunk``), in one step: a solver makes
        one per operation (``tiny_ufuncs``)."""
        self = object.__new__(cls)
        self._store = Store.holding_chunk(chunk, backend)
        self._view = whole_view(chunk.shape)
        self._owns_data = True
        self._lowered = None
        return self

    @classmethod
    def _from_expr(cls, expr: Expr) -> Self:
        """A new base array (its own store) holding ``expr``."""
        self = cls._from_parts(Store(expr), ViewSpec(expr.shape))
        self._owns_data = True
        return self

    def _read(self) -> Expr:
        """The current value: captures the store's version now (NumPy's order of effects)."""
        return self._view.read(self._store.version)

    # -- attributes -------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._view.shape

    @property
    def dtype(self) -> numpy.dtype:
        return self._view.dtype(self._store.dtype)

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
    def flags(self) -> ArrayFlags:
        """NumPy's flags of this view (``_array/flags.py``); ``writeable`` can be set."""
        return array_flags(self)

    def setflags(self, write: Any = None, align: Any = None, uic: Any = None) -> None:
        """NumPy's ``setflags``: ``write=False`` makes every later write through this
        array, and through views made from it afterwards, raise NumPy's ``ValueError``."""
        set_flags(self, write, align, uic)

    @property
    def T(self) -> Self:  # noqa: N802 - NumPy's name
        return views.transpose(self)

    @property
    def mT(self) -> Self:  # noqa: N802 - NumPy's name
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return views.swapaxes(self, -1, -2)

    def transpose(self, *axes: Any) -> Self:
        # NumPy's method: no argument, one (None, an integer or a sequence), or the axes
        return views.transpose(self, axes[0] if len(axes) == 1 else (axes or None))

    def swapaxes(self, axis1: int, axis2: int) -> Self:
        return views.swapaxes(self, axis1, axis2)

    def reshape(self, *shape: Any, order: str = "C", copy: bool | None = None) -> Self:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return views.reshape(self, shape, order=order, copy=copy)

    def ravel(self, order: str = "C") -> Self:
        return views.ravel(self, order)

    def view(self, dtype: Any = views.NOT_GIVEN, type: Any = views.NOT_GIVEN) -> Any:  # noqa: A002
        """NumPy's ``view``: a live view of the same data, its bytes read as ``dtype``
        (``views.view``: how a view of another item size and ``type=`` differ)."""
        return views.view(self, dtype, type)

    # -- indexing ---------------------------------------------------------------------
    def __getitem__(self, index: Any) -> Self:
        return indexing.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        indexing.setitem(self, index, value)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Any:
        """NumPy's iteration: along the first axis. A 1-d array's elements are values (NumPy
        yields scalars, copies), so it is computed once, in pieces of at most
        ``_ITERATION_BYTES``, and each element is a 0-d array of that value: ``[float(v)
        for v in a]`` costs one computation, not one per element. The rows of an N-d
        array are live views, as NumPy's are."""
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        if self.ndim > 1:
            return (self[i] for i in range(self.shape[0]))
        return self._elements()

    def _elements(self) -> Any:
        """The elements, computed a piece at a time; a write to the array (its store's
        version changes) makes the rest be computed again, so the loop sees it as NumPy's
        would."""
        step = max(1, _ITERATION_BYTES // max(1, self.itemsize))
        start, length = 0, self.shape[0]
        while start < length:
            piece = compute_expr(self[start : start + step]._read())
            version = self._store.version
            for value in piece:
                yield type(self)._from_expr(HostData(numpy.array(value), owned=True))
                start += 1
                if self._store.version is not version:
                    break

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

    def persist(self, **kwargs: Any) -> Self:
        """A new array whose value is computed and held by the workers.

        Raises ``ArrayMemoryError`` (a ``MemoryError``) when the array exceeds the
        total memory of the workers (``gpunumeric.memory-check``; an array of at most
        1 MiB fits any cluster and is not checked). A value the small-work policy keeps
        in this process stays there, as it is.
        """
        check_fits_cluster(self.shape, self.dtype)
        return type(self)._from_expr(persist_expr(self._read()))

    def to_dask(self) -> Any:
        """The value as a ``dask.array.Array`` with the backend's chunk type.

        Its graph carries the user's ``dask.annotate`` annotations but not our owner
        placement, so any dask operation on it fuses and runs as on dask's own arrays.
        """
        return dask_arrays.for_user(self._dask_array(placed=False))

    def item(self, *args: Any) -> Any:
        return self.__array__().item(*args)

    def tolist(self) -> Any:
        return self.__array__().tolist()

    def tobytes(self, order: Any = "C") -> bytes:
        """NumPy's ``tobytes``: the values computed, as NumPy lays out this view's bytes
        (``order="A"``/``"K"`` follow its layout: ``a.T`` gives Fortran order)."""
        laid_out = byte_order_of(self, order)
        return self.__array__().tobytes(laid_out)

    def __float__(self) -> float:
        return float(self._host_value())

    def __int__(self) -> int:
        return int(self.__array__())

    def __complex__(self) -> complex:
        return complex(self.__array__())

    def __bool__(self) -> bool:
        return bool(self._host_value())

    def _host_value(self) -> Any:
        """A convergence check's operand: a whole array whose value is a NumPy chunk here
        is that chunk (Python's ``float``/``bool`` of it are NumPy's, warnings and errors
        included, and copy nothing), anything else ``__array__()``."""
        held = self._store.held_chunk() if self._view.is_identity else None
        if held is not None and type(held[0]) is numpy.ndarray:
            return held[0]
        return self.__array__()

    def __index__(self) -> int:
        return self.__array__().__index__()

    def __repr__(self) -> str:
        if inside_client_call():  # distributed logging a failed submit: computing would hang
            return f"<dask_gpunumeric.ndarray shape={self.shape} dtype={self.dtype}>"
        return repr(self.__array__())

    def __str__(self) -> str:
        return repr(self) if inside_client_call() else str(self.__array__())

    def _repr_html_(self) -> str:
        return html_repr(self)

    def __format__(self, spec: str) -> str:
        return format(self.__array__(), spec)

    def __reduce__(self) -> Any:
        """Pickled as its computed value; refused inside ``client.submit``/``map``, which
        pickle their arguments holding the lock the computation needs
        (``inside_client_call``)."""
        if inside_client_call():
            raise TypeError(
                "a dask_gpunumeric array cannot be an argument of Client.submit or "
                "Client.map: its value is on the cluster, to be computed by the client "
                "that is sending the task. Pass a.compute() (its NumPy value), "
                "a.to_dask() (a dask array), or call client.compute(dask.delayed(f)(a)) "
                "(f gets the computed value)."
            )
        return (_rebuild, (type(self), self.__array__()))

    __hash__ = None  # type: ignore[assignment]


def _rebuild(array_type: type[ArrayHandle], host: numpy.ndarray) -> ArrayHandle:
    from .._ir.leaves import HostData

    return array_type._from_expr(HostData(host, owned=True))
