"""What the chunk-wise fallback saves over gathering, side by side in one run.

``numpy.sinc`` is not implemented natively; its fallback runs block by block on the
workers. The same call forced through the gathering path (every block computed to one
place, NumPy run there, the result split again) and plain NumPy on a host copy are timed
on the same array, and reported as ratios to plain NumPy. Each figure is the best of
``--repeat`` runs of ``float(sum(sinc(x)))``.

Run from the repository root::

    python -m benchmarks.fallback                   # 4,000,000 float64, 8 blocks
    python -m benchmarks.fallback --elements 1000000 --blocks 4
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def chunkwise_and_gathered(x: Any) -> tuple[Any, Any]:
    """``sinc(x)`` through the chunk-wise fallback, and through the gathering path."""
    import dask_gpunumeric as dnp
    from dask_gpunumeric._api.fallback import fallback_for

    sinc = fallback_for("sinc")  # the fallback, even once sinc is native
    with dnp.config.set(fallback="silent", fallback_max_bytes=2**40):
        return sinc(x), sinc._gathering_call((x,), {})


def measure(elements: int, blocks: int, repeat: int) -> dict[str, float]:
    import dask_gpunumeric as dnp
    from dask_gpunumeric._api.fallback import fallback_for

    sinc = fallback_for("sinc")

    host = numpy.linspace(-50.0, 50.0, elements)
    x = dnp.asarray(host, chunks=(elements // blocks,)).persist()

    def chunkwise() -> float:
        with dnp.config.set(fallback="silent"):
            return float(dnp.sum(sinc(x)))

    def gathered() -> float:
        with dnp.config.set(fallback="silent", fallback_max_bytes=2**40):
            return float(dnp.sum(sinc._gathering_call((x,), {})))

    def plain_numpy() -> float:
        return float(numpy.sum(numpy.sinc(x.compute())))

    return {
        "numpy on a host copy": best_of(repeat, plain_numpy),
        "chunk-wise fallback": best_of(repeat, chunkwise),
        "gathering fallback": best_of(repeat, gathered),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elements", type=int, default=4_000_000)
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    seconds = measure(args.elements, args.blocks, args.repeat)
    baseline = seconds["numpy on a host copy"]
    print(f"sum(sinc(x)), {args.elements} float64 in {args.blocks} blocks, best of {args.repeat}:")
    for name, value in seconds.items():
        print(f"  {name:22s} {value:.3f} s  ({value / baseline:.2f} x numpy on a host copy)")


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
