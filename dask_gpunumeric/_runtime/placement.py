"""Owner workers per block position: where the per-block tasks of an array should run.

distributed places each ready task on the worker with the least ``occupancy / nthreads +
missing bytes / bandwidth``; on a fast link (loopback) the second term is small, so the next
version of a block often goes to whichever worker is idle and fetches the whole old block.
Legion and cuPyNumeric mappers instead keep each block position on one owner. Here the
owner map is: the blocks of a grid in C order, cut into ``len(workers)`` contiguous ranges
(neighbours mostly share a worker), the workers sorted by address. It depends on the block
grid and the worker list only, so every array of the same chunking agrees, iteration after
iteration.

Lowering hands the map to the scheduler as *loose* restrictions (``workers=[owner]`` with
``allow_other_workers=True``): if the owner leaves, any worker takes its tasks.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from . import config
from .cluster import active_client

# scheduler_info() is a round trip; lowering asks once per node, workers change rarely.
_REFRESH_SECONDS = 2.0

Index = tuple[int, ...]


class _Cache:
    workers: dict[str, tuple[float, tuple[str, ...]]] = {}


def current_workers() -> tuple[str, ...]:
    """The addresses of the active client's workers, sorted; ``()`` when computations do
    not go to a distributed client (threads, or no client yet), or ``gpunumeric.placement``
    is off."""
    if not config.get("placement"):
        return ()
    client = active_client() if config.get("scheduler") == "distributed" else None
    if client is None:
        return ()
    return workers_of(client)


def workers_of(client: Any, *, fresh: bool = False) -> tuple[str, ...]:
    """The addresses of ``client``'s workers, sorted, as its scheduler listed them at most
    ``_REFRESH_SECONDS`` ago (a worker that joined since is not among them yet), or now
    when ``fresh`` (the list lowering uses next is then this one too)."""
    address = client.scheduler.address
    cached = _Cache.workers.get(address)
    if fresh or cached is None or time.monotonic() - cached[0] > _REFRESH_SECONDS:
        workers = tuple(sorted(client.scheduler_info(n_workers=-1).get("workers", {})))
        cached = _Cache.workers[address] = (time.monotonic(), workers)
    return cached[1]


def owner_position(index: Index, numblocks: Index, workers: int) -> int:
    """Which of ``workers`` owns block ``index`` of a grid of ``numblocks``: the C-order
    position of the block, in ``workers`` contiguous ranges of nearly equal length."""
    flat = 0
    for i, n in zip(index, numblocks, strict=True):
        flat = flat * n + i
    return flat * workers // max(1, math.prod(numblocks))


def owner_annotations(
    sources: Mapping[Any, tuple[Index, Index]], workers: tuple[str, ...]
) -> dict[str, Any]:
    """Layer annotations sending each task key of ``sources`` to the owner of its block
    (``sources``: key -> (block index, grid of that block)); ``{}`` on fewer than two
    workers.

    The ``workers`` value is the bound ``get`` of a plain dict, not a function of ours:
    dask calls it per key on the scheduler, which then needs nothing of this package.
    """
    if len(workers) < 2 or not sources:
        return {}
    owners = {
        key: [workers[owner_position(index, numblocks, len(workers))]]
        for key, (index, numblocks) in sources.items()
    }
    return annotations_of(owners) or {}


def owner_table(annotations: Mapping[str, Any] | None) -> dict[Any, list[str]] | None:
    """The key -> ``[owner]`` table of a layer's annotations when they are only the
    placement ``owner_annotations`` made (``{}`` for none at all), else ``None``: a
    user's ``dask.annotate`` block, retries, resources or a strict ``workers``."""
    if not annotations:
        return {}
    getter = annotations.get("workers")
    owners = getattr(getter, "__self__", None)
    if (
        set(annotations) != {"workers", "allow_other_workers"}
        or annotations["allow_other_workers"] is not True
        or type(owners) is not dict
        or getter != owners.get
    ):
        return None
    return owners


def annotations_of(owners: dict[Any, list[str]]) -> dict[str, Any] | None:
    """A layer's annotations placing each key of ``owners`` on its owner (``None`` for
    an empty table): ``owner_annotations``' form."""
    return {"workers": owners.get, "allow_other_workers": True} if owners else None
