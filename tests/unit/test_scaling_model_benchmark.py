"""The scaling model on points made from known parameters: the fit finds them, the check
passes where the larger points follow them and fails where one does not, the halo
structure's task count and the GPU prediction follow the library's layout."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import pytest

from benchmarks import scaling_model as model
from benchmarks.weak_scaling import Point

pytestmark = pytest.mark.benchmark

LAYOUTS = {1: (1, 1), 2: (2, 1), 4: (2, 2), 8: (4, 2), 16: (4, 4), 32: (8, 4)}
TRUE = model.Fit("stencil", cpu_per_operation=2e-3, scheduler_per_operation=0.5e-3,
                 client=(1e-3, 0.1e-3), latency=1.5e-3, cores=2)  # fmt: skip
IDLE = 0.02  # of a core, each worker: its heartbeats


def made_points(program: str = "stencil", iterations: int = 16,
                compute_per_element: float = 0.0) -> list[Point]:  # fmt: skip
    """Points whose times, CPU and tasks follow ``TRUE`` and the halo structure exactly:
    the workers' CPU holds their idle share over each iteration's time, and arithmetic
    of ``compute_per_element`` seconds per element of a matrix of 100 rows per worker
    (CG's weak scaling: its columns grow with the workers too)."""
    points = []
    for workers, grid in LAYOUTS.items():
        tasks = model.stencil_tasks(grid, iterations) if program == "stencil" else 0.5
        ops = tasks + (workers if program == "cg" else 0)
        compute = compute_per_element * (100 * workers) ** 2
        cpu = ops * TRUE.cpu_per_operation + compute
        seconds = TRUE.here(workers, ops, IDLE, compute)
        points.append(Point(program, workers, 100 * workers, grid, iterations,
                            seconds=seconds, tasks=tasks, graphs=0.2,
                            scheduler=ops * TRUE.scheduler_per_operation,
                            client=TRUE.client_at(workers),
                            workers_cpu=(cpu - ops * TRUE.scheduler_per_operation
                                         + IDLE * workers * seconds),
                            moved=0.0, correct=True, oversubscribed=workers > 1,
                            idle=IDLE, compute=compute))  # fmt: skip
    return points


@pytest.mark.parametrize("grid", [(1, 1), (2, 1), (1, 3), (2, 2), (4, 2), (3, 5), (8, 4)])
def test_neighbour_pairs_are_the_blocks_at_distance_one(grid: tuple[int, int]) -> None:
    blocks = list(itertools.product(range(grid[0]), range(grid[1])))
    pairs = sum(a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
                for a in blocks for b in blocks)  # fmt: skip
    assert model.neighbour_pairs(grid) == pairs


def test_the_stencil_tasks_per_iteration_follow_the_groups_of_sweeps() -> None:
    # 16 iterations, 8 merged: the boundary writes' group and two loop groups of a task
    # per block and per neighbour pair, and a task per block for np.zeros
    assert model.stencil_tasks((2, 2), 16) == ((4 + 12) * 3 + 4) / 16
    assert model.stencil_tasks((1, 1), 16) == pytest.approx(0.25)
    assert model.stencil_tasks((2, 2), 17) > model.stencil_tasks((2, 2), 16)  # a third group
    assert model.stencil_tasks((8, 4), 1000, sweeps=64) < model.stencil_tasks((8, 4), 1000)


@pytest.mark.parametrize("program", ["stencil", "cg"])
def test_the_fit_finds_the_parameters_and_the_check_passes(program: str) -> None:
    points = made_points(program)
    fitted = model.fit(points, program, cores=2)
    assert fitted.cpu_per_operation == pytest.approx(TRUE.cpu_per_operation)
    assert fitted.scheduler_per_operation == pytest.approx(TRUE.scheduler_per_operation)
    assert fitted.client == pytest.approx(TRUE.client)
    assert fitted.latency == pytest.approx(TRUE.latency)
    assert all(check.within and check.ratio == pytest.approx(1)
               for check in model.checks(points, fitted))  # fmt: skip
    text, ok = model.report(points, cores=2)
    assert ok and text.count("(checked)") == 2


def test_idle_workers_take_a_growing_share_of_the_cores() -> None:
    """At 32 workers, 2% of a core each is a third of two cores: the model without the
    idle term (points measured with ``idle`` unknown, 0) misses the 32-worker point."""
    assert TRUE.busy_share(32, IDLE) == pytest.approx(1 - 0.02 * 32 / 2)
    points = [dataclasses.replace(point, idle=0.0) for point in made_points()]
    assert not model.report(points, cores=2)[1]
    assert model.report(made_points(), cores=2)[1]


def test_arithmetic_growing_faster_than_the_workers_is_predicted_from_its_timing() -> None:
    """CG's arithmetic per iteration grows as the square of the worker count: the fit
    takes it out of the CPU per operation, and the points it checks predict it; taken as
    operations' CPU (the points with ``compute`` unknown, 0) the 32-worker point is missed."""
    points = made_points("cg", compute_per_element=1e-8)
    fitted = model.fit(points, "cg", cores=2)
    assert fitted.cpu_per_operation == pytest.approx(TRUE.cpu_per_operation)
    assert all(check.ratio == pytest.approx(1) for check in model.checks(points, fitted))
    unknown = [dataclasses.replace(point, compute=0.0) for point in points]
    assert not model.report(unknown, cores=2)[1]


def test_a_measured_point_off_the_model_fails_the_check() -> None:
    points = made_points()
    points[-1] = dataclasses.replace(points[-1], seconds=points[-1].seconds * 1.5)
    text, ok = model.report(points, cores=2)
    assert not ok and "OUTSIDE 25%" in text


def test_a_client_slope_below_zero_is_the_points_noise_and_taken_as_none() -> None:
    points = made_points()
    points = [dataclasses.replace(p, client=2e-3 - 1e-6 * p.workers) for p in points]
    fitted = model.fit(points, "stencil", cores=2)
    fit_up_to = [p.client for p in points if p.workers <= model.FIT_UP_TO]
    assert fitted.client == pytest.approx((sum(fit_up_to) / len(fit_up_to), 0.0))
    assert fitted.client_at(1024) > 0


def test_the_fit_needs_two_points() -> None:
    with pytest.raises(ValueError, match="two points"):
        model.fit(made_points()[:1], "stencil", cores=2)


def test_the_gpu_prediction_follows_the_librarys_layout_and_loses_efficiency() -> None:
    assert model.gpu_layout(1) == (2, 1)  # 800 MB: two blocks under max-chunk-bytes.gpu
    assert model.gpu_layout(1024) == (64, 32)
    predictions = model.gpu_stencil(TRUE, (1, 64, 1024))
    assert predictions[0].efficiency == 1
    assert [p.workers for p in predictions] == [1, 64, 1024]
    assert predictions[1].efficiency > predictions[2].efficiency
    assert predictions[2].scheduler == pytest.approx(
        predictions[2].operations * TRUE.scheduler_per_operation
    )
    fewer = model.gpu_stencil(TRUE, (1, 1024), sweeps=64)
    assert fewer[1].operations < predictions[2].operations


def test_the_command_reads_the_points_and_writes_the_report(tmp_path: Path, capsys) -> None:
    points = made_points()
    slower = [dataclasses.replace(p, seconds=p.seconds * 1.1) for p in points]
    faster = [dataclasses.replace(p, seconds=p.seconds * 0.9) for p in points]
    document = {"cores": 2, "points": [dataclasses.asdict(p) for p in points],
                "rounds": [[dataclasses.asdict(p) for p in measured]
                           for measured in (slower, points, faster)]}  # fmt: skip
    (tmp_path / "scaling.json").write_text(json.dumps(document))
    argv = ["--points", str(tmp_path / "scaling.json"), "--out", str(tmp_path / "model.md")]
    assert model.main(argv) == 0
    assert "1,024" in (tmp_path / "model.md").read_text()
    out = capsys.readouterr().out
    assert "| 32 |" in out and "3 rounds, ms/it, range" in out
    last = points[-1].seconds * 1e3  # the 32-worker point's range across its rounds
    assert f"| {last:.2f} | {last * 0.9:.2f}-{last * 1.1:.2f} |" in out


def test_peer_requests_are_a_request_per_worker_per_group() -> None:
    assert model.peer_requests(4, 16) == 4 * 3 / 16  # the boundary writes' group, then two
    assert model.peer_requests(1024, 1000, sweeps=64) < model.peer_requests(1024, 1000)
    point = dataclasses.replace(made_points()[2], program="stencil-peers", tasks=0.0,
                                requests=model.peer_requests(4, 16))  # fmt: skip
    assert model.operations(point) == model.peer_requests(4, 16)
    assert model.structure(point) == model.peer_requests(4, 16)
    assert model.structure(dataclasses.replace(point, program="cg")) is None


def test_the_peer_route_is_predicted_with_its_requests_not_the_halo_tasks() -> None:
    peers = dataclasses.replace(TRUE, program="stencil-peers")
    (one, many) = model.gpu_stencil(peers, (1, 1024))
    assert many.operations == pytest.approx(model.peer_requests(1024, 1000))
    (_, tasks) = model.gpu_stencil(TRUE, (1, 1024))
    assert many.operations < tasks.operations / 10
    assert many.efficiency > tasks.efficiency
