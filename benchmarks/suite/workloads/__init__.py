"""The suite's workloads (issue 9), in the order they run."""

from __future__ import annotations

from benchmarks.suite.workloads.elementwise import (
    black_scholes_workload,
    chain_workload,
    pi_workload,
)
from benchmarks.suite.workloads.latency import latency_workload
from benchmarks.suite.workloads.linear_algebra import cg_workload, matmul_workload
from benchmarks.suite.workloads.reductions import reduction_workloads
from benchmarks.suite.workloads.spec import Workload
from benchmarks.suite.workloads.stencil import stencil_workload

__all__ = ["Workload", "workload_table"]


def workload_table(quick: bool, dask_budget: float) -> list[Workload]:
    """Every workload at the sizes of the mode (``quick``: small, for correctness)."""
    return [
        stencil_workload(quick, dask_budget),
        cg_workload(quick),
        black_scholes_workload(quick),
        chain_workload(quick),
        pi_workload(quick),
        *reduction_workloads(quick),
        matmul_workload(quick),
        latency_workload(quick),
    ]
