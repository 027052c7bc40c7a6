"""``exchange_halos`` by structure (which expressions become ``Stencil`` nodes) and by value:
halo on == halo off == NumPy for stencils written back and not, 1-D to 3-D, symmetric and
asymmetric, with broadcast operands and casts, and for hypothesis-generated offset sets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.stencil import Stencil
from dask_gpunumeric._lowering.core import pass_settings
from dask_gpunumeric._passes.pipeline import run_passes
from dask_gpunumeric._passes.rebuild import nodes_children_first
from dask_gpunumeric.testing import assert_eq


def stencils_in(array: Any) -> list[Stencil]:
    """The ``Stencil`` nodes ``exchange_halos`` makes of ``array`` (``halo-sweeps: 1``:
    neither merged into sweeps nor chained)."""
    with dnp.config.set(halo_sweeps=1):
        (root,) = run_passes([array._read()], pass_settings())
    return [node for node in nodes_children_first([root]) if isinstance(node, Stencil)]


def seed(xp: Any, grid: Any) -> None:
    center, north, south = grid[1:-1, 1:-1], grid[0:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, 0:-2]
    center[:] = 0.2 * (center + north + east + west + south)


def nine_point(xp: Any, a: Any) -> Any:
    n, m = a.shape[0] - 2, a.shape[1] - 2
    weights = {(i, j): 1.0 + i + 2 * j for i in range(3) for j in range(3)}
    return sum(w * a[i : i + n, j : j + m] for (i, j), w in weights.items())


def seven_point(xp: Any, u: Any) -> None:
    c = (slice(1, -1),) * 3
    total = -6.0 * u[c]
    for axis in range(3):
        for low, high in ((0, -2), (2, None)):
            index = list(c)
            index[axis] = slice(low, high)
            total = total + u[tuple(index)]
    u[c] = u[c] + 0.1 * total


def one_d(xp: Any, x: Any) -> Any:
    return (x[1:] + x[:-1]) * 0.5


def one_d_written(xp: Any, x: Any) -> None:
    x[1:-1] = x[2:] - 2 * x[1:-1] + x[:-2]


def asymmetric(xp: Any, a: Any) -> Any:
    return a[3:, :-1] * 2 - a[:-3, 1:] + a[2:-1, 1:]


def double_buffer(xp: Any, a: Any) -> Any:
    out = xp.zeros_like(a)
    out[1:-1, 2:] = a[2:, 2:] + a[:-2, 1:-1] * a[1:-1, :-2]
    return out


def broadcast_operands(xp: Any, a: Any) -> Any:
    row = a[0, 1:] * 1.0  # a new (m - 1,) vector
    return a[1:, 1:] * row - a[:-1, :-1] + a.max()


def int_grid_float_write(xp: Any, a: Any) -> None:
    grid = a.astype(xp.int64)
    grid[1:-1, 1:-1] = (grid[2:, 1:-1] + grid[:-2, 1:-1]) * 0.75
    return grid


def periodic_heat(xp: Any, u: Any) -> Any:
    rolls = xp.roll(u, 1, 0) + xp.roll(u, -1, 0) + xp.roll(u, 1, 1) + xp.roll(u, -1, 1)
    return u + 0.1 * (rolls - 4 * u)


def gradient(xp: Any, a: Any) -> Any:
    return xp.gradient(a, axis=0)


def red_black(xp: Any, u: Any) -> None:
    """Both colours of red-black Gauss-Seidel: four step-2 writes."""
    n0, n1 = u.shape[0] - 2, u.shape[1] - 2
    for first, second in ((1, 1), (2, 2), (1, 2), (2, 1)):
        rows, cols = slice(first, n0 + 1, 2), slice(second, n1 + 1, 2)
        up, down = slice(first - 1, n0, 2), slice(first + 1, n0 + 2, 2)
        left, right = slice(second - 1, n1, 2), slice(second + 1, n1 + 2, 2)
        u[rows, cols] = 0.25 * (u[up, cols] + u[down, cols] + u[rows, left] + u[rows, right])


def step_three(xp: Any, u: Any) -> None:
    u[1:-3:3, 2:-2:3] = u[0:-4:3, 2:-2:3] * u[2:-2:3, 3:-1:3] - u[1:-3:3, 1:-3:3]


def stepped_offset_two(xp: Any, u: Any) -> None:
    u[2:-2:2, 2:-2:2] = u[:-4:2, 2:-2:2] + u[4::2, 2:-2:2] + 0.5 * u[1:-3:2, 3:-1:2]


def stepped_one_d(xp: Any, x: Any) -> None:
    x[1:-1:2] = x[:-2:2] - x[2::2] * 0.5


Case = tuple[Callable[..., Any], tuple[int, ...], tuple[int, ...]]
CASES: list[Case] = [
    (periodic_heat, (24, 30), (7, 11)),
    (seed, (24, 30), (7, 11)),
    (nine_point, (26, 22), (9, 8)),
    (seven_point, (12, 13, 14), (5, 6, 7)),
    (one_d, (100,), (23,)),
    (one_d_written, (100,), (30,)),
    (asymmetric, (25, 26), (8, 9)),
    (double_buffer, (25, 26), (8, 9)),
    (broadcast_operands, (25, 26), (8, 9)),
    (int_grid_float_write, (25, 26), (8, 9)),
    (red_black, (25, 26), (8, 9)),
    (step_three, (25, 26), (8, 9)),
    (stepped_offset_two, (25, 26), (7, 9)),
    (stepped_one_d, (101,), (23,)),
    (gradient, (40, 30), (13, 16)),
]


def run(case: Case, xp: Any) -> Any:
    function, shape, chunks = case
    host = numpy.random.default_rng(7).uniform(-10, 10, shape).round(3)
    array = host.copy() if xp is numpy else dnp.array(host, chunks=chunks)
    for _ in range(3):  # writes repeat: each step reads what the last wrote
        result = function(xp, array)
        if result is not None:
            return result
    return array


@pytest.mark.parametrize("case", CASES, ids=[case[0].__name__ for case in CASES])
@pytest.mark.parametrize("halo", [True, False], ids=["halo-on", "halo-off"])
def test_equals_numpy(case: Case, halo: bool) -> None:
    expected = run(case, numpy)
    with dnp.config.set(halo=halo):
        assert_eq(run(case, dnp), expected)


@pytest.mark.parametrize("case", CASES[:-1], ids=[case[0].__name__ for case in CASES[:-1]])
def test_becomes_a_stencil(case: Case) -> None:
    with dnp.config.set(persist_depth=10**6):
        assert stencils_in(run(case, dnp))
        with dnp.config.set(halo=False):
            assert not stencils_in(run(case, dnp))


def test_seed_stencil_is_one_node_reading_its_grid_five_times() -> None:
    grid = dnp.zeros((20, 20), chunks=(10, 10))
    seed(dnp, grid)
    (stencil,) = stencils_in(grid)
    assert stencil.writes and stencil.origin == (1, 1) and stencil.extent == (18, 18)
    assert len(stencil.children) == 1
    assert sorted(a.starts for a in stencil.accesses) == [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]


@pytest.mark.parametrize(
    "build",
    [
        lambda x: x[::2] + x[1::2],  # strided views
        lambda x: x[:50] + x[50:],  # deeper than halo-max-depth
        lambda x: x + 1,  # no shifted view at all
    ],
    ids=["strided", "too-deep", "unshifted"],
)
def test_other_expressions_are_left_alone(build: Callable[[Any], Any]) -> None:
    host = numpy.arange(100.0)
    result = build(dnp.array(host, chunks=25))
    assert not stencils_in(result)
    assert_eq(result, build(host))


def test_rolls_are_reads_that_wrap_around_their_base() -> None:
    u = dnp.array(numpy.zeros((20, 30)), chunks=(10, 15))
    (stencil,) = stencils_in(periodic_heat(dnp, u))
    assert not stencil.writes and stencil.origin == (0, 0) and stencil.extent == (20, 30)
    assert stencil.children == (u._read(),)  # the rolled array itself, no Roll node
    # u (read twice by the program, one input) and its four rolls
    assert sorted(a.starts for a in stencil.accesses) == [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)]
    # a roll reads the nearer way round: by 19 of 20 rows is a read one row on
    (other,) = stencils_in(dnp.roll(u, (19, 3), (0, 1)) - u)
    assert sorted(a.starts for a in other.accesses) == [(0, 0), (1, -3)]


def test_rolls_deeper_than_halo_max_depth_are_left_alone() -> None:
    u = dnp.array(numpy.zeros((40, 30)), chunks=(10, 15))
    assert not stencils_in(dnp.roll(u, 9, 0) + u)
    assert stencils_in(dnp.roll(u, 8, 0) + u)
    assert not stencils_in(dnp.roll(u, 15, 1) * u)


def test_an_anchor_on_rolls_alone_stays_inside_its_base() -> None:
    u = dnp.array(numpy.zeros((20, 30)), chunks=(10, 15))
    (stencil,) = stencils_in(dnp.roll(u, 1, 0) + dnp.roll(u, (2, 3), (0, 1)))
    assert stencil.origin == (0, 0)  # the accesses' middle (-2, -2) is past the base's start
    assert stencil.shape == (20, 30)


def test_red_black_half_sweep_is_one_stepped_stencil() -> None:
    u = dnp.zeros((22, 22), chunks=(7, 22))
    rows, cols = slice(1, 21, 2), slice(2, 21, 2)
    u[rows, cols] = 0.25 * (u[0:20:2, cols] + u[2:22:2, cols] + u[rows, 1:20:2] + u[rows, 3:22:2])
    (stencil,) = stencils_in(u)
    assert stencil.writes and len(stencil.children) == 1
    assert (stencil.origin, stencil.extent, stencil.steps) == ((1, 2), (10, 10), (2, 2))
    assert sorted(a.starts for a in stencil.accesses) == [(0, 2), (1, 1), (1, 3), (2, 2)]


def reversed_write(x: Any) -> None:
    x[99:0:-2] = x[98::-2] + x[99:0:-2]


REFUSED_STEPPED_WRITES: dict[str, Callable[[Any], None]] = {
    # the program's views at step 1, the write at step 2
    "views-of-step-one": lambda x: x.__setitem__(slice(0, 100, 2), x[1:51] + x[0:50]),
    # one view at step 4, the others at the write's step 2
    "a-view-of-another-step": lambda x: x.__setitem__(slice(0, 50, 2), x[1:100:4] + x[2:52:2]),
    "a-negative-step-write": reversed_write,
    # a positive write of a reversed view
    "a-negative-step-view": lambda x: x.__setitem__(slice(1, 99, 2), x[97::-2] + x[2:100:2]),
    # shifted 20 cells, beyond halo-max-depth (8)
    "deeper-than-the-halo": lambda x: x.__setitem__(slice(20, 80, 2), x[0:60:2] + x[40:100:2]),
}


@pytest.mark.parametrize("write", REFUSED_STEPPED_WRITES.values(), ids=REFUSED_STEPPED_WRITES)
def test_stepped_writes_it_refuses_stay_writes(write: Callable[[Any], None]) -> None:
    host = numpy.arange(100.0) % 7
    x = dnp.array(host, chunks=(23, 30, 17, 30))
    expected = host.copy()
    for _ in range(2):
        write(x)
        write(expected)
    # the write stays a write (a step-1 value may still be a stencil of its own)
    assert not [stencil for stencil in stencils_in(x) if stencil.writes or stencil.is_stepped]
    assert_eq(x, expected)


def test_a_value_read_twice_is_computed_once_as_a_new_array() -> None:
    host = numpy.arange(100.0)
    x = dnp.array(host, chunks=25)
    value = x[1:] + x[:-1]
    total = value.sum()
    x[:-1] = value
    roots = run_passes(
        [x._read(), total._read()], pass_settings()
    )  # lowered together: value has two readers
    (stencil,) = [node for node in nodes_children_first(roots) if isinstance(node, Stencil)]
    assert not stencil.writes
    expected = host.copy()
    expected[:-1] = host[1:] + host[:-1]
    assert_eq(x, expected)
    assert float(total) == (host[1:] + host[:-1]).sum()


@st.composite
def offset_stencils(draw: Any) -> tuple[Any, ...]:
    ndim = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 3))
    offsets = draw(
        st.lists(st.tuples(*[st.integers(-depth, depth)] * ndim), min_size=1, max_size=5)
    )
    shape = tuple(draw(st.integers(2 * depth + 1, 14)) for _ in range(ndim))
    chunks = tuple(draw(st.integers(max(1, depth), n)) for n in shape)
    weights = draw(st.lists(st.sampled_from([1.0, -2.0, 0.5]), min_size=5, max_size=5))
    return offsets, shape, chunks, weights, draw(st.booleans())


def apply_offsets(array: Any, spec: tuple[Any, ...]) -> Any:
    offsets, shape, _, weights, written = spec
    depth = max(max(abs(k) for k in offset) for offset in offsets)
    inner = tuple(slice(depth, n - depth) for n in shape)
    total = None
    for offset, weight in zip(offsets, weights, strict=False):
        view = array[
            tuple(slice(depth + k, n - depth + k) for k, n in zip(offset, shape, strict=True))
        ]
        total = weight * view if total is None else total + weight * view
    if not written:
        return total
    array[inner] = total
    return array


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(spec=offset_stencils())
def test_hypothesis_offset_sets(spec: tuple[Any, ...]) -> None:
    _, shape, chunks, _, _ = spec
    host = numpy.arange(float(numpy.prod(shape))).reshape(shape) % 17
    expected = apply_offsets(host.copy(), spec)
    assert_eq(apply_offsets(dnp.array(host, chunks=chunks), spec), expected)
