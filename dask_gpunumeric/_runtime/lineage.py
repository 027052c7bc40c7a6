"""Cutting the lineage of persisted arrays on a distributed cluster: checkpoints.

A distributed scheduler keeps every released ancestor of a key held in memory (its
lineage, to recompute it if a worker is lost: dask/distributed#809), and so does the
worker holding it. A loop that persists version after version therefore grows both by a
few task records per iteration, without bound. A checkpoint replaces a persisted array's
chunks by keys whose lineage is one task deep, in two copies on two workers:

- a *backup* key per chunk, registered as ``Client.scatter`` registers data (no task, no
  dependencies), made on another worker than the chunk's by a copy task renamed in place;
- a *primary* key per chunk, ``identity(backup)`` restricted (loosely) to the worker that
  held the chunk. Later versions are computed from the primaries.

A worker lost after the checkpoint loses at most one of the two copies: a lost primary
(or anything computed from it) is recomputed by dask from the backup; a lost backup
leaves the primary in memory. Two losses before the next checkpoint (both copies) are not
recoverable. A checkpoint that cannot complete (a worker lost while it runs) keeps the
array as it was, with its full lineage.
"""

from __future__ import annotations

import collections
import itertools
import logging
from collections.abc import Sequence
from typing import Any

import dask.array
import distributed
from dask.base import tokenize
from distributed import Future
from distributed.metrics import time

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
_BACKUPS_ATTRIBUTE = "_checkpoint_backups"


class _Held:
    """The backups of the last checkpoints, besides those their arrays hold: a version
    computed from a checkpoint (the stencil's next ones) needs its backup after the
    checkpoint's array is gone, until the next checkpoint."""

    backups: collections.deque[list[Future]] = collections.deque(maxlen=2)


def checkpoint(client: distributed.Client, arrays: Sequence[Any]) -> tuple[Any, ...]:
    """``arrays`` (persisted dask arrays of ``client``) with their lineage cut: same
    values, chunks and meta, new keys one task deep. Blocks until ``arrays`` and their
    checkpoint are computed. On failure (a worker lost meanwhile) ``arrays`` unchanged."""
    futures = [f for a in arrays for f in _chunk_futures(a)]
    if not futures:
        return tuple(arrays)
    names = [f"checkpoint-{next(_names)}-{tokenize(a.name)}" for a in arrays]
    keys = [(name, *index) for a, name in zip(arrays, names, strict=True) for index in _indices(a)]
    try:
        primaries, backups = _checkpoint_futures(client, futures, keys)
    except SchedulerLostError:
        raise
    except Exception as error:  # a worker lost mid-way: keep the full lineage
        if client.status != "running" or not scheduler_answers(client, scheduler_timeout()):
            raise lost_error(
                client.scheduler.address, f"{error!r} while cutting lineage"
            ) from error
        logger.info("lineage cut skipped, the full lineage is kept: %r", error)
        return tuple(arrays)
    _Held.backups.append(backups)
    return tuple(_rebuild(arrays, names, primaries, backups))


def _indices(array: Any) -> itertools.product[tuple[int, ...]]:
    return itertools.product(*(range(len(c)) for c in array.chunks))


def _chunk_futures(array: Any) -> list[Future]:
    graph = dict(array.__dask_graph__())
    return [graph[(array.name, *index)] for index in _indices(array)]


def _checkpoint_futures(
    client: distributed.Client, futures: list[Future], keys: list[Any]
) -> tuple[list[Future], list[Future]]:
    _wait(client, futures)
    holders = {k: v[0] for k, v in client.who_has(futures).items()}
    ring = sorted(client.nthreads())
    copies = [
        client.submit(
            _same, f, workers=[_next(ring, holders[f.key])], allow_other_workers=True, pure=False
        )
        for f in futures
    ]
    backups = _register_in_place(client, copies)
    primaries = [
        client.submit(
            _same, b, key=key, workers=[holders[f.key]], allow_other_workers=True, pure=False
        )
        for f, b, key in zip(futures, backups, keys, strict=True)
    ]
    _keep_apart(client, primaries, backups)
    return primaries, backups


def _keep_apart(client: distributed.Client, primaries: list[Future], backups: list[Future]) -> None:
    """Computing a primary fetched its backup: drop that replica, or the scheduler's
    active memory manager may drop the other one and leave both copies on one worker."""
    _wait(client, primaries)
    holders = client.who_has(primaries)
    drops = {b.key: list(holders[p.key]) for p, b in zip(primaries, backups, strict=True)}
    client.run_on_scheduler(_drop_replicas, drops=drops)


def _drop_replicas(drops: dict[str, list[str]], dask_scheduler: Any = None) -> None:
    """On the scheduler: remove the replicas of ``drops``' keys on the workers listed,
    never a key's last one."""
    for key, addresses in drops.items():
        ts = dask_scheduler.tasks.get(key)
        for address in addresses:
            ws = dask_scheduler.workers.get(address)
            if ts is not None and ws in ts.who_has and len(ts.who_has) > 1:
                dask_scheduler.request_remove_replicas(
                    address, [key], stimulus_id=f"checkpoint-apart-{time()}"
                )


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


def _register_in_place(client: distributed.Client, computed: list[Future]) -> list[Future]:
    """New keys, with no task and no dependencies, for ``computed``'s values on the
    workers holding them (no copy): the scatter protocol, data already in place."""
    _wait(client, computed)
    holders = {k: v[0] for k, v in client.who_has(computed).items()}
    token = tokenize(*(f.key for f in computed))
    renames = {f.key: f"checkpoint-backup-{token}-{i}" for i, f in enumerate(computed)}
    by_worker: dict[str, dict[Any, str]] = {}
    for old, new in renames.items():
        by_worker.setdefault(holders[old], {})[old] = new
    nbytes: dict[str, int] = {}
    for result in client.run(_rename_held, by_worker, workers=list(by_worker)).values():
        nbytes.update(result)
    who_has = {renames[old]: [holders[old]] for old in renames}
    client.sync(client.scheduler.update_data, who_has=who_has, nbytes=nbytes, client=client.id)
    backups: list[Future] = [Future(renames[f.key], client) for f in computed]
    for backup in backups:
        client.futures[backup.key].finish()
    return backups


def _rename_held(renames: dict[str, dict[Any, str]], dask_worker: Any = None) -> dict[str, int]:
    """On a worker: its values of the old keys in ``renames`` under the new keys too."""
    mine = renames.get(dask_worker.address, {})
    data = {new: dask_worker.data[old] for old, new in mine.items()}
    return dask_worker.update_data(data=data)["nbytes"]


def _rebuild(
    arrays: Sequence[Any], names: list[str], primaries: list[Future], backups: list[Future]
) -> list[Any]:
    """Arrays like ``arrays`` over ``primaries``; each holds its chunks' backups for as
    long as it lives (``_checkpoint_backups``: a persisted ``a`` read by every iteration
    may outlive many checkpoints, and its primaries need their backups to be recomputed)."""
    rebuilt, chunks = [], iter(zip(primaries, backups, strict=True))
    for array, name in zip(arrays, names, strict=True):
        pairs = [next(chunks) for _ in _indices(array)]
        graph = {(name, *index): p for index, (p, _) in zip(_indices(array), pairs, strict=True)}
        new = dask.array.Array(graph, name, array.chunks, meta=array._meta)
        setattr(new, _BACKUPS_ATTRIBUTE, [b for _, b in pairs])
        rebuilt.append(new)
    return rebuilt
