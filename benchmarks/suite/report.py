"""The suite's results: a JSON document and a Markdown report of the same figures.

JSON: ``{"machine", "floor", "settings", "workloads", "rows", "scaling", "notes",
"check_overhead", "acceptance"}`` (``rows``: ``runner.Row`` fields; ``scaling``:
``scaling.ScalingRow`` fields; ``check_overhead``: ``check_overhead.CheckOverhead``'s or
null; ``acceptance``: issue 16's lines, ``acceptance.py``). Markdown: the machine, the
floor, a summary per family (the core workloads; the user programs with both lanes of
ours side by side), the acceptance lines and the per-check overhead, one table per
workload (one line per size and system), the scaling table, the notes.
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
USER_LANES = (
    "ours-default",
    "ours-threads",
    "ours-persisted",
    "ours-threads-persisted",
    "ours-user-cluster",
    "dask",
)
USER_HEADER = (
    "| program | size | NumPy | ours default (x NumPy) | ours threads (x NumPy) "
    "| ours persisted (x NumPy) | ours threads, persisted (x NumPy) "
    "| ours, user's LocalCluster (x NumPy) | dask (x NumPy) | default / threads |"
)
SCALING_HEADER = (
    "| scaling | workers | N | iterations | per iteration | efficiency | correct "
    "| client peak MiB | largest worker peak MiB | note |"
)


def _filled(settings: dict[str, Any]) -> str:
    """How short programs repeat (settings of results written before ``fill`` read 0)."""
    fill = settings.get("fill", 0.0)
    return f", more (up to 30) until the timed runs take {fill:g} s" if fill else ""


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
                "family": w.family,
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


def family_rows(results: dict[str, Any], family: str) -> list[dict[str, Any]]:
    names = {w["name"] for w in results["workloads"] if w.get("family", "core") == family}
    return [r for r in results["rows"] if r["workload"] in names]


def case_rows(rows: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, dict[str, Any]]]:
    """Rows by (workload, size), then by system, in the order they ran."""
    cases: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    for row in rows:
        cases.setdefault((row["workload"], row["size"]), {})[row["system"]] = row
    return cases


def timed_cell(row: dict[str, Any] | None) -> str:
    """Seconds of a whole run and, in brackets, the ratio to NumPy (``!``: differs)."""
    if row is None:
        return "-"
    cold = "" if row["warmed_at_size"] else " c"
    wrong = "" if row["correct"] else " !"
    return f"{duration(row['median_s'])} ({ratio(row['ratio_to_numpy'])}){cold}{wrong}"


def user_summary_lines(results: dict[str, Any]) -> list[str]:
    """The user programs: NumPy's whole-run seconds, each lane's and its ratio to NumPy,
    and ours on the default cluster over ours on threads."""
    lines = [USER_HEADER, "|---|---:|" + "---:|" * (len(USER_LANES) + 2)]
    for (workload, size), rows in case_rows(family_rows(results, "user-programs")).items():
        default, threads = rows.get("ours-default"), rows.get("ours-threads")
        versus = ratio(default["median_s"] / threads["median_s"]) if default and threads else "-"
        numpy_row = rows.get("numpy")
        cells = [workload, f"{size:,}", duration(numpy_row["median_s"]) if numpy_row else "-",
                 *(timed_cell(rows.get(lane)) for lane in USER_LANES), versus]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def overhead_lines(overhead: dict[str, Any]) -> list[str]:
    lines = ["| check | median | min | max |", "|---|---:|---:|---:|"]
    for lane, median in overhead["median_s"].items():
        lines.append(f"| {lane} | {duration(median)} | {duration(overhead['min_s'][lane])} "
                     f"| {duration(overhead['max_s'][lane])} |")  # fmt: skip
    return lines


def acceptance_lines(entries: list[dict[str, Any]]) -> list[str]:
    verdicts = {True: "met", False: "**not met**", None: "not measured"}
    return [f"- {verdicts[e['met']]}: {e['line']} ({e['figures']})" for e in entries]


def user_section(results: dict[str, Any]) -> list[str]:
    """The user programs' summary, the acceptance lines and the per-check overhead."""
    lines = ["", "## User programs (issue 16): whole program, side by side", "",
             "Seconds of the whole program (its inputs made inside it with `np.array(host)`) "
             "and, in brackets, the ratio to NumPy's; `!` marks a result that differs from "
             "NumPy's, `c` a single cold run (its first run at this size took over a third "
             "of the budget, so it is the measurement). `ours default` is the embedded default cluster (no configuration), "
             "`ours threads` is `gpunumeric.scheduler: threads`; the `persisted` lanes and "
             "`user's LocalCluster` (a `LocalCluster(n_workers=2, threads_per_worker=1)` "
             "client made current) start from inputs persisted on the workers before "
             "the clock (`dask.persist`, `distributed.wait`), anew for each run.", "",
             *user_summary_lines(results)]  # fmt: skip
    if results.get("acceptance"):
        lines += ["", "### Acceptance lines of issue 16 (reported, not asserted)", "",
                  *acceptance_lines(results["acceptance"])]  # fmt: skip
    overhead = results.get("check_overhead")
    if overhead:
        lines += ["", "### Per-check overhead", "",
                  f"`float(x.sum())` of a persisted `x` of {overhead['elements']:,} float64, "
                  f"{overhead['checks']} checks after a warm-up; `numpy` is the work alone, "
                  "`ours-default` the default configuration (small work stays in the "
                  "client), `ours-default-cluster` the same with `client-work-bytes: 0` "
                  "(`x` on the embedded cluster's workers), `round-trip` a bare "
                  "`client.submit(...).result()` there, `ours-default-host` the check of "
                  "an `np.array(host)` nobody persisted."
                  f"{'' if overhead['correct'] else ' **A value differs from NumPy.**'}",
                  "", *overhead_lines(overhead)]  # fmt: skip
    return lines


def summary_lines(results: dict[str, Any]) -> list[str]:
    """One line per core workload and size, one column per system: time per iteration
    and, in brackets, its ratio to NumPy's (``!`` marks a result that differs)."""
    core = family_rows(results, "core")
    systems = list(dict.fromkeys(r["system"] for r in core))
    lines = ["| workload | size | " + " | ".join(systems) + " | floor |",
             "|---|---:|" + "---:|" * (len(systems) + 1)]  # fmt: skip
    for (workload, size), rows in case_rows(core).items():
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
        f"up to {settings['repeats']} timed runs after a warm-up{_filled(settings)}, stopping "
        f"after {settings['budget']:g} s); `x NumPy` and `x floor` compare time per iteration "
        "(lower is faster); RSS is this process's (the suite runs on dask's threaded "
        "scheduler in one process, but for `ours-default`, whose blocks live in the "
        "embedded cluster's worker processes, outside this RSS).",
        "",
        *machine_lines(results["machine"], results["floor"]),
        "",
    ]
    if family_rows(results, "core"):
        lines += ["## Summary: time per iteration (x NumPy)", "", *summary_lines(results)]
    if family_rows(results, "user-programs") or results.get("check_overhead"):
        lines += user_section(results)
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
