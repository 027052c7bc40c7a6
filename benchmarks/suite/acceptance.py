"""Issue 16's acceptance lines, read off one run's rows: met, not met, or not measured.

Reported, never asserted (a benchmark reports; the lead decides). Each line compares
figures measured side by side in the same run: whole-program seconds of ours on the
embedded default cluster (``ours-default``) and on ``scheduler: threads``
(``ours-threads``) against NumPy's, and the per-check overhead on the embedded cluster
(``check_overhead.py``'s ``ours-default-cluster``; its other lanes are in the figures).
"Stencil-like faster than NumPy" is read at each such program's largest size whatever
NumPy's time (which swings several-fold with the machine's load, so a threshold would
make the line come and go). A line whose rows this run did not measure (``--quick``
sizes, ``--workloads``) says "not measured"; a result that differs from NumPy's cannot
meet a line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from benchmarks.suite.check_overhead import TARGET_S
from benchmarks.suite.report import duration, ratio
from benchmarks.suite.workloads.user_family import STENCIL_LIKE

SLOW_NUMPY_S = 0.5  # "every user program where NumPy takes > 0.5 s"
Rows = dict[tuple[str, int, str], dict[str, Any]]


def line(text: str, met: bool | None, figures: str) -> dict[str, Any]:
    return {"line": text, "met": met, "figures": figures or "not measured"}


def verdict(entry: dict[str, Any]) -> str:
    return {True: "met", False: "NOT MET", None: "not measured"}[entry["met"]]


def ratio_line(rows: Rows, text: str, workload: str, size: int, limits: dict[str, float]) -> Any:
    """``workload`` at ``size``: each lane's ratio to NumPy within its limit."""
    found = {lane: rows.get((workload, size, lane)) for lane in limits}
    if any(row is None for row in found.values()):
        return line(text, None, "")
    met = all(
        row["correct"] and row["ratio_to_numpy"] is not None and row["ratio_to_numpy"] <= limit
        for row, limit in zip(found.values(), limits.values(), strict=True)
    )
    numpy_row = rows.get((workload, size, "numpy"))
    figures = [f"NumPy {duration(numpy_row['median_s'])}" if numpy_row else "NumPy -"]
    figures += [describe(lane, row) for lane, row in found.items()]  # type: ignore[arg-type]
    return line(text, met, ", ".join(figures))


def describe(lane: str, row: dict[str, Any]) -> str:
    wrong = "" if row["correct"] else " (differs from NumPy)"
    return f"{lane} {duration(row['median_s'])} = {ratio(row['ratio_to_numpy'])}x{wrong}"


def cases(rows: Rows) -> Iterator[tuple[str, int]]:
    yield from dict.fromkeys((w, s) for w, s, _ in rows)


def default_vs_threads(rows: Rows) -> dict[str, Any]:
    text = "no user program more than 1.5x slower on default than on threads"
    pairs = [(w, s, rows.get((w, s, "ours-default")), rows.get((w, s, "ours-threads")))
             for w, s in cases(rows)]  # fmt: skip
    slowdowns = [(d["median_s"] / t["median_s"], w, s) for w, s, d, t in pairs if d and t]
    if not slowdowns:
        return line(text, None, "")
    worst = sorted(slowdowns, reverse=True)
    over = [f"{w} {s:,}: {x:.3g}x" for x, w, s in worst if x > 1.5]
    figures = f"worst {worst[0][1]} {worst[0][2]:,}: {worst[0][0]:.3g}x"
    return line(text, not over, figures + (f"; over 1.5x: {', '.join(over)}" if over else ""))


def within_limit(
    rows: Rows, text: str, chosen: list[tuple[str, int]], limit: float, strict: bool
) -> Any:
    """``chosen`` cases: ours-default's ratio to NumPy at most ``limit`` (below it where
    ``strict``)."""
    checked, failing = [], []
    for workload, size in chosen:
        ours = rows[(workload, size, "ours-default")]
        figure = f"{workload} {size:,}: {ratio(ours['ratio_to_numpy'])}x"
        checked.append(figure)
        value = ours["ratio_to_numpy"]
        within = value is not None and (value < limit if strict else value <= limit)
        if not (ours["correct"] and within):
            failing.append(figure)
    if not checked:
        return line(text, None, "")
    return line(text, not failing, "; ".join(checked))


def measured(rows: Rows) -> list[tuple[str, int]]:
    """Cases with both a NumPy and an ours-default row."""
    return [(w, s) for w, s in cases(rows)
            if (w, s, "numpy") in rows and (w, s, "ours-default") in rows]  # fmt: skip


def slow_for_numpy(rows: Rows) -> list[tuple[str, int]]:
    return [(w, s) for w, s in measured(rows) if rows[(w, s, "numpy")]["median_s"] > SLOW_NUMPY_S]


def largest_stencils(rows: Rows) -> list[tuple[str, int]]:
    """Each stencil-like program at its largest size measured."""
    sizes: dict[str, int] = {}
    for workload, size in measured(rows):
        if workload in STENCIL_LIKE:
            sizes[workload] = max(size, sizes.get(workload, size))
    return list(sizes.items())


def acceptance(rows_list: list[dict[str, Any]], overhead: dict[str, Any] | None) -> list[Any]:
    """The lines of issue 16 for this run's user-programs rows and check overhead."""
    rows = {(r["workload"], r["size"], r["system"]): r for r in rows_list
            if r["workload"].startswith("user/")}  # fmt: skip
    black_scholes = max((s for w, s, _ in rows if w == "user/black-scholes"), default=0)
    lines = [
        ratio_line(rows, "CG n=1,000: default <= 2x NumPy, threads <= 1.5x", "user/dense-cg",
                   1000, {"ours-default": 2.0, "ours-threads": 1.5}),
        ratio_line(rows, "CG n=10,000: default <= 1.2x NumPy", "user/dense-cg", 10000,
                   {"ours-default": 1.2}),
        ratio_line(rows, "Monte Carlo pi 1e8: default <= 0.3x NumPy", "user/monte-carlo-pi",
                   10**8, {"ours-default": 0.3}),
        default_vs_threads(rows),
        within_limit(rows, f"user programs where NumPy takes > {SLOW_NUMPY_S:g} s: "
                     "default <= 2x NumPy", slow_for_numpy(rows), 2.0, strict=False),
        within_limit(rows, "stencil-like (roll, red-black, ping-pong) at their largest size: "
                     "default faster than NumPy", largest_stencils(rows), 1.0, strict=True),
        ratio_line(rows, "Black-Scholes 3e7 (or what fits): <= 0.5x NumPy on both lanes",
                   "user/black-scholes", black_scholes if black_scholes >= 10**7 else 0,
                   {"ours-default": 0.5, "ours-threads": 0.5}),
    ]  # fmt: skip
    text = f"per-check overhead on the embedded cluster < {TARGET_S * 1e3:g} ms"
    median = {} if overhead is None else overhead["median_s"]
    if "ours-default-cluster" not in median:
        lines.append(line(text, None, ""))
    else:
        met = overhead is not None and overhead["correct"]
        met = met and median["ours-default-cluster"] < TARGET_S
        lines.append(line(text, met, ", ".join(f"{k} {duration(s)}" for k, s in median.items())))
    return lines
