"""``benchmarks.compare_runs``: ours' and dask's geometric means of after/before, each row's
best median over several files, NumPy's rows left out."""

from __future__ import annotations

import json
import math
from pathlib import Path

from benchmarks import compare_runs


def _run(path: Path, medians: dict[str, float]) -> Path:
    rows = [
        {"workload": "w", "size": 10, "system": system, "median_s": median}
        for system, median in medians.items()
    ]
    path.write_text(json.dumps({"rows": rows}))
    return path


def test_geometric_means_of_ours_and_of_dask(tmp_path: Path, capsys) -> None:
    before = [
        _run(
            tmp_path / "b1.json",
            {"numpy": 1.0, "ours-threads": 2.0, "ours-default": 4.0, "dask": 3.0},
        ),
        _run(
            tmp_path / "b2.json",
            {"numpy": 9.0, "ours-threads": 1.0, "ours-default": 5.0, "dask": 6.0},
        ),
    ]
    after = [
        _run(
            tmp_path / "a.json",
            {"numpy": 5.0, "ours-threads": 4.0, "ours-default": 1.0, "dask": 3.0},
        )
    ]
    result = compare_runs.compare(compare_runs.medians(before), compare_runs.medians(after))
    assert result["ratios"] == {
        ("w", 10, "dask"): 1.0,
        ("w", 10, "ours-default"): 0.25,
        ("w", 10, "ours-threads"): 4.0,
    }
    assert math.isclose(result["ours"], 1.0) and result["dask"] == 1.0
    assert compare_runs.main(["--before", *map(str, before), "--after", str(after[0])]) == 0
    printed = capsys.readouterr().out
    assert "ours-threads" in printed and "ours-default" in printed and "  dask " not in printed
    assert "ours' geometric mean after/before 1.000; dask's lanes 1.000" in printed
