"""How the suite times a run and samples its memory.

A system at one size is run once to warm up (caches, compiled loops, thread pools), then
timed ``repeats`` times, stopping early once ``budget`` seconds have gone; the median, the
minimum and the maximum are kept. A run that already took a large share of the budget is
itself the only measurement (its warm-up was the same program at the workload's smallest
size). While the runs go, a thread samples this process's RSS: the peak, and the peak
above the RSS when the runs started (what the system itself added).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

import psutil

SAMPLE_SECONDS = 0.01


@dataclass(frozen=True)
class Measured:
    """What a run may return instead of its bare result: the iterations it did (a run that
    stops at its own budget does fewer) and the seconds of its timed part (a run that times
    only its loop, not its set-up)."""

    result: Any
    iterations: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class Timing:
    """Seconds of the timed runs of one system at one size."""

    times: tuple[float, ...]
    iterations: int
    result: Any
    warmed_at_size: bool

    @property
    def median(self) -> float:
        return statistics.median(self.times)


@dataclass
class PeakRss:
    """The RSS of this process sampled by a thread: the peak, and the RSS at the start."""

    start: int = 0
    peak: int = 0

    @property
    def increase(self) -> int:
        return max(0, self.peak - self.start)


@contextmanager
def sampled_rss() -> Iterator[PeakRss]:
    """Sample this process's RSS every 10 ms while the block runs."""
    process, stop = psutil.Process(), threading.Event()
    sample = PeakRss(start=process.memory_info().rss)
    sample.peak = sample.start

    def watch() -> None:
        while not stop.wait(SAMPLE_SECONDS):
            sample.peak = max(sample.peak, process.memory_info().rss)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield sample
    finally:
        stop.set()
        watcher.join()
        sample.peak = max(sample.peak, process.memory_info().rss)


def run_once(run: Callable[[], Any], iterations: int) -> tuple[Any, float, int]:
    """``run`` timed: its result, its seconds and its iterations (``Measured`` overrides)."""
    start = time.perf_counter()
    outcome = run()
    seconds = time.perf_counter() - start
    if isinstance(outcome, Measured):
        seconds = seconds if outcome.seconds is None else outcome.seconds
        iterations = iterations if outcome.iterations is None else outcome.iterations
        outcome = outcome.result
    return outcome, seconds, iterations


def timed_repeats(
    run: Callable[[], Any], iterations: int, repeats: int, budget: float, fill: float = 0.0
) -> Timing:
    """A warm-up run, then up to ``repeats`` timed runs within ``budget`` seconds, and more
    (up to ``MAX_REPEATS``) while the timed runs together take under ``fill`` seconds: the
    median of three runs of a few milliseconds moves by a third from one suite run to the
    next (dense CG at n=1,000). A first run longer than a third of the budget is kept as
    the one measurement."""
    result, first, done = run_once(run, iterations)
    if first > budget / 3:
        return Timing((first,), done, result, warmed_at_size=False)
    times: list[float] = []
    while wants_more(times, repeats, budget, fill):
        result, seconds, done = run_once(run, iterations)
        times.append(seconds)
    return Timing(tuple(times), done, result, warmed_at_size=True)


def wants_more(times: list[float], repeats: int, budget: float, fill: float) -> bool:
    """Whether a system with timed runs ``times`` is timed once more (``timed_repeats``)."""
    spent = sum(times)
    return (len(times) < repeats or (spent < fill and len(times) < MAX_REPEATS)) and (
        not times or spent + times[-1] <= budget
    )


def repeats_in_turns(
    runs: Mapping[str, Callable[[], Any]],
    around: Callable[[str], AbstractContextManager[Any]],
    iterations: int,
    repeats: int,
    budget: float,
    fill: float = 0.0,
) -> dict[str, Timing | BaseException]:
    """``timed_repeats`` of each of ``runs`` (by system), the systems taking turns: one
    warm-up run each, then rounds in which every system that ``wants_more`` is timed once,
    the order turned by one each round. A load that comes and goes on the machine then
    falls on every system alike, and the ratios between them (the default path's beside
    the threaded scheduler's, both beside NumPy's) are of runs side by side, not of
    minutes apart. Each run is made inside ``around(system)`` (its configuration), entered
    outside the clock. A system whose run raises gets its exception and leaves the turns."""
    outcome: dict[str, Timing | BaseException] = {}
    times: dict[str, list[float]] = {}
    last: dict[str, tuple[Any, int]] = {}
    for system, run in runs.items():
        try:
            with around(system):
                result, first, done = run_once(run, iterations)
        except Exception as error:  # noqa: BLE001 - the caller reports it in the row
            outcome[system] = error
            continue
        if first > budget / 3:
            outcome[system] = Timing((first,), done, result, warmed_at_size=False)
        else:
            times[system], last[system] = [], (result, done)
    turn = 0
    while waiting := [s for s in times if wants_more(times[s], repeats, budget, fill)]:
        start = turn % len(waiting)
        for system in waiting[start:] + waiting[:start]:
            try:
                with around(system):
                    result, seconds, done = run_once(runs[system], iterations)
            except Exception as error:  # noqa: BLE001 - as above
                outcome[system] = error
                del times[system]
                continue
            times[system].append(seconds)
            last[system] = (result, done)
        turn += 1
    for system, taken in times.items():
        result, done = last[system]
        outcome[system] = Timing(tuple(taken), done, result, warmed_at_size=True)
    return {system: outcome[system] for system in runs}


MAX_REPEATS = 30
