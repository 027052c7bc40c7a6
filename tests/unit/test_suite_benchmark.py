"""The benchmark suite (``python -m benchmarks run``) at tiny sizes: the JSON's fields,
the Markdown's rows, the PNG, every result checked against NumPy (and a wrong one
caught), the scaling rows, the ``--gpu`` skip. Timings are for the log, never asserted."""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy
import pytest

from benchmarks.suite import cli, report, scaling, timing
from benchmarks.suite.gpu import gpu_unavailable_reason
from benchmarks.suite.runner import Row
from benchmarks.suite.systems import SYSTEMS
from benchmarks.suite.workloads import Workload, latency, workload_table

pytestmark = pytest.mark.benchmark

ROW_FIELDS = {field.name for field in dataclasses.fields(Row)}
TINY = ["--quick", "--no-scaling", "--dask-budget", "0", "--budget", "0"]


def tiny_table(quick: bool, dask_budget: float) -> list[Workload]:
    """Every workload of the quick table at its smallest size."""
    return [dataclasses.replace(w, sizes=w.sizes[:1]) for w in workload_table(quick, dask_budget)]


@pytest.fixture
def tiny_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "workload_table", tiny_table)
    monkeypatch.setattr(latency, "QUICK_OPERATIONS", 50)
    monkeypatch.setattr(latency, "DASK_OPERATIONS", 20)
    monkeypatch.setitem(cli.QUICK, "floor_elements", 1 << 16)


def run_suite(out: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    status = cli.main(["run", *TINY, "--out", str(out), *extra])
    return status, json.loads(out.read_text())


def test_every_workload_and_system_is_reported_and_equals_numpy(
    tiny_suite: None, tmp_path: Path
) -> None:
    status, results = run_suite(tmp_path / "results.json", "--markdown", str(tmp_path / "R.md"))
    assert status == 0
    assert {"machine", "floor", "settings", "workloads", "rows", "scaling", "notes"} <= set(results)
    machine = results["machine"]
    for key in ("cores", "ram_bytes", "cpu_model", "versions", "date", "commit"):
        assert machine[key], key
    assert len(machine["load_average_start"]) == len(machine["load_average_end"]) == 3
    assert results["floor"]["copy_bytes_per_s"] > 0 and results["floor"]["triad_bytes_per_s"] > 0
    names = [w["name"] for w in results["workloads"]]
    assert names[:5] == ["stencil", "cg", "black-scholes", "chain", "monte-carlo-pi"]
    assert {"sum(axis=0)", "std(axis=1)", "matmul", "latency"} <= set(names)
    for name in names:
        systems = [r["system"] for r in results["rows"] if r["workload"] == name]
        expected = [s for s in SYSTEMS if not (name == "latency" and s == "dask-tuned")]
        assert systems == expected, name
    for row in results["rows"]:
        assert set(row) == ROW_FIELDS
        assert row["correct"] and row["error"] is None, row
        assert 0 < row["min_s"] <= row["median_s"] <= row["max_s"], row
        assert row["per_iteration_s"] * row["iterations"] == pytest.approx(row["median_s"])
        assert row["peak_rss_bytes"] > 0 and row["repeats"] >= 1
        assert (row["ratio_to_floor"] is None) == (row["floor_per_iteration_s"] is None)
    markdown = (tmp_path / "R.md").read_text()
    table_lines = [line for line in markdown.splitlines() if line.startswith("| ")]
    cases = {(r["workload"], r["size"]) for r in results["rows"]}
    # the summary (a header, a line per workload and size), then a table per workload
    assert len(table_lines) == 1 + len(cases) + len(names) + len(results["rows"])
    assert markdown.count(report.ROW_HEADER) == len(names)
    assert "load average" in markdown and "--markdown" in markdown
    assert (tmp_path / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_result_that_differs_from_numpy_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def make_run(system: str, size: int) -> Any:
        value = numpy.arange(float(size)) + (system == "ours-on")
        return lambda: value

    wrong = Workload("wrong", (4,), "elements", make_run, floor_bytes=lambda size: 8.0 * size)
    monkeypatch.setattr(cli, "workload_table", lambda quick, budget: [wrong])
    monkeypatch.setitem(cli.QUICK, "floor_elements", 1 << 16)
    status, results = run_suite(tmp_path / "r.json")
    assert status == 1
    verdicts = {r["system"]: r["correct"] for r in results["rows"]}
    assert verdicts == {s: s != "ours-on" for s in SYSTEMS}
    assert "**NO**" in (tmp_path / "r.md").read_text()


def test_a_system_that_raises_gets_a_row_with_its_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def make_run(system: str, size: int) -> Any:
        if system == "dask":
            raise ValueError("no such thing in dask")
        return lambda: numpy.ones(size)

    failing = Workload("failing", (4,), "elements", make_run)
    monkeypatch.setattr(cli, "workload_table", lambda quick, budget: [failing])
    monkeypatch.setitem(cli.QUICK, "floor_elements", 1 << 16)
    status, results = run_suite(tmp_path / "r.json")
    (row,) = [r for r in results["rows"] if r["system"] == "dask"]
    assert status == 1 and not row["correct"] and "no such thing" in row["error"]


def test_gpu_mode_skips_cleanly_without_a_device(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if gpu_unavailable_reason() is None:
        pytest.skip("CuPy sees a device here: the --gpu suite would run")
    assert cli.main(["run", "--gpu", "--out", str(tmp_path / "r.json")]) == 0
    assert "--gpu: skipped" in capsys.readouterr().out
    assert not (tmp_path / "r.json").exists()


def test_scaling_rows_strong_and_weak(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    if backend != "numpy":
        pytest.skip("the cluster's workers are processes of their own: one backend suffices")
    monkeypatch.setattr(scaling, "WORKER_COUNTS", (1, 2))
    rows = scaling.scaling(weak_n=62, strong_n=94, iterations=2, show=lambda row: None)
    assert [(r.kind, r.workers, r.n) for r in rows] == [
        ("strong", 1, 94), ("strong", 2, 94), ("weak", 1, 62), ("weak", 2, 88),
    ]  # fmt: skip
    for row in rows:
        assert row.correct and row.efficiency > 0 and row.worker_peak_rss_bytes > 0, row
        assert row.oversubscribed == (row.workers > (os.cpu_count() or 1))
    assert rows[0].efficiency == rows[2].efficiency == 1.0


def test_repeats_stop_at_the_budget_and_long_runs_count_once() -> None:
    calls: list[float] = []

    def run(seconds: float) -> Any:
        calls.append(seconds)
        time.sleep(seconds)
        return timing.Measured(len(calls), iterations=7)

    quick = timing.timed_repeats(lambda: run(0.001), iterations=1, repeats=3, budget=10.0)
    assert len(quick.times) == 3 and len(calls) == 4 and quick.warmed_at_size
    assert quick.iterations == 7 and quick.result == 4
    calls.clear()
    slow = timing.timed_repeats(lambda: run(0.05), iterations=1, repeats=3, budget=0.1)
    assert len(slow.times) == 1 and len(calls) == 1 and not slow.warmed_at_size


def test_durations_read_in_their_unit() -> None:
    assert [report.duration(s) for s in (2.5, 0.0123, 4.5e-6, None)] == [
        "2.5 s", "12.3 ms", "4.5 us", "-",
    ]  # fmt: skip
