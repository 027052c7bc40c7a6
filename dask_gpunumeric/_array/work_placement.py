"""Where a materialization runs: the small-work policy.

On a cluster every computation costs at least one scheduler round trip (about 3 ms on
the embedded cluster of a 2-core machine, more under load), and even dask's threads cost
a few milliseconds per computation, while NumPy needs about a millisecond for a
matrix-vector product of 8 MB. So a computation whose inputs all live in this process
(host data from ``np.array(host)``, values computed here before, creation routines and
random draws, which live nowhere yet) and whose arrays are small stays here:

- a short expression (a convergence check; at most ``EAGER_NODES`` nodes, or
  more making at most ``EAGER_BYTES`` together: a solver's iterate) is
  computed node by node with the backend's array namespace, as NumPy would: no graph, no
  task, no thread pool (``_kernels/in_process.evaluate_here``), on any scheduler;
- a longer one (a loop's iterations since the last persist) runs on dask's threaded
  scheduler in this process, fused, when the configured scheduler is distributed.

A product with a tiny result of such inputs (a solver's ``a @ p``) is computed when built
(``product_here``), as NumPy does, and so is an advanced index of such an input held as
NumPy's own array (``selection_here``: k-means' ``points[labels == j]``). Persisted
results stay here; everything else goes to the configured scheduler. In a solver of
small matrices every convergence check then costs NumPy's work.

"Small": the data already here (host data, values computed here) is at most
``gpunumeric.client-data-bytes`` (1 GiB) together: sending it to the workers would cost
more than using it here (CG on a 10,000 x 10,000 matrix or Black-Scholes on three host
arrays of 240 MB, from ``np.array(host)``); arrays made from nothing (creations, random
draws) are at most ``gpunumeric.client-work-bytes`` (64 MiB) together, and no result is
larger than that or than the largest array read here: work that makes large arrays (a
stencil's grid from ``np.zeros``, 1e8 random draws) goes to the cluster, which makes them
in parallel where they stay.

Data on the workers (persisted there: ``x.persist()``, ``dask.persist``, a loop's
automatic persists): an array of at most ``client-work-bytes`` on workers that run on
this machine is moved here once (``movable``; then held here, as host data is); one that
stays there (larger, or on workers elsewhere) is read where it is: the innermost
products and reductions with small results that read it (``RETURNED_BYTES``: a solver's
``a @ p``) are computed there, together, and their results come here (``_Unmoved``);
anything else reading it sends the whole computation there (its client-held inputs are
scattered to their owners: ``_lowering/host_blocks.py``). So does a node built under
``dask.annotate`` (``resources={"GPU": 1}``, ``workers=``...): the user placed that work.
The decision is a value with its reason (``Placement``; ``dnp.explain``).
``client-work-bytes: 0`` turns the policy off. Lowering is the same either way (chunks, and so random
values, do not depend on where a computation runs); only the scheduler differs.

The crossover (``python -m benchmarks.small_work``) and the table of decisions are in
``docs/performance.md``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
from collections.abc import Iterator
from typing import Any, cast

import dask
import numpy
from dask.utils import format_bytes, parse_bytes

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.array_size import nbytes_of
from .._ir.expr import Expr
from .._ir.indexing import Slice, apply_region
from .._ir.leaves import ChunkValue, DaskData, HostData, Leaf
from .._ir.products import Matmul, Tensordot
from .._ir.reductions import Reduction
from .._kernels import in_process
from .._kernels.products import pieces_summed
from .._lowering import lower_all
from .._lowering.products import product_pieces
from .._passes.rebuild import keep, nodes_children_first, rebuild
from .._runtime import config, data_moves, execution


def kept_here(exprs: list[Expr], backend: ChunkBackend) -> bool:
    """Whether the policy keeps a computation of ``exprs`` in this process, whatever the
    scheduler, with nothing moved from the cluster: every input is here; the data already
    here (host data, values computed here) is at most ``client-data-bytes`` together; the
    arrays made from nothing (creations, draws) at most ``client-work-bytes`` together;
    and no result (an intermediate or final array) larger than ``client-work-bytes`` or
    than the largest array read here. Never where this process cannot make the backend's
    chunks (CuPy without a device here)."""
    return _walk(exprs, backend, moves=False)[0] is not None


def _walk(exprs: list[Expr], backend: ChunkBackend, *, moves: bool) -> tuple[_Moves | None, str]:
    """``(None, why)`` when a computation of ``exprs`` goes elsewhere; else what must
    come here first: the parts of it computed where their data lives, and the persisted
    arrays moved here (both empty without ``moves``), and why. With ``moves``,
    an array persisted by this backend counts as data here when it may be moved here
    (``movable``), and a product or reduction with a small result (at most
    ``RETURNED_BYTES``) of one that may not is computed where it lives, its result
    coming back (a solver's ``a @ p`` on a persisted 800 MB matrix: one round trip per
    check, the vectors' work here)."""
    work_limit = _limit("client-work-bytes")
    if work_limit <= 0:
        return None, "the small-work policy is off (client-work-bytes: 0)"
    if not backend.evaluates_in_client:
        return None, f"this process cannot make {backend.name} chunks"
    data_limit = max(work_limit, _limit("client-data-bytes"))
    data_bytes = made_bytes = largest_held = largest_result = 0
    seen: set[int] = set()
    buffers: set[int] = set()  # one host array under two leaves counts once
    parts: list[Expr] = []
    moved: list[DaskData] = []
    unmoved = _Unmoved(backend, work_limit)
    stack = list(exprs)
    while stack:
        node = stack.pop()
        if node.number in seen:
            continue
        seen.add(node.number)
        size = nbytes_of(node.shape, node.dtype)
        if node.annotations:  # built under dask.annotate: the user placed it
            return None, f"built under dask.annotate({_annotations(node)})"
        known: Expr | None = in_process.remembered(node)
        if known is None and type(node) is DaskData:
            if moves and movable(node, backend, work_limit):
                moved.append(node)  # moved here once, then a value held here
            elif execution.held_by_cluster(node.array):
                return None, f"it reads {format_bytes(size)} held by the cluster, which stay there"
        elif moves and known is None and unmoved.is_part(node):
            parts.append(node)  # computed where its data is; its small result comes here
            known = node  # counted as a value held here, nothing below it walked
        if known is not None or isinstance(node, HELD_HERE):
            largest_held = max(largest_held, size)
            held = _buffer_id(known or node)
            if held not in buffers:
                buffers.add(held)
                data_bytes += size
            if known is not None:
                continue  # computed here already: nothing below it is needed
        elif isinstance(node, Leaf):  # made here: creations, draws
            made_bytes += size
        else:
            largest_result = max(largest_result, size)
        if data_bytes > data_limit:
            return None, f"it reads over {format_bytes(data_limit)} (client-data-bytes) here"
        if made_bytes > work_limit:
            return (
                None,
                f"it makes over {format_bytes(work_limit)} (client-work-bytes) from nothing",
            )
        stack.extend(node.children)
    # The work may make arrays as large as the data it reads here (Black-Scholes on host
    # arrays), or client-work-bytes; not larger (an outer product of two host vectors).
    if largest_result > max(work_limit, largest_held):
        return None, (
            f"it makes a {format_bytes(largest_result)} array, larger than client-work-bytes "
            "and than any it reads here"
        )
    why = (
        "its inputs are in this process, or persisted where moving them here once is cheap"
        if moved
        else "its inputs are in this process, within client-data-bytes"
    )
    if parts:
        why += "; what reads data that stays where it is has small results"
    return (parts, moved), why


# More than EAGER_NODES nodes to compute, making more than EAGER_BYTES together, on an
# array of several blocks, say the work is a loop's body over and over on large arrays
# (a stencil's iterations), which fusion and halo exchange on dask's threads do better;
# many nodes on small arrays (a solver's iterate, x + alpha * p forty times over) are
# computed eagerly still. So are many nodes on arrays of a few blocks (fewer than
# CACHED_BLOCKS times gpunumeric.min-chunk-elements: 4 MiB of float64 by default):
# threads have little to split there, and a graph, its passes and its lowering cost more
# than NumPy's passes over an array that stays in cache. The Laplacian CG of
# benchmarks/suite/workloads/user_programs.py (90,000 elements), whose automatic persists
# are such work: 1.73 s -> 1.16 s at twice min-chunk-elements; the red-black sweeps on a
# 502 x 502 grid (252,004 elements, step-2 slice writes): 12.5x NumPy -> 2.9x at eight
# times, while periodic heat on 1000 x 1000 (np.roll, 1e6 elements) went from 1.8x to
# 2.8x when its arrays were taken too (`python -m benchmarks run --family user-programs
# --workloads user/red-black,user/periodic-heat,user/laplacian-cg --no-scaling`).
EAGER_NODES = 32
EAGER_BYTES = 16 * 2**20
CACHED_BLOCKS = 8
# A reduction's result up to this size is aggregated in the client from its partial
# results (a check's float(r @ r), a loss printed every few iterations):
# ``materialize._finished_here``.
FINISHED_HERE_BYTES = 64 * 2**10


# A value made from values held here (tiny operations: ``tiny_ufuncs``; a store's new
# version: ``Store``) is computed when built, as NumPy computes it (no node, no graph),
# when it is one block (fewer than min-chunk-elements elements: the chunk a worker would
# make) or, with the policy on, of at most NOW_BYTES: arrays of a few blocks, which dask's
# threads have little to split (CACHED_BLOCKS above) and whose deferred nodes, their walk
# and plan at each check, cost more than NumPy's work. The Laplacian CG of
# benchmarks/suite/workloads/user_programs.py (300 x 300, 720 KB arrays, in-place slice
# updates) built about 20 nodes per iteration and evaluated them at each check.
NOW_BYTES = 4 * 2**20


def now_limits() -> tuple[bool, int, int, str]:
    """``(on, elements, nbytes, backend)``: whether values held here are computed when
    built (``in-process-evaluation``, outside ``dask.annotate``: the user placed that
    work), the one-block limit (``min-chunk-elements``), the bytes limit (``NOW_BYTES``,
    or ``client-work-bytes`` when less; 0 with the policy off) and the configured
    backend; read once per operation from the live section (``config.get`` for any key
    missing there). A value is small when ``is_small`` says so of these."""
    section = config.section()
    try:
        enabled, elements = section["in-process-evaluation"], section["min-chunk-elements"]
        backend, work = section["backend"], section["client-work-bytes"]
    except (KeyError, TypeError):
        keys = ("in-process-evaluation", "min-chunk-elements", "backend", "client-work-bytes")
        enabled, elements, backend, work = (config.get(key) for key in keys)
    work = _parsed(work) if isinstance(work, str) else int(work)
    on = bool(enabled) and not dask.get_annotations()
    return on, elements, min(NOW_BYTES, work) if work > 0 else 0, backend


def small_now(name: str, size: int, itemsize: int) -> bool:
    """``now_limits`` and ``is_small`` for one value of ``size`` elements of ``itemsize``
    bytes made on backend ``name`` (a solver's ``alpha * p``), written out: the whole
    cost of a tiny operation is a few of these reads (``tiny_ufuncs``)."""
    section = config.section()
    try:
        enabled, elements = section["in-process-evaluation"], section["min-chunk-elements"]
        configured = section["backend"]
    except (KeyError, TypeError):
        on, elements, nbytes, configured = now_limits()
        return (
            on
            and (configured == "auto" or configured == name)
            and is_small(size, itemsize, elements, nbytes)
        )
    if not enabled or (configured != "auto" and configured != name) or dask.get_annotations():
        return False
    if size < elements:
        return True
    work = section.get("client-work-bytes", 0)
    work = _parsed(work) if isinstance(work, str) else int(work)
    return work > 0 and size * itemsize <= min(NOW_BYTES, work)


def reduces_now(nbytes: int) -> bool:
    """Whether reductions and draws of small values are computed when built too, under
    ``now_limits``' ``nbytes``: with the policy on only; with it off (the suite's
    setting) the scheduler reduces, so their lowering stays tested."""
    return nbytes > 0


def is_small(size: int, itemsize: int, elements: int, nbytes: int) -> bool:
    """Whether an array of ``size`` elements of ``itemsize`` bytes is computed when built,
    under ``now_limits``' ``elements`` and ``nbytes``."""
    return size < elements or size * itemsize <= nbytes


def eager_limits() -> in_process.EagerLimits:
    """The limits of an eager evaluation here (see above)."""
    split = CACHED_BLOCKS * config.get("min-chunk-elements")
    return in_process.EagerLimits(EAGER_NODES, EAGER_BYTES, split)


# What must come here before an eager evaluation: the parts computed where their data
# lives, and the persisted arrays moved here (``_walk``).
_Moves = tuple[list[Expr], list[DaskData]]
# A product or reduction with a result of at most RETURNED_BYTES (a solver's ``a @ p`` of
# 10,000 elements: 80 KB) of an array that stays where it is (``movable``) is computed
# there and its result comes here: one gather of a small value, against moving the array.
_RETURNING = (Matmul, Tensordot, Reduction)
RETURNED_BYTES = 2**20


def movable(node: DaskData, backend: ChunkBackend, work_limit: int) -> bool:
    """Whether an array persisted by ``backend`` (a store's version, or ``dask.persist``
    of ours) may be moved into this process once, its value held here from then on: it
    is at most ``client-work-bytes`` (64 MiB: a copy between processes of some
    milliseconds, the price of a few checks' round trips), built outside any
    ``dask.annotate`` block, and its blocks are in this process already (dask's local
    schedulers) or on workers that run on this machine
    (``data_moves.workers_share_this_machine``: not a laptop's client of a remote
    cluster, where the work goes to the data instead)."""
    return (
        node.backend == backend.name
        and not node.annotations
        and nbytes_of(node.shape, node.dtype) <= work_limit
        and (not execution.held_by_cluster(node.array) or data_moves.workers_share_this_machine())
    )


class _Unmoved:
    """Which nodes of one computation read data that is not moved here (``movable``: a
    persisted array too large, on a cluster elsewhere, or a user's dask array), and which
    of them are computed where that data is (``is_part``)."""

    __slots__ = ("backend", "work_limit", "reads")

    def __init__(self, backend: ChunkBackend, work_limit: int) -> None:
        self.backend = backend
        self.work_limit = work_limit
        self.reads: dict[int, bool] = {}  # node number -> reads unmoved data (not via a part)

    def is_part(self, node: Expr) -> bool:
        """A product or reduction with a small result (at most ``RETURNED_BYTES``) that
        reads unmoved data other than through another part: ``a @ p``, and not the ``r @
        r`` of a residual computed from it, so that what is built on a part's result is
        computed here and the cluster computes only what needs its data."""
        return (
            type(node) in _RETURNING
            and nbytes_of(node.shape, node.dtype) <= RETURNED_BYTES
            and self.reads_unmoved(node)
            # dask.annotate below it: placed by the user, and the walk stops at a part
            and not any(below.annotations for below in nodes_children_first([node]))
        )

    def reads_unmoved(self, node: Expr) -> bool:
        """Whether ``node`` reads unmoved data other than through a part below it."""
        number = node.number
        if number not in self.reads:
            if in_process.remembered(node) is not None:
                self.reads[number] = False  # its value is here
            elif type(node) is DaskData:
                self.reads[number] = not movable(node, self.backend, self.work_limit)
            else:
                self.reads[number] = any(
                    self.reads_unmoved(child)
                    and (type(child) is DaskData or not self.is_part(child))
                    for child in node.children
                )
        return self.reads[number]


# Leaves whose values are in this process already: the data a user brought
# (``np.array(host)``), values computed here, arrays persisted on dask's threads.
HELD_HERE = (HostData, ChunkValue, DaskData)


def evaluate_here(
    expr: Expr, backend: ChunkBackend, keep: set[int]
) -> tuple[Any, dict[int, Any]] | None:
    """``expr`` computed eagerly in this process, node by node with the backend's array
    namespace as NumPy would (no graph, no task, no thread pool: ``_kernels/in_process``),
    when the policy keeps it here; with the values of the nodes numbered in ``keep``
    computed on the way. Small persisted arrays it reads are moved here first, and its
    products and reductions of arrays that stay where they are computed there (``_walk``,
    ``_brought``). ``None`` when it goes elsewhere,
    has a node of a kind not evaluated here, or too many nodes (a loop's body: dask's
    threads here, fused)."""
    if not config.get("in-process-evaluation"):
        return None
    walked, why = _walk([expr], backend, moves=True)
    if walked is None:
        return None
    parts, moved = walked

    def bring() -> None:
        _brought(parts, moved, backend)
        _Last.placement = _in_client(why, parts, moved)

    arriving = frozenset(node.number for node in (*moved, *parts))
    return in_process.evaluate_here(expr, backend, keep, eager_limits(), arriving, bring)


def _brought(parts: list[Expr], moved: list[DaskData], backend: ChunkBackend) -> None:
    """The moved arrays' values and the parts' results, remembered here: the moved arrays
    first, then the parts in rounds, a part reading another part's result (a solver's
    first ``a @ p``, ``p`` made from ``b - a @ x``) after it, so that each round is
    computed where its blocks are (``data_moves.computed_where_held``) with what it reads
    of this process's values inside."""
    if moved:
        values = data_moves.fetch(*(node.array for node in moved))
        _remember(moved, values, backend)
    while parts:
        numbers = {part.number for part in parts}
        below = {
            part.number: {node.number for node in nodes_children_first(list(part.children))}
            for part in parts
        }
        ready = [part for part in parts if not below[part.number] & numbers]
        parts = [part for part in parts if below[part.number] & numbers]
        _remember(ready, _parts_computed(ready, backend), backend)
        _operands_computed_here(parts, backend)


def _operands_computed_here(parts: list[Expr], backend: ChunkBackend) -> None:
    """The operands of ``parts`` that read only values held here now (a solver's ``p``
    once the ``a @ x`` it is made from came back) computed here and remembered, where the
    eager evaluator can: each part then reads one value of this process, copied into its
    tasks, and is computed where its blocks are; else it computes them on the cluster."""
    unmoved = _Unmoved(backend, _limit("client-work-bytes"))
    for part in parts:
        for operand in part.children:
            if in_process.remembered(operand) is None and not unmoved.reads_unmoved(operand):
                computed = in_process.evaluate_here(operand, backend, set(), eager_limits())
                if computed is not None:
                    _remember([operand], [computed[0]], backend)


def _parts_computed(parts: list[Expr], backend: ChunkBackend) -> list[Any]:
    """The values of ``parts``, none reading another: each block computed by the worker
    holding its inputs where it can be (one message to each worker, no task), else
    persisted and gathered (no task of the cluster joins a part's blocks: one more task
    and a transfer between workers)."""
    if any(_reads_cluster_data(part) for part in parts):
        parts = _with_values_held_here(parts)
        values = _computed_in_pieces(parts, backend)
        if values is not None:
            return values
        return data_moves.fetch(*execution.persist(*lower_all(parts, backend)))
    # Parts of blocks held in this process are computed in this thread, block by block,
    # as NumPy would: dask's threads, each calling a multithreaded BLAS, oversubscribe the
    # cores (40 CG iterations on a 10,000 x 10,000 matrix persisted on threads: 2.06 s on
    # dask's threads, 1.30 s here).
    with execution.in_client():
        lowered = lower_all(_with_values_held_here(parts), backend)
        return data_moves.fetch(*execution.persist(*lowered, synchronous=True))


def _computed_in_pieces(parts: list[Expr], backend: ChunkBackend) -> list[Any] | None:
    """The values of ``parts`` computed where their blocks are
    (``data_moves.computed_where_held``), a product's contracted pieces each on its own
    and added up here (``_lowering/products.product_pieces``): a matrix whose blocks of
    one row are on several workers (owner placement spreads them) is read where each
    block is, never brought together (a solver's first ``a @ p`` moved all but one
    block of each row: CG at 32 workers, 147 MB in a 16-iteration run,
    ``benchmarks/weak_scaling.py``). ``None`` where a block cannot be computed so."""
    products = [type(part) in _PRODUCTS for part in parts]
    lowered = iter(lower_all([node for part, product in zip(parts, products, strict=True)
                              for node in (part.children if product else [part])],
                             backend))  # fmt: skip
    arrays, pieced = [], []
    for part, product in zip(parts, products, strict=True):
        pieces = None
        if product:
            left, right = next(lowered), next(lowered)
            pieces = product_pieces(cast(Matmul | Tensordot, part), left, right, backend)
            # a batched matmul has no pieces: its own tasks
            arrays.append(pieces if pieces is not None else lower_all([part], backend)[0])
        else:
            arrays.append(next(lowered))
        pieced.append(pieces is not None)
    computed = data_moves.computed_where_held(*arrays)
    if computed is None:
        return None
    return [
        pieces_summed(backend, part.dtype, value) if in_pieces else value
        for part, value, in_pieces in zip(parts, computed, pieced, strict=True)
    ]


def _remember(nodes: list[Any], values: list[Any], backend: ChunkBackend) -> None:
    """Each value of ``values`` (a chunk of ``backend``) remembered as its node's, read-only."""
    for node, value in zip(nodes, values, strict=True):
        chunk = backend.as_chunk(value).reshape(node.shape)
        if chunk.dtype != node.dtype:
            chunk = chunk.astype(node.dtype)
        in_process.remember(node, ChunkValue(_read_only(chunk), backend.name))


def _read_only(chunk: Any) -> Any:
    """``chunk``, or a read-only view of it for NumPy's: a value held here is shared by
    every later computation (blocks of it are views, and a one-block result is handed to
    a caller as it is), and must not be written through."""
    if type(chunk) is numpy.ndarray and chunk.flags.writeable:
        chunk = chunk.view()
        chunk.flags.writeable = False
    return chunk


def _reads_cluster_data(root: Expr) -> bool:
    """Whether a node below ``root`` is an array held by a cluster."""
    return any(
        type(node) is DaskData and execution.held_by_cluster(node.array)
        for node in nodes_children_first([root])
    )


def _with_values_held_here(roots: list[Expr]) -> list[Expr]:
    """``roots`` with each node whose value is held here (``in_process.remembered``)
    replaced by that value: the cluster is sent the value, not the work again."""

    def replace(node: Expr, new_of: Any) -> Expr:
        known = in_process.remembered(node)
        if known is None or (type(node) is DaskData and execution.held_by_cluster(node.array)):
            return keep(node, new_of)  # the cluster holds that one: nothing to send
        return known

    return rebuild(roots, replace)


def product_here(expr: Expr) -> Expr:
    """``expr``, or a ``ChunkValue`` of its value when it is a product (``@``,
    ``tensordot``) with a tiny result (fewer than ``min-chunk-elements`` elements) of
    arrays whose values are in this process (``np.array(host)``, values computed here) and
    the policy would keep its materialization here: computed when built, as NumPy does. A
    solver's ``a @ p`` is then a value, and the operations on it tiny ones
    (``tiny_ufuncs``), instead of a node every later materialization walks again (dense
    CG at n=1,000: ``python -m benchmarks run --family user-programs``)."""
    if type(expr) not in _PRODUCTS or math.prod(expr.shape) >= config.get("min-chunk-elements"):
        return expr
    if expr.annotations:
        return expr
    backend = get_backend()
    values = held_values(expr.children, backend)
    if values is None:
        return expr
    return ChunkValue(in_process.product(expr, values, backend), backend.name)


def selection_here(source: Expr, index: tuple[Any, ...]) -> Expr | None:
    """A ``ChunkValue`` of ``source[index]`` for an advanced ``index`` of host arrays
    (a boolean mask, integer arrays) when ``source`` is a value held here as NumPy's own
    array (``np.array(host)``, a value computed here) that the policy keeps here: NumPy
    selects, with its own result, dtype and errors, as it would have. ``None`` otherwise
    (the ``TakePoints`` node then selects wherever its source is computed). A k-means
    step's ``points[labels == j]`` on points from ``np.array(host)`` was about 10 ms of
    coordinates and lowering per selection against NumPy's 1-2 ms (``python -m
    benchmarks run --family user-programs``)."""
    if type(source) not in _HELD_HERE or source.ndim == 0 or dask.get_annotations():
        return None
    backend = get_backend()
    if backend.chunk_type is not numpy.ndarray:
        return None  # another namespace's indexing rules and errors: the node's
    values = held_values((source,), backend)
    if values is None:
        return None
    selected = values[0][index]  # advanced indexing: a copy, never a view
    return ChunkValue(numpy.asarray(selected), backend.name)  # a 0-d result is a scalar


_HELD_HERE = (HostData, ChunkValue)


def held_values(leaves: tuple[Any, ...], backend: ChunkBackend) -> list[Any] | None:
    """The values of ``leaves`` as chunks of ``backend``, for a product with a tiny result
    computed here (``product_here``, ``tiny_ufuncs.matmul``; the caller checked the
    result's size and that no ``dask.annotate`` block is active) or a selection of held
    data (``selection_here``: a result as large as NumPy's own), or ``None`` where the
    policy sends it elsewhere or a leaf's value is not held here. A leaf that is not a
    node is a chunk of ``backend`` held here already (a tiny value), taken as it is."""
    work_limit = _limit("client-work-bytes")
    if work_limit <= 0 or not backend.evaluates_in_client:
        return None
    held: dict[int, int] = {}
    for leaf in leaves:
        held[_buffer_id(leaf)] = math.prod(leaf.shape) * leaf.dtype.itemsize
    total = sum(held.values())
    if total > work_limit and total > _limit("client-data-bytes"):
        return None  # checked before any value is made (a device copy of host data)
    values = []
    for leaf in leaves:
        value = _value_here(leaf, backend) if isinstance(leaf, Expr) else leaf
        if value is None:
            return None
        values.append(value)
    return values


_PRODUCTS = (Matmul, Tensordot)


def _value_here(node: Expr, backend: ChunkBackend) -> Any:
    """The value of a leaf held in this process as a chunk of ``backend`` (or of a
    basic-index view of one: a solver's ``x.T`` of host data), else ``None``."""
    if type(node) is Slice:
        value = _value_here(node.children[0], backend)
        return None if value is None else apply_region(value, node.region)
    if type(node) is HostData:
        if isinstance(node.data, backend.chunk_type):
            return node.data  # host data is this backend's chunk as it is (NumPy's)
        known = in_process.remembered(node)
        if known is not None and known.backend == backend.name:
            return known.value
        value = backend.from_host(node.data)
        if value is not node.data:  # a device copy: made once, as a scatter is
            in_process.remember(node, ChunkValue(value, backend.name))
        return value
    known = node if type(node) is ChunkValue else in_process.remembered(node)
    return known.value if known is not None and known.backend == backend.name else None


@contextlib.contextmanager
def placed(exprs: list[Expr]) -> Iterator[None]:
    """Computations inside the block run where the policy puts ``exprs``."""
    backend = get_backend()
    if execution.on_cluster():
        walked, why = _walk(exprs, backend, moves=True)
        if walked is not None and not any(map(_reads_cluster_data, walked[0])):
            # No part reads the cluster's data: dask's threads read it all here.
            # Moved from the workers once, lowered as the value held here in the blocks
            # it had there (``lower_dask_data``); blocks of dask's here are read as they are.
            moved = [node for node in walked[1] if execution.held_by_cluster(node.array)]
            _brought([], moved, backend)
            _Last.placement = _in_client(why, [], moved, where="client threads")
            with execution.in_client():
                yield
            return
        if walked is not None:
            why = "a part of it reads data that stays on the cluster"
        _Last.placement = Placement("cluster", why)
    else:
        _Last.placement = Placement(f"{config.get('scheduler')} scheduler", "configured")
    yield


def _buffer_id(node: Any) -> int:
    """The identity of the values a leaf held here (or a view of one) refers to."""
    kind = type(node)
    if kind is Slice:
        return _buffer_id(node.children[0])
    if kind is HostData:
        return id(node.data)
    if kind is ChunkValue:
        return id(node.value)
    return id(node)


def _limit(key: str) -> int:
    value = config.get(key)
    return _parsed(value) if isinstance(value, str) else int(value)


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> int:
    """``parse_bytes(text)``, kept: the limits are read at each product built here."""
    return parse_bytes(text)


@dataclasses.dataclass(frozen=True)
class Placement:
    """Where a computation ran (or would run) and the rule's reason.

    ``where``: ``client`` (node by node in this process, as NumPy would), ``client
    threads`` (dask's threaded scheduler in this process), ``cluster``, or the local
    scheduler configured (``threads scheduler``); ``moved_bytes``: persisted arrays moved
    from the workers into this process for it (once: then held here);
    ``parts_elsewhere`` and ``returned_bytes``: its products and reductions of data that
    stays where it is held (the workers, or dask's blocks here), computed there, and the
    bytes of their results that came back.
    """

    where: str
    reason: str
    moved_bytes: int = 0
    parts_elsewhere: int = 0
    returned_bytes: int = 0

    def __str__(self) -> str:
        text = f"{self.where}: {self.reason}"
        if self.moved_bytes:
            text += f"; {format_bytes(self.moved_bytes)} moved here from the workers"
        if self.parts_elsewhere:
            text += (
                f"; {self.parts_elsewhere} product(s) or reduction(s) computed where their "
                f"data is, {format_bytes(self.returned_bytes)} of results returned"
            )
        return text


class _Last:
    placement: Placement | None = None


def last_placement() -> Placement | None:
    """Where the last materialization of this process ran (``None`` before any)."""
    return _Last.placement


def tiny_here() -> None:
    """Record that the materialization running now was of small arrays, computed here."""
    _Last.placement = _small_here(NOW_BYTES)


@functools.lru_cache(maxsize=4)
def _small_here(now_bytes: int) -> Placement:
    return Placement(
        "client",
        "every array is small: one block (under min-chunk-elements), or at most "
        f"{format_bytes(now_bytes)} with the policy on",
    )


def decide(exprs: list[Expr]) -> Placement:
    """Where computing ``exprs`` now would run and why, with nothing computed or moved."""
    backend = get_backend()
    walked, why = _walk(exprs, backend, moves=True)
    if walked is not None:
        return _in_client(why, *walked)
    if not execution.on_cluster():
        return Placement(f"{config.get('scheduler')} scheduler", why)
    return Placement("cluster", why)


def _in_client(
    why: str, parts: list[Expr], moved: list[DaskData], where: str = "client"
) -> Placement:
    return Placement(
        where,
        why,
        moved_bytes=sum(nbytes_of(node.shape, node.dtype) for node in moved),
        parts_elsewhere=len(parts),
        returned_bytes=sum(nbytes_of(part.shape, part.dtype) for part in parts),
    )


def _annotations(node: Expr) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in dict(node.annotations).items())
