"""``paint_fills``: scalar writes into a fresh ``zeros``/``full`` become its paints (one
creation task per block, no write task), by structure; the values are NumPy's for any
basic index (steps, negative steps, integers), and writes that cannot be paints (the
array read in between, another dtype, an array value, ``empty``) keep their route."""

from __future__ import annotations

from typing import Any

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.leaves import Fill
from dask_gpunumeric._kernels.creation import region_in_block
from dask_gpunumeric._lowering.core import pass_settings
from dask_gpunumeric._passes.pipeline import run_passes
from dask_gpunumeric._passes.rebuild import nodes_children_first
from dask_gpunumeric.testing import assert_eq


def layer_kinds(array: Any) -> dict[str, int]:
    """Tasks per layer kind (the name's first word) of ``array``'s lowered graph."""
    kinds: dict[str, int] = {}
    for name, layer in array.to_dask().__dask_graph__().layers.items():
        kind = name.split("-")[0]
        kinds[kind] = kinds.get(kind, 0) + len(layer)
    return kinds


def seed_grid(xp: Any) -> Any:
    grid = xp.zeros((30, 30)) if xp is numpy else xp.zeros((30, 30), chunks=(10, 15))
    grid[:, 0] = -273.15
    grid[:, -1] = -273.15
    grid[-1, :] = -273.15
    grid[0, :] = 40.0
    return grid


def test_the_seed_grid_is_one_creation_task_per_block() -> None:
    grid = seed_grid(dnp)
    assert layer_kinds(grid) == {"fill": 6}
    assert_eq(grid, seed_grid(numpy))
    with dnp.config.set(fusion=False):  # the pass is part of fusion
        grid = seed_grid(dnp)
        assert layer_kinds(grid)["setitem"] > 6
        assert_eq(grid, seed_grid(numpy))


def test_paints_follow_the_writes_order() -> None:
    def run(xp: Any) -> Any:
        grid = xp.full((12, 12), 2.0) if xp is numpy else xp.full((12, 12), 2.0, chunks=5)
        grid[2:9, 2:9] = 1.0
        grid[4, :] = 3.0
        grid[::-2, 7] = -0.0
        grid[...] = grid[...]  # an identity write of an array: not a paint, read after
        return grid

    grid = run(dnp)
    (root,) = run_passes([grid._read()], pass_settings())
    (fill,) = [node for node in nodes_children_first([root]) if isinstance(node, Fill)]
    assert [float(value) for _, value in fill.paints] == [1.0, 3.0, -0.0]
    assert_eq(grid, run(numpy))


@pytest.mark.parametrize(
    "between",
    [
        lambda g: g * 1.0,  # the array is read before the second write
        lambda g: g[3:5],  # a view of it: read too
    ],
    ids=["read", "view"],
)
def test_a_fill_read_before_a_write_is_not_painted_over(between: Any) -> None:
    def run(xp: Any) -> tuple[Any, Any]:
        grid = xp.zeros((20, 20)) if xp is numpy else xp.zeros((20, 20), chunks=7)
        grid[0] = 1.0
        snapshot = between(grid) * 1.0
        grid[3] = 5.0
        return grid, snapshot

    for ours, expected in zip(run(dnp), run(numpy), strict=True):
        assert_eq(ours, expected)


@pytest.mark.parametrize(
    "write",
    [
        lambda g: g.__setitem__(0, 7),  # an int into a float grid: cast by the write
        lambda g: g.__setitem__(0, numpy.arange(20.0)),  # an array value
        lambda g: g.__setitem__((slice(None), 1), 2.5),  # into empty(): not a Fill value
    ],
    ids=["int-into-float", "array-value", "empty"],
)
def test_other_writes_keep_their_route(write: Any) -> None:
    def run(xp: Any, empty: bool) -> Any:
        if empty:
            grid = xp.empty((20, 20)) if xp is numpy else xp.empty((20, 20), chunks=7)
            grid[...] = 0.5
        else:
            grid = xp.zeros((20, 20)) if xp is numpy else xp.zeros((20, 20), chunks=7)
        write(grid)
        return grid

    assert_eq(run(dnp, empty=False), run(numpy, empty=False))
    assert_eq(run(dnp, empty=True), run(numpy, empty=True))


@st.composite
def basic_indices(draw: Any) -> tuple[tuple[int, ...], tuple[Any, ...], tuple[int, ...]]:
    shape = tuple(draw(st.integers(1, 9)) for _ in range(draw(st.integers(1, 3))))
    index = []
    for n in shape:
        if draw(st.booleans()):
            index.append(draw(st.integers(-n, n - 1)))
        else:
            start = draw(st.none() | st.integers(-n - 2, n + 2))
            stop = draw(st.none() | st.integers(-n - 2, n + 2))
            step = draw(st.sampled_from([None, 1, 2, 3, -1, -2, -4]))
            index.append(slice(start, stop, step))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    return shape, tuple(index), chunks


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(spec=basic_indices(), value=st.sampled_from([1.5, -0.0, 7.0]))
def test_hypothesis_paints_equal_numpy(
    spec: tuple[tuple[int, ...], tuple[Any, ...], tuple[int, ...]], value: float
) -> None:
    shape, index, chunks = spec
    expected = numpy.full(shape, 0.25)
    expected[index] = value
    ours = dnp.full(shape, 0.25, chunks=chunks)
    ours[index] = value
    assert_eq(ours, expected)


@settings(max_examples=100, deadline=None)
@given(spec=basic_indices())
def test_region_in_block_selects_numpys_cells(
    spec: tuple[tuple[int, ...], tuple[Any, ...], tuple[int, ...]],
) -> None:
    from dask_gpunumeric._ir.indexing import Region

    shape, index, chunks = spec
    whole = numpy.zeros(shape, dtype=bool)
    whole[index] = True
    axes = Region.from_index(shape, index).axes
    offset = tuple(min(c, n - 1) for c, n in zip(chunks, shape, strict=True))
    block_shape = tuple(n - o for n, o in zip(shape, offset, strict=True))
    block = numpy.zeros(block_shape, dtype=bool)
    found = region_in_block(axes, block_shape, offset)
    if found is not None:
        block[found] = True
    expected = whole[tuple(slice(o, None) for o in offset)]
    numpy.testing.assert_array_equal(block, expected)
