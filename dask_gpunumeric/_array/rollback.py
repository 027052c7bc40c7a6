"""Failed writes leave their target unchanged.

A write is recorded lazily (``Store.replace`` installs a new version), so an error in it
(integers to negative powers, a worker's exception, anything a chunk function raises) shows
only when a later materialization computes that version. NumPy would have raised at the
write and left the array as it was. So every store keeps a *journal*: its versions before
each write since it last held a computed value (a leaf). When a materialization fails, each
journaled store whose last written version is part of what failed is rolled back to its
newest version that computes (tried newest first, each try persisting the version, so the
work is kept), its journal is cleared, and the error is raised as it was. Views share their
base's store, so they see the rolled-back value too.

Before/after, ``a[:2] = ints ** negative; a.compute()`` (raises NumPy's ``ValueError``)::

    a.version: v1 = SetItem(DaskData(a0), [:2], Elementwise(power, ...))
    journal:   [DaskData(a0), v1]
    -> a.version: DaskData(a0) (persisted again), journal: []

The journal costs nothing while no write fails: the versions it holds are the chain below
the current one (each write's version holds the previous one anyway), and it is cleared
whenever the store's version becomes a leaf. Not covered: writes recorded after the failing
one (built on it) are undone with it; arrays *derived* from a failed
version (``b = a + 1`` after the failed write) keep failing, since their value was built
from it; on a distributed client, a version persisted asynchronously past
``gpunumeric.persist-depth`` that fails later has no journal left to roll back to.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import distributed

from .._backends import get_backend
from .._ir.expr import Expr
from .._ir.leaves import ChunkValue, DaskData, HostData
from .._lowering import lower_all
from .._runtime import execution
from .._runtime.scheduler_loss import wait_watched

if TYPE_CHECKING:
    from .store import Store

_COMPUTED_LEAVES = (ChunkValue, DaskData, HostData)

# Per store: its version before each pending (not yet computed) write, oldest first, then
# the version the last write installed (a materialization may swap it for its leaf).
_journal: weakref.WeakKeyDictionary[Store, list[Expr]] = weakref.WeakKeyDictionary()


def record_write(store: Store, before: Expr) -> None:
    """Note that ``store`` held ``before`` until the write that installed its version."""
    versions = _journal.get(store)
    if isinstance(store.version, _COMPUTED_LEAVES):
        _journal.pop(store, None)  # computed (or persisted): nothing left to undo
    elif versions and versions[-1] is before and not isinstance(before, _COMPUTED_LEAVES):
        versions.append(store.version)
    else:  # older versions are superseded by a computed one
        _journal[store] = [before, store.version]


def pending_writes(store: Store) -> int:
    """How many writes of ``store`` are recorded and not yet known to compute."""
    return max(0, len(_journal.get(store, ())) - 1)


def undo_failed_writes(failed: Expr) -> None:
    """Roll back every journaled store whose last written version is a node of
    ``failed``'s graph to its newest version that computes (or leave it when none does)."""
    for store, versions in _journaled_stores_within(failed):
        for version in reversed(versions):
            computed = _computed_or_none(version)
            if computed is not None:
                store.version = computed
                break


def _journaled_stores_within(expr: Expr) -> list[tuple[Store, list[Expr]]]:
    """The journaled stores whose last written version ``expr`` computes, with their
    journals (taken out: a store is rolled back once)."""
    by_number = {versions[-1].number: store for store, versions in list(_journal.items())}
    found: list[tuple[Store, list[Expr]]] = []
    seen: set[int] = set()
    stack = [expr]
    while stack and len(found) < len(by_number):
        node = stack.pop()
        if node.number in seen:
            continue
        seen.add(node.number)
        if node.number in by_number:
            store = by_number[node.number]
            found.append((store, _journal.pop(store)))
        stack.extend(node.children)
    return found


def _computed_or_none(version: Expr) -> Expr | None:
    """``version`` persisted (a leaf), or None when computing it fails."""
    backend = get_backend()
    try:
        (array,) = execution.persist(*lower_all([version], backend))
        futures = distributed.futures_of(array)
        if futures:  # a distributed persist is asynchronous: wait for the outcome
            wait_watched(futures[0].client, futures)  # a lost scheduler raises
            if any(future.status != "finished" for future in futures):
                return None
    except Exception:  # noqa: BLE001 - any failure means: not this version
        return None
    return DaskData(array, backend=backend.name)
