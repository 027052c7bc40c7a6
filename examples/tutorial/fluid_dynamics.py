"""cuPyNumeric tutorial: a simplified fluid-dynamics loop (advection with ``np.gradient``,
diffusion with a five-point Laplacian, zero velocity on the boundary).

    python examples/tutorial/fluid_dynamics.py [--size N] [--steps S] [--numpy]
"""

from __future__ import annotations

import argparse
from typing import Any

import dask_gpunumeric as np


def fluid_dynamics_simulation(grid_size: int = 512, time_steps: int = 100) -> tuple[Any, Any, Any]:
    """Velocity components ``u``, ``v`` and pressure ``p`` after ``time_steps`` steps."""
    u = np.zeros((grid_size, grid_size))  # x velocity
    v = np.zeros((grid_size, grid_size))  # y velocity
    p = np.zeros((grid_size, grid_size))  # pressure

    center = grid_size // 2
    u[center - 10 : center + 10, center - 10 : center + 10] = 1.0

    dt = 0.01  # time step
    dx = 1.0  # grid spacing
    viscosity = 0.01

    for step in range(time_steps):
        # advection (simplified)
        u_new = u - dt * (u * np.gradient(u, dx, axis=1) + v * np.gradient(u, dx, axis=0))
        v_new = v - dt * (u * np.gradient(v, dx, axis=1) + v * np.gradient(v, dx, axis=0))

        # diffusion (five-point Laplacian)
        u_new[1:-1, 1:-1] += (
            viscosity
            * dt
            * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
            / dx**2
        )
        v_new[1:-1, 1:-1] += (
            viscosity
            * dt
            * (v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:] - 4 * v[1:-1, 1:-1])
            / dx**2
        )

        # boundary conditions
        u_new[0, :] = u_new[-1, :] = 0
        u_new[:, 0] = u_new[:, -1] = 0
        v_new[0, :] = v_new[-1, :] = 0
        v_new[:, 0] = v_new[:, -1] = 0

        u, v = u_new, v_new

        if step % 20 == 0:
            velocity_magnitude = np.sqrt(u**2 + v**2)
            print(f"step {step}: max velocity = {np.max(velocity_magnitude):.6f}")

    return u, v, p


def main(argv: list[str] | None = None) -> None:
    global np
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--numpy", action="store_true", help="run the same code with NumPy")
    args = parser.parse_args(argv)
    if args.numpy:
        import numpy as np
    u_final, v_final, _ = fluid_dynamics_simulation(args.size, args.steps)
    print(f"u: mean {np.mean(u_final):.6f} max {np.max(np.abs(u_final)):.6f}")
    print(f"v: mean {np.mean(v_final):.6f} max {np.max(np.abs(v_final)):.6f}")


if __name__ == "__main__":
    main()
