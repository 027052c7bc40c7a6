"""A model of the time per iteration against the worker count, from the weak-scaling
measurements (``python -m benchmarks.weak_scaling``), checked against them and taken to
1,024 workers (issue 31). ``docs/scaling.md`` explains it; in short:

**What the scheduler handles per iteration** (``operations``): the stencil's tasks, by
the halo structure: per group of ``halo-sweeps`` iterations, one task per block and one
per ordered pair of neighbouring blocks (a ghost slab; 8 neighbours, corners included,
since merged sweeps need them), plus a run's setup (a task per block for ``np.zeros``,
then one group for its boundary writes), so over ``I`` iterations
``((blocks + pairs) (ceil(I / sweeps) + 1) + blocks) / I``. CG's matrix stays where its
blocks are: each check asks every worker once, directly (no task), so ``workers``
requests per iteration, plus the tasks measured. The stencil's formula is compared with
the tasks counted at every measured point.

**On this machine** (the measured points; ``cores`` shared by all the processes): every
worker, busy or not, spends ``idle`` of a core on its heartbeats and periodic callbacks
(measured on each point's cluster before its runs, ``Point.idle``: an input of the
point, as its operations are), so the workers' CPU in an iteration of ``T`` seconds
holds ``idle w T`` that no operation causes; and ``compute`` of it is arithmetic (timed
alone on each point's cluster, ``Point.compute``, another input: CG's grows with the
worker count, its rows per worker fixed and its columns not). Net of both, the CPU of
the scheduler and the workers per operation (``cpu_per_operation``) and the client's CPU
per iteration (linear in the worker count) are fitted on the points with at most
``FIT_UP_TO`` workers; then

    T(w) = latency + (operations(w) cpu_per_operation + compute(w) + client(w)
                      + idle w T(w)) / cores
         = (latency + (operations(w) cpu_per_operation + compute(w) + client(w)) / cores)
           / (1 - idle w / cores)

with ``latency`` the part of the fitted points' time that is no CPU (waiting on
messages). The points with more workers (16 and 32) check it.

**On a cluster** (a worker per GPU, each with its own cores; one scheduler process):

    T(w) = compute + exchange + operations(w) / w * worker_cpu_per_operation
           + operations(w) * scheduler_cpu_per_operation + client(w) + latency

``compute`` is the block's bytes read and written once over the GPU's memory bandwidth
(the stencil's floor), ``exchange`` the ghost slabs over the link between GPUs (idle
workers take no one else's cores there, so no idle term); the
scheduler's CPU per operation is this machine's (fitted, on a shared core). The
scheduler's work is taken as serial with the rest (it handles each group's tasks as
the previous group's finish). Efficiency is ``T(1) / T(w)``.

Run from the repository root::

    python -m benchmarks.scaling_model                          # docs/scaling/scaling.json
    python -m benchmarks.scaling_model --points /tmp/scaling/scaling.json
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy

from benchmarks.weak_scaling import Point, load, load_rounds

FIT_UP_TO = 8  # workers: the points fitted; the larger ones check the fit
CHECKED = (16, 32)
TOLERANCE = 0.25  # the check: within 25% of the measured time
HALO_SWEEPS = 8  # gpunumeric.halo-sweeps' default, the iterations one task merges

# The 1,024-worker prediction: the stencil with a 10,000 x 10,000 block per H100.
H100_BANDWIDTH = 3352e9  # bytes/s: the peak in docs/gpu-results.md (2 x clock x bus)
LINK_BANDWIDTH = 25e9  # bytes/s between GPUs of different nodes (200 Gb/s InfiniBand)
H100_MEMORY = 80 * 2**30
GPU_BLOCK = 10_000
TARGET_WORKERS = 1024


def neighbour_pairs(grid: tuple[int, ...]) -> int:
    """Ordered pairs of neighbouring blocks (faces and corners) in a layout of ``grid``
    blocks per axis (one or two axes)."""
    rows, columns = (*grid, 1)[:2]
    faces = (rows - 1) * columns + rows * (columns - 1)
    corners = 2 * (rows - 1) * (columns - 1)
    return 2 * (faces + corners)


def stencil_tasks(grid: tuple[int, ...], iterations: int, sweeps: int = HALO_SWEEPS) -> float:
    """Tasks per iteration of the stencil over ``iterations`` on ``grid`` blocks: the halo
    structure's count (the module docstring)."""
    blocks, pairs = math.prod(grid), neighbour_pairs(grid)
    groups = math.ceil(iterations / sweeps) + 1  # the boundary writes' group, then the loop's
    return ((blocks + pairs) * groups + blocks) / iterations


def peer_requests(workers: int, iterations: int, sweeps: int = HALO_SWEEPS) -> float:
    """The client's requests per iteration of the stencil run by the workers among
    themselves (``gpunumeric.peer-runs``): one per worker for each group the scheduler
    would have had (``stencil_tasks``' groups)."""
    return workers * (math.ceil(iterations / sweeps) + 1) / iterations


def operations(point: Point) -> float:
    """What the scheduler or the client handles per iteration at ``point``: measured
    tasks and peer runs' requests, plus CG's one request per worker per check."""
    return point.tasks + point.requests + (point.workers if point.program == "cg" else 0)


def structure(point: Point) -> float | None:
    """The operations per iteration the program's structure gives at ``point``: the
    stencil's tasks, or its peer requests; ``None`` for CG (its checks' requests)."""
    if point.program == "stencil":
        return stencil_tasks(point.grid, point.iterations)
    if point.program == "stencil-peers":
        return peer_requests(point.workers, point.iterations)
    return None


@dataclass(frozen=True)
class Fit:
    """The fitted parameters of one program (seconds per iteration or per operation)."""

    program: str
    cpu_per_operation: float  # scheduler's and workers' CPU, this machine, net of compute
    scheduler_per_operation: float
    client: tuple[float, float]  # client CPU per iteration: intercept, per worker
    latency: float
    cores: int

    def client_at(self, workers: int) -> float:
        return self.client[0] + self.client[1] * workers

    def here(self, workers: int, operations: float, idle: float, compute: float = 0.0) -> float:
        """Seconds per iteration on this machine (its cores shared, ``idle`` of a core
        taken by each worker whatever it does, ``compute`` CPU seconds of arithmetic)."""
        cpu = operations * self.cpu_per_operation + compute + self.client_at(workers)
        return (self.latency + cpu / self.cores) / self.busy_share(workers, idle)

    def busy_share(self, workers: int, idle: float) -> float:
        """The share of this machine's cores left to the work beside ``workers`` taking
        ``idle`` of a core each."""
        return max(1e-3, 1 - idle * workers / self.cores)

    def cluster(self, workers: int, operations: float, compute: float, exchange: float) -> float:
        """Seconds per iteration on a cluster of ``workers`` GPUs (the module docstring)."""
        worker_cpu = self.cpu_per_operation - self.scheduler_per_operation
        return (compute + exchange + operations / workers * worker_cpu
                + operations * self.scheduler_per_operation + self.client_at(workers)
                + self.latency)  # fmt: skip


def fit(points: list[Point], program: str, cores: int, up_to: int = FIT_UP_TO) -> Fit:
    """The parameters of ``program`` fitted on its points with at most ``up_to``
    workers."""
    mine = [p for p in points if p.program == program and p.workers <= up_to]
    if len(mine) < 2:
        raise ValueError(f"{program}: at least two points up to {up_to} workers are needed")
    total = sum(operations(p) for p in mine)
    cpu = sum(p.scheduler + p.workers_cpu - p.idle * p.workers * p.seconds - p.compute
              for p in mine) / total  # fmt: skip
    scheduler = sum(p.scheduler for p in mine) / total
    clients = [p.client for p in mine]
    slope, intercept = numpy.polyfit([p.workers for p in mine], clients, 1)
    if slope < 0:  # the client's work does not shrink with the workers: the points' noise
        slope, intercept = 0.0, float(numpy.mean(clients))
    partial = Fit(program, cpu, scheduler, (float(intercept), float(slope)), 0.0, cores)
    latency = max(0.0, float(numpy.mean([
        p.seconds * partial.busy_share(p.workers, p.idle)
        - (operations(p) * cpu + p.compute + partial.client_at(p.workers)) / cores
        for p in mine])))  # fmt: skip
    return Fit(program, cpu, scheduler, partial.client, latency, cores)


@dataclass(frozen=True)
class Check:
    """The model against one measured point."""

    point: Point
    predicted: float
    structural: float | None  # the stencil's formula (tasks, or peer requests), else None

    @property
    def ratio(self) -> float:
        return self.predicted / self.point.seconds

    @property
    def within(self) -> bool:
        return abs(self.ratio - 1) <= TOLERANCE


def checks(points: list[Point], model: Fit) -> list[Check]:
    """Every point of the model's program, predicted with its operations measured."""
    out = []
    for p in (p for p in points if p.program == model.program):
        predicted = model.here(p.workers, operations(p), p.idle, p.compute)
        out.append(Check(p, predicted, structure(p)))
    return out


def gpu_layout(workers: int) -> tuple[int, ...]:
    """The blocks per axis ours gives the stencil's grid of ``GPU_BLOCK`` squared elements
    per worker on ``workers`` H100s (``partitioning.default_chunks``: at 800 MB a worker's
    share is over ``max-chunk-bytes.gpu``, so it gets two blocks)."""
    from dask_gpunumeric._runtime.partitioning import ClusterShape, default_chunks

    n = int(GPU_BLOCK * math.sqrt(workers)) + 2
    chunks = default_chunks((n, n), ClusterShape(workers, H100_MEMORY, device=True))
    return tuple(len(c) for c in chunks)


@dataclass(frozen=True)
class Prediction:
    workers: int
    operations: float
    seconds: float
    scheduler: float  # its share: operations x scheduler CPU per operation
    efficiency: float


def gpu_stencil(model: Fit, counts: tuple[int, ...], sweeps: int = HALO_SWEEPS,
                iterations: int = 1000) -> list[Prediction]:  # fmt: skip
    """The stencil with a ``GPU_BLOCK`` square block per H100 on each of ``counts`` workers:
    seconds per iteration over a run of ``iterations``, with ``sweeps`` merged; its
    operations those of ``model``'s program (tasks, or peer requests)."""
    compute = 2 * GPU_BLOCK**2 * 8 / H100_BANDWIDTH  # read the block, write it, once
    out: list[Prediction] = []
    for workers in counts:
        layout = gpu_layout(workers)
        exchange = 0.0 if workers == 1 else 4 * GPU_BLOCK * 8 / LINK_BANDWIDTH
        ops = (peer_requests(workers, iterations, sweeps)
               if model.program == "stencil-peers"
               else stencil_tasks(layout, iterations, sweeps))  # fmt: skip
        seconds = model.cluster(workers, ops, compute, exchange)
        base = out[0].seconds if out else seconds
        out.append(Prediction(workers, ops, seconds, ops * model.scheduler_per_operation,
                              base / seconds))  # fmt: skip
    return out


def report(points: list[Point], cores: int,
           rounds: list[list[Point]] | None = None) -> tuple[str, bool]:  # fmt: skip
    """The check and the 1,024-worker prediction as Markdown; whether every checked
    point is within the tolerance. ``rounds``, where given, are the measurements each
    of ``points`` is the median of: their range is shown beside it."""
    lines, ok = [], True
    spread = {}
    for same in zip(*(rounds or []), strict=True):
        times = [p.seconds * 1e3 for p in same]
        spread[same[0].program, same[0].workers] = f"{min(times):.2f}-{max(times):.2f}"
    models = {}
    for program in dict.fromkeys(p.program for p in points):
        model = models[program] = fit(points, program, cores)
        lines += [f"### {program}: fitted on 1-{FIT_UP_TO} workers",
                  "",
                  f"CPU per operation (scheduler and workers) "
                  f"{model.cpu_per_operation * 1e3:.2f} ms, of it the scheduler's "
                  f"{model.scheduler_per_operation * 1e3:.2f} ms; client "
                  f"{model.client[0] * 1e3:.2f} + {model.client[1] * 1e3:.3f} x workers ms; "
                  f"latency {model.latency * 1e3:.2f} ms; {cores} cores",
                  "",
                  "| workers | operations/it | operations/it, structure | idle worker, "
                  f"% of a core | ms/it measured | {len(rounds or [])} rounds, ms/it, range | "
                  "ms/it model | model/measured |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
        for check in checks(points, model):
            p = check.point
            built = "" if check.structural is None else f"{check.structural:.2f}"
            flag = ""
            if p.workers in CHECKED:
                ok &= check.within
                flag = " (checked)" if check.within else " (OUTSIDE 25%)"
            lines.append(f"| {p.workers} | {operations(p):.2f} | {built} | "
                         f"{p.idle:.1%} | {p.seconds * 1e3:.2f} | "
                         f"{spread.get((p.program, p.workers), '')} | "
                         f"{check.predicted * 1e3:.2f} | {check.ratio:.2f}{flag} |")  # fmt: skip
        lines.append("")
    routes = [program for program in ("stencil", "stencil-peers") if program in models]
    if routes:
        counts = (1, 8, 64, 256, TARGET_WORKERS)
        lines += [f"### The stencil on H100s, a {GPU_BLOCK:,} x {GPU_BLOCK:,} block each, "
                  f"a long run", "",
                  "| route | workers | halo-sweeps | operations/it | scheduler ms/it | "
                  "client ms/it | ms/it | efficiency |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
        for program in routes:
            route = "peer runs" if program == "stencil-peers" else "scheduler"
            for sweeps in (HALO_SWEEPS, 64):  # 64: with halo-max-depth raised to 64
                for at in gpu_stencil(models[program], counts, sweeps):
                    client = models[program].client_at(at.workers)
                    lines.append(f"| {route} | {at.workers:,} | {sweeps} | "
                                 f"{at.operations:.1f} | {at.scheduler * 1e3:.2f} | "
                                 f"{client * 1e3:.2f} | {at.seconds * 1e3:.2f} | "
                                 f"{at.efficiency:.3f} |")  # fmt: skip
        lines.append("")
    return "\n".join(lines), ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=Path, default=Path("docs/scaling/scaling.json"))
    parser.add_argument("--out", type=Path, help="also write the report here (Markdown)")
    args = parser.parse_args(argv)
    cores = int(json.loads(args.points.read_text())["cores"])
    text, ok = report(load(args.points), cores, load_rounds(args.points))
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
