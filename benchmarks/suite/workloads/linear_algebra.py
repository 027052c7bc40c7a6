"""Conjugate gradient on a dense SPD matrix (n = 2000, 8000) and matmul (n = 2000, 4000).

CG is ``examples/conjugate_gradient.py`` as written (one ``if sqrt(rsnew) < tol`` per
iteration: a materialization), run for a fixed ``CG_ITERATIONS`` with ``tol=0`` so every
system does the same work. The matrix is ``(m + m.T) / (2 sqrt(n)) + 2.5 I`` for a
standard normal ``m``: symmetric, eigenvalues in about [1.1, 3.9], built in O(n^2) (the
example's ``m @ m.T`` costs a 2n^3 matmul at n=8000). ``dask`` runs the example on
dask arrays (nothing persisted: each ``if`` recomputes the whole history, as a Dask user
who does not know to persist gets); ``dask-tuned`` persists ``x``, ``r``, ``p`` every
iteration. Plain dask's cost grows with the iterations, so it runs at most
``DASK_CG_ITERATIONS``, is compared with NumPy at that count, and its time per iteration
is over those. One CG iteration's floor is reading the matrix once. Matmul is
compute-bound: it has no bandwidth floor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy

from benchmarks.suite.systems import hold, module, place
from benchmarks.suite.timing import Measured
from benchmarks.suite.workloads.spec import Workload, close
from examples.conjugate_gradient import conjugate_gradient

CG_ITERATIONS = 20
DASK_CG_ITERATIONS = 5  # plain dask recomputes the whole history at every `if`: quadratic


def spd_system(n: int, seed: int = 0) -> tuple[numpy.ndarray, numpy.ndarray]:
    """A well-conditioned dense SPD matrix and a right-hand side, in O(n^2)."""
    generator = numpy.random.default_rng(seed)
    m = generator.standard_normal((n, n))
    a = (m + m.T) / (2 * numpy.sqrt(n))
    a[numpy.diag_indices(n)] += 2.5
    return a, generator.standard_normal(n)


def cg_persisted(a: Any, b: Any, iterations: int) -> Any:
    """The example's loop on dask arrays, its vectors persisted every iteration."""
    import dask
    import dask.array as da

    x = da.zeros_like(b)
    r = b - a.dot(x)
    p = r
    rsold = r.dot(r)
    for _ in range(iterations):
        ap = a.dot(p)
        alpha = rsold / p.dot(ap)
        x, r = dask.persist(x + alpha * p, r - alpha * ap)
        rsnew = r.dot(r)
        if da.sqrt(rsnew) < 0.0:  # the example's test, tol=0: computes rsnew
            break
        p, rsold = dask.persist(r + (rsnew / rsold) * p, rsnew)
    return x


def cg_run(system: str, n: int, iterations: int) -> Callable[[], Any] | None:
    a, b = (place(system, host) for host in spd_system(n))
    if system == "dask-tuned":
        return lambda: hold(cg_persisted(a, b, iterations))
    np = module(system)
    if system == "dask":
        iterations = min(iterations, DASK_CG_ITERATIONS)

    def run() -> Measured:
        x = conjugate_gradient(np, a, b, tol=0.0, max_iterations=iterations)
        return Measured(hold(x), iterations=iterations)

    return run


def cg_reference(n: int, iterations: int) -> numpy.ndarray:
    """NumPy's solution after ``iterations`` (plain dask does fewer)."""
    return conjugate_gradient(numpy, *spd_system(n), tol=0.0, max_iterations=iterations)


def cg_workload(quick: bool) -> Workload:
    iterations = 5 if quick else CG_ITERATIONS
    return Workload(
        name="cg",
        sizes=(200, 400) if quick else (2000, 8000),
        size_label="n (matrix n x n)",
        make_run=lambda system, n: cg_run(system, n, iterations),
        iterations=lambda n: iterations,
        floor_bytes=lambda n: float(n * n * 8),
        floor_note="read the matrix once per iteration",
        check=close(rtol=1e-8, atol=1e-10),
        reference=cg_reference,
        note=f"{iterations} iterations, tol=0; dask: no persist (recomputes the history at "
        f"every `if`: quadratic, so at most {DASK_CG_ITERATIONS} iterations), "
        "dask-tuned: persist per iteration",
    )


def matmul_run(system: str, n: int) -> Callable[[], Any] | None:
    generator = numpy.random.default_rng(3)
    a, b = (place(system, generator.random((n, n))) for _ in range(2))
    return lambda: hold(a @ b)


def matmul_workload(quick: bool) -> Workload:
    return Workload(
        name="matmul",
        sizes=(128, 256) if quick else (2000, 4000),
        size_label="n (n x n @ n x n)",
        make_run=matmul_run,
        floor_note="compute-bound (2 n^3 flops): no bandwidth floor",
        check=close(rtol=1e-9, atol=1e-9),
        note="dask: auto chunks; dask-tuned: ours' chunks",
    )
