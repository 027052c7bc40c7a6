"""cuPyNumeric tutorial: the heat-diffusion stencil (a work array from ``np.zeros_like``,
boundary rows and columns copied each step, the two arrays swapped).

    python examples/tutorial/heat_diffusion.py [--size N] [--iterations I] [--numpy]
"""

from __future__ import annotations

import argparse
from typing import Any

import dask_gpunumeric as np


def stencil_computation(grid: Any, iterations: int = 100) -> Any:
    """Five-point Jacobi relaxation of ``grid``; the boundary keeps its values."""
    new_grid = np.zeros_like(grid)

    for _iteration in range(iterations):
        new_grid[1:-1, 1:-1] = (
            0.25
            * (
                grid[:-2, 1:-1]  # north
                + grid[2:, 1:-1]  # south
                + grid[1:-1, :-2]  # west
                + grid[1:-1, 2:]  # east
            )
        )

        # boundary conditions: keep the boundary values
        new_grid[0, :] = grid[0, :]
        new_grid[-1, :] = grid[-1, :]
        new_grid[:, 0] = grid[:, 0]
        new_grid[:, -1] = grid[:, -1]

        grid, new_grid = new_grid, grid

    return grid


def initial_grid(size: int = 1000) -> Any:
    """Hot top, cold bottom, warm sides, and a hot square in the middle."""
    grid = np.zeros((size, size))
    grid[0, :] = 100
    grid[-1, :] = 0
    grid[:, 0] = 50
    grid[:, -1] = 50
    center = size // 2
    grid[center - 10 : center + 10, center - 10 : center + 10] = 200
    return grid


def main(argv: list[str] | None = None) -> None:
    global np
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--numpy", action="store_true", help="run the same code with NumPy")
    args = parser.parse_args(argv)
    if args.numpy:
        import numpy as np
    grid = initial_grid(args.size)
    print(f"initial: min {np.min(grid):.2f} max {np.max(grid):.2f} mean {np.mean(grid):.2f}")
    result_grid = stencil_computation(grid.copy(), iterations=args.iterations)
    print(
        f"result: min {np.min(result_grid):.2f} max {np.max(result_grid):.2f} "
        f"mean {np.mean(result_grid):.2f}"
    )


if __name__ == "__main__":
    main()
