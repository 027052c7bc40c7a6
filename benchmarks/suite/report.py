"""The suite's results: a JSON document and a Markdown report of the same figures.

JSON: ``{"machine", "floor", "settings", "workloads", "rows", "scaling", "notes"}``
(``rows``: ``runner.Row`` fields; ``scaling``: ``scaling.ScalingRow`` fields). Markdown:
the machine, the floor, one table per workload (one line per size and system), the
scaling table, the notes.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

MiB = 2**20
ROW_HEADER = (
    "| size | system | iterations | runs | median s | min s | max s | per iteration "
    "| x NumPy | x floor | peak RSS MiB | RSS added MiB | correct |"
)
SCALING_HEADER = (
    "| scaling | workers | N | iterations | per iteration | efficiency | correct "
    "| client peak MiB | largest worker peak MiB | note |"
)


def duration(seconds: float | None) -> str:
    """Seconds in a readable unit: ``1.23 s``, ``45.6 ms``, ``78.9 us``."""
    if seconds is None or math.isnan(seconds):
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale or unit == "us":
            return f"{seconds / scale:.3g} {unit}"
    raise AssertionError("unreachable")


def ratio(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.3g}"


def document(
    machine: dict[str, Any],
    floor: Any,
    settings: dict[str, Any],
    workloads: list[Any],
    rows: list[Any],
    scaling: list[Any],
    notes: list[str],
) -> dict[str, Any]:
    return {
        "machine": machine,
        "floor": {
            "copy_bytes_per_s": floor.copy,
            "triad_bytes_per_s": floor.triad,
            "bandwidth_bytes_per_s": floor.bandwidth,
        },  # fmt: skip
        "settings": settings,
        "workloads": [
            {
                "name": w.name,
                "sizes": list(w.sizes),
                "size_label": w.size_label,
                "floor_note": w.floor_note,
                "note": w.note,
            }  # fmt: skip
            for w in workloads
        ],
        "rows": [dataclasses.asdict(r) for r in rows],
        "scaling": [dataclasses.asdict(s) for s in scaling],
        "notes": notes,
    }


def write_json(results: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(results, indent=1, allow_nan=True) + "\n")


def row_line(row: dict[str, Any]) -> str:
    cells = [
        f"{row['size']:,}", row["system"], str(row["iterations"]), str(row["repeats"]),
        duration(row["median_s"]), duration(row["min_s"]), duration(row["max_s"]),
        duration(row["per_iteration_s"]), ratio(row["ratio_to_numpy"]),
        ratio(row["ratio_to_floor"]), f"{row['peak_rss_bytes'] / MiB:.0f}",
        f"{row['rss_increase_bytes'] / MiB:.0f}",
        "yes" if row["correct"] else f"**NO** {row['error'] or ''}".strip(),
    ]  # fmt: skip
    return "| " + " | ".join(cells) + " |"


def scaling_line(row: dict[str, Any]) -> str:
    cells = [
        row["kind"], str(row["workers"]), f"{row['n']:,}", str(row["iterations"]),
        duration(row["seconds_per_iteration"]), f"{row['efficiency']:.2f}",
        "yes" if row["correct"] else "**NO**", f"{row['client_peak_rss_bytes'] / MiB:.0f}",
        f"{row['worker_peak_rss_bytes'] / MiB:.0f}",
        "oversubscribed: more workers than cores" if row["oversubscribed"] else "",
    ]  # fmt: skip
    return "| " + " | ".join(cells) + " |"


def machine_lines(machine: dict[str, Any], floor: dict[str, Any]) -> list[str]:
    versions = ", ".join(f"{k} {v}" for k, v in machine["versions"].items())
    end = machine.get("load_average_end")
    return [
        f"- date: {machine['date']}; commit {machine['commit']}",
        f"- machine: {machine['cores']} cores ({machine['cpu_model']}), "
        f"{machine['ram_bytes'] / 2**30:.1f} GiB RAM, GPU: {machine['gpu']}; "
        f"{machine['platform']}",
        f"- load average (1, 5, 15 min) at start: "
        f"{', '.join(f'{x:.2f}' for x in machine['load_average_start'])}; at end: "
        f"{'-' if end is None else ', '.join(f'{x:.2f}' for x in end)}",
        f"- versions: {versions}",
        f"- floor: copy {floor['copy_bytes_per_s'] / 1e9:.1f} GB/s, triad "
        f"{floor['triad_bytes_per_s'] / 1e9:.1f} GB/s (read + write, measured in this run; "
        "the better one is the floor)",
    ]


def summary_lines(results: dict[str, Any]) -> list[str]:
    """One line per workload and size, one column per system: time per iteration and,
    in brackets, its ratio to NumPy's (``!`` marks a result that differs from NumPy's)."""
    systems = list(dict.fromkeys(r["system"] for r in results["rows"]))
    lines = ["| workload | size | " + " | ".join(systems) + " | floor |",
             "|---|---:|" + "---:|" * (len(systems) + 1)]  # fmt: skip
    cases = dict.fromkeys((r["workload"], r["size"]) for r in results["rows"])
    for workload, size in cases:
        rows = {r["system"]: r for r in results["rows"]
                if (r["workload"], r["size"]) == (workload, size)}  # fmt: skip
        cells = [
            f"{duration(rows[s]['per_iteration_s'])} ({ratio(rows[s]['ratio_to_numpy'])})"
            + ("" if rows[s]["correct"] else " !")
            if s in rows else "-"
            for s in systems
        ]  # fmt: skip
        floor = next(iter(rows.values()))["floor_per_iteration_s"]
        lines.append(f"| {workload} | {size:,} | " + " | ".join(cells) + f" | {duration(floor)} |")
    return lines


def markdown(results: dict[str, Any], command: str) -> str:
    """The Markdown report of ``results``, which ``command`` regenerates."""
    settings = results["settings"]
    lines = [
        "# Benchmark suite results",
        "",
        f"Regenerate with `{command}`. Times are wall-clock of a whole run (median of "
        f"up to {settings['repeats']} timed runs after a warm-up, stopping after "
        f"{settings['budget']:g} s); `x NumPy` and `x floor` compare time per iteration "
        "(lower is faster); RSS is this process's (the suite runs on dask's threaded "
        "scheduler in one process).",
        "",
        *machine_lines(results["machine"], results["floor"]),
        "",
        "## Summary: time per iteration (x NumPy)",
        "",
        *summary_lines(results),
    ]
    for workload in results["workloads"]:
        rows = [r for r in results["rows"] if r["workload"] == workload["name"]]
        lines += ["", f"## {workload['name']}", "",
                  f"Size: {workload['size_label']}. {workload['note']}".rstrip(),
                  f"Floor: {workload['floor_note']}.", "", ROW_HEADER,
                  "|" + "---|" * ROW_HEADER.count(" | ") + "---|"]  # fmt: skip
        lines += [row_line(r) for r in rows]
    if results["scaling"]:
        lines += ["", "## Worker scaling (stencil, ours, halo on)", "", SCALING_HEADER,
                  "|" + "---|" * SCALING_HEADER.count(" | ") + "---|"]  # fmt: skip
        lines += [scaling_line(s) for s in results["scaling"]]
    if results["notes"]:
        lines += ["", "## Notes", "", *(f"- {note}" for note in results["notes"])]
    return "\n".join(lines) + "\n"
