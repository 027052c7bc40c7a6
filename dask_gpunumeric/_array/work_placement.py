"""Where a materialization runs: the small-work policy.

On a cluster every computation costs at least one scheduler round trip (10-20 ms on the
embedded cluster of a 2-core machine, more under load), and even dask's threads cost a
few milliseconds per computation, while NumPy needs about a millisecond for a
matrix-vector product of 8 MB. So a computation whose inputs all live in this process
(host data from ``np.array(host)``, values computed here before, creation routines and
random draws, which live nowhere yet) and whose arrays are small stays here:

- a short expression (at most ``in_process.EAGER_NODES`` nodes: a convergence check) is
  computed node by node with the backend's array namespace, as NumPy would: no graph, no
  task, no thread pool (``_kernels/in_process.evaluate_here``), on any scheduler;
- a longer one (a loop's iterations since the last persist) runs on dask's threaded
  scheduler in this process, fused, when the configured scheduler is distributed.

Persisted results stay here; everything else goes to the configured scheduler. In a
solver of small matrices every convergence check then costs NumPy's work.

"Small": no leaf and no node of the expression is larger than
``gpunumeric.client-work-bytes``, and the leaves together are not either. One input held
by the cluster (a persisted or scattered array) sends the whole computation there
(its client-held inputs are scattered to their owners: ``_lowering/host_blocks.py``).
``0`` turns the policy off. Lowering is the same either way (chunks, and so random
values, do not depend on where a computation runs); only the scheduler differs.

The crossover (``python -m benchmarks.small_work``) and the table of decisions are in
``docs/performance.md``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

from dask.utils import parse_bytes

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.expr import Expr
from .._ir.leaves import DaskData, Leaf
from .._kernels import in_process
from .._runtime import config, execution
from .._runtime.partitioning import NOMINAL_ITEMSIZE


def runs_in_client(exprs: list[Expr], backend: ChunkBackend | None = None) -> bool:
    """Whether a computation of ``exprs`` on the configured distributed scheduler runs in
    this process instead (see the module docstring)."""
    return execution.on_cluster() and kept_here(exprs, backend or get_backend())


def kept_here(exprs: list[Expr], backend: ChunkBackend) -> bool:
    """Whether the policy keeps a computation of ``exprs`` in this process, whatever the
    scheduler: its inputs are here and its arrays small. Never where this process cannot
    make the backend's chunks (CuPy without a device here)."""
    limit = _limit()
    if limit <= 0 or not backend.evaluates_in_client:
        return False
    leaf_bytes = 0
    seen: set[int] = set()
    stack = list(exprs)
    while stack:
        node = stack.pop()
        if node.number in seen:
            continue
        seen.add(node.number)
        size = math.prod(node.shape) * node.dtype.itemsize
        if size > limit:
            return False
        if isinstance(node, Leaf):
            if isinstance(node, DaskData) and execution.held_by_cluster(node.array):
                return False
            leaf_bytes += size
            if leaf_bytes > limit:
                return False
        stack.extend(node.children)
    return True


def evaluate_here(
    expr: Expr, backend: ChunkBackend, keep: set[int]
) -> tuple[Any, dict[int, Any]] | None:
    """``expr`` computed eagerly in this process, node by node with the backend's array
    namespace as NumPy would (no graph, no task, no thread pool: ``_kernels/in_process``),
    when the policy keeps it here; with the values of the nodes numbered in ``keep``
    computed on the way. ``None`` when it goes elsewhere, has a node of a kind not
    evaluated here, or too many nodes (a loop's body: dask's threads here, fused)."""
    if not kept_here([expr], backend):
        return None
    return in_process.evaluate_here(expr, _limit() // NOMINAL_ITEMSIZE, backend, keep)


@contextlib.contextmanager
def placed(exprs: list[Expr]) -> Iterator[None]:
    """Computations inside the block run where the policy puts ``exprs``."""
    if runs_in_client(exprs):
        with execution.in_client():
            yield
    else:
        yield


def _limit() -> int:
    value = config.get("client-work-bytes")
    return parse_bytes(value) if isinstance(value, str) else int(value)
