"""How the cost of BUILDING the stencil's graph grows with the number of iterations.

Three separate costs, for the heat-diffusion loop of ``examples/stencil.py``
(``center[:] = 0.2 * (center + north + east + west + south)``) on an (n+2) x (n+2) grid:

* build: the Python loop itself, which only constructs expression nodes (IR);
* lower: ``grid.to_dask()``, turning the whole expression into one dask graph;
* tasks: ``len(graph)`` of that dask graph.

Auto-persist is disabled (``persist_depth=10**9``) so the whole chain stays one graph;
by default a store is persisted every ``gpunumeric.persist-depth`` nodes instead.
Per-iteration build cost should be constant (linear total). For comparison the same loop
is written with dask.array's own ``__setitem__`` and timed in a subprocess with a cap.

Run from the repository root::

    python -m benchmarks.graph_build            # n=1024, 10 100 1000 iterations
    python -m benchmarks.graph_build --iterations 10 100 --dask-route-timeout 0
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import subprocess
import sys
import time
from dataclasses import dataclass

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class GraphBuildSpec:
    """One measurement of building and lowering the stencil for ``iterations`` steps."""

    iterations: int
    build_seconds: float
    lower_seconds: float
    tasks: int
    expression_depth: int

    @property
    def build_per_iteration(self) -> float:
        return self.build_seconds / self.iterations

    @property
    def lower_per_iteration(self) -> float:
        return self.lower_seconds / self.iterations


def measure_graph_build(n: int, iterations: int) -> GraphBuildSpec:
    """Build the stencil's expression for ``iterations`` steps, then lower it to dask."""
    import dask_gpunumeric
    from examples.stencil import stencil

    with dask_gpunumeric.config.set(persist_depth=10**9):
        start = time.perf_counter()
        stencil(dask_gpunumeric, n, 0)
        setup_seconds = time.perf_counter() - start

        start = time.perf_counter()
        grid = stencil(dask_gpunumeric, n, iterations)
        build_seconds = time.perf_counter() - start - setup_seconds

        start = time.perf_counter()
        graph = grid.to_dask().__dask_graph__()
        tasks = len(graph)
        lower_seconds = time.perf_counter() - start
    return GraphBuildSpec(
        iterations, max(build_seconds, 0.0), lower_seconds, tasks, grid._store.version.depth
    )


def dask_setitem_route(n: int, iterations: int, chunks: tuple[tuple[int, ...], ...]) -> None:
    """The same loop with plain dask.array (its ``__setitem__``); prints build/tasks/compute."""
    import dask.array as da

    start = time.perf_counter()
    grid = da.zeros((n + 2, n + 2), chunks=chunks)
    grid[:, 0] = -273.15
    grid[:, -1] = -273.15
    grid[-1, :] = -273.15
    grid[0, :] = 40.0
    for _ in range(iterations):
        # dask slices are copies, not views: re-slice the new grid every iteration.
        center, north, south = grid[1:-1, 1:-1], grid[0:-2, 1:-1], grid[2:, 1:-1]
        east, west = grid[1:-1, 2:], grid[1:-1, 0:-2]
        grid[1:-1, 1:-1] = 0.2 * (center + north + east + west + south)
    build_seconds = time.perf_counter() - start
    tasks = len(grid.__dask_graph__())
    start = time.perf_counter()
    total = float(grid.sum().compute())
    compute_seconds = time.perf_counter() - start
    print(
        f"  dask __setitem__ route, {iterations} iterations: build {build_seconds:.3f} s, "
        f"{tasks} tasks, compute {compute_seconds:.3f} s (sum={total:.6f})",
        flush=True,
    )


def compute_seconds(n: int, iterations: int) -> tuple[float, float]:
    """Build + compute of our stencil with default settings (auto-persist on)."""
    import dask_gpunumeric
    from examples.stencil import stencil

    start = time.perf_counter()
    total = float(stencil(dask_gpunumeric, n, iterations).sum())
    return time.perf_counter() - start, total


def run_dask_route(
    n: int, iterations: int, chunks: tuple[tuple[int, ...], ...], timeout: float
) -> None:
    """Run :func:`dask_setitem_route` in a subprocess, killed after ``timeout`` seconds."""
    code = (
        "from benchmarks.graph_build import dask_setitem_route; "
        f"dask_setitem_route({n}, {iterations}, {chunks!r})"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    }
    try:
        subprocess.run([sys.executable, "-c", code], env=env, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        print(
            f"  dask __setitem__ route, {iterations} iterations: did not finish within "
            f"{timeout:.0f} s (stopped)"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1024, help="grid interior size (grid is n+2)")
    parser.add_argument("--iterations", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--dask-route-iterations", type=int, default=10)
    parser.add_argument(
        "--dask-route-timeout",
        type=float,
        default=120.0,
        help="seconds before the dask comparison is stopped; 0 skips it",
    )
    args = parser.parse_args(argv)

    import dask

    import dask_gpunumeric

    print(
        f"graph-build benchmark: grid {args.n + 2}x{args.n + 2}, "
        f"backend={dask_gpunumeric.config.get('backend')}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, dask {dask.__version__}"
    )
    print("auto-persist disabled (persist_depth=10**9): one graph for the whole loop")
    print(
        f"{'iterations':>10} {'build s':>9} {'build us/it':>12} {'lower s':>9} "
        f"{'lower ms/it':>12} {'tasks':>8} {'tasks/it':>9}"
    )
    for iterations in args.iterations:
        spec = measure_graph_build(args.n, iterations)
        print(
            f"{spec.iterations:>10} {spec.build_seconds:>9.4f} "
            f"{spec.build_per_iteration * 1e6:>12.1f} {spec.lower_seconds:>9.3f} "
            f"{spec.lower_per_iteration * 1e3:>12.2f} {spec.tasks:>8} "
            f"{spec.tasks / spec.iterations:>9.1f}",
            flush=True,
        )

    iterations = args.dask_route_iterations
    seconds, total = compute_seconds(args.n, iterations)
    print(f"comparison at {iterations} iterations (build + compute, default settings):")
    print(f"  dask_gpunumeric: {seconds:.3f} s (sum={total:.6f})", flush=True)
    if args.dask_route_timeout <= 0:
        print("  dask __setitem__ route: skipped (--dask-route-timeout 0)")
        return
    with dask_gpunumeric.config.set(persist_depth=10**9):
        chunks = dask_gpunumeric.zeros((args.n + 2, args.n + 2)).to_dask().chunks
    run_dask_route(args.n, iterations, chunks, args.dask_route_timeout)


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
