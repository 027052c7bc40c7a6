"""The small-work policy's eager path on dask's threaded scheduler: a short expression
whose inputs are in this process is computed node by node, no dask computation at all;
a longer one (a loop's body) and anything above ``client-work-bytes`` are lowered to dask
as before. Values are NumPy's either way. (The distributed side: tests/cluster.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._array import work_placement
from dask_gpunumeric._runtime import execution
from dask_gpunumeric.testing import assert_eq, assert_raises_like


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


def test_a_solver_iterate_reuses_values_computed_here(
    computations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``x = x + alpha * p`` names every ``p`` and ``alpha`` of the loop: materializing x at
    the end reads their values (computed at the checks) instead of multiplying again."""
    from dask_gpunumeric._array import tiny_ufuncs
    from dask_gpunumeric._kernels import in_process

    products: list[tuple[int, ...]] = []
    real = in_process._materialization_table[in_process.Matmul]

    def counting(node: Any, inputs: list[Any], backend: Any) -> Any:
        products.append(node.children[0].shape)
        return real(node, inputs, backend)

    class CountingNumpy:  # NumPy for tiny_ufuncs, whose products are computed when built
        def __getattr__(self, name: str) -> Any:
            return getattr(numpy, name)

        @staticmethod
        def matmul(*args: Any) -> Any:
            products.append(args[0].shape)
            return numpy.matmul(*args)

    monkeypatch.setitem(in_process._materialization_table, in_process.Matmul, counting)
    monkeypatch.setattr(tiny_ufuncs, "numpy", CountingNumpy())
    rng = numpy.random.default_rng(9)
    m = rng.random((150, 150))
    a, b = m @ m.T / 150 + numpy.eye(150), rng.random(150)
    ours = cg_steps(dnp, a, b, steps=20)
    before = sum(shape == (150, 150) for shape in products)
    assert_eq(ours, cg_steps(numpy, a, b, steps=20), rtol=1e-10, atol=1e-12)
    assert sum(shape == (150, 150) for shape in products) == before  # x: no matvec again
    assert before == 21  # one per step, and r = b - a @ x
    assert computations == []


def test_convergence_checks_are_computed_eagerly(computations: list[int]) -> None:
    rng = numpy.random.default_rng(5)
    m = rng.random((200, 200))
    a, b = m @ m.T / 200 + numpy.eye(200), rng.random(200)
    ours = cg_steps(dnp, a, b)
    assert computations == []
    assert_eq(ours, cg_steps(numpy, a, b), rtol=1e-12, atol=1e-14)


@pytest.mark.usefixtures("four_workers")
def test_reductions_products_and_draws_eagerly_are_numpys(computations: list[int]) -> None:
    host = numpy.random.default_rng(3).random((150, 120)) - 0.5
    ours = dnp.array(host)  # several blocks at the suite's chunk size
    assert ours.to_dask().npartitions > 1
    for reduce in ("sum", "mean", "std", "var", "min", "argmax", "nanmax", "any"):
        for axis in (None, 0, 1):
            assert_eq(
                getattr(dnp, reduce)(ours, axis=axis), getattr(numpy, reduce)(host, axis=axis)
            )
    assert_eq(ours @ ours.T, host @ host.T)
    assert_eq(dnp.tensordot(ours, ours, axes=([0], [0])), numpy.tensordot(host, host, ([0], [0])))
    assert computations == []
    draw = dnp.random.default_rng(11).standard_normal((150, 120))
    eager = numpy.asarray(draw)
    with dnp.config.set(client_work_bytes=0):
        lowered = numpy.asarray(dnp.random.default_rng(11).standard_normal((150, 120)))
    numpy.testing.assert_array_equal(eager, lowered)  # values depend on chunks only


@pytest.mark.usefixtures("four_workers")
def test_a_loop_reading_a_large_host_matrix_through_products_is_eager(
    computations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gradient descent (logistic regression): ``x @ w`` and ``x.T @ (p - y)`` read a host
    matrix of many blocks and make vectors. The matrix (host data) and its transpose (a
    view) make nothing: ten iterations with no check in between (many nodes, making more
    than EAGER_BYTES) are computed node by node, with NumPy's values."""

    monkeypatch.setattr(work_placement, "EAGER_BYTES", 1024)
    generator = numpy.random.default_rng(8)
    x_host, y_host = generator.standard_normal((400, 100)), generator.random(400)
    assert x_host.size >= work_placement.CACHED_BLOCKS * dnp.config.get("min-chunk-elements")

    def descent(np: Any) -> Any:
        x, y = np.array(x_host), np.array(y_host)
        w = np.zeros(x.shape[1])
        for _ in range(10):
            p = 1.0 / (1.0 + np.exp(-(x @ w)))
            w = w - 0.5 * (x.T @ (p - y)) / x.shape[0]
        return w

    ours = descent(dnp)
    assert ours.to_dask().npartitions == 1 and dnp.array(x_host).to_dask().npartitions > 1
    assert_eq(ours, descent(numpy), rtol=1e-12)
    assert computations == []


@pytest.mark.usefixtures("four_workers")
def test_loop_bodies_and_large_work_are_lowered(
    computations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:

    # A loop's body on large arrays (here: more than 32 nodes making more than 1 kB, on
    # arrays of many blocks: 66 x 66 is at least CACHED_BLOCKS times min-chunk-elements)
    monkeypatch.setattr(work_placement, "EAGER_BYTES", 1024)
    monkeypatch.setattr(work_placement, "NOW_BYTES", 1024)  # not computed when built
    host = numpy.zeros((66, 66))
    assert 66 * 66 >= work_placement.CACHED_BLOCKS * 512
    with dnp.config.set(min_chunk_elements=512):
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
    # A few blocks (the suite's min-chunk-elements): threads would have little to split
    assert 66 * 66 < work_placement.CACHED_BLOCKS * dnp.config.get("min-chunk-elements")
    one_block = dnp.array(numpy.zeros((66, 66)))
    one_block[0, :] = 40.0
    for _ in range(10):
        one_block[1:-1, 1:-1] = 0.25 * (
            one_block[:-2, 1:-1] + one_block[2:, 1:-1] + one_block[1:-1, :-2] + one_block[1:-1, 2:]
        )
    assert_eq(one_block, host)
    assert computations == []  # the same many nodes, computed eagerly
    # Red-black sweeps (step-2 slice writes) on a grid of several blocks, fewer elements
    # than CACHED_BLOCKS blocks of min-chunk-elements: eager too, NumPy's values
    red_black_host = numpy.random.default_rng(5).random((150, 150))
    red_black = dnp.array(red_black_host)
    assert red_black.to_dask().npartitions > 1
    for values in (red_black_host, red_black):
        for _ in range(3):
            for first, second in ((1, 1), (2, 2), (1, 2), (2, 1)):
                rows, cols = slice(first, 149, 2), slice(second, 149, 2)
                values[rows, cols] = 0.25 * (
                    values[first - 1 : 148 : 2, cols] + values[first + 1 :: 2, cols]
                    + values[rows, second - 1 : 148 : 2] + values[rows, second + 1 :: 2]
                )  # fmt: skip
    assert_eq(red_black, red_black_host)
    assert computations == []
    monkeypatch.setattr(work_placement, "EAGER_BYTES", 16 * 2**20)
    again = dnp.array(host)
    for _ in range(10):  # the same loop on a small grid makes little: eager
        again[1:-1, 1:-1] = 0.25 * (
            again[:-2, 1:-1] + again[2:, 1:-1] + again[1:-1, :-2] + again[1:-1, 2:]
        )
    assert float(again.sum()) == pytest.approx(float(_stencil(host).sum()), rel=1e-12)
    assert computations == []
    with dnp.config.set(client_work_bytes="10 kB"):
        assert float((dnp.ones((66, 66)) * 2).sum()) == 2 * 66 * 66  # makes 35 kB
    assert computations


def _stencil(start: numpy.ndarray) -> numpy.ndarray:
    values = start.copy()
    for _ in range(10):
        values[1:-1, 1:-1] = 0.25 * (
            values[:-2, 1:-1] + values[2:, 1:-1] + values[1:-1, :-2] + values[1:-1, 2:]
        )
    return values


def test_arrays_chunked_by_the_user_are_not_made_one_chunk(computations: list[int]) -> None:
    host = numpy.arange(600.0).reshape(20, 30)
    ours = dnp.array(host, chunks=(10, 15))
    assert float(ours.sum()) == host.sum()
    assert computations  # lowered in its blocks
    assert ours.to_dask().chunks == ((10, 10), (15, 15))


def test_errors_are_numpys_with_the_policy_on(computations: list[int]) -> None:
    host = numpy.arange(6.0).reshape(2, 3)
    ours = dnp.array(host)
    empty = ours[:, :0]
    with pytest.raises(ValueError):
        numpy.argmax(host[:, :0], axis=1)
    with pytest.raises(ValueError):
        float(dnp.argmax(empty, axis=1).sum())


@pytest.mark.usefixtures("four_workers")
def test_products_of_data_held_here_are_values_when_built(
    computations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solver's ``a @ p`` (a host matrix of several blocks, a tiny vector) is computed
    when built, as NumPy does: its result is a value, so what follows is tiny work."""
    from dask_gpunumeric._ir.leaves import ChunkValue

    rng = numpy.random.default_rng(4)
    host, vector = rng.random((300, 400)), rng.random(400)
    a, p = dnp.array(host), dnp.array(vector)
    assert a.to_dask().npartitions > 1
    products = {
        "matvec": (a @ p, host @ vector),
        "tensordot": (dnp.tensordot(a, p, axes=1), numpy.tensordot(host, vector, axes=1)),
        "vecmat": (dnp.array(vector[:300]) @ a, vector[:300] @ host),
        "int matvec": (
            dnp.array(host.astype(numpy.int32)) @ dnp.array(numpy.arange(400, dtype=numpy.int16)),
            host.astype(numpy.int32) @ numpy.arange(400, dtype=numpy.int16),
        ),
    }
    for name, (ours, expected) in products.items():
        assert isinstance(ours._store.version, ChunkValue), name
        assert_eq(ours, expected)
    assert computations == []
    # Arrays over 64 KiB are not computed when built here (``NOW_BYTES``): a large
    # result and a lazy input stay nodes
    monkeypatch.setattr(work_placement, "NOW_BYTES", 2**16)
    # A product of a view of host data (logistic regression's ``x.T @ (p - y)``) is still
    # computed when built: NumPy's product of the view, no copy of ``a``
    transposed = a.T @ dnp.array(vector[:300])
    assert isinstance(transposed._store.version, ChunkValue)
    assert_eq(transposed, host.T @ vector[:300])
    lazy = {
        "policy off": (lambda: _with(dnp.config.set(client_work_bytes=0), lambda: a @ p), 0),
        "over client-data-bytes": (
            lambda: _with(
                dnp.config.set(client_data_bytes="100 kB", client_work_bytes="100 kB"),
                lambda: a @ p,
            ),
            0,
        ),
        "annotated": (lambda: _with(dask.annotate(priority=1), lambda: a @ p), 0),
        "large result": (lambda: a.T @ a, host.T @ host),
        "a lazy input": (lambda: (a + 1) @ p, (host + 1) @ vector),
    }
    for name, (build, expected) in lazy.items():
        ours = build()
        assert not isinstance(ours._store.version, ChunkValue), name
        # Lowered: a blocked sum over a's column blocks, equal to NumPy's up to rounding
        assert_eq(ours, host @ vector if isinstance(expected, int) else expected, rtol=1e-13)


def _with(context: Any, build: Any) -> Any:
    with context:
        return build()


def _writes(np: Any, host: numpy.ndarray) -> list[Any]:
    """Writes whose targets are values made by the same evaluation, some with views of
    the target still needed (an overlapping shift, a view read after the write)."""
    from benchmarks.suite.workloads.user_programs import laplacian

    a = np.array(host)
    shifted = a * 2
    shifted[1:] = shifted[:-1]  # the value is a view of the target: NumPy buffers it
    seen = a + 1
    before = seen[:, 1:] * 1  # made from the old value, read after the write below
    seen[0] = 5.0
    both = a - 3
    both[2:5] = 7.0
    return [laplacian(np, a), shifted, seen, before, both.sum() + before[0]]


def test_writes_into_values_made_here_are_in_place_and_numpys(
    computations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write whose target is memory the same evaluation made, and that nothing reads
    any more, updates it in place as NumPy's operators do (``out[1:, :] -= u[:-1, :]``):
    the Laplacian's four writes copy nothing; values are NumPy's wherever views of the
    target are still needed."""
    from dask_gpunumeric._ir.indexing import SetItem
    from dask_gpunumeric._kernels import in_process

    copies: list[Any] = []
    real = in_process._materialization_table[SetItem]

    def counting(node: Any, inputs: list[Any], backend: Any) -> Any:
        copies.append(node)
        return real(node, inputs, backend)

    monkeypatch.setitem(in_process._materialization_table, SetItem, counting)
    host = numpy.random.default_rng(6).random((150, 120))
    ours, expected = _writes(dnp, host), _writes(numpy, host)
    laplacian_of = ours[0]
    assert float(laplacian_of.sum()) == pytest.approx(float(expected[0].sum()), rel=1e-12)
    assert copies == []  # its four writes, in place
    for mine, theirs in zip(ours, expected, strict=True):
        assert_eq(mine, theirs)
    assert computations == []


def _selections(np: Any, host: numpy.ndarray) -> list[Any]:
    """Advanced indices of an array from ``np.array(host)``: a k-means step's boolean mask
    of rows, integer arrays, basic and advanced mixed, a 0-d integer array."""
    points = np.array(host)
    labels = numpy.arange(host.shape[0]) % 3
    return [
        points[labels == 1],
        points[labels == 2].mean(axis=0),
        points[[4, 0, 4, -1]],
        points[numpy.array([[1, 2], [3, 0]]), 1:],
        points[2:, numpy.array([0, 0, 1])],
        points[numpy.array(3)],  # a 0-d integer array: a row, copied
        points[host[:, 0] > 0.5, 1],
        np.array(host[:, 0])[numpy.array(2)],  # NumPy's scalar, our 0-d array
    ]


def test_selections_of_data_held_here_are_values_when_built(computations: list[int]) -> None:
    """A selection of data held here (``points[labels == j]`` of k-means) is NumPy's
    selection of the held array, made when built, as NumPy does: a value, no coordinates,
    no dask computation."""
    from dask_gpunumeric._ir.indexing import TakePoints
    from dask_gpunumeric._ir.leaves import ChunkValue

    host = numpy.random.default_rng(6).random((60, 3))
    ours, expected = _selections(dnp, host), _selections(numpy, host)
    # NumPy's own arrays only: another namespace's indexing (its rules, its errors) is
    # the node's, wherever it is computed.
    made = ChunkValue if dnp.config.get("backend") == "numpy" else TakePoints
    assert all(type(one._store.version) is made for one in ours[:1] + ours[2:])
    if made is ChunkValue:
        assert computations == []
    for one, numpys in zip(ours, expected, strict=True):
        assert_eq(one, numpys)
    points = dnp.array(host)
    row = points[numpy.array(3)]
    row[0] = -1.0  # a value of its own: the held data is not written
    row *= 2.0
    assert_eq(points, host)
    assert_eq(row, numpy.r_[-2.0, host[3, 1:] * 2.0])


@pytest.mark.parametrize(
    "index",
    [
        numpy.ones(59, dtype=bool),  # a mask of another length: IndexError
        numpy.array([0, 60]),  # out of bounds
        numpy.array([0.5]),  # not an integer array
        (numpy.array([0, 1]), numpy.array([0, 1, 2])),  # shapes that do not broadcast
    ],
)
def test_selections_of_data_held_here_raise_numpys_errors(
    computations: list[int], index: Any
) -> None:
    host = numpy.random.default_rng(7).random((60, 3))
    assert_raises_like(lambda: host[index], lambda: dnp.array(host)[index])


def test_selections_go_to_the_node_where_the_policy_or_the_data_say(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dask_gpunumeric._ir.indexing import TakePoints

    # 48 kB values are computed when built under the policy: a source made lazy here
    monkeypatch.setattr(work_placement, "NOW_BYTES", 0)

    host = numpy.random.default_rng(8).random((2000, 3))  # over the tiny ops' size: lazy
    mask = host[:, 0] > 0.5
    policy_on = {"client_work_bytes": "64 MiB"}
    cases = {  # the contexts made when used: ``config.set`` applies as it is made
        "policy off": (lambda: dnp.config.set(client_work_bytes=0), lambda: dnp.array(host)),
        "annotated": (lambda: dnp.config.set(**policy_on), lambda: dnp.array(host)),
        "a lazy source": (lambda: dnp.config.set(**policy_on), lambda: dnp.array(host) + 0),
    }
    for name, (context, source) in cases.items():
        with context(), dask.annotate(priority=1) if name == "annotated" else nullcontext():
            selected = source()[mask]
        assert type(selected._store.version) is TakePoints, name
        assert_eq(selected, host[mask])
