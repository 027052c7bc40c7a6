"""The suite's workloads in the order they run: the core family (issue 9), then the user
programs (issue 16)."""

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
from benchmarks.suite.workloads.user_family import FAMILY as USER_PROGRAMS
from benchmarks.suite.workloads.user_family import user_workloads

__all__ = ["FAMILIES", "Workload", "workload_table"]

FAMILIES = ("core", USER_PROGRAMS)


def workload_table(quick: bool, dask_budget: float) -> list[Workload]:
    """Every workload at the sizes of the mode (``quick``: small, for correctness)."""
    return [*core_workloads(quick, dask_budget), *user_workloads(quick)]


def core_workloads(quick: bool, dask_budget: float) -> list[Workload]:
    """Issue 9's workloads, on the suite's systems (``systems.SYSTEMS``)."""
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
