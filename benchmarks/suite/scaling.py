"""Worker scaling of the stencil (ours, halo on) on LocalClusters of 1, 2 and 4 workers.

Each cluster runs its workers as processes with one thread each, and BLAS, OpenMP and
numexpr pinned to one thread (``THREAD_ENV``), so a worker uses one core. Strong scaling
keeps the grid (N = ``strong_n``): efficiency ``T(1) / (w T(w))``; weak scaling keeps the
work per worker (N = ``weak_n * sqrt(w)``): efficiency ``T(1) / T(w)``; T is time per
iteration. On a machine with fewer cores than workers (4 workers on 2 cores) the row is
oversubscribed and says so: its efficiency measures the sharing, not the library. The
peak RSS of each worker is sampled by a thread in the worker while the runs go.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy
import psutil

from benchmarks.halo import hold
from benchmarks.suite.systems import to_host
from benchmarks.suite.timing import sampled_rss, timed_repeats
from examples.stencil import stencil

WORKER_COUNTS = (1, 2, 4)
THREAD_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "NUMEXPR_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}  # fmt: skip


@dataclass(frozen=True)
class ScalingRow:
    """The stencil on ``workers`` workers at grid interior ``n``."""

    kind: str  # "strong" or "weak"
    workers: int
    n: int
    iterations: int
    seconds_per_iteration: float
    efficiency: float
    correct: bool
    client_peak_rss_bytes: int
    worker_peak_rss_bytes: int  # the largest worker's
    oversubscribed: bool


def _watch_rss(dask_worker: Any) -> None:
    """Start (once per worker) a thread keeping the worker's peak RSS; reset the peak."""
    process = psutil.Process()
    dask_worker.suite_peak_rss = process.memory_info().rss
    if getattr(dask_worker, "suite_watcher", None) is None:

        def watch() -> None:
            while dask_worker.status.name not in ("closing", "closed"):
                rss = process.memory_info().rss
                dask_worker.suite_peak_rss = max(dask_worker.suite_peak_rss, rss)
                threading.Event().wait(0.01)

        dask_worker.suite_watcher = threading.Thread(target=watch, daemon=True)
        dask_worker.suite_watcher.start()


def _peak_rss(dask_worker: Any) -> int:
    return int(dask_worker.suite_peak_rss)


def on_cluster(workers: int, sizes: list[int], iterations: int) -> dict[int, tuple[Any, ...]]:
    """The stencil at each of ``sizes`` on a fresh cluster of ``workers``: per size, its
    time per iteration, grid on the host, client and largest-worker peak RSS."""
    from distributed import Client, LocalCluster

    import dask_gpunumeric

    measured = {}
    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                     dashboard_address=":0", env=THREAD_ENV) as cluster,
        Client(cluster) as client,
        dask_gpunumeric.config.set(scheduler="distributed"),
    ):  # fmt: skip
        for n in sizes:
            client.run(_watch_rss)

            def run(n: int = n) -> Any:
                return hold(stencil(dask_gpunumeric, n, iterations).to_dask())

            with sampled_rss() as rss:
                timing = timed_repeats(run, iterations, repeats=1, budget=float("inf"))
            grid = to_host(timing.result)
            worker_peak = max(client.run(_peak_rss).values())
            measured[n] = (timing.median / iterations, grid, rss.peak, worker_peak)
    return measured


def scaling(
    weak_n: int, strong_n: int, iterations: int, show: Callable[[ScalingRow], None]
) -> list[ScalingRow]:
    """Strong and weak scaling rows for 1, 2 and 4 workers, each checked against NumPy."""
    cores = os.cpu_count() or 1
    weak = {w: int(round(weak_n * math.sqrt(w))) for w in WORKER_COUNTS}
    runs = {w: on_cluster(w, sorted({weak[w], strong_n}), iterations) for w in WORKER_COUNTS}
    expected = {n: stencil(numpy, n, iterations) for n in sorted({*weak.values(), strong_n})}
    rows = []
    for kind in ("strong", "weak"):
        for w in WORKER_COUNTS:
            n = strong_n if kind == "strong" else weak[w]
            seconds, grid, client_peak, worker_peak = runs[w][n]
            base = runs[1][strong_n if kind == "strong" else weak[1]][0]
            efficiency = base / (w * seconds) if kind == "strong" else base / seconds
            correct = bool(numpy.allclose(grid, expected[n], rtol=1e-9, atol=1e-9))
            row = ScalingRow(kind, w, n, iterations, seconds, efficiency, correct,
                             client_peak, worker_peak, w > cores)  # fmt: skip
            rows.append(row)
            show(row)
    return rows
