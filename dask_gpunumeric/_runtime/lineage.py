"""Cutting the lineage of persisted arrays on a distributed cluster: checkpoints.

A distributed scheduler keeps every released ancestor of a key held in memory (its
lineage, to recompute it if a worker is lost: dask/distributed#809), and so does the
worker holding it. A loop that persists version after version therefore grows both by a
few task records per iteration, without bound. A checkpoint replaces a persisted array's
chunks by new keys with no lineage at all, registered as ``Client.scatter`` registers data
(no task, no dependencies), each held by two workers: the one that held the chunk and
the next one in address order (the values of identity tasks there, renamed in place). ``checkpoint_copies.CheckpointCopies`` keeps the two copies against
the scheduler's active memory manager, and makes a new second copy when a worker holding
one is lost.

A worker lost after the checkpoint loses at most one of the two copies. Two workers lost
before the second copy is remade (the AMM runs every 2 s by default) can lose both: the
error then says "lost dependencies". A one-worker cluster keeps one copy. A checkpoint
that cannot complete (a worker lost while it runs) keeps the arrays as they were, with
their full lineage.
"""

from __future__ import annotations

import collections
import itertools
import logging
from collections.abc import Sequence
from typing import Any

import distributed
from dask.base import tokenize
from distributed import Future

from . import checkpoint_copies
from . import dask_arrays as da
from . import distributed_internals as internals
from .scheduler_loss import (
    SchedulerLostError,
    check_connected,
    lost_error,
    scheduler_answers,
    scheduler_timeout,
    wait_watched,
)

logger = logging.getLogger(__name__)
_names = itertools.count()


class _Held:
    """The checkpoint keys of the last checkpoints, besides those their arrays hold: a
    version computed from a checkpoint (the stencil's next ones) needs its keys, to be
    recomputed, after the checkpoint's array is gone, until the next checkpoint."""

    copies: collections.deque[list[Future]] = collections.deque(maxlen=2)


def checkpoint(client: distributed.Client, arrays: Sequence[Any]) -> tuple[Any, ...]:
    """``arrays`` (persisted dask arrays of ``client``) with their lineage cut: same
    values, chunks and meta, new keys with no lineage. Blocks until ``arrays`` and their
    checkpoint are computed. On failure (a worker lost meanwhile) ``arrays`` unchanged."""
    futures = [f for a in arrays for f in _chunk_futures(a)]
    if not futures:
        return tuple(arrays)
    names = [f"checkpoint-{next(_names)}-{tokenize(a.name)}" for a in arrays]
    keys = [(name, *index) for a, name in zip(arrays, names, strict=True) for index in _indices(a)]
    try:
        copies = _checkpoint_futures(client, futures, keys)
    except SchedulerLostError:
        raise
    except Exception as error:  # a worker lost mid-way: keep the full lineage
        if client.status != "running" or not scheduler_answers(client, scheduler_timeout()):
            raise lost_error(
                client.scheduler.address, f"{error!r} while cutting lineage"
            ) from error
        logger.info("lineage cut skipped, the full lineage is kept: %r", error)
        return tuple(arrays)
    _Held.copies.append(copies)
    return tuple(_rebuild(arrays, names, copies))


def _indices(array: Any) -> itertools.product[tuple[int, ...]]:
    return itertools.product(*(range(len(c)) for c in array.chunks))


def _chunk_futures(array: Any) -> list[Future]:
    graph = dict(array.__dask_graph__())
    return [graph[(array.name, *index)] for index in _indices(array)]


def _checkpoint_futures(
    client: distributed.Client, futures: list[Future], keys: list[Any]
) -> list[Future]:
    """Futures of ``keys``, each the value of the same position of ``futures`` held by
    the worker holding it and by the next one (by that one alone on a one-worker
    cluster): an identity task on each, whose value is then renamed in place (the
    original chunk's replicas may move meanwhile: the active memory manager drops
    extra ones; an identity task's value has one, which nothing else reads)."""
    _wait(client, futures)
    holders = _holders(client, futures)
    ring = sorted(client.nthreads())
    copies = [
        [
            client.submit(_same, f, workers=[address], allow_other_workers=True, pure=False)
            for address in dict.fromkeys([holders[f.key], _next(ring, holders[f.key])])
        ]
        for f in futures
    ]
    _wait(client, [c for pair in copies for c in pair])
    copy_holders = _holders(client, [c for pair in copies for c in pair])
    renames: dict[str, dict[Any, Any]] = collections.defaultdict(dict)
    who_has: dict[Any, list[str]] = {}
    for pair, key in zip(copies, keys, strict=True):
        places = {copy_holders[c.key]: c.key for c in pair}
        if len(places) < len(pair):
            raise RuntimeError(f"both copies of {key} landed on one worker")
        for address, old in places.items():
            renames[address][old] = key
        who_has[key] = list(places)
    nbytes: dict[Any, int] = {}
    for result in client.run(_rename_held, dict(renames), workers=list(renames)).values():
        nbytes.update(result)
    client.run_on_scheduler(
        checkpoint_copies.register, who_has=who_has, nbytes=nbytes, client=client.id
    )
    made: list[Future] = [Future(key, client) for key in keys]
    internals.mark_futures_finished(client, made)
    return made


def _holders(client: distributed.Client, futures: list[Future]) -> dict[Any, str]:
    """A worker holding each of ``futures`` (computed), by key."""
    return {key: addresses[0] for key, addresses in client.who_has(futures).items()}


def _next(ring: list[str], address: str) -> str:
    """The worker after ``address`` (itself on a one-worker cluster)."""
    return ring[(ring.index(address) + 1) % len(ring)] if address in ring else ring[0]


def _wait(client: distributed.Client, futures: list[Future]) -> None:
    """Wait for ``futures``; a lost scheduler raises ``SchedulerLostError`` instead of
    leaving the next request to wait out distributed's reconnection."""
    wait_watched(client, futures)
    check_connected(client)


def _same(value: Any) -> Any:
    return value


def _rename_held(renames: dict[str, dict[Any, Any]], dask_worker: Any = None) -> dict[Any, int]:
    """On a worker: its values of the old keys in ``renames`` under the new keys too."""
    return internals.alias_worker_data(dask_worker, renames.get(dask_worker.address, {}))


def _rebuild(arrays: Sequence[Any], names: list[str], copies: list[Future]) -> list[Any]:
    """Arrays like ``arrays`` over the checkpoint futures ``copies``."""
    rebuilt, chunks = [], iter(copies)
    for array, name in zip(arrays, names, strict=True):
        graph = {(name, *index): next(chunks) for index in _indices(array)}
        rebuilt.append(da.Array(graph, name, array.chunks, meta=internals.meta_of(array)))
    return rebuilt
