"""The small-work policy's eager path on dask's threaded scheduler: a short expression
whose inputs are in this process is computed node by node, no dask computation at all;
a longer one (a loop's body) and anything above ``client-work-bytes`` are lowered to dask
as before. Values are NumPy's either way. (The distributed side: tests/cluster.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import execution
from dask_gpunumeric.testing import assert_eq


@pytest.fixture
def computations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The number of collections of each dask computation made, with the policy on."""
    made: list[int] = []
    real_compute, real_persist = execution.compute, execution.persist

    def compute(*collections: Any) -> Any:
        made.append(len(collections))
        return real_compute(*collections)

    def persist(*collections: Any) -> Any:
        made.append(len(collections))
        return real_persist(*collections)

    monkeypatch.setattr(execution, "compute", compute)
    monkeypatch.setattr(execution, "persist", persist)
    with dnp.config.set(client_work_bytes="64 MiB"):
        yield made


def cg_steps(np: Any, a_host: numpy.ndarray, b_host: numpy.ndarray, steps: int = 6) -> Any:
    a, b = np.array(a_host), np.array(b_host)
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rs = float(r @ r)
    for _ in range(steps):
        ap = a @ p
        alpha = rs / float(p @ ap)
        x = x + alpha * p
        r = r - alpha * ap
        rs_new = float(r @ r)
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x


def test_convergence_checks_are_computed_eagerly(computations: list[int]) -> None:
    rng = numpy.random.default_rng(5)
    m = rng.random((200, 200))
    a, b = m @ m.T / 200 + numpy.eye(200), rng.random(200)
    ours = cg_steps(dnp, a, b)
    assert computations == []
    assert_eq(ours, cg_steps(numpy, a, b), rtol=1e-12, atol=1e-14)


def test_reductions_products_and_draws_eagerly_are_numpys(computations: list[int]) -> None:
    host = numpy.random.default_rng(3).random((90, 70)) - 0.5
    ours = dnp.array(host, chunks=(40, 30))
    for reduce in ("sum", "mean", "std", "var", "min", "argmax", "nanmax", "any"):
        for axis in (None, 0, 1):
            assert_eq(
                getattr(dnp, reduce)(ours, axis=axis), getattr(numpy, reduce)(host, axis=axis)
            )
    assert_eq(ours @ ours.T, host @ host.T)
    assert_eq(dnp.tensordot(ours, ours, axes=([0], [0])), numpy.tensordot(host, host, ([0], [0])))
    assert computations == []
    draw = dnp.random.default_rng(11).standard_normal((90, 70))
    eager = numpy.asarray(draw)
    with dnp.config.set(client_work_bytes=0):
        lowered = numpy.asarray(dnp.random.default_rng(11).standard_normal((90, 70)))
    numpy.testing.assert_array_equal(eager, lowered)  # values depend on chunks only


def test_loop_bodies_and_large_work_are_lowered(computations: list[int]) -> None:
    host = numpy.zeros((66, 66))
    grid = dnp.array(host)
    for values in (host, grid):
        values[0, :] = 40.0
        for _ in range(10):
            values[1:-1, 1:-1] = 0.25 * (
                values[:-2, 1:-1] + values[2:, 1:-1] + values[1:-1, :-2] + values[1:-1, 2:]
            )
    assert_eq(grid, host)
    assert computations  # too many nodes for the eager path: dask, fused
    computations.clear()
    with dnp.config.set(client_work_bytes="10 kB"):
        assert float((dnp.array(host) * 2).sum()) == float((host * 2).sum())  # 35 kB
    assert computations


def test_errors_are_numpys_with_the_policy_on(computations: list[int]) -> None:
    host = numpy.arange(6.0).reshape(2, 3)
    ours = dnp.array(host)
    empty = ours[:, :0]
    with pytest.raises(ValueError):
        numpy.argmax(host[:, :0], axis=1)
    with pytest.raises(ValueError):
        float(dnp.argmax(empty, axis=1).sum())
