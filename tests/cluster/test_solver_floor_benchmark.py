"""The solver-floor benchmark at a tiny size on the embedded cluster: every figure is
measured, the floor is the matrix's bytes at the workers' bandwidth plus the round trip,
and ours' solution equals NumPy's. Structure only: no timing is asserted."""

from __future__ import annotations

import pytest

from benchmarks import solver_floor

pytestmark = pytest.mark.benchmark


def test_every_figure_is_measured_and_ours_equals_numpy(embedded_cluster: None) -> None:
    result = solver_floor.measure(n=300, iterations=3, repeats=1)
    assert result.correct
    assert result.workers >= 1
    figures = (result.numpy, result.numpy_matvec_bandwidth, result.workers_matvec_bandwidth,
               result.round_trip, result.ours)  # fmt: skip
    assert all(figure > 0 for figure in figures)
    matrix_bytes = 8 * 300 * 300
    assert result.floor == pytest.approx(
        matrix_bytes / result.workers_matvec_bandwidth + result.round_trip
    )
    assert 0 <= result.ours_tasks <= result.ours
    text = "\n".join(result.lines())
    assert "x numpy" in text and "x floor" in text and "equal to numpy: True" in text


def test_a_worker_times_each_product_of_its_own_share() -> None:
    seconds = solver_floor.matvecs_on_a_worker(200, 300, repeats=3)
    assert len(seconds) == 3 and all(each > 0 for each in seconds)


def test_the_workers_bandwidth_is_their_slowest_in_the_best_repeat() -> None:
    """Each repeat counts its slowest worker: a worker's best alone would be a product
    the others were not running beside."""

    class Client:
        def scheduler_info(self, n_workers: int) -> dict:
            return {"workers": {"a": {}, "b": {}}}

        def run(self, function, *args):
            return {"a": [1.0, 3.0], "b": [4.0, 2.0]}

    rows = 5  # 10 rows over two workers
    assert solver_floor.workers_bandwidth(Client(), 10, repeats=2) == 8 * rows * 10 * 2 / 3.0
