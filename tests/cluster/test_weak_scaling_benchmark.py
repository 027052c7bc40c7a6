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

# About a minute on 2 cores with -n 2 (clusters of 1 and 2 worker processes): CI's slow step.
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
    assert point.compute > 0  # the matrix's products, timed alone


def test_the_command_writes_the_table_the_json_and_the_plot(
    tmp_path: Path, capsys, backend: str
) -> None:
    if backend != "numpy":
        pytest.skip("the report does not depend on the backend: one suffices")
    argv = ["--workers", "1,2", "--programs", "stencil", "--iterations", "2",
            "--repeats", "1", "--rounds", "2", "--out", str(tmp_path)]  # fmt: skip
    assert weak_scaling.main(argv) == 0
    assert capsys.readouterr().out.count("workers:") == 4  # two points, two rounds
    points = weak_scaling.load(tmp_path / "scaling.json")
    assert [p.workers for p in points] == [1, 2]
    assert json.loads((tmp_path / "scaling.json").read_text())["iterations"] == 2
    rounds = weak_scaling.load_rounds(tmp_path / "scaling.json")
    assert [[p.workers for p in measured] for measured in rounds] == [[1, 2], [1, 2]]
    assert points == [weak_scaling.median(list(same)) for same in zip(*rounds, strict=True)]
    table = (tmp_path / "scaling.md").read_text()
    assert table.count("\n| 1 |") == 1 and table.count("\n| 2 |") == 1
    assert (tmp_path / "scaling.png").read_bytes().startswith(b"\x89PNG")


def test_an_unknown_program_and_no_round_are_refused() -> None:
    with pytest.raises(SystemExit):
        weak_scaling.main(["--programs", "fft"])
    with pytest.raises(SystemExit):
        weak_scaling.main(["--rounds", "0"])


def test_a_point_s_timed_runs_are_the_mean_of_their_middle_half_by_time() -> None:
    one = weak_scaling.Point("stencil", 2, 128, (2, 1), 4, 0.0, 1.0, 0.25, 0.0, 0.0, 0.0,
                             0.0, True, True)  # fmt: skip
    runs = [dataclasses.replace(one, seconds=s, client=s / 10, workers_cpu=s * 2)
            for s in (5.0, 1.0, 3.0, 2.0, 4.0)]  # fmt: skip
    point = weak_scaling.middle_mean(runs)  # the runs of 2, 3 and 4 s
    assert (point.seconds, point.client, point.workers_cpu) == pytest.approx((3.0, 0.3, 6.0))
    assert weak_scaling.middle_mean(runs[:3]).seconds == pytest.approx(3.0)  # all of three
    assert not weak_scaling.middle_mean([*runs, dataclasses.replace(one, correct=False)]).correct


def test_a_point_of_several_rounds_is_its_round_of_median_time() -> None:
    one = weak_scaling.Point("stencil", 2, 128, (2, 1), 4, 0.010, 1.0, 0.25, 0.002, 0.003,
                             0.004, 100.0, True, True, idle=0.03, requests=0.0)  # fmt: skip
    rounds = [one,
              dataclasses.replace(one, seconds=0.030, client=0.001, moved=300.0),
              dataclasses.replace(one, seconds=0.020, client=0.009, idle=0.05)]  # fmt: skip
    point = weak_scaling.median(rounds)  # every figure the 20 ms round's
    assert (point.seconds, point.client, point.moved, point.idle) == (0.020, 0.009, 100.0, 0.05)
    assert (point.tasks, point.grid, point.correct) == (1.0, (2, 1), True)
    assert weak_scaling.median(rounds[:2]).seconds == 0.010  # the lower middle of two
    assert not weak_scaling.median([*rounds, dataclasses.replace(one, correct=False)]).correct
    with pytest.raises(ValueError, match="not of one point"):
        weak_scaling.median([one, dataclasses.replace(one, workers=4)])


def test_efficiency_is_the_one_worker_time_over_the_time() -> None:
    one = weak_scaling.Point("stencil", 1, 128, (1, 1), 4, 0.010, 1, 0.25, 0, 0, 0, 0, True, False)
    four = dataclasses.replace(one, workers=4, seconds=0.040)
    assert weak_scaling.efficiency([one, four], four) == pytest.approx(0.25)
    assert "| 4 | 128 | 1 | 40.00 | 0.25 |" in weak_scaling.table([one, four])


def test_the_client_split_finds_peer_planning_only_where_peer_runs_are_on(backend: str) -> None:
    from benchmarks import client_split

    if backend != "numpy":
        pytest.skip("the client's split does not depend on the backend: one suffices")
    peers = client_split.measure("stencil-peers", workers=2, iterations=4, repeats=1)
    plain = client_split.measure("stencil", workers=2, iterations=4, repeats=1)
    for split in (peers, plain):
        assert split.main > 0 and split.loop > 0 and split.process >= split.main
        assert sum(split.stages.values()) == pytest.approx(split.main)
        assert split.stages["lowering"] > 0
    planning = "peer-run planning"
    assert peers.stages[planning] > 0
    assert peers.stages[planning] > 10 * plain.stages[planning]
