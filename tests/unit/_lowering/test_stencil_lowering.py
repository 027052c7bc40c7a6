"""Halo exchange by structure: one stencil iteration over B blocks is B compute tasks plus
slab tasks holding exactly the ghost cells; untouched blocks are the old keys; the grid
keeps its B blocks over many iterations (DESIGN.md §5)."""

from __future__ import annotations

import itertools
from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._kernels import stencil_block as stencil_block_module
from dask_gpunumeric._kernels.stencil_block import stencil_block
from dask_gpunumeric._kernels.stencil_lattice import lattice_block
from dask_gpunumeric._lowering.stencil import wrapped
from dask_gpunumeric.testing import assert_eq

FIVE_POINT = ((0, 0), (-1, 0), (0, 1), (0, -1), (1, 0))
NINE_POINT = tuple(itertools.product((-1, 0, 1), repeat=2))


def boundary_grid(n: int, chunks: tuple[int, int]) -> Any:
    """The seed program's grid: (n + 2) squared, hot top row, cold other edges."""
    arrays = numpy.zeros((n + 2, n + 2)), dnp.zeros((n + 2, n + 2), chunks=chunks)
    for array in arrays:
        array[:, 0] = array[:, -1] = array[-1, :] = -273.15
        array[0, :] = 40.0
    return arrays


def step(xp: Any, grid: Any, offsets: tuple[tuple[int, int], ...]) -> None:
    """``grid[1:-1, 1:-1] = mean of the shifted views`` (the seed stencil for FIVE_POINT)."""
    n = grid.shape[0] - 2
    views = [grid[1 + i : 1 + i + n, 1 + j : 1 + j + n] for i, j in offsets]
    total = views[0]
    for view in views[1:]:
        total = total + view
    grid[1:-1, 1:-1] = (1.0 / len(offsets)) * total


def layers(array: Any) -> tuple[str, dict[Any, Any], dict[Any, Any], Any]:
    collection = array.to_dask()
    graph = collection.__dask_graph__()
    compute = dict(graph.layers[collection.name])
    slabs = dict(graph.layers.get(f"{collection.name}-slab", {}))
    return collection.name, compute, slabs, collection


def ghost_cells(shape: tuple[int, int], chunks: tuple[int, int], offsets: Any) -> int:
    """Brute force: per block, the cells its written cells read that lie outside it."""
    total = 0
    interior = numpy.zeros(shape, dtype=bool)
    interior[1:-1, 1:-1] = True
    for top in range(0, shape[0], chunks[0]):
        for left in range(0, shape[1], chunks[1]):
            block = numpy.zeros(shape, dtype=bool)
            block[top : top + chunks[0], left : left + chunks[1]] = True
            written = block & interior
            read = numpy.zeros(shape, dtype=bool)
            for i, j in offsets:
                read |= numpy.roll(written, (i, j), axis=(0, 1))
            total += int((read & ~block).sum())
    return total


@pytest.mark.parametrize("offsets", [FIVE_POINT, NINE_POINT], ids=["5-point", "9-point"])
def test_one_iteration_is_one_task_per_block_plus_ghost_slabs(offsets: Any) -> None:
    host, grid = boundary_grid(34, (12, 9))  # 36 x 36 in 3 x 4 = 12 blocks
    step(dnp, grid, offsets)
    name, compute, slabs, collection = layers(grid)
    assert len(compute) == 12
    assert all(task[0] is stencil_block for task in compute.values())
    slab_values = dask.get(collection.__dask_graph__(), list(slabs))
    slab_bytes = sum(value.nbytes for value in slab_values)
    assert slab_bytes == 8 * ghost_cells(host.shape, (12, 9), offsets)
    # Each task reads one whole block, its own; everything else comes as slabs.
    source = collection.__dask_graph__().dependencies[name] - {f"{name}-slab"}
    for key, task in compute.items():
        whole = [a for a in task[4:] if isinstance(a, tuple) and a[0] in source]
        assert {a[1:] for a in whole} == {key[1:]}


def test_a_periodic_step_of_rolls_reads_ghost_slabs_from_the_opposite_edge() -> None:
    """``u + 0.1 * (rolls of u by one - 4 u)``: one task per block, every block's ghost
    rows and columns as slabs, those past the grid's edges cut from the other edge."""
    host = numpy.random.default_rng(3).random((60, 80))
    u = dnp.array(host, chunks=(20, 40))  # 3 x 2 blocks
    rolled = [(s, a) for a in (0, 1) for s in (1, -1)]
    step = u + 0.1 * (sum(dnp.roll(u, s, a) for s, a in rolled) - 4 * u)
    name, compute, slabs, collection = layers(step)
    assert collection.chunks == u.to_dask().chunks
    assert len(compute) == 6 and all(task[0] is stencil_block for task in compute.values())
    assert not [n for n in collection.__dask_graph__().layers if n.startswith("roll")]
    # per block two ghost rows of 40 and two ghost columns of 20
    slab_values = dask.get(collection.__dask_graph__(), list(slabs))
    assert len(slabs) == 6 * 4 and sum(v.size for v in slab_values) == 6 * (2 * 40 + 2 * 20)
    source = u.to_dask().name
    top = compute[(name, 0, 1)]  # its row above is the grid's last row, of block (2, 1)
    row_above = [slabs[k] for k in top[4:] if k in slabs and slabs[k][1] == (source, 2, 1)]
    assert [task[2] for task in row_above] == [(slice(19, 20), slice(0, 40))]
    expected = host + 0.1 * (sum(numpy.roll(host, s, a) for s, a in rolled) - 4 * host)
    assert_eq(step, expected)


def test_wrapped_splits_a_box_past_the_ends_into_boxes_inside() -> None:
    assert wrapped(((-1, 3), (2, 5)), (10, 5)) == [
        (((9, 10), (2, 5)), (-10, 0)),
        (((0, 3), (2, 5)), (0, 0)),
    ]
    assert wrapped(((8, 12),), (10,)) == [(((8, 10),), (0,)), (((0, 2),), (10,))]
    assert wrapped(((-3, 7),), (4,)) == [
        (((1, 4),), (-4,)),
        (((0, 4),), (0,)),
        (((0, 3),), (4,)),
    ]


def test_corner_slabs_only_where_diagonal_offsets_read_them() -> None:
    _, grid = boundary_grid(34, (12, 9))
    step(dnp, grid, FIVE_POINT)
    five = len(layers(grid)[2])
    _, grid = boundary_grid(34, (12, 9))
    step(dnp, grid, NINE_POINT)
    nine = len(layers(grid)[2])
    # 3 x 4 blocks: 2 * (3 * 3 + 2 * 4) = 34 face slabs, and 2 * 2 * 3 * 2 = 24 corners.
    assert (five, nine) == (34, 34 + 24)


def test_blocks_the_write_does_not_touch_are_the_old_keys() -> None:
    host = numpy.arange(400.0).reshape(20, 20)
    x = dnp.array(host, chunks=(5, 5))
    before = x.to_dask().name
    x[1:4, 1:4] = x[0:3, 1:4] + x[2:5, 1:4] - x[1:4, 2:5]
    name, compute, slabs, _ = layers(x)
    aliases = {key: task for key, task in compute.items() if task[0] is not stencil_block}
    assert aliases == {key: (before,) + key[1:] for key in aliases}
    assert len(aliases) == 15
    expected = host.copy()
    expected[1:4, 1:4] = host[0:3, 1:4] + host[2:5, 1:4] - host[1:4, 2:5]
    assert_eq(x, expected)


def test_grid_keeps_its_blocks_over_100_iterations() -> None:
    host, grid = boundary_grid(62, (16, 32))  # 64 x 64 in 4 x 2 blocks
    expected = host.copy()
    for _ in range(100):
        step(dnp, grid, FIVE_POINT)
        step(numpy, expected, FIVE_POINT)
    assert grid.to_dask().chunks == ((16,) * 4, (32, 32))
    assert_eq(grid, expected)


def test_new_array_follows_the_base_blocks() -> None:
    host = numpy.arange(60.0)
    x = dnp.array(host, chunks=20)
    result = x[2:] - x[:-2]  # centred on x[1:-1]: blocks (19, 20, 19)
    _, compute, slabs, collection = layers(result)
    assert collection.chunks == ((19, 20, 19),)
    assert len(compute) == 3 and len(slabs) == 4
    assert_eq(result, host[2:] - host[:-2])


def test_halo_off_takes_no_stencil_route() -> None:
    host, grid = boundary_grid(34, (12, 9))
    step(dnp, grid, FIVE_POINT)
    with dnp.config.set(halo=False):
        _, compute, slabs, _ = layers(grid)
    assert not slabs and not any(task[0] is stencil_block for task in compute.values())


@pytest.mark.parametrize("halo", [True, False], ids=["halo-on", "halo-off"])
def test_shifted_views_lower_by_output_blocks_without_rechunk(halo: bool) -> None:
    host = numpy.arange(100.0)
    x = dnp.array(host, chunks=25)
    result = x[1:] + x[:-1]
    with dnp.config.set(halo=halo):
        collection = result.to_dask()
        names = list(collection.__dask_graph__().layers)
        assert not [name for name in names if "rechunk" in name]
        # one operand's blocks (no slivers): x[1:]'s, or x[:-1]'s for the stencil's centre
        assert collection.chunks in (((24, 25, 25, 25),), ((25, 25, 25, 24),))
        assert_eq(result, host[1:] + host[:-1])


def test_relayout_blocks_are_views_or_assembled_from_pieces() -> None:
    host = numpy.arange(100.0)
    x = dnp.array(host, chunks=25)
    result = x[1:] + x[:-1]
    with dnp.config.set(halo=False):
        graph = result.to_dask().__dask_graph__()
    (relayout,) = [name for name in graph.layers if name.startswith("relayout-")]
    tasks = dict(graph.layers[relayout])
    pieces = [key for key in tasks if key[0].endswith("-piece")]
    # x[:-1] (blocks ending at 25, 50, 75, 99) onto x[1:]'s (24, 49, 74, 99): block 0 is a
    # view; the others assemble two pieces, one a whole block for the last.
    assert len(tasks) - len(pieces) == 4 and len(pieces) == 6


def test_slicing_leaves_no_sliver_blocks() -> None:
    host = numpy.arange(400.0).reshape(20, 20)
    x = dnp.array(host, chunks=(5, 5))
    view = x[4:19, 1:]  # dask's slicing alone: blocks (1, 5, 5, 4) and (4, 5, 5, 5)
    collection = view.to_dask()
    assert collection.chunks == ((6, 5, 4), (4, 5, 5, 5))
    assert not [name for name in collection.__dask_graph__().layers if "rechunk" in name]
    assert_eq(view, host[4:19, 1:])


def test_interior_takes_the_flat_route_when_the_evaluator_is_quiet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numexpr programs (the seed stencil's) run the interior as one contiguous range;
    a program numexpr would not compute bit for bit (``sin``) uses 2-D views. Both give
    NumPy's."""
    taken: list[bool] = []
    flat = stencil_block_module.flat_interior
    monkeypatch.setattr(
        stencil_block_module, "flat_interior", lambda *a: taken.append(flat(*a)) or taken[-1]
    )
    expected, grid = boundary_grid(34, (12, 9))
    step(dnp, grid, FIVE_POINT)
    step(numpy, expected, FIVE_POINT)
    assert_eq(grid, expected)
    assert taken == [True] * 12
    taken.clear()
    sines = numpy.sin(expected[1:, 1:]) + expected[:-1, :-1]
    assert_eq(dnp.sin(grid[1:, 1:]) + grid[:-1, :-1], sines, rtol=1e-15)
    assert taken and not any(taken)


def half_sweep(grid: Any, first: int, second: int) -> None:
    """One colour of red-black Gauss-Seidel: the cells ``(first::2, second::2)`` inside
    the border, from their four neighbours (the other colour)."""
    n0, n1 = grid.shape[0] - 2, grid.shape[1] - 2
    rows, cols = slice(first, n0 + 1, 2), slice(second, n1 + 1, 2)
    up, down = slice(first - 1, n0, 2), slice(first + 1, n0 + 2, 2)
    left, right = slice(second - 1, n1, 2), slice(second + 1, n1 + 2, 2)
    grid[rows, cols] = 0.25 * (
        grid[up, cols] + grid[down, cols] + grid[rows, left] + grid[rows, right]
    )


def test_red_black_half_sweep_is_one_task_per_block() -> None:
    """Blocks start at even and odd rows, so the first written row of a block is its
    row 0 or row 1; a one-row block at an even row holds no written cell."""
    host = numpy.random.default_rng(1).random((22, 22))
    chunks = ((2, 1, 1, 8, 10), (11, 11))  # row blocks at 0, 2, 3, 4, 12
    grid, expected = dnp.array(host, chunks=chunks), host.copy()
    half_sweep(grid, 1, 2)
    half_sweep(expected, 1, 2)
    name, compute, slabs, collection = layers(grid)
    names = list(collection.__dask_graph__().layers)
    assert not [n for n in names if n.startswith(("getitem", "relayout", "elementwise", "setitem"))]
    assert len(compute) == 10
    untouched = {key[1:] for key, task in compute.items() if task[0] is not lattice_block}
    assert untouched == {(1, 0), (1, 1)}
    plans = [task[3] for task in compute.values() if task[0] is lattice_block]
    assert {plan.written[0][0] for plan in plans} == {0, 1}  # a block's first written row
    assert all(plan.copies_old for plan in plans)
    assert_eq(grid, expected)
    general = dnp.array(host, chunks=chunks)
    half_sweep(general, 1, 2)
    with dnp.config.set(halo=False):  # the general route, from the same input: same bits
        assert [n for n in general.to_dask().__dask_graph__().layers if n.startswith("relayout")]
        assert_eq(general, expected)
