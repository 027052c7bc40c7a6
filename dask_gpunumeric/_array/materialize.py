"""Materialization boundaries: computing an expression to host memory, or persisting it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dask
import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.array_size import nbytes_of
from .._ir.expr import Expr
from .._ir.indexing import SetItem, Slice
from .._ir.lanes import Lanes
from .._ir.leaves import ChunkValue, DaskData
from .._ir.reductions import Reduction
from .._kernels.in_process import evaluate_small, remember
from .._lowering import lower, lower_all
from .._lowering.reductions import TREE_REDUCED
from .._runtime import config, execution
from .._runtime.memory import check_fits_client
from . import work_placement
from .rollback import undo_failed_writes
from .store import Store, live_stores

# Stores shallower than this are cheap to recompute; persisting them is not worth a copy.
_WORTH_PERSISTING_DEPTH = 4
# Unless their value is a whole-lane operation (a sort, an argsort, a partition): it
# gathers each lane and costs more than a pass over its input (the image pipeline's
# ``top = np.argsort(bright)[-100:]`` was sorted again for ``rows[top]`` and ``cols[top]``).
_COSTLY = (Lanes,)


def compute_expr(expr: Expr) -> numpy.ndarray:
    """The value of ``expr`` as a host NumPy array (the explicit device-to-host step).

    Live arrays whose current value is computed on the way (the array itself included) are
    persisted in the same run, so the next materialization starts from them instead of
    recomputing their history. When it fails, writes that made it fail are undone. A value
    too big for this process fails first, with nothing computed (``ArrayMemoryError``).
    """
    check_fits_client(expr.shape, expr.dtype)
    return _undoing_failed_writes(_compute_expr, expr)


def persist_expr(expr: Expr) -> Expr:
    """A leaf holding ``expr``'s computed chunks (on the workers when a client is active);
    the live stores computed on the way are persisted with it. When it fails, writes that
    made it fail are undone."""
    return _undoing_failed_writes(_persist_expr, expr)


def _undoing_failed_writes(materialize: Callable[[Expr], Any], expr: Expr) -> Any:
    """``materialize(expr)``; on failure, every store whose pending writes are part of
    ``expr`` goes back to its newest value that computes (``rollback.py``), and the
    error is raised as it was."""
    try:
        return materialize(expr)
    except Exception:
        undo_failed_writes(expr)
        raise


def _compute_expr(expr: Expr) -> numpy.ndarray:
    on, elements, nbytes, configured = work_placement.now_limits()
    # With the policy on, reductions and draws too (the policy's eager path would take
    # them after a walk and a plan); off, the scheduler computes them.
    small = (
        evaluate_small(
            expr, elements, nbytes, configured, materializing=work_placement.reduces_now(nbytes)
        )
        if on
        else expr
    )
    if isinstance(small, ChunkValue):  # computed here: a copy, the value stays ours
        work_placement.tiny_here()
        host = get_backend(small.backend).to_host(small.value)
        return numpy.array(host).reshape(expr.shape)
    backend = get_backend()
    here = _computed_here(expr)
    if here is not None:  # the values stay ours (stores hold them): the caller gets a copy
        return numpy.array(backend.to_host(here.value)).reshape(expr.shape)
    stores = _live_stores_within(expr)
    holding = _holding_the_result(expr, stores, backend)
    if holding:
        stores = []
    with work_placement.placed([expr]):
        if stores:
            expr = _persist_with_stores(expr, stores, checkpoint=_Checkpoints.due())
        if _finished_here(expr, backend):
            result = execution.compute_finishing_here(lower(expr, backend))
        else:
            (result,) = execution.compute(lower(expr, backend))
    if holding:
        value = ChunkValue(
            backend.xp.asarray(result).copy(), backend.name
        )  # the caller's is its own
        for store in holding:
            if store.version is expr:
                store.version = value
        remember(expr, value)
    return numpy.asarray(backend.to_host(result)).reshape(expr.shape)


def _holding_the_result(expr: Expr, stores: list[Store], backend: ChunkBackend) -> list[Store]:
    """``stores`` when every one of them holds ``expr`` itself, the value being read (the
    array of ``float(x.mean())``, ``x.mean()`` made for it), and that value is one
    number (0-d: an array of blocks keeps its blocks) that can be held here: then
    ``expr`` is computed as any
    result is (dask's graph optimization fuses its steps; a tree's aggregate runs here)
    and the stores hold the value it gives, which a persist would have kept on the
    cluster for a second round trip to read. Else ``[]``: they are persisted with it."""
    if (
        not stores
        or any(store.version is not expr for store in stores)
        or not backend.evaluates_in_client
        or expr.shape != ()
    ):
        return []
    return stores


def _finished_here(expr: Expr, backend: ChunkBackend) -> bool:
    """Whether ``expr``'s last step (a tree reduction's aggregate) runs in this process."""
    return (
        type(expr) is Reduction
        and expr.kind in TREE_REDUCED
        and backend.evaluates_in_client  # the partial results are chunks this process holds
        and nbytes_of(expr.shape, expr.dtype) <= work_placement.FINISHED_HERE_BYTES
    )


def _computed_here(expr: Expr) -> ChunkValue | None:
    """``expr``'s value computed eagerly in this process when the small-work policy keeps
    it here and every node can be (``work_placement.evaluate_here``); the live stores
    whose current values were computed on the way then hold them (as a persist would).
    A value already computed here, kept here, is its own value: nothing is evaluated."""
    backend = get_backend()
    if type(expr) is ChunkValue and expr.backend == backend.name:
        return expr if work_placement.kept_here([expr], backend) else None
    stores = [s for s in list(live_stores) if not isinstance(s.version, ChunkValue)]
    here = work_placement.evaluate_here(expr, backend, {s.version.number for s in stores})
    if here is None:
        return None
    value, values = here
    for store in stores:
        node = store.version
        computed = values.get(node.number)
        if computed is not None:
            store.version = ChunkValue(computed, backend.name)
            remember(node, store.version)
    return ChunkValue(value, backend.name)


def _persist_expr(expr: Expr) -> Expr:
    """The user's ``persist()``: the full lineage is kept (dask recomputes what a lost
    worker held)."""
    if isinstance(expr, DaskData) and expr.backend == get_backend().name:
        return expr
    here = _computed_here(expr)
    if here is not None:
        return here
    with work_placement.placed([expr]):
        return _persist_with_stores(expr, _live_stores_within(expr), checkpoint=False)


def persist_version(version: Expr, replacing: Store | None = None) -> Expr:
    """``persist_expr`` for a store's automatic persist: every
    ``gpunumeric.checkpoint-every``-th such run cuts the lineage (``lineage.py``). The
    current value of ``replacing``, the store ``version`` is about to replace, is not
    persisted with it (it would be one more version of the grid held to the run's end).
    When it fails, writes that made it fail are undone."""
    return _undoing_failed_writes(lambda v: _persist_version(v, replacing), version)


def _persist_version(version: Expr, replacing: Store | None) -> Expr:
    if isinstance(version, DaskData) and version.backend == get_backend().name:
        return version
    here = _computed_here(version)
    if here is not None:
        return here
    stores = [s for s in _live_stores_within(version) if s is not replacing]
    with work_placement.placed([version]):
        return _persist_with_stores(version, stores, checkpoint=_Checkpoints.due(), cut_first=True)


class _Checkpoints:
    """Automatic persist runs since the last lineage cut (one count per process)."""

    runs = 0

    @classmethod
    def due(cls) -> bool:
        cls.runs += 1
        if cls.runs < config.get("checkpoint-every"):
            return False
        cls.runs = 0
        return True


def _persist_with_stores(
    expr: Expr, stores: list[Store], *, checkpoint: bool, cut_first: bool = False
) -> DaskData:
    """Persist ``expr`` and ``stores``' versions in one run; the stores continue from
    their persisted leaves, with their lineage cut if ``checkpoint`` (``expr``'s too if
    ``cut_first``). Unoptimized: every store's key must be computed exactly once and
    keep its task, or a distributed scheduler sees two run_specs for one key.

    A store whose version is the value written whole by another persisted version
    (``average`` in ``center[:] = average``) is not persisted itself: it becomes a view of
    that version's leaf, which holds its values. Persisting it would make it a second
    output of the run, and a value read twice cannot be written through (the stencil of
    an iteration would be computed as a new array and then copied into the grid).
    """
    backend = get_backend()
    written = _written_whole([expr, *(s.version for s in stores)])
    kept = [s for s in stores if s.version.number not in written]
    roots = [expr, *(s.version for s in kept)]
    arrays = execution.persist(*lower_all(roots, backend))
    if checkpoint:
        first = 0 if cut_first else 1
        arrays = (*arrays[:first], *execution.checkpoint(*arrays[first:]))
    leaves = [DaskData(array, backend=backend.name) for array in arrays]
    for store, leaf in zip(kept, leaves[1:], strict=True):
        store.version = leaf
    leaf_of = {root.number: leaf for root, leaf in zip(roots, leaves, strict=True)}
    for store in stores:
        if store.version.number in written:
            write = written[store.version.number]
            store.version = Slice(leaf_of[write.number], write.region)
    return leaves[0]


def _written_whole(roots: list[Expr]) -> dict[int, SetItem]:
    """The values (by node number) that a root among ``roots`` writes whole: the root is a
    ``SetItem`` whose value fills its region as is (its shape, the target's dtype) and is
    itself no such value (so its own leaf is made)."""
    writes = {
        root.children[1].number: root
        for root in roots
        if isinstance(root, SetItem)
        and root.children[1].shape == root.region.shape
        and root.children[1].dtype == root.dtype
    }
    return {value: write for value, write in writes.items() if write.number not in writes}


def _live_stores_within(expr: Expr) -> list[Store]:
    """The live stores whose current version is a node of ``expr``'s graph."""
    candidates = {
        s.version.number: s
        for s in list(live_stores)
        if s.version.depth >= _WORTH_PERSISTING_DEPTH or type(s.version) in _COSTLY
    }
    if not candidates:
        return []
    found: list[Store] = []
    seen: set[int] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.number in seen:
            continue
        seen.add(node.number)
        if node.number in candidates:
            found.append(candidates[node.number])
        stack.extend(node.children)
    return found


def compute_per_block(expr: Expr, function: Callable[..., Any], *args: Any) -> list[Any]:
    """``function(backend, block, offset, *args)`` on every block of the 1-d ``expr``,
    run where the blocks are; the (small, host) results in block order. For data-dependent
    results (``unique``) whose parts are reduced on the client."""
    backend = get_backend()
    with work_placement.placed([expr]):
        (array,) = lower_all([expr], backend)
        offsets = numpy.cumsum((0,) + array.chunks[0][:-1]).tolist()
        blocks = array.to_delayed().ravel().tolist()
        tasks = [
            dask.delayed(function)(backend, block, offset, *args)
            for block, offset in zip(blocks, offsets, strict=True)
        ]
        return list(execution.compute(*tasks))
