"""``python -m benchmarks.compare_runs BEFORE.json AFTER.json [...]``: two runs of
``python -m benchmarks run`` (two commits, or one commit twice for the noise) compared row
by row: the geometric mean of after/before medians over our lanes, beside the same over
plain dask's lanes (code neither commit changed: the machine's drift), and the rows that
moved more than ``--flag`` either way. Several files per side: each row's best median."""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

Row = tuple[str, Any, str]


def medians(paths: list[Path]) -> dict[Row, float]:
    """Each (workload, size, system) row's best median over ``paths``, NumPy's left out."""
    best: dict[Row, float] = {}
    for path in paths:
        for row in json.loads(path.read_text())["rows"]:
            if row.get("median_s") and row["system"] != "numpy":
                key = (row["workload"], row["size"], row["system"])
                best[key] = min(best.get(key, row["median_s"]), row["median_s"])
    return best


def compare(before: dict[Row, float], after: dict[Row, float]) -> dict[str, Any]:
    """after/before per common row, and their geometric means for ours and for dask."""
    ratios = {key: after[key] / before[key] for key in sorted(set(before) & set(after), key=str)}

    def mean(prefix: str) -> float | None:
        values = [r for key, r in ratios.items() if key[2].startswith(prefix)]
        return statistics.geometric_mean(values) if values else None

    return {"ratios": ratios, "ours": mean("ours"), "dask": mean("dask")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare_runs")
    parser.add_argument("--before", type=Path, nargs="+", required=True)
    parser.add_argument("--after", type=Path, nargs="+", required=True)
    parser.add_argument("--flag", type=float, default=1.25, help="rows moved more than this")
    args = parser.parse_args(argv)
    result = compare(medians(args.before), medians(args.after))
    for key, ratio in result["ratios"].items():
        if ratio > args.flag or ratio < 1 / args.flag:
            print(f"{key[0]:28} {key[1]!s:>10} {key[2]:24} {ratio:6.2f}")
    ours, dask = result["ours"], result["dask"]
    print(f"rows {len(result['ratios'])}; ours' geometric mean after/before {ours:.3f}", end="")
    print("" if dask is None else f"; dask's lanes {dask:.3f}; ours over dask's {ours / dask:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
