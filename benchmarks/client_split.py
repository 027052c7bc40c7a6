"""Where the client's CPU goes, per iteration of a weak-scaling program (issue 31).

With peer runs the scheduler is out of the stencil's iterations and what grows with the
worker count is the client's work (``docs/scaling.md``): this splits it. On a fresh
cluster of each worker count (``weak_scaling.program_cluster``), after a warm-up run:

- ``repeats`` runs measure the client's CPU per iteration, in all (``time.process_time``)
  and by thread: the main thread (the user's program: building the arrays, lowering them
  to dask graphs, planning and sending; ``time.thread_time``) and the client's event
  loop thread (its messages: the sends, the workers' replies, the scheduler's);
- one more run under ``cProfile`` (on the main thread, its CPU time) splits the main
  thread's CPU into ``STAGES`` by where the time is spent: a function's own time goes
  to the stage of its file, or, for code of no stage (the standard library, builtins,
  toolz), to its callers' stages, as much as it spent under each. The split is a share of
  the profiled run, applied to the CPU the unprofiled runs measured (the profiler's
  own cost, larger for many small calls, is not in the figures but tilts the shares
  toward code of many small calls, dask's key and graph handling among it).

The client is one of its own loop (``weak_scaling.local_cluster``): the cluster's
processes are managed in this process too, on another thread, counted under "other
threads" with anything else.

Run from the repository root::

    python -m benchmarks.client_split                          # stencil-peers, 8-32 workers
    python -m benchmarks.client_split --workers 4,8,16,32 --out docs/scaling/client_split.md
    python -m benchmarks.client_split --programs stencil,stencil-peers --workers 4,16

It prints a Markdown table per program and, over the worker counts, each stage's growth
per worker (a least-squares line): what the client spends per worker per iteration.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy

from benchmarks import weak_scaling

# (stage, fragments of the paths of the code whose own time it counts): the first match
STAGES = (
    ("lowering", ("dask_gpunumeric/_lowering/",)),
    ("peer-run planning", ("dask_gpunumeric/_runtime/peer_runs.py",)),
    ("placement", ("dask_gpunumeric/_runtime/placement.py",)),
    ("runtime, other", ("dask_gpunumeric/_runtime/",)),
    ("expressions and passes", ("dask_gpunumeric/_ir/", "dask_gpunumeric/_passes/")),
    ("arrays", ("dask_gpunumeric/_array/",)),
    ("library, other", ("dask_gpunumeric/",)),
    ("dask", ("/dask/",)),
    ("distributed", ("/distributed/",)),
)
OTHER = "other"  # code of no stage called from nowhere that has one (the program's own)
NAMES = tuple(name for name, _ in STAGES) + (OTHER,)


@dataclass(frozen=True)
class Split:
    """The client's CPU seconds per iteration of ``program`` on ``workers`` workers: in
    all, on its main thread (split into ``stages``) and on its event loop thread."""

    program: str
    workers: int
    iterations: int
    process: float
    main: float
    loop: float
    stages: dict[str, float] = field(default_factory=dict)

    @property
    def other_threads(self) -> float:
        return max(0.0, self.process - self.main - self.loop)


def stage_of_file(path: str) -> str | None:
    """The stage of code in ``path``; ``None`` where no stage names it."""
    normal = path.replace("\\", "/")
    return next((name for name, parts in STAGES if any(p in normal for p in parts)), None)


def shares(stats: pstats.Stats) -> dict[str, float]:
    """Each stage's share of the profiled time: a function's own time goes to the stage
    of its file, or, where none, to each caller's stage as much as it spent under that
    caller (a caller of no stage: the stage of the caller it spent most time under)."""
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    resolved: dict[Any, str] = {}

    def stage(function: Any, seen: frozenset[Any] = frozenset()) -> str:
        if function in resolved:
            return resolved[function]
        own = stage_of_file(function[0])
        if own is None:
            callers = table.get(function, (0, 0, 0, 0, {}))[4]
            # the caller it spent most time under (its cumulative time from there)
            ranked = sorted(callers.items(), key=lambda item: item[1][3], reverse=True)
            fresh = [caller for caller, _ in ranked if caller not in seen]
            own = stage(fresh[0], seen | {function}) if fresh else OTHER
        if not seen:  # a result found inside a cycle may depend on where it began
            resolved[function] = own
        return own

    time_of = dict.fromkeys(NAMES, 0.0)
    for function, (_, _, own_time, _, callers) in table.items():
        own = stage_of_file(function[0])
        if own is not None or not callers:
            time_of[own or OTHER] += own_time
            continue
        for caller, (_, _, from_there, _) in callers.items():  # its own time, by caller
            time_of[stage(caller)] += from_there
    total = sum(time_of.values())
    return {name: (spent / total if total else 0.0) for name, spent in time_of.items()}


def _loop_time(client: Any) -> float:
    """CPU seconds the client's event loop thread has spent so far."""

    async def now() -> float:
        return time.thread_time()

    return float(client.sync(now))


def _cpu(client: Any, run: Callable[[], Any]) -> tuple[float, float, float]:
    """``run()``'s CPU seconds: of this process, of its main thread, of the client's loop."""
    process, main, loop = time.process_time(), time.thread_time(), _loop_time(client)
    run()
    return (time.process_time() - process, time.thread_time() - main,
            _loop_time(client) - loop)  # fmt: skip


def measure(program: str, workers: int, iterations: int = 16, repeats: int = 3) -> Split:
    """The client's CPU of ``program`` on a fresh cluster of ``workers`` (the module
    docstring): the median of ``repeats`` runs, then a profiled run's shares."""
    n = weak_scaling.size(program, workers)
    with weak_scaling.program_cluster(program, workers) as (client, _, _):
        weak_scaling.program_run(program, n, iterations)[0]()  # warm-up
        measured = [_cpu(client, weak_scaling.program_run(program, n, iterations)[0])
                    for _ in range(repeats)]  # fmt: skip
        run = weak_scaling.program_run(program, n, iterations)[0]
        profile = cProfile.Profile(time.thread_time)
        profile.runcall(run)
    process, main, loop = (float(numpy.median(column)) / iterations
                           for column in zip(*measured, strict=True))  # fmt: skip
    split = shares(pstats.Stats(profile))
    return Split(program, workers, iterations, process, main, loop,
                 {name: share * main for name, share in split.items()})  # fmt: skip


def per_worker(splits: list[Split]) -> dict[str, float]:
    """Each figure's growth per worker (seconds per worker per iteration): the slope of
    a least-squares line over ``splits``' worker counts (one program's)."""
    workers = [s.workers for s in splits]
    columns = {"client": [s.process for s in splits], "main thread": [s.main for s in splits],
               **{name: [s.stages[name] for s in splits] for name in NAMES},
               "event loop thread": [s.loop for s in splits]}  # fmt: skip
    return {name: float(numpy.polyfit(workers, values, 1)[0]) for name, values in columns.items()}


def table(splits: list[Split]) -> str:
    """The splits of one program as Markdown, with the growth per worker."""
    header = ["workers", "client", "main thread", *(f"{n}" for n in NAMES),
              "event loop thread", "other threads"]  # fmt: skip
    lines = [f"### {splits[0].program}: the client's CPU, ms per iteration", "",
             "| " + " | ".join(header) + " |", "|" + "---:|" * len(header)]  # fmt: skip
    for s in splits:
        row = [s.process, s.main, *(s.stages[n] for n in NAMES), s.loop, s.other_threads]
        lines.append(f"| {s.workers} | " + " | ".join(f"{v * 1e3:.2f}" for v in row) + " |")
    if len(splits) > 1:
        slopes = per_worker(splits)
        lines += ["", "Growth per worker, ms per worker per iteration (least squares): "
                  + ", ".join(f"{name} {slope * 1e3:.3f}" for name, slope in slopes.items())]  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", default="stencil-peers")
    parser.add_argument("--workers", default="8,16,32", help="worker counts, comma-separated")
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="also write the tables here (Markdown)")
    args = parser.parse_args(argv)
    programs = args.programs.split(",")
    if unknown := set(programs) - set(weak_scaling.PROGRAMS):
        parser.error(f"unknown programs {sorted(unknown)}; choose from {weak_scaling.PROGRAMS}")
    counts = [int(w) for w in args.workers.split(",")]
    tables = []
    for program in programs:
        splits = [measure(program, w, args.iterations, args.repeats) for w in counts]
        tables.append(table(splits))
        print(tables[-1], flush=True)
    if args.out:
        args.out.write_text("\n".join(tables))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
