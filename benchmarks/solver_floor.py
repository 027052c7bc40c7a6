"""How fast dense CG on a matrix persisted on the workers could be on this machine, beside
how fast it is (issue 27's "CG n=10,000 persisted <= 1.0x NumPy").

Each CG iteration reads the whole matrix once (``a @ p``) and then checks convergence in
Python (``if float(np.sqrt(rsnew)) < tol``): a round trip to the cluster per iteration.
So no implementation on the cluster can take less, per iteration, than the matrix's bytes
over the bandwidth at which the workers read it, all of them at once, plus one bare round
trip. Measured here side by side, on the embedded cluster (one single-threaded worker per
core):

- ``numpy``: the program of the user-programs family (``user_programs.dense_cg``) with
  NumPy, its ``np.array(host)`` included, per iteration;
- ``numpy matvec``: ``a @ p`` alone in this process (NumPy's BLAS threads);
- ``workers matvec``: every worker at the same time multiplying a matrix of its share of
  the rows (made on the worker) by a vector, for as long as the slowest: the bandwidth
  the cluster reads at when all of it reads;
- ``round trip``: a bare ``client.submit(...).result()`` (``check_overhead.round_trip``);
- ``floor``: the matrix's bytes over the workers' bandwidth, plus the round trip;
- ``ours``: the user-programs lane ``ours-persisted`` (the matrix persisted before the
  clock), per iteration, and the busiest worker's task time per iteration (the rest:
  the round trip, the client's work, scheduling and waiting between tasks).

Where the workers' combined bandwidth is no more than one core's (memory shared by the
cores), ``floor`` is above NumPy's own time and the 1.0x target cannot be met on the
machine; the ratios say by how much. Run from the repository root::

    python -m benchmarks.solver_floor                 # n = 10,000, 20 iterations
    python -m benchmarks.solver_floor --n 4000 --iterations 10
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy

from benchmarks.suite.check_overhead import round_trip
from benchmarks.suite.systems import hold, on_the_workers, to_host
from benchmarks.suite.workloads.linear_algebra import spd_system
from benchmarks.suite.workloads.user_programs import dense_cg


@dataclass(frozen=True)
class SolverFloor:
    """Seconds per CG iteration (``numpy``, ``floor``, ``ours``, ``ours_tasks``: the
    busiest worker's task time), the bandwidths in bytes per second, the round trip in
    seconds, and whether ours' solution equalled NumPy's (to 1e-9, relative)."""

    n: int
    iterations: int
    workers: int
    numpy: float
    numpy_matvec_bandwidth: float
    workers_matvec_bandwidth: float
    round_trip: float
    floor: float
    ours: float
    ours_tasks: float
    correct: bool

    def lines(self) -> list[str]:
        gb = 1e9
        return [
            f"dense CG, n = {self.n:,} ({8 * self.n * self.n / gb:.2f} GB), "
            f"{self.iterations} iterations, {self.workers} workers; per iteration:",
            f"  numpy           {self.numpy * 1e3:8.1f} ms",
            f"  floor           {self.floor * 1e3:8.1f} ms   {self.floor / self.numpy:5.2f}x numpy"
            f"  (matrix at {self.workers_matvec_bandwidth / gb:.1f} GB/s + round trip "
            f"{self.round_trip * 1e3:.2f} ms)",
            f"  ours-persisted  {self.ours * 1e3:8.1f} ms   {self.ours / self.numpy:5.2f}x numpy"
            f"  {self.ours / self.floor:5.2f}x floor  (busiest worker's tasks "
            f"{self.ours_tasks * 1e3:.1f} ms)",
            f"  matvec bandwidth: numpy {self.numpy_matvec_bandwidth / gb:.1f} GB/s, "
            f"all workers at once {self.workers_matvec_bandwidth / gb:.1f} GB/s",
            f"  ours equal to numpy: {self.correct}",
        ]


def best_matvec(m: numpy.ndarray, v: numpy.ndarray, repeats: int) -> float:
    """The best of ``repeats`` timed ``m @ v`` (after one that touches the pages)."""
    return min(timed_matvecs(m, v, repeats))


def timed_matvecs(m: numpy.ndarray, v: numpy.ndarray, repeats: int) -> list[float]:
    """The seconds of each of ``repeats`` timed ``m @ v`` (after one that touches the
    pages)."""
    m @ v
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        m @ v
        seconds.append(time.perf_counter() - start)
    return seconds


def matvecs_on_a_worker(rows: int, columns: int, repeats: int) -> list[float]:
    """``timed_matvecs`` of a random ``rows x columns`` float64 matrix made here (run on
    each worker by ``Client.run``)."""
    generator = numpy.random.default_rng(rows)
    return timed_matvecs(generator.random((rows, columns)), generator.random(columns), repeats)


def workers_bandwidth(client: Any, n: int, repeats: int) -> float:
    """Bytes per second at which all of ``client``'s workers, at once, read an ``n x n``
    matrix cut in row shares (each multiplies its share by a vector, ``repeats`` times
    in step with the others): the best repeat's slowest worker. A worker's own best
    would be one the others were not running beside (two matrix-vector products on two
    cores of this machine each run at about 60% of one alone)."""
    workers = list(client.scheduler_info(n_workers=-1)["workers"])
    rows = -(-n // len(workers))
    seconds = client.run(matvecs_on_a_worker, rows, n, repeats)
    slowest = [max(each) for each in zip(*seconds.values(), strict=True)]
    return 8 * rows * n * len(workers) / min(slowest)


def ours_per_iteration(client: Any, a: numpy.ndarray, b: numpy.ndarray, iterations: int,
                       repeats: int) -> tuple[float, float, numpy.ndarray]:  # fmt: skip
    """The best run's seconds per iteration of ``dense_cg`` on inputs persisted on the
    workers (``ours-persisted``), its busiest worker's task seconds per iteration, and its
    solution."""
    import distributed

    import dask_gpunumeric

    best: tuple[float, float, numpy.ndarray] | None = None
    for _ in range(repeats):
        inputs = on_the_workers((a, b))
        with distributed.get_task_stream(client) as stream:
            start = time.perf_counter()
            x = hold(dense_cg(dask_gpunumeric, *inputs, iterations))
            seconds = time.perf_counter() - start
        busy: dict[str, float] = defaultdict(float)
        for task in stream.data:
            for part in task["startstops"]:
                if part["action"] == "compute":
                    busy[task["worker"]] += part["stop"] - part["start"]
        run = (seconds / iterations, max(busy.values(), default=0.0) / iterations, to_host(x))
        if best is None or run[0] < best[0]:
            best = run
    assert best is not None
    return best


def measure(n: int, iterations: int, repeats: int) -> SolverFloor:
    """Every figure of the module docstring, in this run, on the embedded cluster."""
    import dask_gpunumeric
    from dask_gpunumeric._runtime.cluster import client_for_computation

    a, b = spd_system(n)
    numpy_runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        expected = dense_cg(numpy, a, b, iterations)
        numpy_runs.append(time.perf_counter() - start)
    p = numpy.random.default_rng(1).random(n)
    numpy_matvec = best_matvec(a, p, repeats)
    with dask_gpunumeric.config.set(scheduler="distributed"):
        client = client_for_computation()
        workers = len(client.scheduler_info(n_workers=-1)["workers"])
        bandwidth = workers_bandwidth(client, n, repeats)
        trip = statistics.median(round_trip(max(repeats, 5)))
        ours, tasks, solution = ours_per_iteration(client, a, b, iterations, repeats)
    return SolverFloor(
        n=n,
        iterations=iterations,
        workers=workers,
        numpy=min(numpy_runs) / iterations,
        numpy_matvec_bandwidth=a.nbytes / numpy_matvec,
        workers_matvec_bandwidth=bandwidth,
        round_trip=trip,
        floor=a.nbytes / bandwidth + trip,
        ours=ours,
        ours_tasks=tasks,
        correct=bool(numpy.allclose(solution, expected, rtol=1e-9, atol=1e-12)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="the matrix is n x n")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each; the best")
    args = parser.parse_args()
    for line in measure(args.n, args.iterations, args.repeats).lines():
        print(line)


if __name__ == "__main__":
    main()
