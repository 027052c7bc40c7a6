"""The subpackages against NumPy and plain dask.array, side by side in one run.

For each case: NumPy (one core, in memory), dask.array's own route, and dask_gpunumeric
(numpy chunk backend, dask's default threaded scheduler), each timed the same way (best of
``--repeat``, result computed to host memory). Ratios, not absolute times, are the figures.

* random: ``standard_normal`` of ``n`` values (ours: chunks drawn in parallel streams);
* fft2: of an ``m`` x ``m`` complex array (ours: axis by axis with a rechunk between);
* qr: of a tall-skinny ``rows`` x 32 matrix (ours and dask: tsqr);
* inv: of a stack of ``stack`` 64 x 64 matrices (ours: gathered per batch block).

Run from the repository root::

    python -m benchmarks.subpackages
    python -m benchmarks.subpackages --n 4000000 --m 512 --rows 100000 --stack 256
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dask.array as da
import numpy

import dask_gpunumeric as dnp


@dataclass(frozen=True)
class CaseSpec:
    """One case's best times (seconds) for NumPy, dask.array and dask_gpunumeric."""

    name: str
    numpy_seconds: float
    dask_seconds: float
    ours_seconds: float


def best_time(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def cases(n: int, m: int, rows: int, stack: int) -> dict[str, tuple[Callable[[], Any], ...]]:
    """name -> (NumPy run, dask.array run, our run); each returns host values."""
    host = numpy.random.default_rng(0).standard_normal((m, m)) + 0j
    tall = numpy.random.default_rng(1).standard_normal((rows, 32))
    matrices = numpy.random.default_rng(2).standard_normal((stack, 64, 64)) + 64 * numpy.eye(64)
    row_chunks = (rows // 4, 32)
    return {
        "random": (
            lambda: numpy.random.default_rng(0).standard_normal(n),
            lambda: da.random.default_rng(0).standard_normal(n, chunks=n // 4).compute(),
            lambda: dnp.random.default_rng(0).standard_normal(n, chunks=n // 4).compute(),
        ),
        "fft2": (
            lambda: numpy.fft.fft2(host),
            lambda: da.fft.fft2(da.from_array(host, chunks=(m, m))).compute(),
            lambda: dnp.fft.fft2(dnp.array(host, chunks=(m // 2, m // 2))).compute(),
        ),
        "qr": (
            lambda: numpy.linalg.qr(tall),
            lambda: [x.compute() for x in da.linalg.qr(da.from_array(tall, chunks=row_chunks))],
            lambda: [x.compute() for x in dnp.linalg.qr(dnp.array(tall, chunks=row_chunks))],
        ),
        "inv": (
            lambda: numpy.linalg.inv(matrices),
            lambda: (
                da.from_array(matrices, chunks=(stack // 4, 64, 64))
                .map_blocks(numpy.linalg.inv, dtype=matrices.dtype)
                .compute()
            ),
            lambda: dnp.linalg.inv(dnp.array(matrices, chunks=(stack // 4, 64, 64))).compute(),
        ),
    }


def measure(n: int, m: int, rows: int, stack: int, repeat: int) -> list[CaseSpec]:
    specs = []
    for name, runs in cases(n, m, rows, stack).items():
        seconds = [best_time(run, repeat) for run in runs]
        specs.append(CaseSpec(name, *seconds))
    return specs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=8_000_000)
    parser.add_argument("--m", type=int, default=1024)
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--stack", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    specs = measure(options.n, options.m, options.rows, options.stack, options.repeat)
    print(
        f"{'case':8} {'numpy s':>9} {'dask s':>9} {'ours s':>9} {'ours/numpy':>11} {'ours/dask':>10}"
    )
    for spec in specs:
        print(
            f"{spec.name:8} {spec.numpy_seconds:9.3f} {spec.dask_seconds:9.3f} "
            f"{spec.ours_seconds:9.3f} {spec.ours_seconds / spec.numpy_seconds:11.2f} "
            f"{spec.ours_seconds / spec.dask_seconds:10.2f}"
        )


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
