"""Data-dependent selection: ``flatnonzero`` of a chunked mask, ours against dask.array's
own route (``da.flatnonzero`` has unknown chunk sizes; ``compute_chunk_sizes()`` computes
them, then the positions are computed) and NumPy on the host, measured in one run.

Ours persists the mask, computes only the per-block counts to the client, then computes
the positions block by block (no rechunk, sizes known before the positions exist).

Run from the repository root::

    python -m benchmarks.selection               # 4M elements, 8 blocks
    python -m benchmarks.selection --size 1000000 --blocks 4 --repeat 5
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy


def best_of(repeat: int, function: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=4_000_000)
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import dask
    import dask.array as da

    import dask_gpunumeric as dnp

    host = numpy.random.default_rng(0).random(args.size)
    chunk = -(-args.size // args.blocks)
    ours = dnp.array(host, chunks=chunk)
    theirs = da.from_array(host, chunks=chunk)
    expected = numpy.flatnonzero(host > 0.5)

    def ours_route() -> numpy.ndarray:
        return dnp.flatnonzero(ours > 0.5).compute()

    def dask_route() -> numpy.ndarray:
        positions = da.flatnonzero(theirs > 0.5)
        positions.compute_chunk_sizes()
        return positions.compute()

    assert numpy.array_equal(ours_route(), expected)
    assert numpy.array_equal(dask_route(), expected)
    with dask.config.set(scheduler="threads"):
        seconds = {
            "numpy": best_of(args.repeat, lambda: numpy.flatnonzero(host > 0.5)),
            "dask_gpunumeric": best_of(args.repeat, ours_route),
            "dask.array": best_of(args.repeat, dask_route),
        }
    print(f"flatnonzero of {args.size:,} elements in {args.blocks} blocks (best of {args.repeat})")
    for name, value in seconds.items():
        ratio = value / seconds["dask.array"]
        print(f"  {name:16s} {value * 1e3:9.1f} ms   {ratio:5.2f}x dask.array")


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
