"""Runs the workloads on the systems, one row per workload, size and system.

At each size NumPy runs first: its result is the reference every other system's is
compared with (outside the clock), its time per iteration the denominator of
``ratio_to_numpy``. Each system's inputs are freed before the next system's are made,
except for a workload whose systems take turns (``Workload.in_turns``: the user
programs, whose inputs are host arrays every system shares). A system that raises gets a row with its error (and ``correct`` false) and the suite
goes on.
"""

from __future__ import annotations

import contextlib
import gc
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.suite.floor import Floor
from benchmarks.suite.systems import configured, to_host
from benchmarks.suite.timing import PeakRss, Timing, repeats_in_turns, sampled_rss, timed_repeats
from benchmarks.suite.workloads import Workload


@dataclass(frozen=True)
class Row:
    """One system at one size of one workload. Seconds are of a whole run (``iterations``
    iterations); ``ratio_to_numpy`` and ``ratio_to_floor`` compare time per iteration
    (``None`` where there is no floor). Memory: this process's peak RSS during the runs
    and its increase over the RSS when they started."""

    workload: str
    size: int
    system: str
    iterations: int
    repeats: int
    median_s: float
    min_s: float
    max_s: float
    per_iteration_s: float
    ratio_to_numpy: float | None
    floor_per_iteration_s: float | None
    ratio_to_floor: float | None
    correct: bool
    peak_rss_bytes: int
    rss_increase_bytes: int
    warmed_at_size: bool
    error: str | None = None


@dataclass(frozen=True)
class Settings:
    """How hard the suite measures: timed runs per system after the warm-up, the seconds
    after which a system stops repeating, and the seconds of timed runs a short program
    repeats to fill (``timing.timed_repeats``)."""

    repeats: int
    budget: float
    fill: float = 0.0


# A system's timing, its result on the host, its RSS sample, and its error.
Measurement = tuple[Timing | None, Any, Any, str | None]


def measure(workload: Workload, size: int, system: str, settings: Settings) -> Measurement:
    """``system``'s timing at ``size``, its result on the host, its RSS sample, error."""
    with configured(system), sampled_rss() as rss:
        try:
            run = workload.make_run(system, size)
            if run is None:
                return None, None, rss, None
            timing = timed_repeats(
                run, workload.iterations(size), settings.repeats, settings.budget, settings.fill
            )
            return timing, to_host(timing.result), rss, None
        except Exception as error:  # noqa: BLE001 - reported in the row, the suite goes on
            traceback.print_exc()
            return None, None, rss, f"{type(error).__name__}: {error}"


def make_row(
    workload: Workload,
    size: int,
    system: str,
    measured: Measurement,
    reference: tuple[float, Any],
    floor: Floor,
) -> Row:
    timing, host, rss, error = measured
    times = timing.times if timing else (float("nan"),)
    iterations = timing.iterations if timing else workload.iterations(size)
    per_iteration = timing.median / iterations if timing else float("nan")
    floor_seconds = (
        floor.seconds(workload.floor_bytes(size)) if workload.floor_bytes is not None else None
    )
    numpy_per_iteration, expected = reference
    if timing and iterations != workload.iterations(size) and workload.reference:
        expected = to_host(workload.reference(size, iterations))
    correct = error is None and timing is not None and workload.check(host, expected, size)
    return Row(
        workload.name, size, system, iterations, len(times),
        timing.median if timing else float("nan"), min(times), max(times), per_iteration,
        per_iteration / numpy_per_iteration if numpy_per_iteration else None,
        floor_seconds, per_iteration / floor_seconds if floor_seconds else None,
        bool(correct), rss.peak, rss.increase, bool(timing and timing.warmed_at_size), error,
    )  # fmt: skip


def measure_in_turns(
    workload: Workload, size: int, systems: Sequence[str], settings: Settings
) -> Iterator[tuple[str, Measurement]]:
    """``measure`` of every system at ``size``, their runs taken in turns
    (``timing.repeats_in_turns``): what the user programs' lines compare is the default
    path beside the threaded scheduler beside NumPy, each timed under the same load. The
    RSS of a system is that of its runs (the largest increase, the highest peak)."""
    runs: dict[str, Callable[[], Any]] = {}
    errors: dict[str, str] = {}
    for system in systems:
        with configured(system):
            try:
                run = workload.make_run(system, size)
            except Exception as error:  # noqa: BLE001 - reported in the row
                traceback.print_exc()
                errors[system] = f"{type(error).__name__}: {error}"
                continue
        if run is not None:
            runs[system] = run
    memory: dict[str, PeakRss] = {}

    @contextlib.contextmanager
    def around(system: str) -> Iterator[None]:
        with configured(system), sampled_rss() as rss:
            yield
        seen = memory.setdefault(system, PeakRss(rss.start, rss.peak))
        increase, peak = max(seen.increase, rss.increase), max(seen.peak, rss.peak)
        seen.start, seen.peak = peak - increase, peak

    timings = repeats_in_turns(
        runs, around, workload.iterations(size), settings.repeats, settings.budget,
        settings.fill,
    )  # fmt: skip
    for system in systems:
        rss = memory.get(system, PeakRss())
        if system in errors:
            yield system, (None, None, rss, errors[system])
            continue
        timing = timings.get(system)
        if isinstance(timing, Timing):
            with configured(system):
                host = to_host(timing.result)
            yield system, (timing, host, rss, None)
        elif timing is not None:
            traceback.print_exception(timing)
            yield system, (None, None, rss, f"{type(timing).__name__}: {timing}")


def measure_each(
    workload: Workload, size: int, systems: Sequence[str], settings: Settings
) -> Iterator[tuple[str, Measurement]]:
    """``measure`` of one system after the other, each measured when asked for."""
    for system in systems:
        measured = measure(workload, size, system, settings)
        if measured[0] is not None or measured[3] is not None:
            yield system, measured  # else: no such variant (a tuned dask latency loop)


def run_workload(
    workload: Workload,
    systems: Sequence[str],
    floor: Floor,
    settings: Settings,
    show: Callable[[Row], None],
) -> list[Row]:
    """Every size of ``workload`` on ``systems`` (NumPy first), each row shown when done;
    a workload ``in_turns`` has its systems' runs taken in turns (``measure_in_turns``)."""
    rows = []
    measured_systems = measure_in_turns if workload.in_turns else measure_each
    for size in workload.sizes:
        reference: tuple[float, Any] = (0.0, None)
        order = ("numpy", *(s for s in systems if s != "numpy"))
        for system, measured in measured_systems(workload, size, order, settings):
            if system == "numpy" and measured[0] is not None:
                reference = (measured[0].median / measured[0].iterations, measured[1])
            row = make_row(workload, size, system, measured, reference, floor)
            rows.append(row)
            show(row)
            del measured
            gc.collect()
    return rows
