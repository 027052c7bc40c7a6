"""The heat-diffusion stencil of the design card, written as plain NumPy.

Run it on a cluster with ``dgn-run examples/stencil.py`` (or ``python examples/stencil.py``:
the embedded default cluster starts at the first computation). It prints the checksum
(the grid's sum) and the time per iteration; ``--check`` also runs NumPy and compares the
checksums, ``--numpy`` times NumPy alone (the same program, ``import numpy as np``).
"""

from __future__ import annotations

import argparse
import time


def stencil(np, n: int, iterations: int):
    grid = np.zeros((n + 2, n + 2))
    grid[:, 0] = -273.15
    grid[:, -1] = -273.15
    grid[-1, :] = -273.15
    grid[0, :] = 40.0
    center = grid[1:-1, 1:-1]
    north = grid[0:-2, 1:-1]
    east = grid[1:-1, 2:]
    west = grid[1:-1, 0:-2]
    south = grid[2:, 1:-1]
    for _ in range(iterations):
        average = center + north + east + west + south
        average = 0.2 * average
        center[:] = average
    return grid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=4000, help="grid interior size N")
    parser.add_argument("-i", "--iterations", type=int, default=100)
    parser.add_argument("--check", action="store_true", help="compare with NumPy")
    parser.add_argument("--numpy", action="store_true", help="run with NumPy only")
    args = parser.parse_args()

    import numpy

    import dask_gpunumeric

    library = numpy if args.numpy else dask_gpunumeric
    checksum, elapsed = timed_checksum(library, args.n, args.iterations)
    print(
        f"N={args.n} I={args.iterations} checksum={checksum:.6f} "
        f"time/iteration={1e3 * elapsed / args.iterations:.3f} ms "
        f"({library.__name__}, backend={backend_name(library)})"
    )
    if args.check:
        expected, _ = timed_checksum(numpy, args.n, args.iterations)
        print(f"NumPy checksum={expected:.6f}")
        if abs(checksum - expected) > 1e-9 * max(1.0, abs(expected)):
            raise SystemExit("checksum differs from NumPy's")


def timed_checksum(np, n: int, iterations: int) -> tuple[float, float]:
    """The grid's sum after ``iterations`` and the seconds it took (build and compute)."""
    start = time.perf_counter()
    checksum = float(stencil(np, n, iterations).sum())
    return checksum, time.perf_counter() - start


def backend_name(library) -> str:
    if library.__name__ == "numpy":
        return "numpy"
    from dask_gpunumeric._backends import get_backend

    return get_backend().name


if __name__ == "__main__":
    main()
