"""Reductions: ``sum``, ``mean`` and ``std`` along each axis of an n x n float64 array.

One workload per reduction and axis (``sum(axis=0)``...), on the same input placed
before the clock; the result (n values) is held. The floor reads the array once (``std``
needs two passes in NumPy: the floor is still one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy

from benchmarks.suite.systems import hold, place
from benchmarks.suite.workloads.spec import Workload, close

REDUCTIONS = ("sum", "mean", "std")


def reduction_run(reduction: str, axis: int) -> Callable[[str, int], Callable[[], Any] | None]:
    def make_run(system: str, n: int) -> Callable[[], Any] | None:
        array = place(system, numpy.random.default_rng(4).standard_normal((n, n)))
        return lambda: hold(getattr(array, reduction)(axis=axis))

    return make_run


def reduction_workloads(quick: bool) -> list[Workload]:
    sizes = (256, 512) if quick else (2000, 8000)
    return [
        Workload(
            name=f"{reduction}(axis={axis})",
            sizes=sizes,
            size_label="n (n x n)",
            make_run=reduction_run(reduction, axis),
            floor_bytes=lambda n: float(n * n * 8),
            floor_note="read the array once",
            check=close(rtol=1e-9, atol=1e-9),
            note="dask: auto chunks; dask-tuned: ours' chunks",
        )
        for reduction in REDUCTIONS
        for axis in (0, 1)
    ]
