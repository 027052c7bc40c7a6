"""Soak: 20,000 stencil iterations with periodic reductions, memory flat, NumPy's results.

The one-hour-equivalent run of issue 8 ("Long runs"). The stencil of ``examples/stencil.py``
(``benchmarks.long_loops.stencil_grid``: a 512 x 512 grid in 2 x 2 blocks by default) runs
for ``--iterations``; every ``--reduce-every`` iterations ``float(grid.sum())`` and
``float(abs(grid).max())`` are computed (a synchronization, as a user's convergence check).
NumPy runs the same loop first; the two series of reductions and the final grids must
agree within ``RTOL`` (the blocks' sums add in another order than NumPy's pairwise sum).

Every ``--every`` iterations the loop reads one element (so the work is done) and samples:
wall and client-CPU time per iteration over the window since the previous sample, the
client's RSS, the scheduler's (the embedded cluster's scheduler runs in a process of its
own), the workers' RSS summed and the largest worker's, the task records the scheduler
holds, and the spans of distributed's spans extension with the task groups they name. A
row is printed per sample as the run goes.

The verdict compares the mean of the first quarter of the samples taken after warm-up
(the first ``WARMUP_FRACTION`` of the iterations: imports, the cluster's first tasks,
allocator arenas filling) with the mean of the last quarter, for the client, the
scheduler and the workers' sum: "flat" when the growth is at most ``FLAT_FRACTION`` (10%) of the first
quarter's mean or at most ``SLACK_MIB`` (8 MiB), whichever is larger, else "GROWING".
The absolute slack covers quantities where 10% is less than what a sample's timing alone
moves: a sample may fall while a persisted version and its successor are both held
(2 MiB per grid) and glibc keeps freed arenas mapped; a leak of even 1 KiB per iteration
is 20 MiB over the full run and still shows.

Exit status: 0 when the results equal NumPy's and memory is flat; ``EXIT_DIFFERS`` (3)
when a result differs, ``EXIT_GROWING`` (4) when memory grows, 7 for both. ``--quick``
(600 iterations, a sample every 100) checks the machinery; its verdict is noise.

Run from the repository root::

    python -m benchmarks.soak                   # 20,000 iterations, the embedded cluster
    python -m benchmarks.soak --quick --threads # threaded scheduler, in process
    python -m benchmarks.soak --json soak.json  # samples and series for later reading
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy

from benchmarks.long_loops import stencil_grid
from benchmarks.loop_samples import (
    MiB,
    client_rss,
    loop_client,
    scheduler_rss,
    scheduler_spans,
    scheduler_tasks,
    worker_rss_each,
)

RTOL = 1e-9
WARMUP_FRACTION = 0.1
FLAT_FRACTION = 0.10
SLACK_MIB = 8.0
EXIT_DIFFERS = 3
EXIT_GROWING = 4


@dataclass(frozen=True)
class SoakSample:
    """The loop's state at ``iteration``; cluster fields are ``None`` on threads."""

    iteration: int
    seconds_per_iteration: float  # wall clock, over the window since the previous sample
    cpu_per_iteration: float  # this process's CPU time, same window
    client_rss: int
    scheduler_rss: int | None  # the scheduler's process
    worker_rss: int | None  # summed over the workers
    worker_rss_max: int | None  # the largest worker's
    scheduler_tasks: int | None
    scheduler_spans: int | None  # distributed's spans extension: spans held
    span_groups: int | None  # and the task groups they name


@dataclass
class Reductions:
    """``grid.sum()`` and ``abs(grid).max()`` at each reduction iteration."""

    iterations: list[int] = field(default_factory=list)
    sums: list[float] = field(default_factory=list)
    maxima: list[float] = field(default_factory=list)

    def record(self, iteration: int, grid: Any) -> None:
        self.iterations.append(iteration)
        self.sums.append(float(grid.sum()))
        self.maxima.append(float(abs(grid).max()))


@dataclass(frozen=True)
class Verdict:
    """First-quarter against last-quarter mean of one memory series, after warm-up."""

    name: str
    first_mib: float
    last_mib: float
    growth_mib: float
    growth_percent: float
    mib_per_1000: float  # least-squares slope over the samples after warm-up
    flat: bool


@dataclass(frozen=True)
class SoakSettings:
    """What one soak runs."""

    iterations: int
    every: int
    reduce_every: int
    n: int


def expected(settings: SoakSettings) -> tuple[Reductions, numpy.ndarray]:
    """NumPy's reductions and final grid for ``settings`` (the oracle)."""
    grid, steps = stencil_grid(numpy, settings.n)
    reductions = Reductions()
    for iteration in range(1, settings.iterations + 1):
        next(steps)
        if iteration % settings.reduce_every == 0:
            reductions.record(iteration, grid)
    return reductions, grid


def soak(
    grid: Any, steps: Iterator[None], settings: SoakSettings, client: Any, reductions: Reductions
) -> Iterator[SoakSample]:
    """Advance ``steps`` (``stencil_grid``'s, on ``grid``) ``settings.iterations`` times,
    recording into ``reductions``; yield a sample every ``settings.every`` iterations."""
    read = lambda: float(grid[settings.n // 2, settings.n // 2])  # noqa: E731
    window = (time.perf_counter(), time.process_time())
    for iteration in range(1, settings.iterations + 1):
        next(steps)
        if iteration % settings.reduce_every == 0:
            reductions.record(iteration, grid)
        if iteration % settings.every == 0:
            read()
            yield _sample(iteration, window, settings.every, client)
            window = (time.perf_counter(), time.process_time())


def _sample(iteration: int, window: tuple[float, float], length: int, client: Any) -> SoakSample:
    each, spans = worker_rss_each(client), scheduler_spans(client)
    return SoakSample(
        iteration,
        (time.perf_counter() - window[0]) / length,
        (time.process_time() - window[1]) / length,
        client_rss(),
        scheduler_rss(client),
        None if each is None else sum(each.values()),
        None if each is None else max(each.values()),
        scheduler_tasks(client),
        None if spans is None else spans[0],
        None if spans is None else spans[1],
    )


def verdict(name: str, samples: list[SoakSample], values: Sequence[float], warmup: int) -> Verdict:
    """Flat or growing: the mean of ``values`` (bytes, one per sample) over the last quarter
    of the samples after iteration ``warmup`` against the first quarter's."""
    pairs = [(s.iteration, v) for s, v in zip(samples, values, strict=True) if s.iteration > warmup]
    pairs = pairs or [(s.iteration, v) for s, v in zip(samples, values, strict=True)]
    kept = [v for _, v in pairs]
    quarter = max(1, len(kept) // 4)
    first = statistics.fmean(kept[:quarter]) / MiB
    last = statistics.fmean(kept[-quarter:]) / MiB
    growth = last - first
    slope = _slope(pairs) * 1000 / MiB
    flat = growth <= max(FLAT_FRACTION * first, SLACK_MIB)
    return Verdict(name, first, last, growth, 100 * growth / first, slope, flat)


def _slope(pairs: list[tuple[int, float]]) -> float:
    """Least-squares slope of ``(iteration, value)`` pairs (0 for fewer than two)."""
    if len(pairs) < 2:
        return 0.0
    return float(statistics.linear_regression(*zip(*pairs, strict=True)).slope)


def differences(ours: Reductions, theirs: Reductions, grid: Any, grid_np: Any) -> list[str]:
    """What differs from NumPy beyond ``RTOL``: the reductions, then the final grid (ours
    brought to the host by ``numpy.asarray``, as a user would)."""
    found = []
    if ours.iterations != theirs.iterations:
        found.append(f"reductions at {ours.iterations[:5]}... not {theirs.iterations[:5]}...")
    for name in ("sums", "maxima"):
        a, b = numpy.array(getattr(ours, name)), numpy.array(getattr(theirs, name))
        bad = a.size if a.shape != b.shape else numpy.count_nonzero(~numpy.isclose(a, b, RTOL, 0))
        if bad:
            found.append(f"{name} differ from NumPy's at {bad} of {b.size} reductions")
    final, scale = numpy.asarray(grid), float(numpy.max(numpy.abs(grid_np)))
    if final.shape != grid_np.shape or not numpy.allclose(final, grid_np, 0, RTOL * scale):
        found.append("the final grid differs from NumPy's")
    return found


HEADER = (
    f"{'iteration':>10} {'ms/it':>8} {'cpu ms/it':>10} {'client MiB':>11} {'sched MiB':>10} "
    f"{'workers MiB':>12} {'max worker':>11} {'sched tasks':>12} {'spans':>6} {'groups':>7}"
)


def row(s: SoakSample) -> str:
    """One table row for ``s`` (``-`` for what threads do not have)."""

    def mib(value: int | None) -> str:
        return "-" if value is None else f"{value / MiB:.1f}"

    def count(value: int | None) -> str:
        return "-" if value is None else str(value)

    return (
        f"{s.iteration:>10} {s.seconds_per_iteration * 1e3:>8.2f} "
        f"{s.cpu_per_iteration * 1e3:>10.2f} {mib(s.client_rss):>11} "
        f"{mib(s.scheduler_rss):>10} {mib(s.worker_rss):>12} {mib(s.worker_rss_max):>11} "
        f"{count(s.scheduler_tasks):>12} {count(s.scheduler_spans):>6} "
        f"{count(s.span_groups):>7}"
    )


def summarize(samples: list[SoakSample], settings: SoakSettings) -> list[Verdict]:
    """The verdicts for the client's RSS and (on a cluster) the scheduler's and the
    workers' summed RSS."""
    warmup = int(WARMUP_FRACTION * settings.iterations)
    verdicts = [verdict("client", samples, [s.client_rss for s in samples], warmup)]
    if samples and samples[0].worker_rss is not None:
        scheduler = [s.scheduler_rss or 0 for s in samples]
        verdicts.append(verdict("scheduler", samples, scheduler, warmup))
        verdicts.append(verdict("workers", samples, [s.worker_rss or 0 for s in samples], warmup))
    return verdicts


def verdict_line(v: Verdict) -> str:
    return (
        f"{v.name:>9} RSS: first quarter {v.first_mib:.1f} MiB, last quarter "
        f"{v.last_mib:.1f} MiB, growth {v.growth_mib:+.1f} MiB ({v.growth_percent:+.1f}%, "
        f"{v.mib_per_1000:+.2f} MiB per 1,000 iterations): "
        f"{'flat' if v.flat else 'GROWING'}"
    )


def run(args: argparse.Namespace, on_sample: Callable[[SoakSample], None]) -> dict[str, Any]:
    """The soak for the parsed ``args``: NumPy's loop, then ours; the record of both."""
    import dask

    import dask_gpunumeric
    from dask_gpunumeric._backends import get_backend

    settings = SoakSettings(args.iterations, args.every, args.reduce_every, args.n)
    theirs, grid_np = expected(settings)
    ours, samples = Reductions(), []
    with (
        # The soak is of the cluster: its 2 MB grid would stay in the client otherwise
        # (the small-work policy, docs/performance.md "Where small work runs").
        dask.config.set(
            {"gpunumeric.max-chunk-bytes.cpu": args.block_bytes, "gpunumeric.client-work-bytes": 0}
        ),
        loop_client(not args.threads) as client,
    ):
        grid, steps = stencil_grid(dask_gpunumeric, settings.n)
        for sample in soak(grid, steps, settings, client, ours):
            samples.append(sample)
            on_sample(sample)
        chunks = grid.to_dask().chunks
        diffs = differences(ours, theirs, grid, grid_np)
        backend = get_backend().name
    return {
        "backend": backend,
        "settings": asdict(settings),
        "chunks": [list(c) for c in chunks],
        "samples": [asdict(s) for s in samples],
        "ours": asdict(ours),
        "numpy": asdict(theirs),
        "differences": diffs,
        "verdicts": [asdict(v) for v in summarize(samples, settings)],
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; ``--quick`` sets 600 iterations, a sample every 100."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=1_000, help="iterations per sample")
    parser.add_argument("--reduce-every", type=int, default=50, help="iterations per reduction")
    parser.add_argument("--quick", action="store_true", help="600 iterations, --every 100")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--cluster", action="store_true", help="the embedded cluster (default)")
    where.add_argument("--threads", action="store_true", help="dask's threads, in process")
    parser.add_argument("-n", type=int, default=510, help="grid interior (n + 2 squared)")
    parser.add_argument(
        "--block-bytes", default="512 KiB", help="gpunumeric.max-chunk-bytes.cpu (2 x 2 blocks)"
    )
    parser.add_argument("--json", metavar="PATH", help="write samples, series and verdicts")
    args = parser.parse_args(argv)
    if args.quick:
        args.iterations, args.every = 600, 100
    return args


def exit_status(record: dict[str, Any]) -> int:
    """0, or ``EXIT_DIFFERS`` and/or ``EXIT_GROWING`` (bits) for ``record``."""
    growing = any(not v["flat"] for v in record["verdicts"])
    return (EXIT_DIFFERS if record["differences"] else 0) | (EXIT_GROWING if growing else 0)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    print(
        f"soak: {args.iterations} iterations of the {args.n + 2}^2 stencil, reductions every "
        f"{args.reduce_every}, {'threaded, in process' if args.threads else 'embedded cluster'}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    print(HEADER, flush=True)
    start = time.perf_counter()
    record = run(args, lambda sample: print(row(sample), flush=True))
    record["status"] = exit_status(record)
    print(
        f"{time.perf_counter() - start:.0f} s, backend {record['backend']}, blocks "
        f"{record['chunks']}, {len(record['ours']['sums'])} reductions, load average "
        f"{os.getloadavg()[0]:.1f} at the end"
    )
    for v in record["verdicts"]:
        print(verdict_line(Verdict(**v)))
    print("\n".join(record["differences"]) or "results equal NumPy's (reductions, final grid)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(record, out, indent=1)
    return int(record["status"])


if __name__ == "__main__":
    raise SystemExit(main())
