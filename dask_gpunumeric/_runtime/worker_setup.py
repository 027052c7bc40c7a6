"""The embedded cluster's workers' preload: importing it imports the package (its chunk
types registered before the first task arrives), and ``dask_setup`` then freezes what
the start made (``gc.freeze()``).

A worker's interpreter holds some 135,000 objects once the package and distributed are
imported: modules, classes, functions, kept for its life. Python's full collection walks
every one of them, about 100 ms on this project's 2-core machines, in the middle of
whatever task is running (``benchmarks``: Monte Carlo pi 1e8 on the embedded cluster).
Frozen, they are left out of every later collection; the objects the worker makes while
it runs are collected as before. The scheduler's process does the same
(``scheduler_process``).
"""

from __future__ import annotations

import gc
from typing import Any


def dask_setup(worker: Any) -> None:
    """distributed's preload hook, called as the worker starts."""
    gc.freeze()
