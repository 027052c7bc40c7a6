"""Edge cases of manipulation and indexing against NumPy: empty arrays, 0-d arrays,
empty argument lists, scalars where arrays are usual (values, dtypes, shapes, or the
exception NumPy raises)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

EDGE_CASES: dict[str, Callable[[Any, Any], Any]] = {
    "nonzero-empty": lambda m, a: m.nonzero(a[:0] > 1),
    "flatnonzero-empty2d": lambda m, a: m.flatnonzero(a[:, :0]),
    "argwhere-empty": lambda m, a: m.argwhere(a[:0]),
    "take-empty-array": lambda m, a: m.take(a[:0], [], axis=0),
    # nothing taken from an empty axis: NumPy checks the indices once per cell before the
    # axis (none here: 5 is out of bounds, unseen), and refuses a non-empty result
    "take-from-empty-axis": lambda m, a: m.take(a[:0, :0], [0, 5], axis=1),
    "take-from-empty-axis-checked": lambda m, a: m.take(a[:0, :0], [0, 5], axis=0),
    "take-from-empty-axis-3d": lambda m, a: m.take(a[:2, :0, None][:, :, :0], [1], axis=1),
    "take-non-empty-from-empty-axis": lambda m, a: m.take(a[:, :0], [0], axis=1),
    "concat-empties": lambda m, a: m.concatenate([a[:0], a[:0]]),
    # an empty operand chunked unlike the first: its blocks must be the backend's
    "concat-empty-rechunked": lambda m, a: m.concatenate([a, m.zeros((0, 4))]),
    "concat-empty-first": lambda m, a: m.concatenate([m.zeros((0, 4)), a, m.zeros((0, 4))]),
    "cumulative-initial-empty": lambda m, a: m.cumulative_sum(a[:0], axis=0, include_initial=True),
    "pad-zero": lambda m, a: m.pad(a, 0, mode="edge"),
    "pad-zero-const": lambda m, a: m.pad(a, 0),
    "tile-empty-reps": lambda m, a: m.tile(a, ()),
    "repeat-0d": lambda m, a: m.repeat(a[0, 0, ...], 3),
    "squeeze-0d": lambda m, a: m.squeeze(a[0, 0, ...]),
    "flip-0d": lambda m, a: m.flip(a[0, 0, ...]),
    "split-many": lambda m, a: m.array_split(a, 5),
    "roll-0d": lambda m, a: m.roll(a[0, 0, ...], 1),
    "tril-empty": lambda m, a: m.tril(a[:0]),
    "diag-empty": lambda m, a: m.diag(a[0, :0]),
    "trace-empty": lambda m, a: m.trace(a[:0]),
    "meshgrid-0": lambda m, a: m.meshgrid(),
    "indices-0": lambda m, a: m.indices(()),
    "stack-0d": lambda m, a: m.stack([a[0, 0, ...], a[1, 1, ...]]),
    "choose-scalar-index": lambda m, a: m.choose(1, [a, a * 2]),
    "select-scalars": lambda m, a: m.select([a > 3], [1], 0),
    "searchsorted-scalar": lambda m, a: m.searchsorted(a[0], 2),
    "take-0d": lambda m, a: m.take(a, numpy.int64(5)),
    "extract-none": lambda m, a: m.extract(a > 100, a),
    "compress-all-false": lambda m, a: m.compress([False, False, False], a, axis=0),
    "expand_dims-0d": lambda m, a: m.expand_dims(a[0, 0, ...], 0),
    "moveaxis-neg": lambda m, a: m.moveaxis(a, -1, 0),
    "column_stack-2d": lambda m, a: m.column_stack([a]),
    "hstack-0d": lambda m, a: m.hstack([a[0, 0, ...], a[0, 1, ...]]),
    "rot90-neg": lambda m, a: m.rot90(a, -3, axes=(1, 0)),
    "repeat-axis-none-counts": lambda m, a: m.repeat(a, numpy.arange(12) % 3),
    "bcast-0d": lambda m, a: m.broadcast_to(5, (2, 3)),
    "diagonal-empty": lambda m, a: m.diagonal(a, 10),
}


@pytest.mark.parametrize("name", EDGE_CASES)
def test_edge_cases_match_numpy(name: str) -> None:
    case = EDGE_CASES[name]
    expected_input = numpy.arange(12.0).reshape(3, 4)
    ours = dnp.array(expected_input, chunks=(2, 3))
    try:
        expected = case(numpy, expected_input.copy())
    except Exception:  # noqa: BLE001 - NumPy refuses this edge: ours must refuse alike
        assert_raises_like(lambda: case(numpy, expected_input.copy()), lambda: case(dnp, ours))
        return
    result = case(dnp, ours)
    if isinstance(expected, (tuple, list)):
        assert len(result) == len(expected)
        for mine, theirs in zip(result, expected, strict=True):
            assert_eq(mine, theirs)
    else:
        assert_eq(result, expected)
