"""Elementwise workloads: Black-Scholes (1e6, 1e8 options), a long chain, Monte Carlo pi.

The programs are ``benchmarks/fusion.py``'s (``black_scholes``, ``long_chain``), run on
inputs placed before the clock. Black-Scholes at 1e8 options holds three 800 MB inputs
and an 800 MB result per system, NumPy's temporaries on top (about 8 GB at the peak);
each system's inputs are freed before the next system's are made, and the size is
lowered to what fits when less than ``MEMORY_PER_ELEMENT`` bytes per option are
available (said in the output). Monte Carlo pi draws its own samples with each system's
generator (``default_rng(0).random``): the streams differ between systems, so "correct"
is within 6 standard deviations of pi (as NumPy's estimate must be too), and there is no
bandwidth floor (generating random numbers is compute-bound).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy
import psutil

from benchmarks.fusion import black_scholes, long_chain
from benchmarks.suite.systems import hold, module, ours_chunks, place
from benchmarks.suite.workloads.spec import Workload, close

MEMORY_PER_ELEMENT = 120  # bytes per option: NumPy's inputs, result and temporaries, 2 copies


def fitting(size: int) -> int:
    """``size``, or the largest power of ten that fits in the memory available now."""
    available = psutil.virtual_memory().available
    while size > 10**6 and size * MEMORY_PER_ELEMENT > available:
        size //= 10
    return size


def expression_run(program: Callable[..., Any], inputs: int) -> Callable[[str, int], Any]:
    def make_run(system: str, size: int) -> Callable[[], Any] | None:
        generator = numpy.random.default_rng(0)
        placed = [place(system, generator.uniform(1.0, 100.0, size)) for _ in range(inputs)]
        np = module(system)
        return lambda: hold(program(np, *placed))

    return make_run


def black_scholes_workload(quick: bool) -> Workload:
    sizes = (10**4, 10**5) if quick else (10**6, fitting(10**8))
    return Workload(
        name="black-scholes",
        sizes=sizes,
        size_label="options",
        make_run=expression_run(black_scholes, 3),
        floor_bytes=lambda size: 4.0 * 8 * size,
        floor_note="read 3 inputs once, write the price once",
        check=close(rtol=1e-9, atol=1e-9),
        note="" if quick or sizes[-1] == 10**8 else f"1e8 lowered to {sizes[-1]:.0e}: memory",
    )


def chain_workload(quick: bool) -> Workload:
    return Workload(
        name="chain",
        sizes=(10**4, 10**5) if quick else (10**6, 2 * 10**7),
        size_label="elements",
        make_run=expression_run(long_chain, 5),
        floor_bytes=lambda size: 6.0 * 8 * size,
        floor_note="read 5 inputs once, write the result once",
        check=close(rtol=1e-12),
        note="0.2 * (a + b + c + d + e)",
    )


def pi_estimate(np: Any, samples: int, chunks: Any = None) -> Any:
    """4 x the fraction of uniform points of the unit square inside the quarter circle."""
    generator = np.random.default_rng(0)
    size = samples if chunks is None else (samples,)
    x = generator.random(size) if chunks is None else generator.random(size, chunks=chunks)
    y = generator.random(size) if chunks is None else generator.random(size, chunks=chunks)
    return 4 * ((x * x + y * y) < 1).mean()


def pi_run(system: str, samples: int) -> Callable[[], Any] | None:
    np = module(system)
    if system == "dask":
        return lambda: hold(pi_estimate(np, samples, chunks="auto"))
    if system == "dask-tuned":
        chunks = ours_chunks((samples,))
        return lambda: hold(pi_estimate(np, samples, chunks=chunks))
    return lambda: hold(pi_estimate(np, samples))


def within_six_sigma(result: Any, expected: Any, samples: int) -> bool:
    """Both estimates within 6 standard deviations of pi (the streams differ)."""
    sigma = 4 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / samples)
    return all(abs(float(v) - math.pi) <= 6 * sigma for v in (result, expected))


def pi_workload(quick: bool) -> Workload:
    sizes = (10**5, 10**6) if quick else (10**6, 10**8)
    return Workload(
        name="monte-carlo-pi",
        sizes=sizes,
        size_label="samples",
        make_run=pi_run,
        floor_note="compute-bound (random numbers): no bandwidth floor",
        check=within_six_sigma,
        note="correct: within 6 sigma of pi (each system's own random stream)",
    )
