"""The machine's memory-bandwidth floor, measured by the suite in the same run.

STREAM-style: ``copy`` (``b[:] = a``, 16 bytes moved per element) is
``benchmarks.fusion.copy_bandwidth``; ``triad`` (``a[:] = b + s * c``, 24 bytes per
element) is measured here, in place with ``numexpr`` (one pass, no temporary), on 1 and 2
threads, the better one. The arrays are larger than the last-level cache. A workload's
floor is the bytes it must move (read its inputs once, write its output once) over the
better of the two bandwidths: no implementation on this machine can be faster.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numexpr
import numpy

from benchmarks.fusion import copy_bandwidth

TRIAD_SCALAR = 3.0


@dataclass(frozen=True)
class Floor:
    """Bytes per second moved by copy and triad (read + write)."""

    copy: float
    triad: float

    @property
    def bandwidth(self) -> float:
        return max(self.copy, self.triad)

    def seconds(self, moved_bytes: float) -> float:
        return moved_bytes / self.bandwidth


def triad_bandwidth(size: int, repeat: int) -> float:
    """Bytes moved per second by ``a = b + 3 * c`` in place, 1 or 2 threads, the best."""
    generator = numpy.random.default_rng(2)
    b, c = generator.random(size), generator.random(size)
    a = numpy.empty_like(b)
    best = float("inf")
    before = numexpr.get_num_threads()
    try:
        for threads in (1, 2):
            numexpr.set_num_threads(threads)
            for attempt in range(repeat + 1):  # the first touches a's pages: not counted
                start = time.perf_counter()
                numexpr.evaluate("b + s * c", local_dict={"b": b, "c": c, "s": TRIAD_SCALAR}, out=a)
                if attempt:
                    best = min(best, time.perf_counter() - start)
    finally:
        numexpr.set_num_threads(before)
    return 3 * a.nbytes / best


def measure_floor(size: int, repeat: int) -> Floor:
    return Floor(copy_bandwidth(size, repeat), triad_bandwidth(size, repeat))
