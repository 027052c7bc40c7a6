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


def test_a_worker_times_its_own_share() -> None:
    assert solver_floor.matvec_on_a_worker(200, 300, repeats=2) > 0
