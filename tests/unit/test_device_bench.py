"""The warm GPU benchmark (``python -m benchmarks.device``) at toy sizes on the simulated
device: its rows (first run apart from the warm runs), its comparison with the
hand-written lane (and a wrong result caught), its budget, its Markdown's label. Timings
are never asserted. The ``ours-worker`` lane starts a cluster: the dry run of
``gpu/check`` runs it (``tests/unit/test_gpu_report.py`` checks the phase)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy
import pytest

from benchmarks.device import __main__ as cli
from benchmarks.device import workloads
from benchmarks.device.measure import LaneRow
from benchmarks.device.report import ACCEPTANCE, acceptance

pytestmark = pytest.mark.benchmark

LANES = "hand-written,ours-threads,numpy"


def run(tmp_path: Path, *more: str) -> tuple[int, dict]:
    argv = ["--sizes", "toy", "--device", "simulated", "--lanes", LANES, "--repeats", "2"]
    # A budget no loaded machine reaches: a lane over it would skip its warm runs
    code = cli.main([*argv, "--lane-budget", "60", "--out", str(tmp_path), *more])
    return code, json.loads((tmp_path / "device-bench.json").read_text())


@pytest.mark.slow  # about 23 s per backend on 2 cores: CI's slow step
def test_every_workload_on_every_lane_agrees_with_the_hand_written(tmp_path: Path) -> None:
    code, results = run(tmp_path)
    assert code == 0, results["rows"]
    table = workloads.workload_table()
    assert [(r["workload"], r["lane"]) for r in results["rows"]] == [
        (w.name, lane) for w in table for lane in LANES.split(",")
    ]
    for row in results["rows"]:
        assert row["correct"] is True and row["error"] is None, row
        assert row["first_s"] > 0 and row["warm_per_iteration_s"] > 0, row
        assert (row["warm_runs"] == 0) == (row["lane"] == "numpy"), row  # NumPy: one run
    stencil = [r for r in results["rows"] if r["workload"] == "stencil"]
    assert all(r["floor_per_iteration_s"] > 0 for r in stencil)
    assert results["simulated"] and results["toy"] and results["copy_bandwidth"] > 0
    assert "Not a GPU figure" in (tmp_path / "device-bench.md").read_text()


def test_the_acceptance_lines_read_the_warm_figures() -> None:
    def row(size: int, lane: str, seconds: float) -> LaneRow:
        return LaneRow("stencil", size, lane, 20, 1.0, 3, seconds, 1e-3, True)

    rows = [row(62, "hand-written", 1e-3), row(62, "ours-worker", 1.9e-3)]
    rows += [row(126, "hand-written", 1e-3), row(126, "ours-worker", 1.4e-3)]
    lines = {line["line"].split(":")[0]: line for line in acceptance(rows)}
    assert lines["stencil 62"]["met"] is True  # within 2x
    assert lines["stencil 126"]["met"] is True  # within 1.5x and 3x of the floor
    rows[3] = row(126, "ours-worker", 1.6e-3)
    assert {line["met"] for line in acceptance(rows) if "126" in line["line"]} == {False}
    rows[3] = dataclasses.replace(rows[2], lane="ours-worker", floor_per_iteration_s=1e-4)
    assert {line["met"] for line in acceptance(rows) if "126" in line["line"]} == {False}
    assert len(ACCEPTANCE) == 7


def test_a_wrong_result_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = workloads.long_chain

    def wrong_for_ours(np, *inputs):  # type: ignore[no-untyped-def]
        result = real(np, *inputs)
        return result + 1 if np.__name__ == "dask_gpunumeric" else result

    monkeypatch.setattr(workloads, "long_chain", wrong_for_ours)
    code, results = run(tmp_path, "--workloads", "chain")
    verdicts = {row["lane"]: row["correct"] for row in results["rows"]}
    assert verdicts == {"hand-written": True, "ours-threads": False, "numpy": True}
    assert code == 1


def test_the_budget_stops_it_and_says_what_did_not_run(tmp_path: Path) -> None:
    code, results = run(tmp_path, "--workloads", "matmul", "--budget", "0")
    assert code == 2
    assert results["rows"] == []
    assert results["not_run"] == [f"matmul 64 {lane}" for lane in LANES.split(",")]
    assert "Not run (out of the benchmark's budget)" in (tmp_path / "device-bench.md").read_text()


def test_numpy_runs_fewer_stencil_iterations_at_the_real_size_and_is_not_compared() -> None:
    stencil = workloads.workload_table()[1]
    assert (stencil.real, stencil.iterations, stencil.host_iterations(toy=False)) == (10000, 20, 2)
    assert stencil.host_iterations(toy=True) == stencil.iterations
    from benchmarks.device.measure import agrees

    wrong = numpy.zeros(3)
    assert agrees(stencil, wrong, numpy.ones(3), 126, 2, "numpy") is None
    assert agrees(stencil, wrong, numpy.ones(3), 126, 20, "ours-threads") is False
