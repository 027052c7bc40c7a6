"""The warm GPU benchmark's JSON and Markdown, and the issue's acceptance lines (reported,
not asserted: a figure is judged from a GPU machine's report only)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from benchmarks.device.measure import LaneRow
from benchmarks.suite.report import duration

# (workload, which of its sizes: 0 the first, None every one, lane compared, limit x
# hand-written, limit x floor); the stencil's sizes are N=4,000 then N=10,000
ACCEPTANCE = (
    ("stencil", 1, "ours-worker", 1.5, 3.0),
    ("stencil", 0, "ours-worker", 2.0, None),
    ("cg", None, "ours-worker", 2.0, None),
    ("black-scholes", None, "ours-worker", 2.0, None),
    ("chain", None, "ours-worker", 2.0, None),
    ("monte-carlo-pi", None, "ours-worker", 2.0, None),
    ("matmul", None, "ours-worker", 2.0, None),
)


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def hand_written_row(rows: list[LaneRow], row: LaneRow) -> LaneRow | None:
    return next(
        (
            r
            for r in rows
            if (r.workload, r.size, r.lane) == (row.workload, row.size, "hand-written")
        ),
        None,
    )


def acceptance(rows: list[LaneRow]) -> list[dict[str, Any]]:
    """The issue's lines, each with its figures and whether they meet it (``None``: no
    figure, the lane did not run or failed)."""
    lines = []
    for workload, which, lane, versus_cupy, versus_floor in ACCEPTANCE:
        sizes = sorted({row.size for row in rows if row.workload == workload})
        for row in rows:
            if (row.workload, row.lane) != (workload, lane):
                continue
            if which is not None and sizes.index(row.size) != which:
                continue
            to_cupy = row.ratio_to(hand_written_row(rows, row))
            to_floor = row.ratio_to_floor
            met = None if to_cupy is None else to_cupy <= versus_cupy
            if versus_floor is not None and met is not None:
                met = met and to_floor is not None and to_floor <= versus_floor
            floor_text = f" and within {versus_floor}x of the floor" if versus_floor else ""
            lines.append({
                "line": f"{workload} {row.size:,}: {lane} within {versus_cupy}x of hand-written CuPy{floor_text}",
                "x hand-written": to_cupy, "x floor": to_floor, "met": met,
            })  # fmt: skip
    return lines


def document(meta: dict[str, Any], rows: list[LaneRow]) -> dict[str, Any]:
    return {
        **meta,
        "rows": [dataclasses.asdict(row) for row in rows],
        "acceptance": acceptance(rows),
    }


def markdown(results: dict[str, Any]) -> str:
    rows = [LaneRow(**row) for row in results["rows"]]
    lines = [
        "### Warm benchmark at real sizes"
        if not results["toy"]
        else "### Warm benchmark (toy sizes)",
        "",
        f"`{results['command']}` on {results['device']}; copy bandwidth "
        f"{results['copy_bandwidth'] / 1e9:.1f} GB/s (read + write, `b[...] = a`, measured in this run).",
        "",
    ]
    if results["simulated"]:
        lines += [
            "**Simulated device: NumPy on this CPU stands in for CuPy. Not a GPU figure.**",
            "",
        ]
    lines += [
        "First run: the lane's first run at the size, compilation included. Warm: the median of "
        "the warm runs, per iteration. NumPy runs once (it compiles nothing), at the real sizes "
        "for fewer iterations. `x cupy`: warm time per iteration over hand-written CuPy's; "
        "`x floor`: over the bytes one iteration must move at the copy bandwidth.",
        "",
        "| workload | size | lane | iterations | first run | warm / iteration | warm runs | x cupy | x floor | correct |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]  # fmt: skip
    for row in rows:
        correct = {True: "yes", False: "NO", None: "not compared"}[row.correct]
        if row.error:
            correct = f"ERROR: {row.error}"
        first = "-" if row.first_s is None else duration(row.first_s)
        warm = "-" if row.warm_per_iteration_s is None else duration(row.warm_per_iteration_s)
        lines.append(
            f"| {row.workload} | {row.size:,} | {row.lane} | {row.iterations} | {first} | {warm} "
            f"| {row.warm_runs} | {_ratio(row.ratio_to(hand_written_row(rows, row)))} "
            f"| {_ratio(row.ratio_to_floor)} | {correct} |"
        )
    if results.get("not_run"):
        lines += ["", "Not run (out of the benchmark's budget): " + ", ".join(results["not_run"])]
    lines += ["", "Issue 29's lines (reported, not asserted):", ""]
    for entry in results["acceptance"]:
        met = {True: "met", False: "NOT MET", None: "no figure"}[entry["met"]]
        lines.append(
            f"- {met}: {entry['line']} (x cupy {_ratio(entry['x hand-written'])}, "
            f"x floor {_ratio(entry['x floor'])})"
        )
    return "\n".join(lines) + "\n"


def write(results: dict[str, Any], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "device-bench.json").write_text(json.dumps(results, indent=1, default=str) + "\n")
    (out / "device-bench.md").write_text(markdown(results))
