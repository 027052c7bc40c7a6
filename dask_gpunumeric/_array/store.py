"""``Store``: one mutable cell per base array holding its current immutable version."""

from __future__ import annotations

import sys
import weakref
from typing import Any

from .._backends import get_backend
from .._ir.expr import Expr
from .._ir.leaves import ChunkValue
from .._kernels.in_process import evaluate_small
from .._runtime import config
from .rollback import record_write
from .work_placement import is_small, now_limits, product_here, reduces_now

live_stores: weakref.WeakSet[Store] = weakref.WeakSet()


class Store:
    """The base of every view. ``version`` is an expression for its whole current value;
    writes replace it by a new expression (nothing is computed).

    Graphs stay bounded in loops two ways. A write whose new version is deeper than
    ``gpunumeric.persist-depth`` persists it. A new array persists only past twice that
    depth: temporaries built from a store about to be persisted (``center + north``)
    would otherwise be persisted themselves. Loops that only make new arrays (CG's
    ``x = x + alpha * p``) are kept shallow by materialization, which persists the live
    stores it computes anyway (``materialize.compute_expr``).

    A small version whose inputs are all in this process is computed at once, here
    (``_kernels/in_process.py``, under ``work_placement.now_limits``): small arrays never
    wait for, or visit, the cluster. A write computed when built may change the held
    value in place when nothing else refers to it (``sole_chunk``, ``hold``).
    """

    __slots__ = ("_version", "chunk", "chunk_backend", "writeable", "__weakref__")
    # ``chunk``: a tiny operation's value as NumPy (CuPy, ...) made it, of the backend
    # named ``chunk_backend``, while no reader has asked for its ``ChunkValue`` node
    # (``holding_chunk``); ``None`` otherwise. A solver's ``alpha * p`` reads and makes
    # only chunks: a node per operation was a sixth of its cost (``tiny_ufuncs``).
    _version: Expr | None
    chunk: Any
    chunk_backend: str
    # The ``WRITEABLE`` flag of the array owning this store (NumPy's base array): a view
    # of it may be made writeable again only while that is (``flags.set_writeable``).
    writeable: bool

    def __init__(self, version: Expr) -> None:
        self.chunk = None
        self.writeable = True
        if type(version) is ChunkValue:  # a value: nothing to decide
            self._version = version
            return
        self._version = _bounded(_evaluated(version), 2 * config.get("persist-depth"))
        live_stores.add(self)

    @classmethod
    def holding_chunk(cls, chunk: Any, backend: str) -> Store:
        """A store of a tiny operation's value ``chunk``, made outside any
        ``dask.annotate`` block: nothing to decide, and not a live store until a write
        makes its version an expression (``live_stores`` holds the stores a
        materialization may compute or persist; a value is neither)."""
        self = object.__new__(cls)
        self._version = None
        self.chunk = chunk
        self.writeable = True
        self.chunk_backend = backend
        return self

    @property
    def version(self) -> Expr:
        """The current value's node (a held chunk's ``ChunkValue`` made at the first ask,
        with the annotations of where the chunk was made: none)."""
        version = self._version
        if version is None:
            value = ChunkValue(self.chunk, self.chunk_backend)
            value.annotations = ()
            self._version, self.chunk = value, None
            return value
        return version

    @version.setter
    def version(self, version: Expr) -> None:
        self._version = version
        self.chunk = None

    def held_chunk(self) -> tuple[Any, str] | None:
        """``(chunk, backend name)`` of the current value when it is a value computed here
        (held as is, or as a ``ChunkValue``), else ``None``; no node is made for it."""
        chunk = self.chunk  # read once: another thread may ask for the version meanwhile
        if chunk is not None:
            return chunk, self.chunk_backend
        version = self.version
        return (version.value, version.backend) if type(version) is ChunkValue else None

    def sole_chunk(self) -> Any:
        """The current value's chunk when it owns its memory, may be written, and nothing
        but this store refers to it (no reader holds its node, no view of it, no other
        store or remembered value shares it), else ``None``: a write may then change it
        in place, as NumPy's in-place operators do (``tiny_ufuncs._into``). Read from
        CPython's reference counts: each count is the holder here, this method's local
        name and ``getrefcount``'s argument; any other is a reader. The caller holds no
        reference to it. The backend says whether the chunk owns its memory alone
        (``ChunkBackend.owns_its_memory``: not a view, writeable, viewed by no other)."""
        chunk = self.chunk
        if chunk is not None:
            name = self.chunk_backend
        else:
            version = self._version
            if type(version) is not ChunkValue or sys.getrefcount(version) > 3:
                return None
            chunk, name = version.value, version.backend
        if sys.getrefcount(chunk) > 3:
            return None  # read elsewhere
        return chunk if get_backend(name).owns_its_memory(chunk) else None

    def written_now(self) -> tuple[str, Any, int, int] | None:
        """``(backend name, value's shape and dtype, elements, nbytes)`` when a write into
        this store may be computed when built (``tiny_ufuncs._into``,
        ``indexing._assigned_now``): it holds a value of the configured backend (under
        ``auto``: any) that is small under ``now_limits``, whose limits come back for the
        write's operands; else ``None``. Keeps no reference to the value (one would count
        as a reader's: ``sole_chunk``)."""
        held = self.held_chunk()
        if held is None:
            return None
        on, elements, nbytes, configured = now_limits()
        value, name = held
        if (
            not on
            or (configured != "auto" and configured != name)
            or not is_small(value.size, value.itemsize, elements, nbytes)
        ):
            return None
        return name, (value.shape, value.dtype), elements, nbytes

    def hold(self, chunk: Any, backend: str) -> None:
        """``chunk`` (of ``backend``), computed here by a write when it was built
        (``tiny_ufuncs._into``), is the current value, held as ``holding_chunk``'s: the
        store held a value before it (nothing to undo), and the write made no node."""
        self._version = None
        self.chunk = chunk
        self.chunk_backend = backend

    @property
    def dtype(self) -> Any:
        chunk = self.chunk  # read once: another thread may ask for the version meanwhile
        return self.version.dtype if chunk is None else chunk.dtype

    def replace(self, version: Expr) -> None:
        before = self.version
        self.version = _bounded(_evaluated(version), config.get("persist-depth"), self)
        if type(self.version) is not ChunkValue:
            live_stores.add(self)
        record_write(self, before)  # a failed write is undone (``rollback.py``)


def _evaluated(version: Expr) -> Expr:
    """``version``, or its value computed here when it is a product of values held here
    (``work_placement.product_here``) or small (``evaluate_small``)."""
    here = product_here(version)
    if here is not version:
        return here
    on, elements, nbytes, configured = now_limits()
    if not on:
        return version
    # With the policy on, a reduction or a draw too, as NumPy computes it at the call
    reduces = reduces_now(nbytes)
    return evaluate_small(version, elements, nbytes, configured, materializing=reduces)


def _bounded(version: Expr, depth_limit: int, replacing: Store | None = None) -> Expr:
    """``version``, persisted when deeper than ``depth_limit``; the value of ``replacing``
    (the store it is about to replace) is not persisted with it."""
    if version.depth <= depth_limit:
        return version
    from .materialize import persist_version

    return persist_version(version, replacing)
