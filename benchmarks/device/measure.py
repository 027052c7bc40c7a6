"""Timing with the first run apart, the device's copy bandwidth, and one row per lane.

A lane's first run at a size is timed and kept apart (``first_s``: compilation of CuPy's
and our kernels, plan caches, the memory pool's first allocations); then warm runs are
timed until ``repeats`` are done or ``lane_budget`` seconds have gone, and their median
is the figure. NumPy's one run is both (it compiles nothing).
"""

from __future__ import annotations

import gc
import statistics
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy

from benchmarks.device.lanes import Lane
from benchmarks.device.workloads import DeviceWorkload, within_six_sigma

COPY_REPEATS = 10


@dataclass(frozen=True)
class LaneRow:
    """One lane at one size of one workload. Times per iteration; ``correct``: equal to
    the hand-written lane's result (pi: within 6 sigma of pi), ``None``: not compared
    (NumPy ran fewer iterations)."""

    workload: str
    size: int
    lane: str
    iterations: int
    first_s: float | None
    warm_runs: int
    warm_per_iteration_s: float | None
    floor_per_iteration_s: float | None
    correct: bool | None
    error: str | None = None

    def ratio_to(self, other: LaneRow | None) -> float | None:
        if other is None or not self.warm_per_iteration_s or not other.warm_per_iteration_s:
            return None
        return self.warm_per_iteration_s / other.warm_per_iteration_s

    @property
    def ratio_to_floor(self) -> float | None:
        if not self.warm_per_iteration_s or not self.floor_per_iteration_s:
            return None
        return self.warm_per_iteration_s / self.floor_per_iteration_s


def copy_bandwidth(lane: Lane, elements: int) -> float:
    """Bytes per second (read + write) of ``b[...] = a`` on the lane's device, the best
    of ``COPY_REPEATS`` after one untimed copy."""
    a = lane.place(numpy.ones(elements))
    b = lane.np.empty_like(a)
    best = float("inf")
    for attempt in range(COPY_REPEATS + 1):
        start = time.perf_counter()
        b[...] = a
        lane.hold(b)
        if attempt:
            best = min(best, time.perf_counter() - start)
    return 2 * 8 * elements / best


def timed(
    run: Callable[[], Any], lane: Lane, repeats: int, budget: float
) -> tuple[float, list[float], Any]:
    """The first run's seconds, the warm runs' seconds and the last result."""
    start = time.perf_counter()
    result = lane.hold(run())
    first = time.perf_counter() - start
    warm: list[float] = []
    while len(warm) < repeats and sum(warm) + (warm[-1] if warm else first) <= budget:
        del result
        start = time.perf_counter()
        result = lane.hold(run())
        warm.append(time.perf_counter() - start)
    return first, warm, result


def placed_and_timed(
    workload: DeviceWorkload,
    lane: Lane,
    hosts: tuple[Any, ...],
    iterations: int,
    settings: tuple[int, float],
) -> tuple[float, list[float], Any]:
    """The inputs placed (outside the clock), the runs timed, the last result on the host;
    the placed inputs are released on return."""
    repeats, budget = settings
    placed = tuple(lane.place(host) for host in hosts)
    run = lambda: workload.program(lane.np, placed, iterations)  # noqa: E731
    first, warm, result = timed(run, lane, 0 if lane.name == "numpy" else repeats, budget)
    return first, warm, lane.to_host(result)


def measure_lane(
    workload: DeviceWorkload,
    lane: Lane,
    hosts: tuple[Any, ...],
    toy: bool,
    settings: tuple[int, float],
    bandwidth: float,
    reference: Any,
) -> tuple[LaneRow, Any]:
    """The lane's row and its result on the host (the reference, for the hand-written);
    ``hosts``: the workload's inputs on the host, made once for every lane."""
    size = workload.size(toy)
    iterations = workload.host_iterations(toy) if lane.name == "numpy" else workload.iterations
    floor = workload.floor_bytes(size) / bandwidth if workload.floor_bytes else None
    try:
        with lane.configured():
            first, warm, host = placed_and_timed(workload, lane, hosts, iterations, settings)
    except Exception as error:  # noqa: BLE001 - reported in the row, the others go on
        traceback.print_exc()
        row = LaneRow(workload.name, size, lane.name, iterations, None, 0, None, floor, False,
                      f"{type(error).__name__}: {error}"[:300])  # fmt: skip
        return row, None
    finally:
        gc.collect()
    seconds = statistics.median(warm) if warm else first
    correct = agrees(workload, host, reference, size, iterations, lane.name)
    row = LaneRow(workload.name, size, lane.name, iterations, first, len(warm),
                  seconds / iterations, floor, correct)  # fmt: skip
    return row, host


def agrees(
    workload: DeviceWorkload, host: Any, reference: Any, size: int, iterations: int, lane: str
) -> bool | None:
    """Whether ``host`` is right: pi within 6 sigma; the others equal to the hand-written
    lane's result (itself the reference), ``None`` where there is none to compare with."""
    if workload.within_sigma:
        return within_six_sigma(float(host), size)
    if lane == "hand-written":
        return True
    if reference is None or iterations != workload.iterations:
        return None
    result, expected = numpy.asarray(host), numpy.asarray(reference)
    if result.shape != expected.shape:
        return False
    return bool(numpy.allclose(result, expected, rtol=workload.rtol, atol=workload.rtol))
