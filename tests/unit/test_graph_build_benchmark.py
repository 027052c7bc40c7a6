"""The graph-build benchmark runs, and what it measures has the right STRUCTURE: the
lowered graph grows by the same number of tasks every iteration. No wall-clock asserts."""

import pytest

import dask_gpunumeric as dnp
from benchmarks.graph_build import measure_graph_build

pytestmark = pytest.mark.benchmark


def test_lowered_tasks_grow_linearly_with_iterations() -> None:
    with dnp.config.set(halo_sweeps=1):  # a task per block per iteration
        specs = [measure_graph_build(n=126, iterations=iterations) for iterations in (2, 4, 8)]
    tasks = [spec.tasks for spec in specs]
    assert tasks[1] - tasks[0] > 0
    assert tasks[2] - tasks[1] == 2 * (tasks[1] - tasks[0])


def test_expression_depth_grows_linearly_with_iterations() -> None:
    specs = [measure_graph_build(n=126, iterations=iterations) for iterations in (3, 6, 12)]
    depths = [spec.expression_depth for spec in specs]
    assert depths[2] - depths[1] == 2 * (depths[1] - depths[0]) > 0
