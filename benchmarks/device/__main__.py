"""``python -m benchmarks.device``: the warm GPU benchmark (``benchmarks/device/``).

    python -m benchmarks.device --out DIR                          # real sizes, CuPy (a GPU)
    python -m benchmarks.device --sizes toy --device simulated --out DIR   # CI's dry run

Writes ``DIR/device-bench.json`` and ``DIR/device-bench.md``. It stops starting lanes once
``--budget`` seconds have gone (the rest are listed as not run). Exit status: 1 when a
lane failed or its result differs from the hand-written lane's, 2 when the budget cut it
short, 3 when ``--device cupy`` finds no device.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.device import report
from benchmarks.device.lanes import LANES, Lane, close_lanes, free_device_memory, make_lane
from benchmarks.device.measure import LaneRow, copy_bandwidth, measure_lane
from benchmarks.device.workloads import DeviceWorkload, workload_table
from benchmarks.suite.report import duration

COPY_ELEMENTS = {"real": 1 << 27, "toy": 1 << 20}  # 1 GiB of float64 on a GPU


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.device", description=__doc__)
    parser.add_argument("--sizes", choices=("real", "toy"), default="real")
    parser.add_argument("--device", choices=("cupy", "simulated"), default="cupy")
    parser.add_argument("--lanes", default=",".join(LANES), help="comma-separated lanes")
    parser.add_argument("--workloads", help="comma-separated names (default: all)")
    parser.add_argument("--repeats", type=int, default=5, help="warm runs per lane")
    parser.add_argument("--lane-budget", type=float, default=8.0, help="seconds of warm runs")
    parser.add_argument("--budget", type=float, default=600.0, help="seconds for everything")
    parser.add_argument("--out", type=Path, default=Path("device-bench"))
    return parser.parse_args(argv)


def device_description(device: str) -> str:
    if device == "simulated":
        return "the simulated device (NumPy on this CPU; not a GPU)"
    from benchmarks.suite.gpu import device_name

    return device_name()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    start = time.monotonic()
    if args.device == "cupy":
        from benchmarks.suite.gpu import gpu_unavailable_reason

        if (reason := gpu_unavailable_reason()) is not None:
            print(f"--device cupy: {reason}. Nothing was measured.")
            return 3
    toy = args.sizes == "toy"
    lanes = [make_lane(name, args.device, toy) for name in args.lanes.split(",")]
    hand = make_lane("hand-written", args.device)
    bandwidth = copy_bandwidth(hand, COPY_ELEMENTS[args.sizes])
    free_device_memory(args.device)
    print(f"copy bandwidth {bandwidth / 1e9:.1f} GB/s on {device_description(args.device)}")
    meta: dict[str, Any] = {
        "command": " ".join(
            ["python -m benchmarks.device", *(sys.argv[1:] if argv is None else argv)]
        ),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": device_description(args.device),
        "simulated": args.device == "simulated",
        "toy": toy,
        "cores": os.cpu_count(),
        "copy_bandwidth": bandwidth,
        "not_run": [],
    }
    rows: list[LaneRow] = []

    def save() -> dict[str, Any]:
        """The report as it stands (rewritten after every lane: a run stopped from
        outside still leaves its rows)."""
        meta["seconds"] = round(time.monotonic() - start, 1)
        results = report.document(meta, rows)
        report.write(results, args.out)
        return results

    wanted = args.workloads.split(",") if args.workloads else None
    try:
        for workload in workload_table():
            if not wanted or workload.name in wanted:
                run_workload(
                    workload, lanes, (args, toy, bandwidth, start), rows, meta["not_run"], save
                )
    finally:
        close_lanes()
    results = save()
    print(report.markdown(results))
    if any(row.error or row.correct is False for row in rows):
        return 1
    return 2 if meta["not_run"] else 0


def run_workload(
    workload: DeviceWorkload,
    lanes: list[Lane],
    run: tuple[argparse.Namespace, bool, float, float],
    rows: list[LaneRow],
    not_run: list[str],
    save: Callable[[], Any],
) -> None:
    """``workload`` on every lane, its host inputs made once for all; a lane that would
    start after the budget is listed in ``not_run`` instead."""
    args, toy, bandwidth, start = run
    reference: Any = None
    hosts: tuple[Any, ...] | None = None
    for lane in lanes:
        label = f"{workload.name} {workload.size(toy):,} {lane.name}"
        if time.monotonic() - start > args.budget:
            not_run.append(label)
            continue
        if hosts is None:
            hosts = workload.inputs(workload.size(toy))
        settings = (args.repeats, args.lane_budget)
        row, host = measure_lane(workload, lane, hosts, toy, settings, bandwidth, reference)
        if lane.name == "hand-written":
            reference = host
        free_device_memory(args.device)
        rows.append(row)
        save()
        print(f"  {label}: first run {duration(row.first_s)}, warm "
              f"{duration(row.warm_per_iteration_s)}/iteration, correct {row.correct} "
              f"{row.error or ''}", flush=True)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
