"""Stencils of shifted views, the halo-exchange corpus: every program runs on NumPy and on
ours with ``gpunumeric.halo`` on and off; ours equals NumPy (values, dtype, shape) and
halo on equals halo off exactly. Grids are small but span several blocks (``chunks=``
where the default would give one), so ghost cells cross block boundaries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq
from examples.stencil import stencil

Program = Callable[[Any], Any]  # takes the library (numpy or ours), returns an array


@pytest.fixture(params=[True, False], ids=["halo-on", "halo-off"])
def halo(request: pytest.FixtureRequest) -> bool:
    return request.param


def check(program: Program, halo: bool, *, rtol: float = 0.0) -> None:
    """``program`` on ours (halo as given) equals NumPy's, and equals ours with the other
    halo setting bit for bit. Built and computed inside the setting (it is read when the
    program is lowered)."""
    expected = program(numpy)
    with dnp.config.set(halo=halo):
        ours = program(dnp)
        assert_eq(ours, expected, rtol=rtol)
        mine = ours.compute()
    with dnp.config.set(halo=not halo):
        other = program(dnp).compute()
    numpy.testing.assert_array_equal(mine, other, strict=True)


def grid(np: Any, shape: tuple[int, ...], dtype: Any, chunks: tuple[int, ...]) -> Any:
    """Distinct values (so a wrong offset shows) in blocks of ``chunks`` for ours."""
    values = numpy.arange(numpy.prod(shape)).reshape(shape) % 97
    values = values.astype(dtype)
    return numpy.array(values) if np is numpy else dnp.array(values, chunks=chunks)


def interior(ndim: int, low: int, high: int) -> tuple[slice, ...]:
    return (slice(low, -high or None),) * ndim


def shifted(u: Any, offset: tuple[int, ...], depth: int) -> Any:
    """The view of ``u`` shifted by ``offset`` from its depth-``depth`` interior."""
    return u[tuple(slice(depth + o, u.shape[a] - depth + o) for a, o in enumerate(offset))]


# ----------------------------------------------------------------- the seed program


@pytest.mark.parametrize("n", [126])
def test_seed_stencil(halo: bool, n: int) -> None:
    check(lambda np: stencil(np, n, 6), halo)


def seed_in_blocks(np: Any, n: int, iterations: int, chunks: tuple[int, int]) -> Any:
    """The seed program on a grid cut into ``chunks`` (a 3 x 3 grid of blocks)."""
    g = grid(np, (n + 2, n + 2), float, chunks) * 0.0
    g[:, 0] = g[:, -1] = g[-1, :] = -273.15
    g[0, :] = 40.0
    center = g[1:-1, 1:-1]
    north, south, east, west = g[:-2, 1:-1], g[2:, 1:-1], g[1:-1, 2:], g[1:-1, :-2]
    for _ in range(iterations):
        center[:] = 0.2 * (center + north + east + west + south)
    return g


def test_seed_stencil_on_a_3x3_block_grid(halo: bool) -> None:
    check(lambda np: seed_in_blocks(np, 88, 5, (30, 30)), halo)


# ------------------------------------------------------- classic shapes, written back


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nine_point_2d_written_back(halo: bool, dtype: str) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (72, 72), dtype, (24, 36))
        for _ in range(3):
            total = sum(shifted(u, (i, j), 1) for i in (-1, 0, 1) for j in (-1, 0, 1))
            u[1:-1, 1:-1] = total / 9
        return u

    check(program, halo)


def test_seven_point_3d_written_back(halo: bool) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (24, 24, 24), "float64", (8, 12, 24))
        axes = [(-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)]
        for _ in range(2):
            neighbours = sum(shifted(u, offset, 1) for offset in axes)
            u[1:-1, 1:-1, 1:-1] = (neighbours - 6 * u[1:-1, 1:-1, 1:-1]) * 0.1 + u[1:-1, 1:-1, 1:-1]
        return u

    check(program, halo)


def test_one_dimensional_written_back_and_not(halo: bool) -> None:
    def program(np: Any) -> Any:
        x = grid(np, (6000,), "float64", (1500,))
        for _ in range(3):
            x[1:-1] = 0.5 * (x[:-2] + x[2:])
        return x[2:] - x[:-2]  # a centred difference, not written back

    check(program, halo)


def test_integer_stencil_written_back(halo: bool) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (80, 80), "int64", (20, 40))
        for _ in range(3):
            u[1:-1, 1:-1] = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]) // 4
        return u

    check(program, halo)


def test_asymmetric_offsets(halo: bool) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (75, 75), "float64", (25, 25))
        for _ in range(2):
            u[2:-1, 1:-2] = u[:-3, 1:-2] - 0.5 * u[3:, :-3] + 0.25 * u[2:-1, 3:]
        return u

    check(program, halo)


def test_not_written_back_keeps_the_store(halo: bool) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (72, 72), "float32", (24, 24))
        laplacian = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
        return laplacian * laplacian + u[1:-1, 1:-1]

    check(program, halo)


def test_written_into_another_array(halo: bool) -> None:
    """Jacobi with two buffers (``new[1:-1, 1:-1] =`` from ``old``) and ``out[...] =``."""

    def program(np: Any) -> Any:
        old = grid(np, (66, 66), "float64", (22, 33))
        new = old.copy()
        for _ in range(3):
            new[1:-1, 1:-1] = 0.25 * (
                old[:-2, 1:-1] + old[2:, 1:-1] + old[1:-1, :-2] + old[1:-1, 2:]
            )
            old, new = new, old
        out = np.zeros((64, 64)) if np is numpy else dnp.zeros((64, 64), chunks=(32, 32))
        out[...] = old[1:-1, 1:-1] - 0.5 * (old[:-2, :-2] + old[2:, 2:])
        return out

    check(program, halo)


# ------------------------------------------------------------------- periodic (roll)


def test_periodic_with_roll_not_written_back(halo: bool) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (70, 70), "float64", (35, 35))
        for _ in range(3):
            rolled = [np.roll(u, s, axis=a) for s in (1, -1) for a in (0, 1)]
            u = u + 0.1 * (sum(rolled) - 4 * u)
        return u

    check(program, halo)


def test_periodic_with_roll_written_back(halo: bool) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (70, 70), "float32", (35, 35))
        for _ in range(2):
            u[:] = 0.5 * u + 0.25 * (np.roll(u, 2, axis=1) + np.roll(u, -1, axis=0))
        return u

    check(program, halo)


def test_periodic_written_back_for_more_iterations_than_one_sweep(halo: bool) -> None:
    """Consecutive written stencils whose reads wrap are not merged into sweeps (a sweep
    reads past its window only cells nobody writes): still NumPy's after 6 iterations."""

    def program(np: Any) -> Any:
        u = grid(np, (48, 30), "float64", (16, 30))
        for _ in range(6):
            u[...] = u + 0.2 * (np.roll(u, 1, 0) + np.roll(u, -1, 1) - 2 * u)
        return u

    check(program, halo)


@pytest.mark.parametrize(
    ("shape", "chunks", "shifts", "axes"),
    [
        ((40, 30), (13, 7), (1, -1), (0, 1)),  # uneven blocks on both axes
        ((40, 30), (40, 30), (3, 2), (0, 1)),  # one block: every ghost slab is its own
        ((12, 9), (2, 4), (5, -3), (0, 1)),  # deeper than a block: slabs of several blocks
        ((16, 10), (4, 10), (8, 5), (0, 1)),  # half the length: read at -8 and -5
        ((6, 8, 10), (3, 4, 5), (1, -2, 3), (0, 1, 2)),
        ((50,), (12,), (-7,), (0,)),
        ((30, 20), (10, 10), (9, 0), (0, 1)),  # deeper than halo-max-depth: the roll's route
    ],
)
def test_periodic_stencils_of_rolls(
    halo: bool, shape: tuple[int, ...], chunks: Any, shifts: Any, axes: Any
) -> None:
    def program(np: Any) -> Any:
        u = grid(np, shape, "float64", chunks)
        total = 2.0 * u
        for shift, axis in zip(shifts, axes, strict=True):
            total = total - 0.5 * np.roll(u, shift, axis) + np.roll(u, -shift, axis)
        return total * np.roll(u, shifts, axes)

    check(program, halo)


# ------------------------------------------------------------------------- gradient


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_1d(halo: bool, edge_order: int) -> None:
    check(
        lambda np: np.gradient(grid(np, (6000,), "float64", (1000,)) ** 1.5, edge_order=edge_order),
        halo,
    )


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_gradient_2d(halo: bool, edge_order: int, axis: int | None) -> None:
    def program(np: Any) -> Any:
        result = np.gradient(
            grid(np, (72, 72), "float64", (24, 36)), 0.5, edge_order=edge_order, axis=axis
        )
        return np.stack(result) if axis is None else result

    check(program, halo)


def test_gradient_of_integers_is_float64(halo: bool) -> None:
    check(lambda np: np.gradient(grid(np, (80, 80), "int32", (40, 40)), axis=0), halo)


# ------------------------------------------------------- stepped stencils (lattices)


def red_black(u: Any, iterations: int) -> Any:
    """Red-black Gauss-Seidel (``benchmarks/suite/workloads/user_programs.py``) on ``u``:
    step-2 writes, each colour twice per iteration, each reading the other colour."""
    n0, n1 = u.shape[0] - 2, u.shape[1] - 2
    for _ in range(iterations):
        for first, second in ((1, 1), (2, 2), (1, 2), (2, 1)):
            rows, cols = slice(first, n0 + 1, 2), slice(second, n1 + 1, 2)
            up, down = slice(first - 1, n0, 2), slice(first + 1, n0 + 2, 2)
            left, right = slice(second - 1, n1, 2), slice(second + 1, n1 + 2, 2)
            u[rows, cols] = 0.25 * (u[up, cols] + u[down, cols] + u[rows, left] + u[rows, right])
    return u


RED_BLACK_CHUNKS = {
    "even-and-odd-row-starts": (5, 7),  # row blocks start at 0, 5, 10, 15, 20
    "uneven": ((4, 7, 3, 9), (6, 5, 7)),
    "one-row-blocks": ((3, 1, 1, 8, 10), (18,)),  # a block may hold no written cell
}


@pytest.mark.parametrize("chunks", RED_BLACK_CHUNKS.values(), ids=RED_BLACK_CHUNKS)
def test_red_black(halo: bool, chunks: Any) -> None:
    def program(np: Any) -> Any:
        host = numpy.random.default_rng(3).random((23, 18))
        return red_black(host if np is numpy else dnp.array(host, chunks=chunks), 3)

    check(program, halo)


def lattice(starts: tuple[int, ...], steps: tuple[int, ...], counts: Any) -> Any:
    """The index ``start::step`` of ``counts`` elements per axis."""
    return tuple(
        slice(start, start + step * (count - 1) + 1, step)
        for start, step, count in zip(starts, steps, counts, strict=True)
    )


def test_step_three(halo: bool) -> None:
    def program(np: Any) -> Any:
        u = grid(np, (40, 41), "float64", (7, (11, 10, 20)))  # rows start at 0, 7, ... mod 3
        for i, j in ((1, 2), (2, 1), (3, 3)):
            north, south, west, centre = (
                u[lattice((i + di, j + dj), (3, 3), (12, 13))]
                for di, dj in ((-1, 0), (1, 1), (0, -1), (0, 0))
            )
            u[lattice((i, j), (3, 3), (12, 13))] = north - 0.5 * south + west * centre
        return u

    check(program, halo)


def test_stepped_offsets_of_two_read_the_written_colour(halo: bool) -> None:
    """Offsets of 2 at step 2 read cells the same write replaces: they are read as they
    were before it (NumPy evaluates the right side first)."""

    def program(np: Any) -> Any:
        u = grid(np, (30, 31), "float64", ((9, 8, 13), 10))
        rows, cols = slice(2, 28, 2), slice(3, 29, 2)
        for _ in range(3):
            u[rows, cols] = (
                u[0:26:2, cols] + u[4:30:2, cols] - u[rows, 1:27:2] * 0.5 + u[rows, 5:31:2]
            ) * 0.25 + u[1:27:2, 2:28:2]
        return u

    check(program, halo)


def test_stepped_one_dimensional(halo: bool) -> None:
    def program(np: Any) -> Any:
        x = grid(np, (1001,), "float64", ((250, 251, 249, 251),))
        for first in (1, 2, 1):
            x[first:-1:2] = 0.5 * (x[first - 1 : -2 : 2] + x[first + 1 :: 2])
        return x

    check(program, halo)


def test_stepped_rows_only_and_an_integer_grid(halo: bool) -> None:
    """Step 2 on rows, 1 on columns; an integer grid written a float program's values."""

    def program(np: Any) -> Any:
        u = grid(np, (25, 20), "int64", (6, 7))
        for first in (1, 2):
            rows = slice(first, 24, 2)
            u[rows, 1:-1] = (u[first - 1 : 23 : 2, 1:-1] + u[first + 1 :: 2, 2:]) * 0.75
        return u

    check(program, halo)


# ------------------------------------------------------- hypothesis: any offset set

BLOCKED_SHAPES = {1: ((6000,), (1500,)), 2: ((80, 80), (20, 40)), 3: ((24, 24, 24), (8, 12, 24))}


@st.composite
def stencil_cases(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, ...]], list[int], bool]:
    """(ndim, depth, offsets within the depth, small integer weights, written back)."""
    ndim = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 3))
    offset = st.tuples(*[st.integers(-depth, depth)] * ndim)
    offsets = draw(st.lists(offset, min_size=1, max_size=6, unique=True))
    weights = draw(st.lists(st.integers(-3, 3), min_size=len(offsets), max_size=len(offsets)))
    return ndim, depth, offsets, weights, draw(st.booleans())


@settings(max_examples=25, deadline=None)
@given(case=stencil_cases())
def test_generated_offset_sets(case: tuple[Any, ...]) -> None:
    """Halo on against NumPy and against halo off (``check`` runs both settings)."""
    ndim, depth, offsets, weights, write_back = case
    shape, chunks = BLOCKED_SHAPES[ndim]

    def program(np: Any) -> Any:
        u = grid(np, shape, "float64", chunks)
        terms = [w * shifted(u, o, depth) for w, o in zip(weights, offsets, strict=True)]
        value = sum(terms[1:], terms[0]) * 0.125
        if not write_back:
            return value
        u[interior(ndim, depth, depth)] = value
        return u

    check(program, halo=True)


@st.composite
def roll_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    """A 2-D grid of any blocks, rolled by a few shifts (some past the halo depth, some
    longer than the grid), weighted, and written back or not."""
    shape = (draw(st.integers(2, 14)), draw(st.integers(2, 14)))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    rolls = draw(
        st.lists(
            st.tuples(st.integers(-20, 20), st.integers(-20, 20), st.integers(-2, 2)),
            min_size=1,
            max_size=4,
        )
    )
    return shape, chunks, rolls, draw(st.booleans())


@settings(max_examples=25, deadline=None)
@given(case=roll_cases())
def test_generated_rolls(case: tuple[Any, ...]) -> None:
    """Halo on (rolls as reads that wrap around) against NumPy and against halo off."""
    shape, chunks, rolls, write_back = case

    def program(np: Any) -> Any:
        u = grid(np, shape, "float64", chunks)
        value = 0.5 * u
        for rows, columns, weight in rolls:
            value = value + weight * np.roll(u, (rows, columns), axis=(0, 1))
        if not write_back:
            return value
        u[...] = value
        return u

    check(program, halo=True)


@st.composite
def stepped_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    """(shape, chunks, steps, origin, offsets within a depth, weights): a write of the
    lattice ``origin + steps * k`` from the lattices shifted by the offsets."""
    ndim = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 3))
    steps = tuple(draw(st.integers(1, 3)) for _ in range(ndim))
    shape = tuple(draw(st.integers(2 * depth + 1, 16 if ndim < 3 else 9)) for _ in range(ndim))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    origin = tuple(draw(st.integers(depth, n - depth - 1)) for n in shape)
    offset = st.tuples(*[st.integers(-depth, depth)] * ndim)
    offsets = draw(st.lists(offset, min_size=1, max_size=5, unique=True))
    weights = draw(st.lists(st.integers(-3, 3), min_size=len(offsets), max_size=len(offsets)))
    return shape, chunks, steps, origin, offsets, weights


@settings(max_examples=30, deadline=None)
@given(case=stepped_cases())
def test_generated_stepped_stencils(case: tuple[Any, ...]) -> None:
    shape, chunks, steps, origin, offsets, weights = case
    depth = max(abs(k) for offset in offsets for k in offset)
    counts = tuple(
        (n - 1 - depth - o) // s + 1 for n, o, s in zip(shape, origin, steps, strict=True)
    )

    def program(np: Any) -> Any:
        u = grid(np, shape, "float64", chunks)
        for _ in range(2):
            terms = [
                w
                * u[
                    lattice(
                        tuple(o + k for o, k in zip(origin, offset, strict=True)), steps, counts
                    )
                ]
                for w, offset in zip(weights, offsets, strict=True)
            ]
            u[lattice(origin, steps, counts)] = sum(terms[1:], terms[0]) * 0.125
        return u

    check(program, halo=True)


@pytest.mark.parametrize("halo", [True, False])
def test_a_stepped_write_of_rolled_lattices(halo: bool) -> None:
    """A stepped write whose value rolls lattice views: a roll is a wrapped read of a
    step-1 stencil only, so this one keeps the general route; NumPy's values either way."""

    def program(np: Any) -> Any:
        u = grid(np, (22, 22), "float64", (7, 11))
        rows, cols = slice(1, 21, 2), slice(2, 21, 2)
        for _ in range(2):
            u[rows, cols] = 0.5 * (np.roll(u[0:20:2, cols], 1, 0) + u[rows, 3:22:2])
        return u

    check(program, halo=halo)
