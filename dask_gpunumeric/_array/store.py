"""``Store``: one mutable cell per base array holding its current immutable version."""

from __future__ import annotations

import weakref

from .._ir.expr import Expr
from .._ir.leaves import ChunkValue
from .._kernels.in_process import evaluate_small
from .._runtime import config
from .rollback import record_write
from .work_placement import product_here

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
    (``_kernels/in_process.py``): tiny arrays never wait for, or visit, the cluster.
    """

    __slots__ = ("version", "__weakref__")
    version: Expr

    def __init__(self, version: Expr) -> None:
        if type(version) is ChunkValue:  # a value: nothing to decide (``holding``)
            self.version = version
            return
        self.version = _bounded(_evaluated(version), 2 * config.get("persist-depth"))
        live_stores.add(self)

    @classmethod
    def holding(cls, value: ChunkValue) -> Store:
        """A store of a value (a tiny operation's): nothing to decide, and not a live store
        until a write makes its version an expression (``live_stores`` holds the stores a
        materialization may compute or persist; a value is neither)."""
        self = object.__new__(cls)
        self.version = value
        return self

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
    return here if here is not version else evaluate_small(version)


def _bounded(version: Expr, depth_limit: int, replacing: Store | None = None) -> Expr:
    """``version``, persisted when deeper than ``depth_limit``; the value of ``replacing``
    (the store it is about to replace) is not persisted with it."""
    if version.depth <= depth_limit:
        return version
    from .materialize import persist_version

    return persist_version(version, replacing)
