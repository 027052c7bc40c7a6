"""Small-array latency: ``x += 2 * y`` on 1,024 float64, 10,000 times (issue 9).

The loop of ``benchmarks/latency.py`` (``timed_update``: only the loop is timed, then one
``float(x.sum())``, the checksum compared with NumPy's). ``dask`` is plain dask.array,
whose graph grows with every update: it runs at most ``DASK_OPERATIONS`` and is compared
with NumPy at that count; there is no tuned dask form. Per-operation overhead has no
bandwidth floor (8 KiB arrays live in cache).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy

from benchmarks.latency import timed_update
from benchmarks.suite.systems import module
from benchmarks.suite.timing import Measured
from benchmarks.suite.workloads.spec import Workload, close

DASK_OPERATIONS = 1_000
OPERATIONS = 10_000
QUICK_OPERATIONS = 1_000


def latency_run(system: str, operations: int) -> Callable[[], Any] | None:
    if system == "dask-tuned":
        return None
    if system == "dask":
        operations = min(operations, DASK_OPERATIONS)
    np = module(system)

    def run() -> Measured:
        seconds, _, _, checksum = timed_update(np, operations)
        return Measured(checksum, iterations=operations, seconds=seconds)

    return run


def latency_workload(quick: bool) -> Workload:
    operations = QUICK_OPERATIONS if quick else OPERATIONS
    return Workload(
        name="latency",
        sizes=(1024,),
        size_label="elements",
        make_run=lambda system, size: latency_run(system, operations),
        iterations=lambda size: operations,
        floor_note="per-operation overhead on 8 KiB: no bandwidth floor",
        check=close(rtol=1e-12),
        reference=lambda size, done: timed_update(numpy, done)[3],
        note=f"{operations} operations; dask: at most {DASK_OPERATIONS} (its graph grows)",
    )
