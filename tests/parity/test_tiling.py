"""Tiling, repeating, padding, rolling, diagonals, triangles and grids against NumPy:
values, dtypes, several chunkings, and NumPy's errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import (
    PARITY_DTYPES,
    assert_eq,
    assert_raises_like,
    check_case,
    numbered_values,
)

Case = Callable[[Any, Any], Any]  # (module, array) -> result


CASES: dict[str, Case] = {
    "tile": lambda m, a: m.tile(a, 2),
    "tile-more-axes": lambda m, a: m.tile(a, (2, 1, 3)),
    "tile-zero": lambda m, a: m.tile(a, (0, 2)),
    "tile-empty": lambda m, a: m.tile(a[:0], 3),
    "repeat": lambda m, a: m.repeat(a, 3),
    "repeat-axis": lambda m, a: m.repeat(a, 2, axis=0),
    "repeat-counts": lambda m, a: m.repeat(a, [1, 0, 3, 1, 2, 0], axis=-1),
    "repeat-zero": lambda m, a: m.repeat(a, 0, axis=1),
    "roll": lambda m, a: m.roll(a, 7),
    "roll-axis": lambda m, a: m.roll(a, -2, axis=1),
    "roll-axes": lambda m, a: m.roll(a, (1, 20), axis=(0, 1)),
    "roll-broadcast": lambda m, a: m.roll(a, 1, axis=(0, 1)),
    "roll-repeated-axis": lambda m, a: m.roll(a, (1, 2), axis=(1, -1)),
    "roll-flat-shifts": lambda m, a: m.roll(a, (1, 2)),
    "diag-from-1d": lambda m, a: m.diag(a[1]),
    "diag-from-1d-k": lambda m, a: m.diag(a[:, 2], -2),
    "diag-of-2d": lambda m, a: m.diag(a, 2),
    "diagonal": lambda m, a: m.diagonal(a),
    "diagonal-offset": lambda m, a: m.diagonal(a, -2),
    "diagonal-3d": lambda m, a: m.diagonal(a.reshape(2, 2, 6), 1, 2, 0),
    "diagonal-beyond": lambda m, a: m.diagonal(a, 9),
    "trace": lambda m, a: m.trace(a),
    "trace-offset-dtype": lambda m, a: m.trace(a, 1, dtype="float32"),
    "trace-3d": lambda m, a: m.trace(a.reshape(2, 2, 6), 0, 0, 2),
    "tril": lambda m, a: m.tril(a),
    "tril-k": lambda m, a: m.tril(a, 2),
    "triu-k": lambda m, a: m.triu(a, -1),
    "triu-1d": lambda m, a: m.triu(a[0], 1),
    "tril-3d": lambda m, a: m.tril(a.reshape(2, 2, 6), 1),
    "meshgrid": lambda m, a: m.meshgrid(a[0], a[:3, 1]),
    "meshgrid-ij-sparse": lambda m, a: m.meshgrid(a[0], a[:, 1], indexing="ij", sparse=True),
    "meshgrid-3": lambda m, a: m.meshgrid(a[0, :2], a[1, :3], a[2, :4]),
    "meshgrid-nocopy": lambda m, a: m.meshgrid(a[0, :2], a[1], copy=False),
    "meshgrid-1": lambda m, a: m.meshgrid(a[0]),
}

PAD_CASES: dict[str, Case] = {
    "constant": lambda m, a: m.pad(a, 2),
    "constant-values": lambda m, a: m.pad(a, ((1, 2), (3, 0)), constant_values=(-1, 5)),
    "edge": lambda m, a: m.pad(a, (2, 3), mode="edge"),
    "reflect": lambda m, a: m.pad(a, ((3, 2), (1, 4)), mode="reflect"),
    "symmetric": lambda m, a: m.pad(a, ((3, 2), (1, 4)), mode="symmetric"),
    "wrap": lambda m, a: m.pad(a, ((3, 2), (1, 4)), mode="wrap"),
    "maximum": lambda m, a: m.pad(a, 2, mode="maximum"),
    "minimum": lambda m, a: m.pad(a, 2, mode="minimum", stat_length=2),
    "mean": lambda m, a: m.pad(a, 1, mode="mean"),
    "median": lambda m, a: m.pad(a, ((1, 2), (3, 0)), mode="median"),
    # two elements per edge: medians halfway, rounded half to even for integer arrays
    "median-stat-length": lambda m, a: m.pad(a, 2, mode="median", stat_length=((1, 2), (2, 3))),
    "median-one-axis": lambda m, a: m.pad(a, ((0, 0), (2, 1)), mode="median", stat_length=4),
    "symmetric-wide": lambda m, a: m.pad(a, ((9, 1), (0, 13)), mode="symmetric"),
    "reflect-wide": lambda m, a: m.pad(a, 10, mode="reflect"),
    "constant-wrapping": lambda m, a: m.pad(a, 1, constant_values=-1),
    "empty-axis-constant": lambda m, a: m.pad(a[:0], 1),
    "wider-than-array": lambda m, a: m.pad(a, 9, mode="wrap"),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("chunks", [None, (3, 4)])
def test_matches_numpy(name: str, chunks: Any) -> None:
    check_case(CASES[name], numbered_values((4, 6)), chunks)


@pytest.mark.parametrize("name", PAD_CASES)
@pytest.mark.parametrize("chunks", [None, (3, 4)])
def test_pad_matches_numpy(name: str, chunks: Any) -> None:
    check_case(PAD_CASES[name], numbered_values((4, 6)), chunks)


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("end_values", [0, (4, -3)])
def test_linear_ramp_matches_numpy_up_to_rounding(dtype: str, end_values: Any) -> None:
    expected = numpy.pad(
        numbered_values((4, 6), dtype), (1, 3), mode="linear_ramp", end_values=end_values
    )
    ours = dnp.pad(
        dnp.array(numbered_values((4, 6), dtype), chunks=(3, 4)),
        (1, 3),
        "linear_ramp",
        end_values=end_values,
    )
    tolerance = 0 if dtype == "int16" else 1e-6 if dtype == "float32" else 1e-13
    assert_eq(ours, expected, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
def test_every_dtype(dtype: str) -> None:
    names = ["tile-more-axes", "repeat-counts", "roll-axes", "diag-from-1d", "tril-k", "trace"]
    for name in names:
        check_case(CASES[name], numbered_values((4, 6), dtype), (3, 4))
    pad_modes = ["edge", "reflect", "symmetric", "wrap"] if dtype == "bool" else PAD_CASES
    for name in pad_modes:
        check_case(PAD_CASES[name], numbered_values((4, 6), dtype), (3, 4))


def test_indices_and_ix() -> None:
    assert_eq(dnp.indices((2, 3)), numpy.indices((2, 3)))
    assert_eq(dnp.indices((3, 1, 2), dtype="int8"), numpy.indices((3, 1, 2), dtype="int8"))
    for mine, theirs in zip(
        dnp.indices((2, 3), sparse=True), numpy.indices((2, 3), sparse=True), strict=True
    ):
        assert_eq(mine, theirs)
    expected = numbered_values((4, 6))
    ours = dnp.array(expected, chunks=(3, 4))
    index = ([0, 3], numpy.array([True, False, True, True, False, True]))
    assert_eq(ours[dnp.ix_(*index)], expected[numpy.ix_(*index)])
    for mine, theirs in zip(dnp.ix_([], [2, 1]), numpy.ix_([], [2, 1]), strict=True):
        assert_eq(mine, theirs)


ERRORS: dict[str, Case] = {
    "tile-negative": lambda m, a: m.tile(a, -1),
    "repeat-negative": lambda m, a: m.repeat(a, -1),
    "repeat-counts": lambda m, a: m.repeat(a, [1, 2], axis=1),
    "repeat-axis": lambda m, a: m.repeat(a, 2, axis=2),
    "pad-mode": lambda m, a: m.pad(a, 1, mode="nope"),
    "pad-width": lambda m, a: m.pad(a, ((1, 2, 3),)),
    "pad-negative": lambda m, a: m.pad(a, -1),
    "pad-keyword": lambda m, a: m.pad(a, 1, mode="edge", constant_values=3),
    "pad-empty-axis": lambda m, a: m.pad(a[:0], 1, mode="reflect"),
    "roll-axis": lambda m, a: m.roll(a, 1, axis=2),
    "roll-mismatch": lambda m, a: m.roll(a, (1, 2, 3), axis=(0, 1)),
    "diag-3d": lambda m, a: m.diag(a[None]),
    "diagonal-same-axes": lambda m, a: m.diagonal(a, 0, 1, 1),
    "diagonal-1d": lambda m, a: m.diagonal(a[0]),
    "trace-1d": lambda m, a: m.trace(a[0]),
    "tril-0d": lambda m, a: m.tril(a[0, 0, ...]),
    "meshgrid-indexing": lambda m, a: m.meshgrid(a[0], indexing="xx"),
    "ix-2d": lambda m, a: m.ix_(a),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_numpy(name: str) -> None:
    expected = numbered_values((4, 6))
    ours = dnp.array(expected, chunks=(3, 4))
    assert_raises_like(lambda: ERRORS[name](numpy, expected), lambda: ERRORS[name](dnp, ours))


def test_callable_pad_mode_says_what_to_do() -> None:
    def mode(vector: Any, width: Any, axis: int, kwargs: Any) -> None:
        vector[: width[0]] = 0

    for call in (
        lambda: dnp.pad(dnp.arange(4), 1, mode=mode),
        lambda: dnp.pad(dnp.arange(4), 1, mode="reflect", reflect_type="odd"),
    ):
        with pytest.raises(NotImplementedError, match="compute"):
            call()


def test_results_read_their_input_at_the_call() -> None:
    source = dnp.arange(6.0).reshape(2, 3)
    results = [dnp.tile(source, 2), dnp.pad(source, 1, mode="edge"), dnp.roll(source, 1)]
    expected = [numpy.tile(numpy.arange(6.0).reshape(2, 3), 2)]
    expected += [numpy.pad(numpy.arange(6.0).reshape(2, 3), 1, mode="edge")]
    expected += [numpy.roll(numpy.arange(6.0).reshape(2, 3), 1)]
    source[...] = -1.0
    for mine, theirs in zip(results, expected, strict=True):
        assert_eq(mine, theirs)
