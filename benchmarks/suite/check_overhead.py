"""The cost of one check: ``float(x.sum())`` of an array already persisted (issue 16).

An iterative solver materializes a tiny value every iteration (its convergence test);
on a cluster each such check is a round trip whatever the work. Measured here: the
median over ``checks`` checks of ``float(x.sum())`` for a persisted ``x`` of
``ELEMENTS`` float64 (above ``gpunumeric.min-chunk-elements``, so it is cut in blocks:
the sum itself is tens of microseconds), ``x`` one of ``ARRAYS`` arrays in turn, as a
solver's residual is new at each check (the same array twice in a row would find its
partial sums still held on the cluster), on ours with the default configuration
(``ours-default``: wherever the runtime puts it; small work stays in the client, see
``gpunumeric.client-work-bytes``), on the embedded cluster for certain
(``ours-default-cluster``: ``client-work-bytes: 0``, so ``x`` lives on the workers) and
with ``scheduler: threads``; NumPy's ``float(host.sum())`` (the work alone), and a bare
``client.submit(...).result()`` round trip to the embedded cluster (the floor of any
check through its scheduler). ``ours-default-host`` is the same check of
``x = np.array(host)`` that nobody persisted, as a script makes it (after a first,
untimed check as for every lane): whether checks keep paying for the host data. Every check's value is compared with
NumPy's.
"""

from __future__ import annotations

import itertools
import operator
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy

from benchmarks.suite.systems import SCHEDULERS as LANE_SCHEDULERS
from benchmarks.suite.systems import wait_for

# The lanes whose checks are timed (the lanes of data on the workers check the same way).
SCHEDULERS = {lane: LANE_SCHEDULERS[lane] for lane in ("ours-threads", "ours-default")}

ELEMENTS = 1 << 17
ARRAYS = 8
TARGET_S = 3e-3  # issue 16: a check on the embedded cluster under 3 ms


@dataclass(frozen=True)
class CheckOverhead:
    """Median, minimum and maximum seconds of one check, per lane (``numpy``,
    ``ours-threads``, ``ours-default``, ``ours-default-cluster``, ``round-trip``,
    ``ours-default-host``), and whether every checked value equalled NumPy's."""

    checks: int
    elements: int
    median_s: dict[str, float]
    min_s: dict[str, float]
    max_s: dict[str, float]
    correct: bool


def timed(check: Callable[[], float], checks: int) -> tuple[list[float], list[float]]:
    """One warm-up, then ``checks`` timed calls: their seconds and values."""
    check()
    seconds, values = [], []
    for _ in range(checks):
        start = time.perf_counter()
        values.append(check())
        seconds.append(time.perf_counter() - start)
    return seconds, values


def round_trip(checks: int) -> list[float]:
    """Seconds of ``client.submit(operator.add, 1, i).result()`` on the embedded
    cluster (started here if no computation has started it)."""
    from dask_gpunumeric._runtime.cluster import client_for_computation

    client = client_for_computation()
    counter = iter(range(10**9))
    seconds, values = timed(
        lambda: float(client.submit(operator.add, 1, next(counter), pure=False).result()),
        checks,
    )
    return seconds


def measure_check_overhead(checks: int) -> CheckOverhead:
    """The lanes' checks, side by side in this run (the embedded cluster starts before
    the first timed check, in the warm-up)."""
    import dask_gpunumeric

    hosts = [numpy.random.default_rng(7 + i).random(ELEMENTS) for i in range(ARRAYS)]
    expected = [float(host.sum()) for host in hosts]
    times: dict[str, list[float]] = {}
    checked: list[tuple[float, float]] = []  # (value, NumPy's)

    def measure(name: str, arrays: list[Any]) -> None:
        turn = itertools.cycle(range(ARRAYS))
        order: list[int] = []

        def check() -> float:
            order.append(next(turn))
            return float(arrays[order[-1]].sum())

        times[name], values = timed(check, checks)
        checked.extend(zip(values, (expected[i] for i in order[1:]), strict=True))  # no warm-up

    measure("numpy", hosts)
    for lane, scheduler in SCHEDULERS.items():
        with dask_gpunumeric.config.set(scheduler=scheduler):
            measure(lane, [wait_for(dask_gpunumeric.array(h).persist()) for h in hosts])
            if lane == "ours-default":
                with dask_gpunumeric.config.set(client_work_bytes=0):
                    on_workers = [wait_for(dask_gpunumeric.array(h).persist()) for h in hosts]
                    measure("ours-default-cluster", on_workers)
                times["round-trip"] = round_trip(checks)
                measure("ours-default-host", [dask_gpunumeric.array(h) for h in hosts])
    correct = all(abs(v - e) <= 1e-12 * abs(e) for v, e in checked)
    return CheckOverhead(
        checks, ELEMENTS,
        {lane: statistics.median(s) for lane, s in times.items()},
        {lane: min(s) for lane, s in times.items()},
        {lane: max(s) for lane, s in times.items()},
        correct,
    )  # fmt: skip
