"""The programs of the warm GPU benchmark, their sizes, floors and comparisons.

Each program is written once against ``np`` and takes its inputs placed by the lane
(``lanes.py``); a program that makes its own data (the stencil's grid, pi's samples)
takes none. ``iterations`` is what every device lane runs, ``numpy_iterations`` what
NumPy runs at the real size (a CPU would take minutes for the stencil's 50); per
iteration is what is compared.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy

from benchmarks.fusion import black_scholes, long_chain
from benchmarks.suite.workloads.linear_algebra import spd_system
from examples.conjugate_gradient import conjugate_gradient
from examples.stencil import stencil

# (np, placed inputs, iterations) -> the result
Program = Callable[[Any, tuple[Any, ...], int], Any]


@dataclass(frozen=True)
class DeviceWorkload:
    """One program at one size: ``real`` on a GPU, ``toy`` in the dry run."""

    name: str
    label: str  # what the size counts
    real: int
    toy: int
    program: Program
    inputs: Callable[[int], tuple[numpy.ndarray, ...]] = lambda size: ()
    iterations: int = 1
    numpy_iterations: int | None = None  # at the real size; None: ``iterations``
    floor_bytes: Callable[[int], float] | None = None  # per iteration
    floor_note: str = ""
    rtol: float = 1e-9
    within_sigma: bool = False  # pi: each estimate within 6 sigma of pi (own streams)

    def size(self, toy: bool) -> int:
        return self.toy if toy else self.real

    def host_iterations(self, toy: bool) -> int:
        return self.iterations if toy or self.numpy_iterations is None else self.numpy_iterations


def _uniform(count: int) -> Callable[[int], tuple[numpy.ndarray, ...]]:
    def make(size: int) -> tuple[numpy.ndarray, ...]:
        generator = numpy.random.default_rng(0)
        return tuple(generator.uniform(1.0, 100.0, size) for _ in range(count))

    return make


def _square_pair(n: int) -> tuple[numpy.ndarray, ...]:
    generator = numpy.random.default_rng(3)
    return generator.random((n, n)), generator.random((n, n))


def pi_estimate(np: Any, samples: int) -> Any:
    """4 x the fraction of uniform points of the unit square inside the quarter circle."""
    generator = np.random.default_rng(0)
    x, y = generator.random(samples), generator.random(samples)
    return 4 * ((x * x + y * y) < 1).mean()


def within_six_sigma(value: float, samples: int) -> bool:
    sigma = 4 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / samples)
    return abs(value - math.pi) <= 6 * sigma


def _stencil_bytes(n: int) -> float:
    return float(((n + 2) ** 2 + n**2) * 8)  # read the grid, write the interior


def workload_table() -> list[DeviceWorkload]:
    """The issue's seven, in the order they run."""
    stencil_program: Program = lambda np, inputs, iterations: stencil(np, inputs[0], iterations)  # noqa: E731
    return [
        DeviceWorkload("stencil", "N (grid (N+2)^2)", 4000, 62, stencil_program,
                       inputs=lambda n: (n,), iterations=50, numpy_iterations=5,
                       floor_bytes=_stencil_bytes,
                       floor_note="read the grid once, write the interior once"),
        DeviceWorkload("stencil", "N (grid (N+2)^2)", 10000, 126, stencil_program,
                       inputs=lambda n: (n,), iterations=20, numpy_iterations=2,
                       floor_bytes=_stencil_bytes,
                       floor_note="read the grid once, write the interior once"),
        DeviceWorkload("cg", "n (matrix n x n)", 10000, 200,
                       lambda np, inputs, iterations: conjugate_gradient(
                           np, *inputs, tol=0.0, max_iterations=iterations),
                       inputs=spd_system, iterations=50, numpy_iterations=5,
                       floor_bytes=lambda n: float(n * n * 8),
                       floor_note="read the matrix once", rtol=1e-8),
        DeviceWorkload("black-scholes", "options", 10**8, 10**4,
                       lambda np, inputs, iterations: black_scholes(np, *inputs),
                       inputs=_uniform(3), floor_bytes=lambda n: 4.0 * 8 * n,
                       floor_note="read 3 inputs, write the price"),
        DeviceWorkload("chain", "elements", 10**8, 10**4,
                       lambda np, inputs, iterations: long_chain(np, *inputs),
                       inputs=_uniform(5), floor_bytes=lambda n: 6.0 * 8 * n,
                       floor_note="read 5 inputs, write the result", rtol=1e-12),
        DeviceWorkload("monte-carlo-pi", "samples", 10**8, 10**4,
                       lambda np, inputs, iterations: pi_estimate(np, inputs[0]),
                       inputs=lambda n: (n,), floor_note="compute-bound (random numbers)",
                       within_sigma=True),
        DeviceWorkload("matmul", "n (n x n @ n x n)", 8000, 64,
                       lambda np, inputs, iterations: inputs[0] @ inputs[1],
                       inputs=_square_pair, floor_note="compute-bound (2 n^3 flops)"),
    ]  # fmt: skip
