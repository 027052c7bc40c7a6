"""Small-array latency: the cost of one tiny operation, ours next to NumPy's.

Dependent ``x += 2 * y`` on 1,024 float64 elements, then one ``float(x.sum())``, with NumPy
and with dask_gpunumeric on each scheduler asked for (default: dask's threaded scheduler in
this process, then the embedded cluster a user gets by default):

- ``dask_gpunumeric``: tiny arrays are evaluated in the client process (no task);
- ``via tasks``: forced through the task path (``in_process_evaluation=False``: IR,
  lowering, auto-persist every ``persist-depth`` operations, the scheduler), at most
  ``--task-operations`` operations; on the embedded cluster this is the through-the-cluster
  figure;
- ``dask.array`` (``--with-dask``; it slows down quadratically, so at most
  ``--dask-operations``).

Only the loop is timed: the checksum (a reduction, which goes to the scheduler) is computed
after, and the embedded cluster is started before the first row that uses it (its start-up
time is printed on its own). Each row prints microseconds per operation: wall-clock, CPU of
the process (all threads: the client's event loop and the embedded cluster's nannies too)
and CPU of the thread running the loop (on a loaded machine the wall-clock figure mostly
measures the load: the CPU figures do not), and the wall-clock ratio to NumPy in the same
run; all rows must give NumPy's checksum for their number of operations. The embedded
cluster's scheduler runs in a process of its own: its CPU during each embedded-cluster row
is printed after the table.

Run from the repository root::

    python -m benchmarks.latency                         # 10,000 operations, both schedulers
    python -m benchmarks.latency --schedulers threads    # no cluster
    python -m benchmarks.latency --schedulers distributed --scheduler-address ADDR
    python -m benchmarks.latency --quick                 # 1,000 operations
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

LENGTH = 1024
SCHEDULER_LABELS = {"threads": "threads", "distributed": "embedded cluster"}


@dataclass(frozen=True)
class LatencySpec:
    """One measured row: ``operations`` updates taking ``seconds`` (wall), ``cpu`` (this
    process, every thread: the threaded scheduler's workers, the embedded cluster's
    scheduler and client loop) and ``main_cpu`` (the thread running the loop)."""

    name: str
    operations: int
    seconds: float
    cpu: float
    main_cpu: float
    checksum: float

    @property
    def us_per_op(self) -> float:
        return self.seconds / self.operations * 1e6

    @property
    def cpu_us_per_op(self) -> float:
        return self.cpu / self.operations * 1e6

    @property
    def main_cpu_us_per_op(self) -> float:
        return self.main_cpu / self.operations * 1e6


def repeated_update(np: Any, operations: int) -> float:
    """The measured program: plain NumPy code, run with whichever module ``np`` is."""
    return timed_update(np, operations)[3]


def timed_update(np: Any, operations: int) -> tuple[float, float, float, float]:
    """``repeated_update`` with its loop timed: (wall, process CPU and this thread's CPU
    seconds, checksum)."""
    x = np.ones(LENGTH)
    y = np.arange(float(LENGTH))
    clocks = (time.perf_counter, time.process_time, time.thread_time)
    start = [clock() for clock in clocks]
    for _ in range(operations):
        x += 2 * y
    seconds, cpu, main_cpu = (clock() - t for clock, t in zip(clocks, start, strict=True))
    return seconds, cpu, main_cpu, float(x.sum())


def measure(name: str, np: Any, operations: int) -> LatencySpec:
    return LatencySpec(name, operations, *timed_update(np, operations))


def measure_ours(
    scheduler: str,
    operations: int,
    task_operations: int,
    report: Callable[[str], object] = lambda line: None,
) -> list[LatencySpec]:
    """Ours on ``scheduler``, in process then through tasks."""
    import dask_gpunumeric

    label = SCHEDULER_LABELS.get(scheduler, scheduler)
    with dask_gpunumeric.config.set(scheduler=scheduler):
        specs = [measure_noting_scheduler(f"dask_gpunumeric, {label}", operations, report)]
        with dask_gpunumeric.config.set(in_process_evaluation=False):
            name = f"  via tasks, {label}"
            operations = min(operations, task_operations)
            specs.append(measure_noting_scheduler(name, operations, report))
    return specs


def measure_noting_scheduler(
    name: str, operations: int, report: Callable[[str], object]
) -> LatencySpec:
    """``measure`` ours, reporting the CPU the embedded cluster's scheduler process used."""
    import dask_gpunumeric

    before = scheduler_process_cpu()
    spec = measure(name, dask_gpunumeric, operations)
    after = scheduler_process_cpu()
    if before is not None and after is not None:
        spent = (after - before) / operations * 1e6
        report(f"{name.strip()}: scheduler process CPU {spent:.1f} us per operation")
    return spec


def scheduler_process_cpu() -> float | None:
    """CPU seconds of the embedded cluster's scheduler process so far (``None`` without
    one: threads, a user's cluster)."""
    import psutil

    from dask_gpunumeric._runtime import cluster

    embedded = cluster.embedded_cluster()
    pid = getattr(getattr(embedded, "scheduler", None), "pid", None)
    if pid is None:
        return None
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


def start_cluster() -> float:
    """Seconds to start the embedded cluster (one reduction on it), which later rows reuse."""
    import dask_gpunumeric

    start = time.perf_counter()
    with dask_gpunumeric.config.set(scheduler="distributed"):
        float(dask_gpunumeric.ones(LENGTH).sum())
    return time.perf_counter() - start


def measure_all(
    operations: int,
    task_operations: int = 1_000,
    dask_operations: int = 0,
    schedulers: Sequence[str] = ("threads",),
    report: Callable[[str], object] = lambda line: None,
    notes: list[str] | None = None,
) -> list[LatencySpec]:
    """NumPy first (the reference), then ours per scheduler, then dask.array; lines to
    print after the table go to ``notes``."""
    notes = [] if notes is None else notes
    import numpy

    specs = [measure("numpy", numpy, operations)]
    for scheduler in schedulers:
        if scheduler == "distributed":
            report(f"embedded cluster started in {start_cluster():.1f} s (not in the figures)")
        specs.extend(measure_ours(scheduler, operations, task_operations, notes.append))
    if dask_operations:
        import dask
        import dask.array

        with dask.config.set(scheduler="threads"):
            specs.append(measure("dask.array", dask.array, min(operations, dask_operations)))
    return specs


def print_table(specs: list[LatencySpec]) -> None:
    reference = specs[0]
    print(
        f"{'':34} {'ops':>6} {'us/op':>9} {'cpu us/op':>10} {'main cpu':>9} {'x numpy':>8}"
        "  checksum"
    )
    for spec in specs:
        ratio = spec.us_per_op / reference.us_per_op
        print(
            f"{spec.name:34} {spec.operations:>6} {spec.us_per_op:>9.1f} "
            f"{spec.cpu_us_per_op:>10.1f} {spec.main_cpu_us_per_op:>9.1f} {ratio:>8.0f}  "
            f"{spec.checksum:.6e}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operations", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="1,000 operations")
    parser.add_argument(
        "--schedulers",
        default="threads,distributed",
        help="comma-separated gpunumeric.scheduler values to run ours on "
        "(distributed: the embedded cluster, or the active client)",
    )
    parser.add_argument("--task-operations", type=int, default=1_000)
    parser.add_argument("--with-dask", action="store_true", help="add plain dask.array")
    parser.add_argument("--dask-operations", type=int, default=1_000)
    parser.add_argument(
        "--scheduler-address",
        help="run the distributed rows on this scheduler (a distributed.Client to it) "
        "instead of the embedded cluster, e.g. one started with `dask scheduler` in its "
        "own process",
    )
    args = parser.parse_args()
    if args.scheduler_address:
        import distributed

        distributed.Client(args.scheduler_address, set_as_default=True)
        SCHEDULER_LABELS["distributed"] = f"scheduler {args.scheduler_address}"
    operations = 1_000 if args.quick else args.operations
    import dask_gpunumeric

    print(
        f"latency benchmark: {operations} x `x += 2 * y` on {LENGTH} float64, "
        f"backend={dask_gpunumeric.config.get('backend')}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    notes: list[str] = []
    specs = measure_all(
        operations,
        args.task_operations,
        args.dask_operations if args.with_dask else 0,
        args.schedulers.split(","),
        report=lambda line: print(line, flush=True),
        notes=notes,
    )
    print_table(specs)
    for note in notes:
        print(note)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
