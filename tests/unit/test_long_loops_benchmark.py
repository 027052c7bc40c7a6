"""The long-loops benchmark at tiny sizes: its samples have the right structure, the
loops compute NumPy's values, and graphs stay bounded. No timing is asserted."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from benchmarks.long_loops import cg_steps, run_loop, stencil_steps

pytestmark = pytest.mark.benchmark


def test_stencil_samples_and_values() -> None:
    steps, read = stencil_steps(dnp, 70)  # 72 x 72 > min-chunk-elements: several blocks
    samples = list(run_loop(steps, read, (5, 10, 60), client=None))
    assert [s.iteration for s in samples] == [5, 10, 60]
    assert all(s.seconds_per_iteration > 0 and s.client_rss > 0 for s in samples)
    assert all(s.client_peak_rss >= s.client_rss * 0.5 and s.worker_rss is None for s in samples)
    expected_steps, expected_read = stencil_steps(numpy, 70)
    for _ in range(60):
        next(expected_steps)
    assert read() == expected_read()


def test_stencil_graph_depth_stays_bounded() -> None:
    with dnp.config.set(persist_depth=20):
        steps, _ = stencil_steps(dnp, 70)
        grid_depths = []
        for _ in range(100):
            next(steps)
            frame = steps.gi_frame
            assert frame is not None
            grid_depths.append(frame.f_locals["center"]._store.version.depth)
    assert max(grid_depths) <= 20


def test_cg_samples_and_values() -> None:
    steps, read = cg_steps(dnp, 80)
    samples = list(run_loop(steps, read, (3, 30), client=None))
    assert [s.iteration for s in samples] == [3, 30]
    expected_steps, expected_read = cg_steps(numpy, 80)
    for _ in range(30):
        next(expected_steps)
    numpy.testing.assert_allclose(read(), expected_read(), rtol=1e-9)
