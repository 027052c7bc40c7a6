"""Random programs of views and writes, run on NumPy and on ours, compared after every
step: any chain of basic views, any write through any of them, on any base chunking."""

from __future__ import annotations

from typing import Any

import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq

MAX_VIEWS = 4


@st.composite
def chunkings(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(draw(st.integers(1, max(n, 1))) for n in shape)


@st.composite
def basic_index(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A valid basic index: per axis an int, a slice with any step, or nothing; maybe a
    new axis."""
    items: list[Any] = []
    for length in shape:
        kind = draw(st.sampled_from(["slice", "slice", "int"] if length else ["slice"]))
        if kind == "int":
            items.append(draw(st.integers(-length, length - 1)))
        else:
            bound = st.none() | st.integers(-length - 1, length + 1)
            step = st.none() | st.sampled_from([-3, -2, -1, 1, 2, 3])
            items.append(slice(draw(bound), draw(bound), draw(step)))
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), None)
    return tuple(items)


@st.composite
def view_maker(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[str, Any]:
    """A view NumPy and we both make from an array of ``shape``."""
    kinds = ["index", "index"]
    if len(shape) > 1:
        kinds += ["transpose", "swapaxes"]
    size = int(numpy.prod(shape))
    shapes = [(size,), (1, size), shape + (1,)]
    shapes += [(size // k, k) for k in range(2, size) if size % k == 0]
    kinds.append("reshape")  # a view where NumPy gives one, else a copy: both decide alike
    kind = draw(st.sampled_from(kinds))
    if kind == "reshape":
        return kind, draw(st.sampled_from(shapes))
    if kind == "index":
        return kind, draw(basic_index(shape))
    if kind == "transpose":
        return kind, tuple(draw(st.permutations(range(len(shape)))))
    return kind, tuple(draw(st.integers(0, len(shape) - 1)) for _ in range(2))


def _make_view(array: Any, kind: str, argument: Any) -> Any:
    if kind == "index":
        # An all-integer index gives a copy (a scalar in NumPy); the view program wants
        # views, which a[i, j, ...] is in both, and the Ellipsis changes nothing else.
        has_ellipsis = any(item is Ellipsis for item in argument)
        return array[argument if has_ellipsis else argument + (Ellipsis,)]
    if kind == "transpose":
        return array.transpose(argument)
    if kind == "reshape":
        return array.reshape(argument)
    return array.swapaxes(*argument)


class Program:
    def __init__(self, host: numpy.ndarray, chunks: tuple[int, ...]) -> None:
        self.pairs = [(host.copy(), dnp.array(host, chunks=chunks))]

    def check(self) -> None:
        for expected, ours in self.pairs:
            assert_eq(ours, expected)


def _take_view(program: Program, data: st.DataObject) -> None:
    if len(program.pairs) >= MAX_VIEWS:
        return
    expected, ours = program.pairs[data.draw(st.integers(0, len(program.pairs) - 1))]
    kind, argument = data.draw(view_maker(expected.shape))
    program.pairs.append((_make_view(expected, kind, argument), _make_view(ours, kind, argument)))


def _write(program: Program, data: st.DataObject) -> None:
    expected, ours = program.pairs[data.draw(st.integers(0, len(program.pairs) - 1))]
    index = data.draw(basic_index(expected.shape) | st.just((Ellipsis,)))
    target_shape = expected[index].shape
    value_shape = target_shape[data.draw(st.integers(0, len(target_shape))) :]
    value_shape = tuple(n if data.draw(st.booleans()) else 1 for n in value_shape)
    value = numpy.asarray(data.draw(st.integers(-50, 50)), dtype=expected.dtype)
    value = value + numpy.arange(int(numpy.prod(value_shape)), dtype=expected.dtype).reshape(
        value_shape
    )
    expected[index] = value
    ours[index] = value


def _fancy_write(program: Program, data: st.DataObject) -> None:
    """An integer-array (repeats, negatives) or boolean-mask write through a random view."""
    expected, ours = program.pairs[data.draw(st.integers(0, len(program.pairs) - 1))]
    value = data.draw(st.integers(-9, 9))
    if expected.ndim == 0 or data.draw(st.booleans()):
        threshold = data.draw(st.integers(-5, 60))
        expected[expected > threshold] = value
        ours[ours > threshold] = value
        return
    axis = data.draw(st.integers(0, expected.ndim - 1))
    length = expected.shape[axis]
    if length == 0:
        return
    points = data.draw(st.lists(st.integers(-length, length - 1), min_size=1, max_size=4))
    index = (slice(None),) * axis + (numpy.asarray(points),)
    values = numpy.arange(len(points), dtype=expected.dtype) + value  # repeats: last wins
    values = values.reshape((-1,) + (1,) * (expected.ndim - axis - 1))
    expected[index] = values
    ours[index] = values


def _in_place(program: Program, data: st.DataObject) -> None:
    expected, ours = program.pairs[data.draw(st.integers(0, len(program.pairs) - 1))]
    operand = data.draw(st.integers(1, 4))
    if data.draw(st.booleans()):
        expected += operand
        ours += operand
    else:
        expected *= operand
        ours *= operand


STEPS = {
    "view": _take_view,
    "write": _write,
    "fancy_write": _fancy_write,
    "in_place": _in_place,
    "read": lambda p, d: None,
}


@settings(max_examples=40, deadline=None)
@given(st.data(), st.lists(st.integers(1, 5), min_size=1, max_size=4).map(tuple))
def test_random_view_programs_match_numpy(data: st.DataObject, shape: tuple[int, ...]) -> None:
    dtype = data.draw(st.sampled_from([numpy.float64, numpy.int32]))
    host = numpy.arange(int(numpy.prod(shape)), dtype=dtype).reshape(shape)
    program = Program(host, data.draw(chunkings(shape)))
    for step in data.draw(st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=8)):
        STEPS[step](program, data)
        program.check()
