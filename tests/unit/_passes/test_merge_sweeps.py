"""``merge_sweeps``: a loop's iterations of one written stencil become one node of k sweeps,
lowered to one task per block fed by ghost slabs k deep. By structure (which chains merge,
task counts, slab bytes) and by value: sweeps on == sweeps off == NumPy, bit for bit, for
1-D to 3-D stencils, one-sided and diagonal offsets, on both CPU backends, with the
compiled loop and without it, and for hypothesis-generated offset sets."""

from __future__ import annotations

import itertools
from typing import Any

import dask
import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import compiled_loops, get_backend
from dask_gpunumeric._ir.stencil import Stencil, StencilChain
from dask_gpunumeric._kernels import stencil_sweeps
from dask_gpunumeric._kernels.stencil_sweeps import sweeps_block
from dask_gpunumeric._lowering.core import pass_settings
from dask_gpunumeric._passes.pipeline import run_passes
from dask_gpunumeric._passes.rebuild import nodes_children_first
from dask_gpunumeric.testing import assert_eq

Offsets = tuple[tuple[int, ...], ...]
FIVE_POINT = ((0, 0), (-1, 0), (0, 1), (0, -1), (1, 0))
NINE_POINT = tuple(itertools.product((-1, 0, 1), repeat=2))
SEVEN_POINT_3D = ((0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))


def grid_of(xp: Any, shape: tuple[int, ...], chunks: tuple[int, ...]) -> Any:
    """A grid with distinct values everywhere, its boundary included."""
    host = (numpy.arange(numpy.prod(shape), dtype=float).reshape(shape) * 0.37) % 11.0
    return host.copy() if xp is numpy else dnp.array(host, chunks=chunks)


def iterate(xp: Any, grid: Any, offsets: Offsets, iterations: int, depth: int = 1) -> Any:
    """``iterations`` of ``grid[inner] = weighted sum of the shifted views``."""
    inner = tuple(slice(depth, n - depth) for n in grid.shape)
    views = [
        grid[tuple(slice(depth + k, n - depth + k) for k, n in zip(o, grid.shape, strict=True))]
        for o in offsets
    ]
    weights = [0.5 + 0.25 * (i % 3) for i in range(len(offsets))]
    for _ in range(iterations):
        total = weights[0] * views[0]
        for weight, view in zip(weights[1:], views[1:], strict=True):
            total = total + weight * view
        grid[inner] = (1.0 / sum(weights)) * total
    return grid


def sweeps_of(array: Any) -> list[int]:
    """The ``sweeps`` of every stencil node the passes make of ``array``, oldest first."""
    (root,) = run_passes([array._read()], pass_settings())
    return [node.sweeps for node in nodes_children_first([root]) if isinstance(node, Stencil)]


def chains_of(array: Any) -> list[int]:
    """The stages of every ``StencilChain`` the passes make of ``array``, oldest first."""
    (root,) = run_passes([array._read()], pass_settings())
    return [len(n.stages) for n in nodes_children_first([root]) if isinstance(n, StencilChain)]


@pytest.fixture(autouse=True)
def whole_chains() -> Any:
    with dnp.config.set(persist_depth=10**6):  # no auto-persist cuts the chains
        yield


def test_a_loop_merges_into_nodes_of_at_most_halo_sweeps() -> None:
    grid = iterate(dnp, grid_of(dnp, (20, 20), (7, 7)), FIVE_POINT, 10)
    assert sweeps_of(grid) == [8, 2]
    with dnp.config.set(halo_sweeps=3):
        assert sweeps_of(grid) == [3, 3, 3, 1]
    with dnp.config.set(halo_sweeps=1):
        assert sweeps_of(grid) == [1] * 10
    with dnp.config.set(halo_max_depth=2):  # the halo of k sweeps is k cells deep
        assert sweeps_of(grid) == [2] * 5


def test_written_stencils_reading_around_the_base_are_not_merged() -> None:
    """A roll's reads wrap around the base: a sweep would read cells the sweep before it
    wrote on the other side (sweeps assume reads past the window are of fixed cells)."""

    def run(xp: Any) -> Any:
        u = grid_of(xp, (24, 18), (8, 9))
        for _ in range(5):
            u[...] = u + 0.2 * (xp.roll(u, 1, 0) + xp.roll(u, -1, 1) - 2 * u)
        return u

    assert sweeps_of(run(dnp)) == [1] * 5
    assert_eq(run(dnp), run(numpy))


def test_a_version_read_elsewhere_ends_a_chain() -> None:
    def run(xp: Any) -> tuple[Any, Any]:
        grid = iterate(xp, grid_of(xp, (20, 20), (7, 7)), FIVE_POINT, 3)
        snapshot = grid * 1.0  # the third version has a second reader
        return iterate(xp, grid, FIVE_POINT, 3), snapshot

    grid, snapshot = run(dnp)
    (root, _) = run_passes([grid._read(), snapshot._read()], pass_settings())
    merged = [n.sweeps for n in nodes_children_first([root]) if isinstance(n, Stencil)]
    assert merged == [3, 3]  # not 6
    for ours, expected in zip((grid, snapshot), run(numpy), strict=True):
        assert_eq(ours, expected)


def test_different_programs_are_not_merged() -> None:
    def run(xp: Any) -> Any:
        grid = grid_of(xp, (20, 20), (7, 7))
        center, north, south = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1]
        for step in range(6):
            center[:] = (0.5 if step % 2 else 0.25) * (north + south) + 0.0 * center
        return grid

    grid = run(dnp)
    assert sweeps_of(grid) == []
    assert chains_of(grid) == [6]  # chained instead (test_chain_stencils.py)
    assert_eq(grid, run(numpy))


def test_stepped_stencils_are_not_merged() -> None:
    """A loop of one stepped write (the same lattice rewritten from its neighbours, ``k``
    times) is not merged into sweeps, whose kernels dilate boxes, not lattices: it is
    chained (test_chain_stencils.py)."""

    def run(xp: Any) -> Any:
        grid = grid_of(xp, (21, 21), (7, 7))
        for _ in range(4):
            grid[1:-1:2, 2:-1:2] = 0.5 * (grid[0:-2:2, 2:-1:2] + grid[2::2, 1:-2:2])
        return grid

    grid = run(dnp)
    assert sweeps_of(grid) == []
    assert chains_of(grid) == [4]
    assert_eq(grid, run(numpy))


CASES = [
    ("5-point", (22, 22), (7, 8), FIVE_POINT, 1),
    ("9-point", (22, 19), (9, 6), NINE_POINT, 1),
    ("7-point-3d", (10, 11, 9), (4, 5, 9), SEVEN_POINT_3D, 1),
    ("1-d", (40,), (9,), ((-1,), (0,), (1,)), 1),
    ("one-sided", (24, 24), (8, 8), ((0, 0), (1, 0), (2, 1), (0, 2)), 2),
    ("blocks-thinner-than-the-halo", (30, 30), (3, 30), FIVE_POINT, 1),
]


@pytest.mark.parametrize("sweeps", [2, 3, 8])
@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_equals_numpy(case: Any, sweeps: int) -> None:
    _, shape, chunks, offsets, depth = case
    expected = iterate(numpy, grid_of(numpy, shape, chunks), offsets, 9, depth)
    with dnp.config.set(halo_sweeps=sweeps):
        grid = iterate(dnp, grid_of(dnp, shape, chunks), offsets, 9, depth)
        assert max(sweeps_of(grid)) > 1
        assert_eq(grid, expected)


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_the_compiled_sweeps_equal_numpy_bit_for_bit(
    case: Any, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled_loops, "HOT_ELEMENTS", 0)
    monkeypatch.setattr(stencil_sweeps, "TILE_BYTES", 512)  # many small tiles per block
    monkeypatch.setattr(stencil_sweeps, "TILE_COLUMNS", 6)
    calls = []
    compiled = stencil_sweeps.compiled_sweeps

    def counted(*args: Any) -> Any:
        calls.append(args)
        return compiled(*args)

    monkeypatch.setattr(stencil_sweeps, "compiled_sweeps", counted)
    _, shape, chunks, offsets, depth = case
    expected = iterate(numpy, grid_of(numpy, shape, chunks), offsets, 9, depth)
    iterate(dnp, grid_of(dnp, shape, chunks), offsets, 9, depth).compute()  # compiles
    compiled_loops.wait_for_compiles(timeout=120)
    grid = iterate(dnp, grid_of(dnp, shape, chunks), offsets, 9, depth)
    numpy.testing.assert_array_equal(grid.compute(), expected, strict=True)
    host_blocks = get_backend(backend).chunk_type is numpy.ndarray
    assert bool(calls) == host_blocks  # host blocks only: a device sweeps itself


def ghost_cells_of_sweeps(
    shape: tuple[int, int], chunks: tuple[int, int], offsets: Offsets, sweeps: int
) -> int:
    """Per block, the cells of the smallest box holding what its sweeps read, outside it
    (brute force over masks: what sweep k - 1 computes is what sweep k reads inside the
    window, and so on)."""
    window = numpy.zeros(shape, dtype=bool)
    window[1:-1, 1:-1] = True

    def dilate(mask: numpy.ndarray) -> numpy.ndarray:
        return numpy.logical_or.reduce([numpy.roll(mask, o, axis=(0, 1)) for o in offsets])

    total = 0
    for top in range(0, shape[0], chunks[0]):
        for left in range(0, shape[1], chunks[1]):
            block = numpy.zeros(shape, dtype=bool)
            block[top : top + chunks[0], left : left + chunks[1]] = True
            computed = block & window
            for _ in range(sweeps - 1):
                computed = computed | (dilate(computed) & window)
            rows, columns = numpy.nonzero(computed | dilate(computed) | block)
            box = numpy.zeros(shape, dtype=bool)
            box[rows.min() : rows.max() + 1, columns.min() : columns.max() + 1] = True
            total += int((box & ~block).sum())
    return total


@pytest.mark.parametrize("offsets", [FIVE_POINT, NINE_POINT], ids=["5-point", "9-point"])
def test_k_iterations_are_one_task_per_block_plus_slabs_k_deep(offsets: Offsets) -> None:
    grid = grid_of(dnp, (36, 36), (12, 9))  # 3 x 4 = 12 blocks
    shape = grid.shape
    with dnp.config.set(halo_sweeps=3):
        iterate(dnp, grid, offsets, 3)
        collection = grid.to_dask()
    graph = collection.__dask_graph__()
    compute = dict(graph.layers[collection.name])
    slabs = dict(graph.layers[f"{collection.name}-slab"])
    assert len(compute) == 12
    assert all(task[0] is sweeps_block for task in compute.values())
    stencils = [name for name in graph.layers if name.startswith("stencil")]
    assert stencils == [f"{collection.name}-slab", collection.name]  # 3 iterations, 1 node
    slab_bytes = sum(value.nbytes for value in dask.get(graph, list(slabs)))
    assert slab_bytes == 8 * ghost_cells_of_sweeps(shape, (12, 9), offsets, 3)


@st.composite
def offset_loops(draw: Any) -> tuple[Any, ...]:
    ndim = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 2))
    offsets = draw(
        st.lists(
            st.tuples(*[st.integers(-depth, depth)] * ndim), min_size=1, max_size=4, unique=True
        )
    )
    shape = tuple(draw(st.integers(2 * depth + 1, 13)) for _ in range(ndim))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    return tuple(offsets), shape, chunks, depth, draw(st.integers(2, 6)), draw(st.integers(1, 9))


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(spec=offset_loops())
def test_hypothesis_offset_loops(spec: tuple[Any, ...]) -> None:
    offsets, shape, chunks, depth, sweeps, iterations = spec
    expected = iterate(numpy, grid_of(numpy, shape, chunks), offsets, iterations, depth)
    with dnp.config.set(halo_sweeps=sweeps, halo_max_depth=8):
        grid = iterate(dnp, grid_of(dnp, shape, chunks), offsets, iterations, depth)
        assert_eq(grid, expected)
