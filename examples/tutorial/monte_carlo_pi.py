"""cuPyNumeric tutorial: estimating pi by Monte Carlo.

python examples/tutorial/monte_carlo_pi.py [--samples N] [--numpy]
"""

from __future__ import annotations

import argparse
from typing import Any

import dask_gpunumeric as np


def monte_carlo_pi(n_samples: int = 1_000_000, x: Any = None, y: Any = None) -> Any:
    """4 x the share of uniform points of [-1, 1]^2 inside the unit circle; ``x`` and
    ``y`` are the points (drawn here when not given)."""
    x = np.random.uniform(-1, 1, n_samples) if x is None else np.asarray(x)
    y = np.random.uniform(-1, 1, n_samples) if y is None else np.asarray(y)

    distances = np.sqrt(x**2 + y**2)
    inside_circle = np.sum(distances <= 1)
    pi_estimate = 4 * inside_circle / n_samples
    return pi_estimate


def main(argv: list[str] | None = None) -> None:
    global np
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--numpy", action="store_true", help="run the same code with NumPy")
    args = parser.parse_args(argv)
    if args.numpy:
        import numpy as np
    pi_value = monte_carlo_pi(args.samples)
    print(f"pi estimate: {float(pi_value)}")
    print(f"true pi: {np.pi}")
    print(f"error: {abs(float(pi_value) - np.pi):.6f}")


if __name__ == "__main__":
    main()
