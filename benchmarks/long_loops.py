"""Long loops stay flat: per-iteration time and memory at iterations 100, 1,000, 10,000.

The heat-diffusion stencil of ``examples/stencil.py`` (small grid, several blocks) for
10,000 iterations and a CG loop (``x = x + alpha * p``..., one ``if sqrt(rsnew) < tol``
materialization per iteration, restarted from zero when converged so every iteration does
the same work) for 2,000. At each checkpoint the loop synchronizes (reads one element) and
prints the time per iteration over the window since the previous checkpoint (wall-clock,
and the client process's CPU time, steadier on a shared machine), the client's
current and peak RSS, and with ``--cluster`` the workers' RSS and the number of task
records the scheduler holds (the embedded cluster's scheduler runs in a process of its
own: its RSS is not in the client's; ``benchmarks/soak.py`` samples it). The policy keeping them flat is ``Store``'s auto-persist
(``gpunumeric.persist-depth``) and materialization persisting live stores; on a
distributed client persists are ``client.persist`` (asynchronous) and every
``gpunumeric.checkpoint-every``-th cuts the lineage the scheduler keeps
(``_runtime/lineage.py``).

Run from the repository root::

    python -m benchmarks.long_loops                  # threaded scheduler, in process
    python -m benchmarks.long_loops --cluster        # the embedded cluster, 2 workers
    python -m benchmarks.long_loops --quick          # checkpoints 10, 100, 1,000 / 10, 100, 200
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from benchmarks.loop_samples import MiB, client_rss, loop_client, scheduler_tasks, worker_rss

STENCIL_CHECKPOINTS = (100, 1_000, 10_000)
CG_CHECKPOINTS = (100, 1_000, 2_000)


@dataclass(frozen=True)
class LoopSample:
    """The state of a loop at iteration ``iteration``."""

    iteration: int
    seconds_per_iteration: float  # over the window since the previous checkpoint
    cpu_per_iteration: float  # the client process's CPU time, same window
    client_rss: int
    client_peak_rss: int
    worker_rss: int | None  # summed over the workers, with a distributed client
    scheduler_tasks: int | None  # task records the scheduler holds (lineage included)


def _sample(
    iteration: int, window_start: tuple[float, float], window: int, client: Any
) -> LoopSample:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    return LoopSample(
        iteration,
        (time.perf_counter() - window_start[0]) / window,
        (time.process_time() - window_start[1]) / window,
        client_rss(),
        peak,
        worker_rss(client),
        scheduler_tasks(client),
    )


def stencil_grid(np: Any, n: int) -> tuple[Any, Iterator[None]]:
    """The grid of ``examples/stencil.py`` (interior ``n`` x ``n``) and its stencil, one
    iteration per ``next``."""
    grid = np.zeros((n + 2, n + 2))
    grid[:, 0] = -273.15
    grid[:, -1] = -273.15
    grid[-1, :] = -273.15
    grid[0, :] = 40.0
    center, north, south = grid[1:-1, 1:-1], grid[0:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, 0:-2]

    def steps() -> Iterator[None]:
        while True:
            center[:] = 0.2 * (center + north + east + west + south)
            yield

    return grid, steps()


def stencil_steps(np: Any, n: int) -> tuple[Iterator[None], Callable[[], float]]:
    """The stencil of ``examples/stencil.py`` one iteration per ``next``, and a reader of
    one grid element (the synchronization)."""
    grid, steps = stencil_grid(np, n)
    return steps, lambda: float(grid[n // 2, n // 2])


def cg_steps(np: Any, n: int, tol: float = 1e-10) -> tuple[Iterator[None], Callable[[], float]]:
    """Conjugate gradient as ``examples/conjugate_gradient.py`` writes it, restarted from
    zero when it converges, one iteration per ``next``; the reader gives ``x[0]``."""
    import numpy

    from examples.conjugate_gradient import make_system

    a, b = make_system(np, n)
    state: dict[str, Any] = {}

    def restart() -> None:
        state["x"] = np.zeros_like(b)
        state["r"] = b - a.dot(state["x"])
        state["p"] = state["r"].copy()
        state["rsold"] = state["r"].dot(state["r"])

    def steps() -> Iterator[None]:
        restart()
        while True:
            x, r, p, rsold = state["x"], state["r"], state["p"], state["rsold"]
            ap = a.dot(p)
            alpha = rsold / p.dot(ap)
            x = x + alpha * p
            r = r - alpha * ap
            rsnew = r.dot(r)
            state.update(x=x, r=r)
            if numpy.sqrt(float(rsnew)) < tol:  # the example's one materialization
                restart()
            else:
                state.update(p=r + (rsnew / rsold) * p, rsold=rsnew)
            yield

    return steps(), lambda: float(state["x"][0])


def run_loop(
    steps: Iterator[None], read: Callable[[], float], checkpoints: tuple[int, ...], client: Any
) -> Iterator[LoopSample]:
    """Advance ``steps`` to each checkpoint; there, ``read`` (so the work is done) and
    sample the time per iteration since the previous checkpoint and the memory."""
    previous, window_start = 0, (time.perf_counter(), time.process_time())
    for iteration in range(1, checkpoints[-1] + 1):
        next(steps)
        if iteration in checkpoints:
            read()
            yield _sample(iteration, window_start, iteration - previous, client)
            previous, window_start = iteration, (time.perf_counter(), time.process_time())


def _print(name: str, samples: Iterator[LoopSample]) -> list[LoopSample]:
    print(f"{name}:")
    print(
        f"{'iteration':>10} {'ms/it':>9} {'cpu ms/it':>10} {'client MiB':>11} "
        f"{'peak MiB':>9} {'workers MiB':>12} {'sched tasks':>12}"
    )
    printed = []
    for s in samples:
        workers = "-" if s.worker_rss is None else f"{s.worker_rss / MiB:.0f}"
        tasks = "-" if s.scheduler_tasks is None else str(s.scheduler_tasks)
        print(
            f"{s.iteration:>10} {s.seconds_per_iteration * 1e3:>9.2f} "
            f"{s.cpu_per_iteration * 1e3:>10.2f} "
            f"{s.client_rss / MiB:>11.0f} {s.client_peak_rss / MiB:>9.0f} {workers:>12} "
            f"{tasks:>12}",
            flush=True,
        )
        printed.append(s)
    return printed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="checkpoints / 10")
    parser.add_argument("--cluster", action="store_true", help="embedded cluster, 2 workers")
    parser.add_argument("--stencil-n", type=int, default=256, help="grid interior (lazy)")
    parser.add_argument("--cg-n", type=int, default=400, help="CG system size")
    args = parser.parse_args()
    divisor = 10 if args.quick else 1
    # Threaded in this process unless --cluster: then the embedded cluster (what a
    # script gets by default), with 2 single-threaded workers.
    with loop_client(args.cluster, workers=2) as client:
        _run(args, client, divisor)


def _run(args: argparse.Namespace, client: Any, divisor: int) -> None:
    import dask_gpunumeric

    print(
        f"long-loops benchmark: backend={dask_gpunumeric.config.get('backend')}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
        f"persist-depth={dask_gpunumeric.config.get('persist-depth')}, "
        f"scheduler={'embedded LocalCluster (2 workers)' if client else 'threaded, in process'}"
    )
    stencil = stencil_steps(dask_gpunumeric, args.stencil_n)
    checkpoints = tuple(c // divisor for c in STENCIL_CHECKPOINTS)
    _print(f"stencil, grid {args.stencil_n + 2}^2", run_loop(*stencil, checkpoints, client))
    cg = cg_steps(dask_gpunumeric, args.cg_n)
    checkpoints = tuple(c // divisor for c in CG_CHECKPOINTS)
    _print(f"conjugate gradient, n={args.cg_n}", run_loop(*cg, checkpoints, client))


if __name__ == "__main__":
    main()
