"""Any chunking of a random array gives NumPy's reduction answer, for random axes/keepdims."""

from __future__ import annotations

from typing import Any

import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq

REDUCTIONS = ["sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all"]
SCANS = ["cumsum", "cumprod"]


@st.composite
def chunked_arrays(draw: st.DrawFn) -> tuple[numpy.ndarray, tuple[tuple[int, ...], ...]]:
    """A random float64 or int64 array of 1-3 non-empty dims, with random (uneven) chunks."""
    shape = tuple(draw(st.lists(st.integers(1, 7), min_size=1, max_size=3)))
    seed = draw(st.integers(0, 2**16))
    rng = numpy.random.default_rng(seed)
    if draw(st.booleans()):
        host = rng.uniform(0.5, 1.5, shape)
    else:
        host = rng.integers(-3, 4, shape)
    chunks = tuple(draw(_chunking(n)) for n in shape)
    return host, chunks


def _chunking(length: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Block sizes summing to ``length``: random cut points."""
    cuts = (
        st.sets(st.integers(1, length - 1), max_size=length - 1) if length > 1 else st.just(set())
    )
    return cuts.map(lambda c: _sizes(sorted(c), length))


def _sizes(cuts: list[int], length: int) -> tuple[int, ...]:
    bounds = [0, *cuts, length]
    return tuple(b - a for a, b in zip(bounds, bounds[1:], strict=False))


def _axis(draw: st.DrawFn, ndim: int, name: str) -> Any:
    if name in ("argmin", "argmax") or name in SCANS:
        return draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1)))
    axes = st.lists(st.integers(0, ndim - 1), unique=True, min_size=1, max_size=ndim).map(tuple)
    return draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1), axes))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), array=chunked_arrays(), name=st.sampled_from(REDUCTIONS + SCANS))
def test_any_chunking_matches_numpy(data: st.DataObject, array: Any, name: str) -> None:
    host, chunks = array
    axis = _axis(data.draw, host.ndim, name)
    kwargs: dict[str, Any] = {"axis": axis}
    if name not in SCANS:
        kwargs["keepdims"] = data.draw(st.booleans())
    expected = numpy.asarray(getattr(numpy, name)(host, **kwargs))
    ours = getattr(dnp, name)(dnp.array(host, chunks=chunks), **kwargs)
    exact = name in ("min", "max", "argmin", "argmax", "any", "all") or (
        host.dtype.kind == "i" and name in ("sum", "prod", "cumsum", "cumprod")
    )
    assert_eq(ours, expected, rtol=0.0 if exact else 1e-12)


MASKED = ["sum", "prod", "max", "min", "any", "all", "mean", "var", "nansum", "nanmax"]


@settings(max_examples=40, deadline=None)
@given(data=st.data(), array=chunked_arrays(), name=st.sampled_from(MASKED))
def test_where_and_initial_on_any_chunking(data: st.DataObject, array: Any, name: str) -> None:
    host, chunks = array
    axis = _axis(data.draw, host.ndim, name)
    seed = data.draw(st.integers(0, 2**16))
    mask = numpy.random.default_rng(seed).random(host.shape) > 0.3
    kwargs: dict[str, Any] = {"axis": axis, "keepdims": data.draw(st.booleans()), "where": mask}
    if name in ("max", "min", "nanmax"):
        kwargs["initial"] = 0  # NumPy requires one with where=
    elif name in ("sum", "prod", "nansum") and data.draw(st.booleans()):
        kwargs["initial"] = 2
    if name in ("mean", "var"):
        # A lane with nothing selected is NumPy's empty-slice warning and NaN: select the
        # first element of every lane.
        reduced = range(host.ndim) if axis is None else numpy.atleast_1d(axis) % host.ndim
        mask[tuple(0 if i in reduced else slice(None) for i in range(host.ndim))] = True
    expected = numpy.asarray(getattr(numpy, name)(host, **kwargs))
    ours = getattr(dnp, name)(dnp.array(host, chunks=chunks), **kwargs)
    exact = name in ("min", "max", "nanmax", "any", "all") or (
        host.dtype.kind == "i" and name in ("sum", "prod", "nansum")
    )
    assert_eq(ours, expected, rtol=0.0 if exact else 1e-12)
