"""The scheduler's history of finished work, kept bounded in long loops.

A distributed scheduler keeps every ``TaskGroup`` it ever made in its spans (which live
forever: dask/distributed#7977, "Spans lifetime management") and in its recent
computations, long after the group's tasks are forgotten. A loop submitting new keys
every iteration makes a few groups per iteration: about 17 MiB of scheduler memory per
1,000 stencil iterations, measured. :func:`forget_finished_groups` drops the groups whose
tasks are all forgotten (part of what #7977 proposes upstream). The dashboard's span and
computation views then show recent work only.

Every process also remembers the name of every key it met: ``dask.utils.key_split`` is an
``lru_cache`` of 100,000 keys, about 20 MiB once full. A loop's keys are never met again,
so :func:`forget_key_names` empties it in the client, the scheduler and the workers
(measured by ``benchmarks/soak.py``: it filled by iteration 6,000-8,000 of the stencil,
which read as growth until then).
"""

from __future__ import annotations

import logging
from typing import Any

import distributed

from . import distributed_internals as internals

logger = logging.getLogger(__name__)


def forget_finished_groups(client: distributed.Client) -> None:
    """On ``client``'s scheduler, :func:`_forget_on_scheduler` (best effort: a scheduler
    that cannot run it keeps its history)."""
    try:
        client.run_on_scheduler(_forget_on_scheduler)
    except Exception as error:  # an older or remote scheduler without our package
        logger.info("scheduler history not pruned: %r", error)


def forget_key_names(client: distributed.Client) -> None:
    """Empty ``dask.utils.key_split``'s cache here and on ``client``'s scheduler and
    workers (best effort, as :func:`forget_finished_groups`)."""
    _forget_key_names()
    try:
        client.run_on_scheduler(_forget_key_names)
        client.run(_forget_key_names)
    except Exception as error:  # a worker lost meanwhile keeps nothing anyway
        logger.info("key name caches not emptied: %r", error)


def _forget_key_names(dask_scheduler: Any = None) -> None:
    internals.clear_key_name_cache()


def _forget_on_scheduler(dask_scheduler: Any) -> None:
    """Drop forgotten task groups from recent computations and from spans. The spans
    themselves stay (a few per 100 iterations): workers report metrics by span id."""
    internals.keep_task_groups_in_history(
        dask_scheduler, internals.live_task_groups(dask_scheduler)
    )
