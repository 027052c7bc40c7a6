"""The seed stencil of ``examples/stencil.py`` (issue 9: N = 1000, 4000, 10000; I = 50).

The systems are ``benchmarks/halo.py``'s: ``dask`` is its ``dask-slices`` (the slice
program re-assembled with ``da.block`` and persisted every iteration; quadratic, so it
stops after ``dask_budget`` seconds and is checked against NumPy at the iterations it
did), ``dask-tuned`` its ``map_overlap-10`` (a depth-10 halo per 10 sweeps). At N=10000
the suite runs 10 iterations, not 50, to stay within its time budget (said in the
output). One iteration's floor reads the grid once and writes the interior once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy

from benchmarks import halo
from benchmarks.suite.systems import OURS, hold, module, ours_chunks
from benchmarks.suite.timing import Measured
from benchmarks.suite.workloads.spec import Workload, close
from examples.stencil import stencil

FULL_SIZES = (1000, 4000, 10000)
QUICK_SIZES = (126, 254)
LARGE = 10000  # from this size on, FEW_ITERATIONS
FEW_ITERATIONS = 10


def make_run(system: str, n: int, iterations: int, dask_budget: float) -> Callable[[], Any] | None:
    if system == "numpy" or system == "cupy" or system in OURS:
        np = module(system)
        return lambda: hold(stencil(np, n, iterations))
    chunks = ours_chunks((n + 2, n + 2))
    if system == "dask":
        return lambda: Measured(*halo.dask_slices(n, iterations, chunks, dask_budget))
    if system == "dask-tuned":
        return lambda: halo.dask_map_overlap(n, iterations, chunks, halo.TUNED_DEPTH)
    return None


def stencil_workload(quick: bool, dask_budget: float) -> Workload:
    sizes = QUICK_SIZES if quick else FULL_SIZES
    planned = 10 if quick else 50

    def iterations(n: int) -> int:
        return FEW_ITERATIONS if n >= LARGE else planned

    return Workload(
        name="stencil",
        sizes=sizes,
        size_label="N (grid (N+2)^2)",
        make_run=lambda system, n: make_run(system, n, iterations(n), dask_budget),
        iterations=iterations,
        floor_bytes=lambda n: float(((n + 2) ** 2 + n**2) * 8),
        floor_note="read the grid once, write the interior once, per iteration",
        check=close(rtol=1e-9, atol=1e-9),
        reference=lambda n, done: stencil(numpy, n, done),
        note=f"I={planned}, {FEW_ITERATIONS} at N>={LARGE}; dask: slices + da.block, "
        f"stops after {dask_budget:g} s; dask-tuned: map_overlap depth {halo.TUNED_DEPTH}",
    )
