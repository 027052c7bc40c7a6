"""Chunk fusion, side by side in one run: NumPy, dask.array on the same chunks, ours with
fusion off, ours with fusion on, for three float64 expressions on NumPy chunks:

* ``chain``: ``0.2 * (a + b + c + d + e)`` (five inputs);
* ``trig``: ``sin(x)**2 + cos(x)**2 * 0.5 - x / 3``;
* ``black_scholes``: the call price (``exp``, ``log``, ``sqrt``, ``where``; three inputs).

The memory-bandwidth floor of an expression is the bytes of its inputs read once plus its
output written once, over the copy bandwidth this run measures itself (STREAM-style
``copyto`` of a large array, on one thread and on two threads, the better one). Dask runs
its threaded scheduler with one thread per core, on four equal chunks per core; the inputs are in memory as chunks
before the clock starts and results are kept as chunks (``dask.persist``), so no
concatenation is timed. Every figure is the best of ``--repeat`` runs.

Run from the repository root::

    python -m benchmarks.fusion                 # 2e7 elements
    python -m benchmarks.fusion --size 50000000
    python -m benchmarks.fusion --quick         # small, for a smoke run
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy


def long_chain(np: Any, a: Any, b: Any, c: Any, d: Any, e: Any) -> Any:
    return 0.2 * (a + b + c + d + e)


def trigonometric(np: Any, x: Any) -> Any:
    return np.sin(x) ** 2 + np.cos(x) ** 2 * 0.5 - x / 3


def black_scholes(np: Any, price: Any, strike: Any, years: Any) -> Any:
    """The call price, with the usual polynomial cumulative normal distribution."""
    rate, volatility = 0.02, 0.3
    root = np.sqrt(years)
    d1 = (np.log(price / strike) + (rate + 0.5 * volatility * volatility) * years) / (
        volatility * root
    )
    d2 = d1 - volatility * root

    def cnd(d: Any) -> Any:
        k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
        poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978))))
        w = 1.0 - 0.3989422804014327 * np.exp(-0.5 * d * d) * (poly + 1.330274429 * k**5)
        return np.where(d < 0, 1.0 - w, w)

    return price * cnd(d1) - strike * np.exp(-rate * years) * cnd(d2)


EXPRESSIONS: dict[str, tuple[Callable[..., Any], int]] = {
    "chain": (long_chain, 5),
    "trig": (trigonometric, 1),
    "black_scholes": (black_scholes, 3),
}
BLOCKS_PER_CORE = 4  # equal chunks, a small multiple of the cores (DESIGN.md §4)


@dataclass(frozen=True)
class FusionTimes:
    """Seconds for one expression, and its bandwidth floor."""

    expression: str
    numpy: float
    dask: float
    fusion_off: float
    fusion_on: float
    floor: float


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def copy_bandwidth(size: int, repeat: int) -> float:
    """Bytes moved per second (read + write) by a large copy, 1 or 2 threads, the best."""
    source = numpy.random.default_rng(1).random(size)
    target = numpy.empty_like(source)
    halves = [slice(0, size // 2), slice(size // 2, size)]

    def two_threads() -> None:
        threads = [
            threading.Thread(target=numpy.copyto, args=(target[h], source[h])) for h in halves
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    best = min(best_of(repeat, lambda: numpy.copyto(target, source)), best_of(repeat, two_threads))
    return 2 * source.nbytes / best


def measure(name: str, size: int, repeat: int, bandwidth: float) -> FusionTimes:
    import dask
    import dask.array as da

    import dask_gpunumeric as dnp

    expression, n_inputs = EXPRESSIONS[name]
    generator = numpy.random.default_rng(0)
    hosts = [generator.uniform(1.0, 100.0, size) for _ in range(n_inputs)]
    chunks = (chunk_elements(size),)
    with numpy.errstate(all="ignore"):
        numpy_time = best_of(repeat, lambda: expression(numpy, *hosts))
    with dask.config.set(scheduler="threads", num_workers=os.cpu_count() or 2):
        plain = dask.persist(*(da.from_array(h, chunks=chunks) for h in hosts))
        dask_time = best_of(repeat, lambda: dask.persist(expression(da, *plain)))
        ours = [dnp.array(h, chunks=chunks).persist() for h in hosts]
        timings = {}
        for fusion in (False, True):
            with dnp.config.set(fusion=fusion):
                timings[fusion] = best_of(
                    repeat, lambda: dask.persist(expression(dnp, *ours).to_dask())
                )
    floor = (n_inputs + 1) * 8 * size / bandwidth
    return FusionTimes(name, numpy_time, dask_time, timings[False], timings[True], floor)


def chunk_elements(size: int) -> int:
    return -(-size // (BLOCKS_PER_CORE * (os.cpu_count() or 2)))


def report(results: list[FusionTimes], size: int, bandwidth: float) -> str:
    lines = [
        f"size {size:.3g} float64, chunks of {chunk_elements(size)} elements, "
        f"{os.cpu_count()} cores; copy bandwidth {bandwidth / 1e9:.2f} GB/s",
        f"{'expression':<14} {'numpy':>8} {'dask':>8} {'off':>8} {'on':>8} {'floor':>8}"
        f" {'on/floor':>9} {'numpy/on':>9} {'off/on':>7}",
    ]
    for r in results:
        lines.append(
            f"{r.expression:<14} {r.numpy:8.3f} {r.dask:8.3f} {r.fusion_off:8.3f} "
            f"{r.fusion_on:8.3f} {r.floor:8.3f} {r.fusion_on / r.floor:9.2f} "
            f"{r.numpy / r.fusion_on:9.2f} {r.fusion_off / r.fusion_on:7.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[FusionTimes]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=float, default=2e7, help="elements per array")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (best kept)")
    parser.add_argument("--quick", action="store_true", help="1e5 elements, one run each")
    args = parser.parse_args(argv)
    size, repeat = (100_000, 1) if args.quick else (int(args.size), args.repeat)
    bandwidth = copy_bandwidth(max(size, 1 << 24), repeat)
    results = [measure(name, size, repeat, bandwidth) for name in EXPRESSIONS]
    print(report(results, size, bandwidth))
    return results


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
