"""``Region.from_index`` and ``Region.then`` against NumPy: a region applied with
``apply_region`` selects what NumPy's basic indexing selects, and composing two regions
selects what indexing twice does."""

from __future__ import annotations

from typing import Any

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dask_gpunumeric._ir.indexing import Region, apply_region, check_basic_index


@st.composite
def basic_indices(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A valid basic index of an array of ``shape``: ints, slices of any step, None, at
    most one Ellipsis."""
    items: list[Any] = []
    for length in shape:
        kind = draw(st.sampled_from(["int", "slice", "slice", "full"] if length else ["slice"]))
        if kind == "int":
            items.append(draw(st.integers(-length, length - 1)))
        elif kind == "slice":
            bound = st.none() | st.integers(-length - 2, length + 2)
            step = draw(st.none() | st.sampled_from([-3, -2, -1, 1, 2, 3]))
            items.append(slice(draw(bound), draw(bound), step))
        else:
            items.append(slice(None))
    # Leave out the items of axes low..high-1: an Ellipsis stands for them, or, at the
    # end, nothing does (implicit trailing slices).
    low = draw(st.integers(0, len(items)))
    if draw(st.booleans()):
        high = draw(st.integers(low, len(items)))
        items[low:high] = [Ellipsis]
    else:
        del items[low:]
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    return tuple(items)


def _array(shape: tuple[int, ...]) -> numpy.ndarray:
    return numpy.arange(int(numpy.prod(shape))).reshape(shape)


def _region(shape: tuple[int, ...], index: tuple[Any, ...]) -> Region:
    check_basic_index(shape, index)
    return Region.from_index(shape, index)


shapes = st.lists(st.integers(0, 5), min_size=0, max_size=4).map(tuple)


@settings(max_examples=120, deadline=None)
@given(st.data(), shapes)
def test_from_index_selects_what_numpy_selects(data: st.DataObject, shape: tuple[int, ...]) -> None:
    host = _array(shape)
    index = data.draw(basic_indices(shape))
    region = _region(shape, index)
    expected = host[index]
    assert region.shape == numpy.shape(expected)
    numpy.testing.assert_array_equal(apply_region(host, region), expected, strict=False)


@settings(max_examples=120, deadline=None)
@given(st.data(), shapes)
def test_then_composes_like_indexing_twice(data: st.DataObject, shape: tuple[int, ...]) -> None:
    host = _array(shape)
    first = _region(shape, data.draw(basic_indices(shape)))
    middle = apply_region(host, first)
    transposed = data.draw(st.booleans()) and middle.ndim > 1
    if transposed:
        axes = tuple(data.draw(st.permutations(range(middle.ndim))))
        first = first.then(Region.transposition(middle.shape, axes))
        middle = middle.transpose(axes)
    second_index = data.draw(basic_indices(middle.shape))
    composed = first.then(_region(middle.shape, second_index))
    expected = numpy.asarray(middle[second_index])
    assert composed.shape == expected.shape
    numpy.testing.assert_array_equal(apply_region(host, composed), expected, strict=True)


def test_composition_is_canonical() -> None:
    shape = (6, 7)
    twice = _region(shape, (slice(1, None), slice(None, None, -1))).then(
        _region((5, 7), (slice(None, None, 2), slice(2, 5)))
    )
    once = _region(shape, (slice(1, None, 2), slice(4, 1, -1)))
    assert twice == once


def test_identity_and_transposition() -> None:
    shape = (2, 3, 4)
    assert Region.identity(shape).is_identity
    assert _region(shape, (Ellipsis,)).is_identity
    assert _region(shape, (slice(None), slice(0, 3))).is_identity
    swap = Region.transposition(shape, (2, 0, 1))
    assert not swap.is_identity
    host = _array(shape)
    numpy.testing.assert_array_equal(apply_region(host, swap), host.transpose(2, 0, 1))
    back = swap.then(Region.transposition(swap.shape, (1, 2, 0)))
    assert back.is_identity


@pytest.mark.parametrize(
    "index",
    [(None, None), (0, None, 1), (slice(0, 0), None), (None, slice(3, 3)), (Ellipsis, None)],
)
def test_new_axes_and_empty_selections(index: tuple[Any, ...]) -> None:
    shape = (3, 4)
    host = _array(shape)
    region = _region(shape, index)
    numpy.testing.assert_array_equal(apply_region(host, region), host[index], strict=True)
    inner = (slice(None, None, -1),) * len(region.shape)
    composed = region.then(_region(region.shape, inner))
    numpy.testing.assert_array_equal(apply_region(host, composed), host[index][inner], strict=True)
