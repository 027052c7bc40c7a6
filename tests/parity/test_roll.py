"""``roll`` against NumPy: shifts of every sign and size, one or several axes, 1-D to 3-D,
arrays of several uneven blocks (shifts crossing block edges and wrapping), tiny arrays
(evaluated in the client), views as input, a periodic heat loop, and NumPy's errors.
The structure (the input's chunks, no relayout) is in
``tests/unit/_lowering/test_roll_lowering.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.leaves import ChunkValue
from dask_gpunumeric.testing import assert_eq, assert_raises_like, check_case, numbered_values

Case = Callable[[Any, Any], Any]  # (module, array) -> result

CASES_1D: dict[str, Case] = {
    "positive": lambda m, a: m.roll(a, 3),
    "negative": lambda m, a: m.roll(a, -4, axis=0),
    "zero": lambda m, a: m.roll(a, 0, axis=0),
    "length": lambda m, a: m.roll(a, 17, axis=0),
    "larger-than-length": lambda m, a: m.roll(a, 40, axis=0),
    "very-negative": lambda m, a: m.roll(a, -57, axis=-1),
    "one-block-size": lambda m, a: m.roll(a, 5, axis=0),
    "repeated-axis": lambda m, a: m.roll(a, (2, 9, -1), axis=(0, 0, -1)),
    "repeated-axis-cancelling": lambda m, a: m.roll(a, (6, -6), axis=(0, 0)),
    "numpy-integer-shift": lambda m, a: m.roll(a, numpy.int8(-7), axis=numpy.int64(0)),
    "float-shifts-truncated": lambda m, a: m.roll(a, (1.5, -2.7), axis=(0, 0)),
    "flat-float-shift": lambda m, a: m.roll(a, 2.9),
    "bool-shift": lambda m, a: m.roll(a, True, axis=0),
}

CASES_2D: dict[str, Case] = {
    "rows": lambda m, a: m.roll(a, 1, axis=0),
    "rows-back": lambda m, a: m.roll(a, -1, axis=0),
    "columns": lambda m, a: m.roll(a, 4, axis=1),
    "columns-negative-axis": lambda m, a: m.roll(a, -5, axis=-1),
    "both": lambda m, a: m.roll(a, (3, -8), axis=(0, 1)),
    "both-broadcast": lambda m, a: m.roll(a, 6, axis=(1, 0)),
    "both-beyond": lambda m, a: m.roll(a, (25, -31), axis=(0, 1)),
    "zero-both": lambda m, a: m.roll(a, (0, 0), axis=(0, 1)),
    "whole-lengths": lambda m, a: m.roll(a, (9, 26), axis=(0, 1)),
    "flat": lambda m, a: m.roll(a, 5),
    "flat-shifts": lambda m, a: m.roll(a, (1, -20)),
    "flat-zero": lambda m, a: m.roll(a, 117),
}

CASES_3D: dict[str, Case] = {
    "middle": lambda m, a: m.roll(a, 2, axis=1),
    "all-axes": lambda m, a: m.roll(a, (1, -3, 4), axis=(0, 1, 2)),
    "two-axes": lambda m, a: m.roll(a, (-2, 5), axis=(2, 0)),
    "flat": lambda m, a: m.roll(a, -11),
}

# Uneven blocks: the shifts above cross block edges, wrap, and (1-D, by 5) move whole blocks.
CHUNKINGS_1D = [None, (5, 5, 5, 2), (1, 7, 9)]
CHUNKINGS_2D = [None, (4, 10), ((2, 5, 2), (10, 3, 13))]
CHUNKINGS_3D = [None, (2, 3, 3), ((1, 3), (4, 1, 2), (5, 3))]


@pytest.mark.parametrize("name", CASES_1D)
@pytest.mark.parametrize("chunks", CHUNKINGS_1D)
def test_1d_matches_numpy(name: str, chunks: Any) -> None:
    check_case(CASES_1D[name], numbered_values((17,)), chunks)


@pytest.mark.parametrize("name", CASES_2D)
@pytest.mark.parametrize("chunks", CHUNKINGS_2D)
def test_2d_matches_numpy(name: str, chunks: Any) -> None:
    check_case(CASES_2D[name], numbered_values((9, 26)), chunks)


@pytest.mark.parametrize("name", CASES_3D)
@pytest.mark.parametrize("chunks", CHUNKINGS_3D)
def test_3d_matches_numpy(name: str, chunks: Any) -> None:
    check_case(CASES_3D[name], numbered_values((4, 7, 8)), chunks)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float32", "complex128"])
def test_dtypes(dtype: str) -> None:
    check_case(CASES_2D["both"], numbered_values((9, 26), dtype), (4, 10))


def test_empty_and_0d() -> None:
    check_case(lambda m, a: m.roll(a[:0], 3, axis=1), numbered_values((9, 26)), (4, 10))
    check_case(lambda m, a: m.roll(a[:, :0], (1, 2), axis=(0, 1)), numbered_values((9, 26)))
    check_case(lambda m, a: m.roll(a[0, 0, ...], 5), numbered_values((9, 26)))


@pytest.mark.parametrize("shift", [1, -3, 10, (2, -1)])
def test_tiny_arrays_are_rolled_in_the_client(shift: Any) -> None:
    host = numbered_values((4, 5))
    axis = (0, 1) if isinstance(shift, tuple) else 1
    ours = dnp.roll(dnp.array(host), shift, axis=axis)
    assert isinstance(ours._store.version, ChunkValue)
    assert_eq(ours, numpy.roll(host, shift, axis=axis))
    with dnp.config.set(in_process_evaluation=False):
        through_tasks = dnp.roll(dnp.array(host), shift, axis=axis)
        assert not isinstance(through_tasks._store.version, ChunkValue)
        assert_eq(through_tasks, numpy.roll(host, shift, axis=axis))


VIEWS: dict[str, Case] = {
    "slice": lambda m, a: m.roll(a[1:8, 3:22], (2, -5), axis=(0, 1)),
    "step": lambda m, a: m.roll(a[::2, 1::3], 3, axis=1),
    "reversed": lambda m, a: m.roll(a[::-1], -4, axis=0),
    "transposed": lambda m, a: m.roll(a.T, (1, 7), axis=(0, 1)),
    "transposed-flat": lambda m, a: m.roll(a.T[::2], 5),
    "row": lambda m, a: m.roll(a[3], 11),
    "new-axis": lambda m, a: m.roll(a[:, None, :], 2, axis=2),
}


@pytest.mark.parametrize("name", VIEWS)
@pytest.mark.parametrize("chunks", [None, (4, 10)])
def test_views_as_input(name: str, chunks: Any) -> None:
    check_case(VIEWS[name], numbered_values((9, 26)), chunks)


def test_result_is_a_new_array_reading_its_input_at_the_call() -> None:
    host = numbered_values((9, 26))
    source = dnp.array(host, chunks=(4, 10))
    rolled = [dnp.roll(source, 1, axis=0), dnp.roll(source, 0, axis=1), dnp.roll(source, 3)]
    source[...] = -1.0
    rolled[0][0, 0] = 100.0
    expected = [numpy.roll(host, 1, axis=0), host.copy(), numpy.roll(host, 3)]
    expected[0][0, 0] = 100.0
    for mine, theirs in zip(rolled, expected, strict=True):
        assert_eq(mine, theirs)
    assert_eq(source, numpy.full_like(host, -1.0))


def heat(np: Any, u: Any, iterations: int) -> Any:
    """The periodic heat equation of ``benchmarks/suite/workloads/user_programs.py``."""
    for _ in range(iterations):
        neighbours = np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1)
        u = u + 0.1 * (neighbours - 4.0 * u)
    return u


@pytest.mark.parametrize("chunks", [(25, 40), ((30, 20, 10), (7, 33, 20))])
def test_periodic_heat_loop(chunks: Any) -> None:
    host = numpy.random.default_rng(7).random((60, 60))
    expected = heat(numpy, host, 6)
    ours = heat(dnp, dnp.array(host, chunks=chunks), 6)
    assert_eq(ours, expected)


ERRORS: dict[str, Case] = {
    "axis-out-of-range": lambda m, a: m.roll(a, 1, axis=2),
    "negative-axis-out-of-range": lambda m, a: m.roll(a, 1, axis=-3),
    "shift-axis-mismatch": lambda m, a: m.roll(a, (1, 2, 3), axis=(0, 1)),
    "string-shift": lambda m, a: m.roll(a, "a", axis=0),
    "none-shift": lambda m, a: m.roll(a, None, axis=0),
    "float-axis": lambda m, a: m.roll(a, 1, axis=1.0),
    "2d-shift": lambda m, a: m.roll(a, [[1, 2]], axis=(0, 1)),
    "0d-with-axis": lambda m, a: m.roll(a[0, 0, ...], 1, axis=0),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_numpy(name: str) -> None:
    host = numbered_values((9, 26))
    ours = dnp.array(host, chunks=(4, 10))
    assert_raises_like(lambda: ERRORS[name](numpy, host), lambda: ERRORS[name](dnp, ours))
