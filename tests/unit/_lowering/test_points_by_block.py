"""``_points_by_block`` (fancy-index reads and scatters): every point lands once, in the
block that holds it, with its coordinates inside that block, in its original order."""

from __future__ import annotations

import numpy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dask_gpunumeric._lowering.indexing import _points_by_block


@st.composite
def points_and_chunks(draw: st.DrawFn) -> tuple[tuple[numpy.ndarray, ...], tuple]:
    ndim = draw(st.integers(1, 3))
    chunks = tuple(
        tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=4))) for _ in range(ndim)
    )
    count = draw(st.integers(0, 40))
    seed = draw(st.integers(0, 2**16))
    generator = numpy.random.default_rng(seed)
    coords = tuple(generator.integers(0, sum(c), count) for c in chunks)
    return coords, chunks


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=points_and_chunks())
def test_every_point_once_in_its_block(case: tuple[tuple[numpy.ndarray, ...], tuple]) -> None:
    coords, chunks = case
    offsets = [numpy.cumsum((0,) + c) for c in chunks]
    seen: list[int] = []
    blocks = []
    for block, local, ids in _points_by_block(coords, chunks):
        blocks.append(block)
        assert ids.dtype == numpy.intp and list(ids) == sorted(ids)  # original order
        for axis, (index, inside) in enumerate(zip(block, local, strict=True)):
            assert numpy.array_equal(inside + offsets[axis][index], coords[axis][ids])
            assert ((inside >= 0) & (inside < chunks[axis][index])).all()
        seen.extend(ids.tolist())
    assert sorted(seen) == list(range(coords[0].size))
    assert len(set(blocks)) == len(blocks)
