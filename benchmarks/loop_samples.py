"""What the long-loop benchmarks sample, and the scheduler their loops run on.

Shared by ``benchmarks/long_loops.py`` and ``benchmarks/soak.py``: the client's RSS, the
scheduler's (the embedded cluster's scheduler runs in a process of its own), the workers'
(each worker's, summed), the task records and spans the scheduler holds, and the client a
loop computes with (the embedded cluster, or none: dask's threaded scheduler).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psutil

MiB = 2**20


def client_rss() -> int:
    """The resident set size of this process (the client's; the embedded cluster's
    scheduler and workers run in processes of their own)."""
    return int(psutil.Process().memory_info().rss)


def scheduler_rss(client: Any) -> int | None:
    """The scheduler process's RSS, or ``None`` without a distributed client."""
    if client is None:
        return None
    return int(client.run_on_scheduler(lambda: psutil.Process().memory_info().rss))


def worker_rss_each(client: Any) -> dict[str, int] | None:
    """Each worker's RSS by address, or ``None`` without a distributed client."""
    if client is None:
        return None
    return dict(client.run(lambda: psutil.Process().memory_info().rss))


def worker_rss(client: Any) -> int | None:
    """The workers' RSS summed, or ``None`` without a distributed client."""
    each = worker_rss_each(client)
    return None if each is None else sum(each.values())


def scheduler_tasks(client: Any) -> int | None:
    """How many task records the scheduler holds (lineage included), or ``None``."""
    if client is None:
        return None
    return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))


def scheduler_spans(client: Any) -> tuple[int, int] | None:
    """How many spans the scheduler's spans extension holds and how many task groups they
    name (distributed keeps both for the scheduler's lifetime), or ``None`` without a
    client or the extension."""
    if client is None:
        return None

    def count(dask_scheduler: Any) -> tuple[int, int] | None:
        spans = dask_scheduler.extensions.get("spans")
        if spans is None:
            return None
        return len(spans.spans), sum(len(s.groups) for s in spans.spans.values())

    found = client.run_on_scheduler(count)
    return None if found is None else (int(found[0]), int(found[1]))


@contextlib.contextmanager
def loop_client(cluster: bool, workers: int | None = None) -> Iterator[Any]:
    """Run our computations on the embedded cluster (``cluster``; ``workers`` workers,
    ``None``: the default, one per core) and yield its client, else on dask's threaded
    scheduler in this process and yield ``None``."""
    import dask

    settings: dict[str, object] = {"gpunumeric.scheduler": "distributed" if cluster else "threads"}
    if workers is not None:
        settings["gpunumeric.cluster.workers"] = workers
    with dask.config.set(settings):
        if not cluster:
            yield None
            return
        from dask_gpunumeric._runtime.cluster import client_for_computation

        yield client_for_computation()
