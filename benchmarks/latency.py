"""Small-array latency: the cost of one tiny operation, ours next to NumPy's.

10,000 dependent ``x += 2 * y`` on 1,024 float64 elements, then one ``float(x.sum())``,
with NumPy, with dask_gpunumeric (tiny arrays evaluated in the client process), with
dask_gpunumeric forced through tasks (``in_process_evaluation=False``: IR, lowering,
auto-persist, dask's threaded scheduler), and with plain dask.array (``--with-dask``; it
slows down quadratically, so it runs at most ``--dask-operations``). Each row prints
wall-clock and CPU microseconds per operation and the ratio to NumPy measured in the same
run; all rows must give the same checksum.

Run from the repository root::

    python -m benchmarks.latency                 # 10,000 operations
    python -m benchmarks.latency --quick         # 1,000 operations
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LENGTH = 1024


@dataclass(frozen=True)
class LatencySpec:
    """One measured row: ``operations`` updates taking ``seconds`` (wall) and ``cpu``."""

    name: str
    operations: int
    seconds: float
    cpu: float
    checksum: float

    @property
    def us_per_op(self) -> float:
        return self.seconds / self.operations * 1e6

    @property
    def cpu_us_per_op(self) -> float:
        return self.cpu / self.operations * 1e6


def repeated_update(np: Any, operations: int) -> float:
    """The measured program: plain NumPy code, run with whichever module ``np`` is."""
    x = np.ones(LENGTH)
    y = np.arange(float(LENGTH))
    for _ in range(operations):
        x += 2 * y
    return float(x.sum())


def _dask_program(operations: int) -> float:
    import dask.array as da

    x = da.ones(LENGTH)
    y = da.arange(float(LENGTH))
    for _ in range(operations):
        x += 2 * y
    return float(x.sum())


def measure(name: str, program: Callable[[int], float], operations: int) -> LatencySpec:
    start, start_cpu = time.perf_counter(), time.process_time()
    checksum = program(operations)
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return LatencySpec(name, operations, seconds, cpu, checksum)


def measure_all(operations: int, dask_operations: int = 0) -> list[LatencySpec]:
    """NumPy first (the reference), then ours in process and through tasks, then dask."""
    import numpy

    import dask_gpunumeric

    specs = [measure("numpy", lambda n: repeated_update(numpy, n), operations)]
    ours = lambda n: repeated_update(dask_gpunumeric, n)  # noqa: E731
    specs.append(measure("dask_gpunumeric", ours, operations))
    with dask_gpunumeric.config.set(in_process_evaluation=False):
        specs.append(measure("dask_gpunumeric via tasks", ours, operations))
    if dask_operations:
        specs.append(measure("dask.array", _dask_program, min(operations, dask_operations)))
    return specs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operations", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="1,000 operations")
    parser.add_argument("--with-dask", action="store_true", help="add plain dask.array")
    parser.add_argument("--dask-operations", type=int, default=1_000)
    args = parser.parse_args()
    operations = 1_000 if args.quick else args.operations
    import dask_gpunumeric

    print(
        f"latency benchmark: {operations} x `x += 2 * y` on {LENGTH} float64, "
        f"backend={dask_gpunumeric.config.get('backend')}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    specs = measure_all(operations, args.dask_operations if args.with_dask else 0)
    reference = specs[0]
    print(f"{'':28} {'ops':>6} {'us/op':>9} {'cpu us/op':>10} {'x numpy':>8}  checksum")
    for spec in specs:
        ratio = spec.us_per_op / reference.us_per_op
        print(
            f"{spec.name:28} {spec.operations:>6} {spec.us_per_op:>9.1f} "
            f"{spec.cpu_us_per_op:>10.1f} {ratio:>8.0f}  {spec.checksum:.6e}",
            flush=True,
        )


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
