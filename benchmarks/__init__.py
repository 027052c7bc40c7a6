"""Measurements, not behaviour: run each as ``python -m benchmarks.<name>`` from the repo root,
or all of issue 9's workloads side by side as ``python -m benchmarks run`` (``suite/``)."""

from __future__ import annotations

import os
from collections.abc import Callable


def run_threaded_unless_told(main: Callable[[], object]) -> None:
    """Run a benchmark's ``main`` with our computations on dask's threaded scheduler in this
    process, as the dask.array and NumPy runs it is compared with, unless
    ``DASK_GPUNUMERIC__SCHEDULER`` names another (``distributed``: the embedded cluster)."""
    import dask_gpunumeric

    scheduler = os.environ.get("DASK_GPUNUMERIC__SCHEDULER", "threads")
    with dask_gpunumeric.config.set(scheduler=scheduler):
        main()
