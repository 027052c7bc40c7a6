"""Weak scaling on 1 to 32 local workers: what grows per iteration with the worker count
(issue 31).

Each worker holds a fixed, small share of the data, so what grows with the worker count
is the work of the scheduler, of the client and of moving boundaries, not compute:

- ``stencil``: the seed stencil (``examples/stencil.py``, halo exchange on) on a grid of
  about ``STENCIL_BLOCK`` x ``STENCIL_BLOCK`` per worker, made on the cluster
  (``np.zeros``), held at the end;
- ``cg``: the user programs' dense CG (``user_programs.dense_cg``: one ``float()`` check
  per iteration) on an SPD matrix of ``CG_ROWS`` rows per worker, persisted on the workers
  before the clock (``dask.persist``, ``distributed.wait``), as a Dask user's data is.

The data stays where it is, as on a cluster elsewhere or at sizes over
``client-work-bytes``: that limit is 0 for the stencil (all its work on the cluster) and,
for CG, under the matrix and over the vectors (``CLIENT_WORK_BYTES``: the matrix's
products computed where its blocks are, its vectors in the client). ``min-chunk-elements``
is ``MIN_CHUNK_ELEMENTS``, so that these small arrays still get a block per worker. Each worker
count gets a fresh cluster: the scheduler and every worker in a process of their own
(``distributed``'s ``SubprocessCluster``, one thread per worker, BLAS and OpenMP pinned to
one thread), this process the client, as a batch job on a cluster is laid out. Per
iteration, the mean over the middle half of ``repeats`` timed runs by time (after one
run to warm up; ``middle_mean``):

- ``seconds``: wall time, to the result held (futures waited for);
- ``tasks``: tasks the scheduler saw finish; ``graphs``: graphs the client sent it;
- ``scheduler``, ``client``, ``workers``: CPU seconds of the scheduler's process, of this
  process and of all workers' processes together;
- ``moved``: bytes moved between workers (each worker's incoming transfers);
- and, once per cluster before the runs, ``idle``: one idle worker's CPU per second (its
  heartbeats and periodic callbacks), over ``IDLE_SECONDS``; ``compute``: the CPU of an
  iteration's arithmetic over every block, alone (a block's, timed on a worker, times
  the blocks: it grows with the worker count for CG, whose rows per worker are fixed
  and whose columns are not).

With ``--rounds R`` every point is measured ``R`` times, one sweep of the worker counts
after another, and the point is its round of median time (``median``): the
load of a shared machine drifts over minutes, and a point measured once takes whatever
the machine was doing then. Every round is kept in the JSON (``rounds``).

On a machine with fewer cores than workers, the processes share the cores: the rows say
so (``oversubscribed``), and ``docs/scaling.md`` says how the model reads them. Results
are compared with NumPy's on the same inputs. Run from the repository root::

    python -m benchmarks.weak_scaling                           # 1-32 workers, both
    python -m benchmarks.weak_scaling --workers 1,2,4 --iterations 8 --out /tmp/scaling
    python -m benchmarks.weak_scaling --repeats 5 --rounds 5    # what docs/scaling.md has

It writes ``scaling.json``, ``scaling.md`` and ``scaling.png`` into ``--out``
(default ``docs/scaling``).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import itertools
import json
import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any
from unittest import mock

import numpy

from benchmarks.suite.scaling import THREAD_ENV
from benchmarks.suite.systems import hold, on_the_workers, to_host
from benchmarks.suite.workloads.linear_algebra import spd_system
from benchmarks.suite.workloads.user_programs import dense_cg
from examples.stencil import stencil

PROGRAMS = ("stencil", "stencil-peers", "cg")
WORKERS = (1, 2, 4, 8, 16, 32)
STENCIL_BLOCK = 128  # grid elements per worker along each axis (about)
CG_ROWS = 128  # matrix rows per worker
MIN_CHUNK_ELEMENTS = 4096
# The stencil's work all on the cluster; CG's matrix over the limit (128 KiB at one
# worker) and its vectors under it (32 KiB at 32): the layout of a large matrix, whose
# products are computed where its blocks are and whose vectors are the client's.
CLIENT_WORK_BYTES = {"stencil": 0, "stencil-peers": 0, "cg": "64 KiB"}
# ``stencil-peers``: the stencil with ``gpunumeric.peer-runs`` on (the workers run each
# computation among themselves: no task for the scheduler).
PEER_RUNS = {"stencil-peers": True}
IDLE_SECONDS = 1.0
# what a timed run measures per iteration (its counts are the same in every run)
TIMED_FIELDS = ("seconds", "scheduler", "client", "workers_cpu", "moved")
COMPUTE_REPEATS = 7  # passes of the arithmetic over every block, the median taken
COUNTS = "gpunumeric-weak-scaling"  # the scheduler plugin's name


@dataclass(frozen=True)
class Point:
    """``program`` on ``workers`` workers (size ``n``: the grid's interior or the matrix's
    order, in ``blocks`` blocks laid out ``grid``: blocks per axis), per iteration over
    ``iterations``: wall ``seconds``, ``tasks`` finished, ``graphs`` submitted, CPU
    seconds of the ``scheduler``, the ``client`` and all ``workers``, bytes ``moved``
    between workers; whether the result equalled NumPy's, and whether the processes
    (workers, scheduler, client) outnumbered the cores."""

    program: str
    workers: int
    n: int
    grid: tuple[int, ...]
    iterations: int
    seconds: float
    tasks: float
    graphs: float
    scheduler: float
    client: float
    workers_cpu: float
    moved: float
    correct: bool
    oversubscribed: bool
    idle: float = 0.0  # one idle worker's CPU, seconds per second, before the runs
    requests: float = 0.0  # the client's requests to workers for peer runs (no task)
    compute: float = 0.0  # the numeric work of an iteration, every block's, alone (CPU s)

    @property
    def blocks(self) -> int:
        return math.prod(self.grid)


def size(program: str, workers: int) -> int:
    """The grid interior (stencil) or matrix order (cg) for ``workers`` workers."""
    if program.startswith("stencil"):
        return int(math.ceil(STENCIL_BLOCK * math.sqrt(workers)))
    return CG_ROWS * workers


# --- what the processes count -------------------------------------------------------


def _install_counts(dask_scheduler: Any) -> int:
    """Add (once) a plugin counting graphs received and tasks finished; the scheduler's
    process id."""
    from distributed.diagnostics.plugin import SchedulerPlugin

    class Counts(SchedulerPlugin):
        def __init__(self) -> None:
            self.graphs = 0
            self.tasks = 0

        def update_graph(self, scheduler: Any, **kwargs: Any) -> None:
            self.graphs += 1

        def transition(self, key: Any, start: str, finish: str, *args: Any, **kw: Any) -> None:
            if start == "processing" and finish == "memory":
                self.tasks += 1

    if COUNTS not in dask_scheduler.plugins:
        dask_scheduler.add_plugin(Counts(), name=COUNTS)
    return os.getpid()


def _counts(dask_scheduler: Any) -> tuple[int, int]:
    plugin = dask_scheduler.plugins[COUNTS]
    return plugin.graphs, plugin.tasks


def _incoming_since(since: float, dask_worker: Any) -> int:
    """Bytes this worker received from other workers in transfers begun after ``since``
    (a ``time.time()``), and in values sent it by peer runs."""
    from dask_gpunumeric._runtime import peer_runs

    return sum(int(entry["total"]) for entry in dask_worker.transfer_incoming_log
               if entry["start"] >= since) + peer_runs.received_since(
                   dask_worker.address, since)  # fmt: skip


@dataclass
class _Sample:
    wall: float
    since: float
    graphs: int
    tasks: int
    scheduler: float
    client: float
    workers_cpu: float
    requests: int


def _cpu(processes: list[Any]) -> float:
    return sum(sum(p.cpu_times()[:2]) for p in processes)


def _sample(client: Any, scheduler: Any, workers: list[Any]) -> _Sample:
    from dask_gpunumeric._runtime import peer_runs

    graphs, tasks = client.run_on_scheduler(_counts)
    return _Sample(time.perf_counter(), time.time(), graphs, tasks, _cpu([scheduler]),
                   time.process_time(), _cpu(workers), peer_runs.requests_sent())  # fmt: skip


# --- the programs ---------------------------------------------------------------------


def _stencil_run(np: Any, n: int, iterations: int) -> tuple[Callable[[], Any], tuple[int, ...]]:
    """The run, and the grid's blocks per axis."""
    return (lambda: hold(stencil(np, n, iterations))), np.zeros((n + 2, n + 2)).numblocks


@functools.lru_cache(maxsize=1)
def _cg_inputs(n: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The system of order ``n``, made once for the expected result and every run."""
    return spd_system(n, seed=n)


def _cg_run(np: Any, n: int, iterations: int) -> tuple[Callable[[], Any], tuple[int, ...]]:
    """The run, its inputs persisted on the workers (before the clock), and the matrix's
    blocks per axis."""
    a, b = on_the_workers(_cg_inputs(n))
    return (lambda: hold(dense_cg(np, a, b, iterations))), a.numblocks


def _expected(program: str, n: int, iterations: int) -> numpy.ndarray:
    if program.startswith("stencil"):
        return numpy.asarray(stencil(numpy, n, iterations))
    return numpy.asarray(dense_cg(numpy, *_cg_inputs(n), iterations))


@contextmanager
def local_cluster(workers: int) -> Iterator[Any]:
    """A client of a fresh cluster of ``workers`` single-threaded workers, the scheduler
    and each worker in a process of its own; with it, the scheduler's process and the
    workers' (``psutil.Process``)."""
    import distributed
    import psutil
    from distributed.deploy.subprocess import SubprocessCluster

    with mock.patch.dict(os.environ, THREAD_ENV):  # the processes inherit it
        # No dashboard (its periodic callbacks would be the scheduler's work): None, as
        # its docstring says, though the annotation says str.
        cluster = SubprocessCluster(n_workers=workers, threads_per_worker=1,
                                    worker_class="distributed.Worker",
                                    dashboard_address=None)  # type: ignore[arg-type]  # fmt: skip
    # A client of its own loop (an address, not the cluster): the cluster's processes are
    # managed in this process too, on the cluster's loop, which a client elsewhere lacks.
    with cluster, distributed.Client(cluster.scheduler_address) as client:
        client.wait_for_workers(workers)
        scheduler = psutil.Process(client.run_on_scheduler(_install_counts))
        processes = [psutil.Process(pid) for pid in client.run(os.getpid).values()]
        yield client, scheduler, processes


def measure(
    program: str, workers: int, iterations: int, repeats: int, halo_sweeps: int | None = None
) -> Point:
    """``program`` on a fresh cluster of ``workers``: ``repeats`` timed runs after one to
    warm up, their middle half by time (``middle_mean``); ``halo_sweeps``, where given,
    sets ``gpunumeric.halo-sweeps``."""
    n = size(program, workers)
    expected = _expected(program, n, iterations)
    points: list[Point] = []
    with program_cluster(program, workers, halo_sweeps) as (client, scheduler, processes):
        idle = _idle(processes)
        warm_up, grid = program_run(program, n, iterations)
        compute = _compute(client, program, n, grid)
        warm_up()
        for _ in range(repeats):
            run, grid = program_run(program, n, iterations)
            before = _sample(client, scheduler, processes)
            result = run()
            after = _sample(client, scheduler, processes)
            moved = sum(client.run(_incoming_since, before.since).values())
            correct = bool(numpy.allclose(to_host(result), expected, rtol=1e-9, atol=1e-9))
            points.append(_point(program, workers, n, tuple(grid), iterations, before,
                                 after, moved, correct))  # fmt: skip
    return dataclasses.replace(middle_mean(points), idle=idle, compute=compute)


def middle_mean(runs: list[Point]) -> Point:
    """One point from the timed runs of one point: every quantity the mean over the runs
    between the first and the last quartile of time (the middle three of five, all of
    three). Wall and CPU times over the same runs, so that the CPU fits in the wall time
    (an idle worker's CPU grows with a run's length); and a mean, since CPU times come in
    clock ticks (10 ms: 0.6 ms per iteration of a 16-iteration run)."""
    ordered = sorted(runs, key=lambda run: run.seconds)
    cut = len(ordered) // 4
    kept = ordered[cut : len(ordered) - cut]
    means: dict[str, Any] = {name: float(numpy.mean([getattr(run, name) for run in kept]))
                             for name in TIMED_FIELDS}  # fmt: skip
    return dataclasses.replace(kept[len(kept) // 2], **means,
                               correct=all(run.correct for run in runs))  # fmt: skip


def median(rounds: list[Point]) -> Point:
    """One point from the same point measured in several rounds: the round of median time
    (the lower of the two middle ones for an even count), every quantity from it, so that
    its CPU fits in its wall time, as ``middle_mean`` keeps them; equal to NumPy's only
    where every round was. The machine's load drifts over minutes, and a round measures
    every point once: the median keeps a round that drifted from deciding a point."""
    first = rounds[0]
    if any((p.program, p.workers, p.n, p.grid, p.iterations)
           != (first.program, first.workers, first.n, first.grid, first.iterations)
           for p in rounds):  # fmt: skip
        raise ValueError("the rounds are not of one point")
    ordered = sorted(rounds, key=lambda p: p.seconds)
    middle = ordered[(len(ordered) - 1) // 2]
    return dataclasses.replace(middle, correct=all(p.correct for p in rounds))


@contextmanager
def program_cluster(program: str, workers: int, halo_sweeps: int | None = None) -> Iterator[Any]:
    """``local_cluster(workers)``, with the library configured as ``program`` is measured
    (its ``client-work-bytes``, ``min-chunk-elements``, peer runs; ``halo_sweeps``, where
    given, sets ``gpunumeric.halo-sweeps``)."""
    import dask_gpunumeric

    sweeps = {} if halo_sweeps is None else {"halo_sweeps": halo_sweeps}
    with (
        local_cluster(workers) as cluster,
        dask_gpunumeric.config.set(scheduler="distributed",
                                   client_work_bytes=CLIENT_WORK_BYTES[program],
                                   min_chunk_elements=MIN_CHUNK_ELEMENTS,
                                   peer_runs=PEER_RUNS.get(program, False), **sweeps),
    ):  # fmt: skip
        yield cluster


def program_run(program: str, n: int, iterations: int) -> tuple[Callable[[], Any], tuple[int, ...]]:
    """A run of ``program`` at size ``n`` (its inputs made), and its blocks per axis."""
    import dask_gpunumeric

    make = _stencil_run if program.startswith("stencil") else _cg_run
    return make(dask_gpunumeric, n, iterations)


def _compute(client: Any, program: str, n: int, grid: tuple[int, ...]) -> float:
    """CPU seconds of an iteration's arithmetic over every block of ``grid``, alone: the
    program's arithmetic on each block in turn, on one worker (its BLAS threads), the
    blocks together as large as the program's data, so that they come from the caches
    or from memory as on the cluster (CG's matrix at 32 workers is 134 MB, over this
    machine's 32 MiB of L3). The stencil sweeps its five-point average; CG multiplies
    its matrix's blocks by a vector (its vectors' work is the client's, and small)."""
    side = n + 2 if program.startswith("stencil") else n
    shape = tuple(math.ceil(side / blocks) for blocks in (*grid, 1)[:2])
    (seconds,) = client.run(_pass_seconds, program, shape, math.prod(grid),
                            workers=[_first(client)]).values()  # fmt: skip
    return float(seconds)


def _first(client: Any) -> str:
    return str(sorted(client.scheduler_info()["workers"])[0])


def _pass_seconds(program: str, shape: tuple[int, int], count: int) -> float:
    """On a worker: the median CPU time of a pass of the program's arithmetic over
    ``count`` blocks of ``shape``."""
    rng = numpy.random.default_rng(0)
    blocks = [rng.random(shape) for _ in range(count)]
    vector = rng.random(shape[1])

    def sweep(block: numpy.ndarray) -> None:
        center = block[1:-1, 1:-1]
        average = center + block[:-2, 1:-1] + block[1:-1, 2:] + block[1:-1, :-2]
        center[:] = 0.2 * (average + block[2:, 1:-1])

    def product(block: numpy.ndarray) -> None:
        block @ vector

    work = sweep if program.startswith("stencil") else product
    times = []
    for _ in range(COMPUTE_REPEATS):
        start = time.thread_time()
        for block in blocks:
            work(block)
        times.append(time.thread_time() - start)
    return float(numpy.median(times))


def _idle(workers: list[Any]) -> float:
    """One idle worker's CPU seconds per second, the mean over ``workers``."""
    start, cpu = time.perf_counter(), _cpu(workers)
    time.sleep(IDLE_SECONDS)
    return (_cpu(workers) - cpu) / (time.perf_counter() - start) / len(workers)


def _point(program: str, workers: int, n: int, grid: tuple[int, ...], iterations: int,
           before: _Sample, after: _Sample, moved: int, correct: bool) -> Point:  # fmt: skip
    per = 1 / iterations
    return Point(
        program=program, workers=workers, n=n, grid=grid, iterations=iterations,
        seconds=(after.wall - before.wall) * per,
        tasks=(after.tasks - before.tasks) * per,
        graphs=(after.graphs - before.graphs) * per,
        scheduler=(after.scheduler - before.scheduler) * per,
        client=(after.client - before.client) * per,
        workers_cpu=(after.workers_cpu - before.workers_cpu) * per,
        moved=moved * per, correct=correct,
        requests=(after.requests - before.requests) * per,
        oversubscribed=workers + 2 > (os.cpu_count() or 1),
    )  # fmt: skip


# --- the report -----------------------------------------------------------------------

COLUMNS: tuple[tuple[str, Callable[[Point, float], str]], ...] = (
    # header, how a point (and its efficiency) shows it
    ("workers", lambda p, e: f"{p.workers}"),
    ("n", lambda p, e: f"{p.n:,}"),
    ("blocks", lambda p, e: f"{p.blocks}"),
    ("ms/iteration", lambda p, e: f"{p.seconds * 1e3:.2f}"),
    ("efficiency", lambda p, e: f"{e:.2f}"),
    ("tasks/it", lambda p, e: f"{p.tasks:.2f}"),
    ("peer requests/it", lambda p, e: f"{p.requests:.2f}"),
    ("graphs/it", lambda p, e: f"{p.graphs:.3f}"),
    ("scheduler CPU ms/it", lambda p, e: f"{p.scheduler * 1e3:.2f}"),
    ("client CPU ms/it", lambda p, e: f"{p.client * 1e3:.2f}"),
    ("workers CPU ms/it", lambda p, e: f"{p.workers_cpu * 1e3:.2f}"),
    ("moved kB/it", lambda p, e: f"{p.moved / 1e3:.1f}"),
    ("arithmetic CPU ms/it", lambda p, e: f"{p.compute * 1e3:.2f}"),
    ("idle worker, % of a core", lambda p, e: f"{p.idle:.1%}"),
    ("equal to NumPy", lambda p, e: "yes" if p.correct else "NO"),
)


def efficiency(points: list[Point], point: Point) -> float:
    """Weak-scaling efficiency: the one-worker time of the program over this time."""
    (one,) = [p for p in points if p.program == point.program and p.workers == 1] or [point]
    return one.seconds / point.seconds


def table(points: list[Point]) -> str:
    """The points as Markdown, a table per program."""
    lines = []
    for program in dict.fromkeys(p.program for p in points):
        lines += [f"### {program}", "",
                  "| " + " | ".join(header for header, _ in COLUMNS) + " |",
                  "|" + "---:|" * len(COLUMNS)]  # fmt: skip
        for point in (p for p in points if p.program == program):
            ratio = efficiency(points, point)
            lines.append("| " + " | ".join(show(point, ratio) for _, show in COLUMNS) + " |")
        lines.append("")
    return "\n".join(lines)


def plot(points: list[Point], path: Path) -> None:
    """Time per iteration and the scheduler's, client's and tasks' share, per program,
    against the worker count (log 2)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    programs = list(dict.fromkeys(p.program for p in points))
    figure, axes = plt.subplots(1, len(programs), figsize=(6 * len(programs), 4), squeeze=False)
    for axis, program in zip(axes[0], programs, strict=True):
        mine = [p for p in points if p.program == program]
        workers = [p.workers for p in mine]
        for label, values in (
            ("wall", [p.seconds for p in mine]),
            ("scheduler CPU", [p.scheduler for p in mine]),
            ("client CPU", [p.client for p in mine]),
            ("workers CPU (all)", [p.workers_cpu for p in mine]),
        ):
            axis.plot(workers, [v * 1e3 for v in values], marker="o", label=label)
        axis.set_xscale("log", base=2)
        axis.set_xlabel("workers")
        axis.set_ylabel("ms per iteration")
        axis.set_title(f"{program}: weak scaling, {os.cpu_count()} cores")
        axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default=",".join(map(str, WORKERS)),
                        help="worker counts, comma-separated")  # fmt: skip
    parser.add_argument("--programs", default=",".join(PROGRAMS))
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure every point this many times, one sweep of the worker "
                             "counts after another; each point its round of median time")  # fmt: skip
    parser.add_argument("--halo-sweeps", type=int, help="gpunumeric.halo-sweeps (default: its own)")
    parser.add_argument("--out", type=Path, default=Path("docs/scaling"))
    args = parser.parse_args(argv)
    programs = args.programs.split(",")
    if unknown := set(programs) - set(PROGRAMS):
        parser.error(f"unknown programs {sorted(unknown)}; choose from {PROGRAMS}")
    counts = [int(w) for w in args.workers.split(",")]
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    started = time.perf_counter()
    rounds: list[list[Point]] = []
    for number in range(args.rounds):
        rounds.append([])
        for program, workers in itertools.product(programs, counts):
            point = measure(program, workers, args.iterations, args.repeats, args.halo_sweeps)
            rounds[-1].append(point)
            print(f"{number + 1}/{args.rounds} "
                  f"{program:8} {workers:3} workers: {point.seconds * 1e3:8.2f} ms/it, "
                  f"{point.tasks:6.2f} tasks/it, scheduler {point.scheduler * 1e3:6.2f} ms/it, "
                  f"client {point.client * 1e3:6.2f} ms/it, an idle worker {point.idle:.1%} of a core"
                  f"{'' if point.correct else '  DIFFERS FROM NUMPY'}", flush=True)  # fmt: skip
    points = [median(list(same)) for same in zip(*rounds, strict=True)]
    args.out.mkdir(parents=True, exist_ok=True)
    document = {"cores": os.cpu_count(), "iterations": args.iterations,
                "repeats": args.repeats, "points": [asdict(p) for p in points],
                "rounds": [[asdict(p) for p in measured] for measured in rounds]}  # fmt: skip
    (args.out / "scaling.json").write_text(json.dumps(document, indent=1) + "\n")
    (args.out / "scaling.md").write_text(table(points))
    plot(points, args.out / "scaling.png")
    print(f"wrote {args.out}/scaling.json, scaling.md, scaling.png in "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    return 0 if all(p.correct for p in points) else 1


def load(path: Path) -> list[Point]:
    """The points of a ``scaling.json`` (each the median of its rounds)."""
    return _points(json.loads(path.read_text())["points"])


def load_rounds(path: Path) -> list[list[Point]]:
    """Every round of a ``scaling.json``, each a list of points as ``load``'s; none for
    a file written before rounds were kept."""
    return [_points(measured) for measured in json.loads(path.read_text()).get("rounds", [])]


def _points(points: list[dict[str, Any]]) -> list[Point]:
    names = {f.name for f in fields(Point)}
    return [Point(**{**{k: v for k, v in p.items() if k in names}, "grid": tuple(p["grid"])})
            for p in points]  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
