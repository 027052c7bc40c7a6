"""``python -m benchmarks run``: the whole suite in one run, JSON + Markdown + PNG.

Run from the repository root::

    python -m benchmarks run --quick --out /tmp/results.json      # small: correctness, < 3 min
    python -m benchmarks run --out benchmarks/results.json --markdown benchmarks/RESULTS.md
    python -m benchmarks run --gpu                                # CuPy chunks; skips without a GPU
    python -m benchmarks run --family user-programs --out /tmp/user/results.json  # issue 16's

Two families: ``core`` (issue 9's workloads on NumPy, dask.array and ours with fusion and
halo off and on, then the worker scaling) and ``user-programs`` (issue 16's programs on
NumPy, dask.array where it can, ours on threads and on the embedded default cluster,
then the per-check overhead and the issue's acceptance lines); both unless ``--family``
names one. ``--gpu`` runs the core family only.

The PNG is written beside the JSON (same name, ``.png``); the Markdown beside it too
(``.md``) unless ``--markdown`` names it. The exit status is 1 when a result differs from
NumPy's (what CI checks with ``--quick``; no timing is asserted).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.suite import report
from benchmarks.suite.acceptance import acceptance, verdict
from benchmarks.suite.check_overhead import CheckOverhead, measure_check_overhead
from benchmarks.suite.floor import measure_floor
from benchmarks.suite.gpu import device_name, gpu_unavailable_reason
from benchmarks.suite.machine import describe_machine
from benchmarks.suite.plot import plot
from benchmarks.suite.runner import Row, Settings, run_workload
from benchmarks.suite.scaling import ScalingRow, scaling
from benchmarks.suite.systems import GPU_SYSTEMS, SYSTEMS, close_user_cluster
from benchmarks.suite.workloads import FAMILIES, USER_PROGRAMS, workload_table

FULL = {"repeats": 3, "fill": 0.3, "budget": 10.0, "dask_budget": 20.0,
        "floor_elements": 1 << 27, "weak_n": 2000, "strong_n": 4000,
        "scaling_iterations": 20, "checks": 50}  # fmt: skip
QUICK = {"repeats": 1, "fill": 0.0, "budget": 2.0, "dask_budget": 2.0,
         "floor_elements": 1 << 22, "weak_n": 128, "strong_n": 256,
         "scaling_iterations": 5, "checks": 20}  # fmt: skip


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the suite")
    run.add_argument("--quick", action="store_true", help="small sizes, one run each")
    run.add_argument("--out", type=Path, default=Path("results.json"), help="the JSON")
    run.add_argument("--markdown", type=Path, help="the Markdown (default: beside --out)")
    run.add_argument("--gpu", action="store_true", help="CuPy chunks and CuPy alone")
    run.add_argument("--family", choices=FAMILIES, help="one family only (default: both)")
    run.add_argument(
        "--workloads",
        help="comma-separated subset of the workloads' names "
        "(check-overhead: the per-check overhead)",
    )
    run.add_argument("--no-scaling", action="store_true", help="skip the worker scaling")
    run.add_argument("--repeats", type=int, help="timed runs after the warm-up")
    run.add_argument("--budget", type=float, help="seconds after which a system stops repeating")
    run.add_argument("--dask-budget", type=float, help="seconds for the dask slices stencil")
    return parser.parse_args(argv)


def chosen(args: argparse.Namespace) -> dict[str, Any]:
    settings = dict(QUICK if args.quick else FULL)
    for name in ("repeats", "budget", "dask_budget"):
        if getattr(args, name) is not None:
            settings[name] = getattr(args, name)
    return settings


def show_row(row: Row) -> None:
    verdict = "ok" if row.correct else f"DIFFERS FROM NUMPY {row.error or ''}"
    print(
        f"  {row.workload} {row.size:,} {row.system:<10} {report.duration(row.per_iteration_s):>9}"
        f"/iter  x numpy {report.ratio(row.ratio_to_numpy):>6}  x floor "
        f"{report.ratio(row.ratio_to_floor):>6}  runs {row.repeats}  peak "
        f"{row.peak_rss_bytes / report.MiB:.0f} MiB  {verdict}",
        flush=True,
    )


def show_scaling(row: ScalingRow) -> None:
    print(
        f"  {row.kind} scaling, {row.workers} workers, N={row.n}: "
        f"{report.duration(row.seconds_per_iteration)}/iter, efficiency {row.efficiency:.2f}"
        f"{' (oversubscribed: more workers than cores)' if row.oversubscribed else ''}"
        f"{'' if row.correct else ' DIFFERS FROM NUMPY'}",
        flush=True,
    )


def measure_all(args: argparse.Namespace, settings: dict[str, Any]) -> dict[str, Any]:
    """Floor, workloads and scaling on this machine; the JSON document."""
    import dask

    import dask_gpunumeric

    machine = describe_machine()
    if args.gpu:
        machine["gpu"] = device_name()
    print(f"benchmark suite: {machine['cores']} cores, load average "
          f"{machine['load_average_start'][0]:.2f}, {'quick' if args.quick else 'full'}",
          flush=True)  # fmt: skip
    floor = measure_floor(settings["floor_elements"], settings["repeats"])
    print(f"floor: copy {floor.copy / 1e9:.1f} GB/s, triad {floor.triad / 1e9:.1f} GB/s")
    workloads = chosen_workloads(args, settings)
    run_settings = Settings(settings["repeats"], settings["budget"], settings["fill"])
    rows: list[Row] = []
    backend = "cupy" if args.gpu else dask_gpunumeric.config.get("backend")
    with (
        dask.config.set(scheduler="threads", num_workers=os.cpu_count() or 2),
        dask_gpunumeric.config.set(scheduler="threads", backend=backend),
    ):
        try:
            for number, workload in enumerate(workloads, 1):
                print(f"[{number}/{len(workloads)}] {workload.name} {workload.note}", flush=True)
                start = time.perf_counter()
                systems = workload.systems or (GPU_SYSTEMS if args.gpu else SYSTEMS)
                rows += run_workload(workload, systems, floor, run_settings, show_row)
                print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
        finally:
            close_user_cluster()
        overhead = None
        if measures_overhead(args, workloads):
            print(f"[check overhead] float(x.sum()), median of {settings['checks']}", flush=True)
            overhead = measure_check_overhead(settings["checks"])
            show_overhead(overhead)
    scaled: list[ScalingRow] = []
    if not (args.no_scaling or args.gpu or not runs_family(args, "core")):
        print("[scaling] stencil, ours, on 1, 2 and 4 single-threaded workers", flush=True)
        scaled = scaling(settings["weak_n"], settings["strong_n"],
                         settings["scaling_iterations"], show_scaling)  # fmt: skip
    machine["load_average_end"] = list(os.getloadavg())
    notes = [f"{w.name}: {w.note}" for w in workloads if "lowered" in w.note]
    if any(s.oversubscribed for s in scaled):
        notes.append(f"scaling: {max(s.workers for s in scaled)} workers on "
                     f"{machine['cores']} cores are oversubscribed")  # fmt: skip
    recorded = {**settings, "quick": args.quick, "gpu": args.gpu, "backend": backend}
    results = report.document(machine, floor, recorded, workloads, rows, scaled, notes)
    results["check_overhead"] = None if overhead is None else dataclasses.asdict(overhead)
    results["acceptance"] = []
    if overhead is not None or any(w.family == USER_PROGRAMS for w in workloads):
        results["acceptance"] = acceptance(results["rows"], results["check_overhead"])
        print("acceptance lines of issue 16 (reported, not asserted):")
        for entry in results["acceptance"]:
            print(f"  {verdict(entry)}: {entry['line']}: {entry['figures']}")
    return results


def runs_family(args: argparse.Namespace, family: str) -> bool:
    return family in FAMILIES and args.family in (None, family)


def measures_overhead(args: argparse.Namespace, workloads: list[Any]) -> bool:
    """With the user programs (``--workloads check-overhead``: alone)."""
    if args.gpu or not runs_family(args, USER_PROGRAMS):
        return False
    if args.workloads is not None:
        return "check-overhead" in args.workloads.split(",")
    return any(w.family == USER_PROGRAMS for w in workloads)


def chosen_workloads(args: argparse.Namespace, settings: dict[str, Any]) -> list[Any]:
    """The table of the mode, cut to ``--family`` and ``--workloads``; ``--gpu``: core."""
    workloads = workload_table(args.quick, settings["dask_budget"])
    if args.gpu:
        workloads = [w for w in workloads if w.family == "core"]
    if args.family:
        workloads = [w for w in workloads if w.family == args.family]
    if args.workloads:
        workloads = [w for w in workloads if w.name in args.workloads.split(",")]
    return workloads


def show_overhead(overhead: CheckOverhead) -> None:
    lanes = ", ".join(f"{lane} {report.duration(s)}" for lane, s in overhead.median_s.items())
    print(f"  median per check: {lanes}{'' if overhead.correct else ' DIFFERS FROM NUMPY'}")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.gpu and (reason := gpu_unavailable_reason()) is not None:
        print(f"--gpu: skipped: {reason}. Nothing was measured.")
        return 0
    start = time.perf_counter()
    results = measure_all(args, chosen(args))
    markdown_path = args.markdown or args.out.with_suffix(".md")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report.write_json(results, args.out)
    command = " ".join(["python -m benchmarks", *(sys.argv[1:] if argv is None else argv)])
    markdown_path.write_text(report.markdown(results, command))
    plot(results, args.out.with_suffix(".png"))
    wrong = [r for r in results["rows"] if not r["correct"]]
    wrong += [s for s in results["scaling"] if not s["correct"]]
    if results["check_overhead"] is not None and not results["check_overhead"]["correct"]:
        wrong.append(results["check_overhead"])
    print(f"wrote {args.out}, {markdown_path}, {args.out.with_suffix('.png')} "
          f"in {time.perf_counter() - start:.0f} s")  # fmt: skip
    if wrong:
        print(f"{len(wrong)} result(s) differ from NumPy's", file=sys.stderr)
        return 1
    return 0
