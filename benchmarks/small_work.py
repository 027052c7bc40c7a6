"""``python -m benchmarks.small_work [--sizes 500 1000 2000 3000] [--iterations 10]``: the
crossover of the small-work policy (``dask_gpunumeric/_array/work_placement.py``).

Two programs written as users write them, at growing sizes, each timed three ways side by
side in one run on the embedded default cluster: NumPy; ours with the work kept in the
client (``client-work-bytes`` above the inputs); ours on the cluster
(``client-work-bytes: 0``). Results are checked against NumPy's.

- ``cg``: dense conjugate gradient on an n x n SPD matrix from ``np.array(host)``, one
  ``float()`` check per iteration (two materializations per iteration);
- ``stencil``: the 5-point heat stencil of ``examples/stencil.py`` on an n x n grid, one
  ``float()`` at the end (no check per iteration).

The policy's default (64 MiB) is where the cluster starts to pay for its round trips on
the machine this was measured on; ``docs/performance.md`` has the table.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy

import dask_gpunumeric

HERE = "1 TiB"  # client-work-bytes that keeps every size here in the client
THERE = 0  # the policy off: the cluster


def conjugate_gradient(np: Any, a_host: numpy.ndarray, b_host: numpy.ndarray, steps: int) -> float:
    a, b = np.array(a_host), np.array(b_host)
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rs = float(r @ r)
    for _ in range(steps):
        ap = a @ p
        alpha = rs / float(p @ ap)
        x = x + alpha * p
        r = r - alpha * ap
        rs_new = float(r @ r)
        if numpy.sqrt(rs_new) < 1e-300:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return float(x.sum())


def stencil(np: Any, n: int, steps: int) -> float:
    grid = np.zeros((n + 2, n + 2))
    grid[:, 0] = grid[:, -1] = grid[-1, :] = -273.15
    grid[0, :] = 40.0
    center, north, south = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, :-2]
    for _ in range(steps):
        center[:] = 0.2 * (center + north + east + west + south)
    return float(grid.sum())


def _best(run: Callable[[], float], repeats: int = 2) -> tuple[float, float]:
    """The fastest of ``repeats`` runs (after one warm-up) and its result."""
    run()
    times, result = [], 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def measure(sizes: list[int], steps: int) -> list[dict[str, Any]]:
    rows = []
    for n in sizes:
        rng = numpy.random.default_rng(n)
        m = rng.random((n, n))
        a, b = m @ m.T / n + numpy.eye(n), rng.random(n)
        programs: dict[str, Callable[[Any], float]] = {
            "cg": lambda np, a=a, b=b: conjugate_gradient(np, a, b, steps),
            "stencil": lambda np, n=n: stencil(np, n, steps),
        }
        for name, program in programs.items():
            numpy_time, expected = _best(lambda program=program: program(numpy))
            row: dict[str, Any] = {"program": name, "n": n, "MB": n * n * 8 / 1e6}
            row["numpy"] = numpy_time
            for lane, limit in (("client", HERE), ("cluster", THERE)):
                with dask_gpunumeric.config.set(client_work_bytes=limit):
                    seconds, got = _best(lambda program=program: program(dask_gpunumeric))
                if not numpy.isclose(got, expected, rtol=1e-6):
                    raise SystemExit(f"{name} n={n} {lane}: {got} != NumPy's {expected}")
                row[lane] = seconds
            rows.append(row)
            print(
                f"{name:8} n={n:5} {row['MB']:7.1f} MB  numpy {numpy_time * 1e3:8.1f} ms  "
                f"client {row['client'] * 1e3:8.1f} ms  cluster {row['cluster'] * 1e3:8.1f} ms  "
                f"cluster/client {row['cluster'] / row['client']:5.2f}",
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 3000, 4000])
    parser.add_argument("--iterations", type=int, default=10)
    options = parser.parse_args(argv)
    dask_gpunumeric.config.set(scheduler="distributed")  # the default, whatever the env says
    measure(options.sizes, options.iterations)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
