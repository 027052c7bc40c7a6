"""Values held in the client, sent to a cluster: contiguous blocks scattered to the workers
that own their positions, once per leaf, never inside a graph.

A ``HostData`` leaf (``np.array(host)``) or a value computed and persisted in the client
(the small-work policy, ``_array/work_placement.py``) used by a computation on a cluster
would otherwise travel pickled inside every graph that reads it ("Sending large graph of
size 122 MiB" at each convergence check of a solver), as strided views of one host copy
that arrive misaligned. Here each block is copied once into its own contiguous buffer and
scattered (``Client.scatter``, one call per worker) to the owner of its position
(``_runtime/placement.py``), where every block-aligned task on it runs. The leaf keeps its
futures for as long as it lives; they are scattered again when a block is lost (both
copies), not when the workers change: values computed from them may need them again.
Scattered data has no lineage to recompute it from: each block is kept in two copies on
two workers (``execution.scatter_to``), so a worker lost in the middle of a computation
loses none.

Values under ``_SCATTER_BYTES`` stay inside the graph: a scatter is a round trip.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Iterator
from typing import Any, cast

import numpy
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from .._ir.expr import Expr
from .._kernels import boxes
from .._runtime import dask_arrays as da
from .._runtime import execution, placement

Chunks = tuple[tuple[int, ...], ...]
Index = tuple[int, ...]

_SCATTER_BYTES = 1 << 20


class _Placed:
    """Per leaf: (the client's scheduler and the chunks it was scattered for, its finished
    dask array, the scattered one)."""

    arrays: weakref.WeakKeyDictionary[Expr, tuple[Any, da.Array, da.Array]] = (
        weakref.WeakKeyDictionary()
    )


def worth_scattering(nbytes: int) -> bool:
    """Whether a client-held value of ``nbytes`` goes to the cluster scattered (a
    computation on a cluster now, and large enough to be worth a round trip)."""
    return not fits_in_a_graph(nbytes) and execution.on_cluster()


def fits_in_a_graph(nbytes: int) -> bool:
    """Whether ``nbytes`` of values held in the client may travel inside a graph (less
    than a round trip's worth: above it, they are scattered)."""
    return nbytes < _SCATTER_BYTES


def scattered(
    node: Expr,
    name: str,
    chunks: Chunks,
    meta: Any,
    block: Callable[[Index], Any],
    finish: Callable[[Any], Any],
) -> da.Array:
    """A dask array whose block at each index is ``finish(block(index))``: ``block(index)``
    is a value in this process, scattered to the block's owner, where ``finish`` (moving it
    to the backend's chunks) runs once and its result is kept (persisted); reused for
    ``node`` while valid. Scattered buffers arrive misaligned (they are views into the
    message that carried them): the finished blocks are aligned copies where needed.
    The scattered blocks are kept too, as the finished ones' lineage: a lost worker's
    blocks are recomputed from them (scattered data itself has none)."""
    address = execution.cluster_address()  # first: it may start the embedded cluster
    workers = placement.current_workers()
    # Not the worker list: blocks scattered for other workers stay in use (moving them is
    # ``rebalance``'s job). Scattering anew when a worker joined or was replaced released
    # the blocks in use, which have no lineage: a lost version computed from them then
    # could not be recomputed ("already forgotten", benchmarks/chaos.py).
    signature = (address, chunks)
    cached = _Placed.arrays.get(node)
    # A finished block lost with a worker is recomputed from its scattered one; only a
    # scattered block lost (both copies) makes them scattered anew.
    if cached is not None and cached[0] == signature and _all_held(cached[2]):
        return cached[1]
    numblocks = tuple(map(len, chunks))
    indices = list(itertools.product(*map(range, numblocks)))
    by_worker: dict[str | None, list[Index]] = {}
    for index in indices:
        owner = (
            workers[placement.owner_position(index, numblocks, len(workers))] if workers else None
        )
        by_worker.setdefault(owner, []).append(index)
    futures = execution.scatter_to(
        {worker: [block(index) for index in group] for worker, group in by_worker.items()}
    )
    # Named after the scattered keys: the same data scattered again (a new leaf of equal
    # content and name) must not reuse a key the scheduler knows with other futures.
    name = f"{name}-{tokenize(*(f.key for group in futures.values() for f in group))}"
    graph: dict[Any, Any] = {
        (name, *index): future
        for worker, group in by_worker.items()
        for index, future in zip(group, futures[worker], strict=True)
    }
    layer = HighLevelGraph.from_collections(name, graph, dependencies=())
    sent = da.Array(layer, name, chunks, meta=meta)
    finished = da.map_blocks(_aligned_after, sent, finish, dtype=sent.dtype, meta=meta)
    # Each block finished where it was scattered to, its owner: the scheduler would pick
    # either holder of its two copies, and the next task on that block (on its owner)
    # would then fetch it (half the blocks, measured: benchmarks/weak_scaling.py's CG).
    # (lowering's rule, ``core._place``: a user's ``workers`` or ``resources`` wins)
    finishing = cast(HighLevelGraph, finished.__dask_graph__()).layers[finished.name]
    if not {"workers", "resources"} & (finishing.annotations or {}).keys():
        sources = {(finished.name, *index): (index, numblocks) for index in indices}
        owners = placement.owner_annotations(sources, workers)
        finishing.annotations = {**owners, **(finishing.annotations or {})} or None
    (array,) = execution.persist(finished)
    _Placed.arrays[node] = (signature, array, sent)
    return array


def host_block(host: numpy.ndarray, chunks: Chunks) -> Callable[[Index], numpy.ndarray]:
    """Block ``index`` of ``host`` cut in ``chunks``, as its own contiguous buffer."""
    edges = boxes.boundaries(chunks)

    def block(index: Index) -> numpy.ndarray:
        return numpy.ascontiguousarray(host[boxes.slices(boxes.block_box(edges, index))])

    return block


def held_values(array: da.Array, chunk_type: type) -> dict[Index, Any] | None:
    """The blocks of ``array`` when it is a table of values already in this process (a
    value persisted on dask's threaded scheduler) of ``chunk_type``; else ``None``."""
    layer = execution.own_layer(array)
    if layer is None:
        return None
    values: dict[Index, Any] = {}
    for key in _keys(array):
        value = layer.get(key)
        if not isinstance(value, chunk_type):
            return None
        values[tuple(key[1:])] = value
    return values


def _keys(array: da.Array) -> Iterator[tuple[Any, ...]]:
    for index in itertools.product(*map(range, array.numblocks)):
        yield (array.name, *index)


def _aligned_after(value: Any, finish: Callable[[Any], Any]) -> Any:
    """``finish(value)``, copied first when ``value`` is a misaligned host buffer."""
    if isinstance(value, numpy.ndarray) and not value.flags.aligned:
        value = value.copy()
    return finish(value)


def _all_held(array: da.Array) -> bool:
    layer = cast(HighLevelGraph, array.__dask_graph__()).layers[array.name]
    return all(getattr(future, "status", "finished") == "finished" for future in layer.values())
