"""The weak-scaling benchmark at tiny sizes on clusters of its own: each program's result
equals NumPy's, each count is per iteration and of the right kind (halo slabs moved
between the stencil's workers, a block per worker), and the command writes its table,
JSON and plot. Structure only: no timing is asserted."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from benchmarks import weak_scaling

# About 70 s on 2 cores (clusters of 1 and 2 worker processes): CI's slow step.
pytestmark = [pytest.mark.benchmark, pytest.mark.slow]


def test_the_stencil_on_two_workers_moves_slabs_between_its_two_blocks() -> None:
    point = weak_scaling.measure("stencil", workers=2, iterations=4, repeats=1)
    assert point.correct
    assert (point.workers, point.n, point.blocks) == (2, weak_scaling.size("stencil", 2), 2)
    assert point.tasks > 0 and point.graphs > 0
    # ghost slabs, not blocks: less than a block's bytes per iteration
    assert 0 < point.moved < (point.n + 2) ** 2 * 8 / 2
    assert point.seconds > 0 and point.scheduler >= 0 and point.workers_cpu > 0
    assert 0 < point.idle < 1


def test_the_stencil_run_by_the_workers_among_themselves_sends_the_scheduler_no_task() -> None:
    point = weak_scaling.measure("stencil-peers", workers=2, iterations=4, repeats=1)
    assert point.correct
    assert point.tasks == 0 and point.graphs == 0
    runs = point.requests * point.iterations / point.workers  # a request per worker per run
    assert runs >= 1 and runs == int(runs)
    assert 0 < point.moved < (point.n + 2) ** 2 * 8 / 2  # ghost slabs, not blocks


def test_fewer_sweeps_merged_make_more_tasks(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("the halo structure does not depend on the backend: one suffices")
    default = weak_scaling.measure("stencil", workers=2, iterations=8, repeats=1)
    halved = weak_scaling.measure("stencil", workers=2, iterations=8, repeats=1, halo_sweeps=4)
    assert default.correct and halved.correct
    assert halved.tasks > default.tasks


def test_cg_on_two_workers_keeps_its_matrix_in_a_block_per_worker() -> None:
    point = weak_scaling.measure("cg", workers=2, iterations=3, repeats=1)
    assert point.correct
    assert (point.n, point.blocks) == (2 * weak_scaling.CG_ROWS, 2)
    assert sorted(point.grid) == [1, 2]
    assert point.client > 0


def test_the_command_writes_the_table_the_json_and_the_plot(
    tmp_path: Path, capsys, backend: str
) -> None:
    if backend != "numpy":
        pytest.skip("the report does not depend on the backend: one suffices")
    argv = ["--workers", "1,2", "--programs", "stencil", "--iterations", "2",
            "--repeats", "1", "--out", str(tmp_path)]  # fmt: skip
    assert weak_scaling.main(argv) == 0
    assert capsys.readouterr().out.count("workers:") == 2
    points = weak_scaling.load(tmp_path / "scaling.json")
    assert [p.workers for p in points] == [1, 2]
    assert json.loads((tmp_path / "scaling.json").read_text())["iterations"] == 2
    table = (tmp_path / "scaling.md").read_text()
    assert table.count("\n| 1 |") == 1 and table.count("\n| 2 |") == 1
    assert (tmp_path / "scaling.png").read_bytes().startswith(b"\x89PNG")


def test_an_unknown_program_is_refused() -> None:
    with pytest.raises(SystemExit):
        weak_scaling.main(["--programs", "fft"])


def test_efficiency_is_the_one_worker_time_over_the_time() -> None:
    one = weak_scaling.Point("stencil", 1, 128, (1, 1), 4, 0.010, 1, 0.25, 0, 0, 0, 0, True, False)
    four = dataclasses.replace(one, workers=4, seconds=0.040)
    assert weak_scaling.efficiency([one, four], four) == pytest.approx(0.25)
    assert "| 4 | 128 | 1 | 40.00 | 0.25 |" in weak_scaling.table([one, four])
