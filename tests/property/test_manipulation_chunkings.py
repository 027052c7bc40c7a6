"""Any chunking of a random array gives NumPy's answer for manipulation and selection:
joins, splits, flips, rolls, pads, nonzero and take, with random axes and arguments."""

from __future__ import annotations

from typing import Any

import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq


def _sizes(cuts: list[int], length: int) -> tuple[int, ...]:
    bounds = [0, *cuts, length]
    return tuple(b - a for a, b in zip(bounds, bounds[1:], strict=False))


def _chunking(length: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Block sizes summing to ``length``: random cut points."""
    cuts = (
        st.sets(st.integers(1, length - 1), max_size=length - 1) if length > 1 else st.just(set())
    )
    return cuts.map(lambda c: _sizes(sorted(c), length))


@st.composite
def chunked_arrays(draw: st.DrawFn) -> tuple[numpy.ndarray, tuple[tuple[int, ...], ...]]:
    """A random int64 array of 1-3 non-empty dims (about a third zeros), random chunks."""
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    host = numpy.random.default_rng(draw(st.integers(0, 2**16))).integers(-1, 2, shape)
    return host, tuple(draw(_chunking(n)) for n in shape)


OPERATIONS = ["concatenate", "split", "flip", "roll", "pad", "nonzero", "take", "repeat"]


def _run(module: Any, name: str, a: Any, axis: int, amount: int) -> Any:
    if name == "concatenate":
        return module.concatenate([a, module.flip(a, axis)], axis=axis)
    if name == "split":
        return module.array_split(a, amount, axis=axis)
    if name == "flip":
        return module.flip(a, axis)
    if name == "roll":
        return module.roll(a, amount - 3, axis=axis)
    if name == "pad":
        mode = ("constant", "edge", "reflect", "symmetric", "wrap")[amount % 5]
        return module.pad(a, [(amount % 3, amount // 2)] * a.ndim, mode=mode)
    if name == "nonzero":
        return module.nonzero(a)
    if name == "take":
        return module.take(a, [amount % a.shape[axis], 0, -1], axis=axis)
    return module.repeat(a, amount % 3, axis=axis)


@settings(max_examples=40, deadline=None)
@given(
    array=chunked_arrays(),
    name=st.sampled_from(OPERATIONS),
    axis_draw=st.integers(0, 2),
    amount=st.integers(1, 6),
)
def test_any_chunking_matches_numpy(array: Any, name: str, axis_draw: int, amount: int) -> None:
    host, chunks = array
    axis = axis_draw % host.ndim
    expected = _run(numpy, name, host, axis, amount)
    ours = _run(dnp, name, dnp.array(host, chunks=chunks), axis, amount)
    if isinstance(expected, (list, tuple)):
        assert len(ours) == len(expected)
        for mine, theirs in zip(ours, expected, strict=True):
            assert_eq(mine, theirs)
    else:
        assert_eq(ours, expected)
