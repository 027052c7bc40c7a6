"""Moving persisted blocks onto their owner workers (``dask_gpunumeric.rebalance``).

Owner placement (``placement.py``) decides where the *next* task of each block position
runs; a block already held stays on the worker that computed it. So after a worker joins,
new arrays and the next versions of a loop's arrays place blocks on it, but an array
persisted before holds none there until it is rewritten. ``rebalance`` moves each block
that its owner (among the workers listed now, the placement cache refreshed) does not
hold: an identity task on the owner computes it there under a new key, and the array is
rebuilt over the new keys and the old ones of the blocks that stay.

A moved block's lineage is that identity task over the old key: a user's ``persist()``
keeps its full lineage. A moved block of a checkpoint (lineage cut, ``lineage.py``) is
held once, on its owner, not twice; it can be recomputed from the checkpoint's two copies
while those are held (the last two checkpoints are: ``lineage._Held``), and a loop's next
checkpoint cuts its lineage again.

The identity tasks are restricted to the owner *loosely* (``allow_other_workers``): the
scheduler runs them there while the owner is listed, and elsewhere if it left meanwhile,
where a strict restriction would wait for it forever.
"""

from __future__ import annotations

import itertools
from typing import Any

from dask.base import tokenize
from distributed import Future

from . import dask_arrays as da
from . import distributed_internals as internals
from . import placement
from .execution import held_by_cluster
from .scheduler_loss import check_connected, wait_watched

_names = itertools.count()


def onto_owners(array: Any) -> tuple[Any, int]:
    """``array`` (a dask array) with each block on its owner worker, and how many blocks
    were moved; ``(array, 0)`` when it is not held by a running cluster as futures (not
    persisted there) or every block is on its owner already. Blocks until moved."""
    futures = _block_futures(array)
    client = futures[0].client if futures else None
    if client is None or client.status != "running" or any(f.client is not client for f in futures):
        return array, 0
    wait_watched(client, futures)
    check_connected(client)
    workers = placement.workers_of(client, fresh=True)  # a worker that just joined counts
    if not workers:
        return array, 0
    holders = client.who_has(futures)
    name = f"rebalanced-{next(_names)}-{tokenize(array.name, workers)}"
    blocks = [
        future if owner in holders.get(future.key, ()) else _moved(future, owner, (name, *index))
        for future, owner, index in zip(
            futures, _owners(array, workers), _indices(array), strict=True
        )
    ]
    moved = [block for block, future in zip(blocks, futures, strict=True) if block is not future]
    if not moved:
        return array, 0
    wait_watched(client, moved)
    check_connected(client)
    graph = {(name, *index): block for index, block in zip(_indices(array), blocks, strict=True)}
    return da.Array(graph, name, array.chunks, meta=internals.meta_of(array)), len(moved)


def _owners(array: Any, workers: tuple[str, ...]) -> list[str]:
    """The owner among ``workers`` of each block of ``array``, in C order."""
    numblocks = tuple(map(len, array.chunks))
    count = len(workers)
    return [workers[placement.owner_position(i, numblocks, count)] for i in _indices(array)]


def _block_futures(array: Any) -> list[Future]:
    """The futures of ``array``'s blocks in C order, or ``[]`` unless every block is one
    (a persisted or scattered array of a distributed cluster)."""
    if not held_by_cluster(array):
        return []
    graph = dict(array.__dask_graph__())
    blocks = [graph.get((array.name, *index)) for index in _indices(array)]
    futures = [block for block in blocks if isinstance(block, Future)]
    return futures if len(futures) == len(blocks) else []


def _indices(array: Any) -> itertools.product[tuple[int, ...]]:
    return itertools.product(*(range(len(c)) for c in array.chunks))


def _moved(future: Future, owner: str, key: Any) -> Future:
    """The value of ``future`` computed on ``owner`` under ``key``."""
    return future.client.submit(
        _same, future, key=key, workers=[owner], allow_other_workers=True, pure=False
    )


def _same(value: Any) -> Any:
    return value
