"""The heat-diffusion stencil of the design card, written as plain NumPy.

Run it with dask_gpunumeric (the default) or with NumPy (``--numpy``) and compare.
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
    parser.add_argument("-n", type=int, default=200, help="grid interior size N")
    parser.add_argument("-i", "--iterations", type=int, default=50)
    parser.add_argument("--check", action="store_true", help="compare with NumPy")
    args = parser.parse_args()

    import numpy

    import dask_gpunumeric

    start = time.perf_counter()
    grid = stencil(dask_gpunumeric, args.n, args.iterations)
    total = float(grid.sum())
    elapsed = time.perf_counter() - start
    print(
        f"N={args.n} I={args.iterations} sum={total:.6f} "
        f"backend={dask_gpunumeric.config.get('backend')} time={elapsed:.3f}s"
    )
    if args.check:
        expected = stencil(numpy, args.n, args.iterations)
        error = float(numpy.max(numpy.abs(numpy.asarray(grid) - expected)))
        print(f"max abs error vs NumPy: {error:.3e}")
        if error >= 1e-12:
            raise SystemExit("result differs from NumPy")


if __name__ == "__main__":
    main()
