"""Side-by-side timings of the order statistics, histogram and set routines.

For each routine, one run of NumPy (one core, in memory), dask_gpunumeric and plain
dask.array on the same data, as ratios to NumPy measured in the same process. What is
compared, for an ``(rows, cols)`` float64 matrix chunked by rows:

* ``median(axis=1)``: ours gathers nothing (each row is whole in its chunk); dask.array's
  ``median`` does the same;
* ``sort(axis=1)``: dask.array has no sort; its column is ``map_blocks(numpy.sort)``;
* ``quantile(axis=None)``: ours is exact (one gathered lane); dask.array's ``percentile``
  is approximate (per-chunk percentiles merged), shown for reference only;
* ``histogram(bins=50, range)`` and ``unique`` of small integers.

Run from the repository root (CPU, the numpy chunk backend; never a GPU figure)::

    python -m benchmarks.math_routines                 # 4000 x 1000, 8 row chunks
    python -m benchmarks.math_routines --rows 1000 --cols 200 --repeat 1
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dask
import dask.array as da
import numpy

import dask_gpunumeric as dgn


@dataclass(frozen=True)
class RoutineTiming:
    """Best-of-``repeat`` seconds of one routine on NumPy, ours and dask.array."""

    name: str
    numpy_seconds: float
    ours_seconds: float
    dask_seconds: float | None

    def row(self) -> str:
        dask_ratio = (
            "-" if self.dask_seconds is None else f"{self.dask_seconds / self.numpy_seconds:6.2f}"
        )
        return (
            f"{self.name:<22} numpy {self.numpy_seconds * 1e3:8.1f} ms   "
            f"ours/numpy {self.ours_seconds / self.numpy_seconds:6.2f}   dask/numpy {dask_ratio}"
        )


def _best(function: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def routines(host: numpy.ndarray, ints: numpy.ndarray, blocks: int) -> dict[str, tuple[Any, ...]]:
    """name -> (NumPy call, our call, dask.array call or None), each computing to host;
    the matrix and the integers are both cut into ``blocks`` chunks."""
    rows, flat = -(-host.shape[0] // blocks), -(-ints.size // blocks)
    ours, ours_ints = dgn.asarray(host, chunks=(rows, -1)), dgn.asarray(ints, chunks=flat)
    ours, ours_ints = ours.persist(), ours_ints.persist()
    lazy, lazy_ints = da.from_array(host, chunks=(rows, -1)), da.from_array(ints, chunks=flat)
    lazy, lazy_ints = dask.persist(lazy, lazy_ints)
    return {
        "median(axis=1)": (
            lambda: numpy.median(host, axis=1),
            lambda: dgn.median(ours, axis=1).compute(),
            lambda: da.median(lazy, axis=1).compute(),
        ),
        "sort(axis=1)": (
            lambda: numpy.sort(host, axis=1),
            lambda: dgn.sort(ours, axis=1).compute(),
            lambda: lazy.map_blocks(numpy.sort, axis=1).compute(),
        ),
        "quantile(axis=None)": (
            lambda: numpy.quantile(host, 0.3),
            lambda: dgn.quantile(ours, 0.3).compute(),
            lambda: da.percentile(lazy.ravel(), 30).compute(),
        ),
        "histogram(50 bins)": (
            lambda: numpy.histogram(host, 50, range=(-4, 4)),
            lambda: dgn.histogram(ours, 50, range=(-4, 4))[0].compute(),
            lambda: da.histogram(lazy, 50, range=(-4, 4))[0].compute(),
        ),
        "unique(ints)": (
            lambda: numpy.unique(ints),
            lambda: dgn.unique(ours_ints).compute(),
            lambda: da.unique(lazy_ints).compute(),
        ),
    }


def measure(rows: int, cols: int, row_chunks: int, repeat: int) -> list[RoutineTiming]:
    rng = numpy.random.default_rng(0)
    host = rng.standard_normal((rows, cols))
    ints = rng.integers(0, 1000, rows * cols)
    timings = []
    for name, (numpy_call, ours_call, dask_call) in routines(host, ints, row_chunks).items():
        timings.append(
            RoutineTiming(
                name,
                _best(numpy_call, repeat),
                _best(ours_call, repeat),
                None if dask_call is None else _best(dask_call, repeat),
            )
        )
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4000)
    parser.add_argument("--cols", type=int, default=1000)
    parser.add_argument("--row-chunks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.rows} x {args.cols} float64, {args.row_chunks} row chunks, best of {args.repeat}")
    for timing in measure(args.rows, args.cols, args.row_chunks, args.repeat):
        print(timing.row())


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
