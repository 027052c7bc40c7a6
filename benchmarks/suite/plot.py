"""The log-log plot: time per iteration against size, one line per system, one panel per
workload (the bandwidth floor dashed where the workload has one)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from benchmarks.suite.systems import GPU_SYSTEMS, LANES, SYSTEMS

PANEL_INCHES = 3.2
SYSTEM_ORDER = list(dict.fromkeys((*SYSTEMS, *GPU_SYSTEMS, *LANES)))  # one colour per system
COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
          "tab:pink", "tab:olive")  # fmt: skip


def plot(results: dict[str, Any], path: Path) -> None:
    """Write the PNG of ``results`` (the suite's JSON document) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    workloads = results["workloads"]
    columns = max(1, min(4, len(workloads)))
    rows = max(1, -(-len(workloads) // columns))
    figure, axes = plt.subplots(
        rows, columns, figsize=(PANEL_INCHES * columns, PANEL_INCHES * rows), squeeze=False
    )
    for axis, workload in zip(axes.flat, workloads, strict=False):
        panel(axis, workload, [r for r in results["rows"] if r["workload"] == workload["name"]])
    for axis in list(axes.flat)[len(workloads) :]:
        axis.set_visible(False)
    if not workloads:  # e.g. --workloads check-overhead: the figures are in the Markdown
        figure.text(0.5, 0.5, "no workload measured by size in this run", ha="center")
    machine = results["machine"]
    figure.suptitle(f"time per iteration vs size, {machine['cores']} cores, {machine['date'][:10]}")
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)


def size_label(size: int) -> str:
    """``2000``, ``2e+07``: short enough for a tick."""
    return str(size) if size < 100_000 else f"{size:.0e}"


def panel(axis: Any, workload: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    from matplotlib.ticker import NullFormatter

    for system in dict.fromkeys(r["system"] for r in rows):
        points = [(r["size"], r["per_iteration_s"]) for r in rows if r["system"] == system]
        points = [(x, y) for x, y in points if y and not math.isnan(y)]
        if points:
            color = COLORS[SYSTEM_ORDER.index(system) % len(COLORS)]
            axis.plot(*zip(*points, strict=True), marker="o", label=system, color=color)
    floor = {r["size"]: r["floor_per_iteration_s"] for r in rows if r["floor_per_iteration_s"]}
    if floor:
        sizes = sorted(floor)
        axis.plot(sizes, [floor[s] for s in sizes], "k--", label="floor")
    axis.set_xscale("log")
    axis.set_yscale("log")
    sizes = sorted({r["size"] for r in rows})
    axis.set_xticks(sizes, [size_label(size) for size in sizes])
    axis.xaxis.set_minor_formatter(NullFormatter())
    axis.set_title(workload["name"], fontsize=9)
    axis.set_xlabel(workload["size_label"], fontsize=8)
    axis.set_ylabel("s per iteration", fontsize=8)
    axis.legend(fontsize=6)
