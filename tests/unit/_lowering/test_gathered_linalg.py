"""GatheredLinalg lowers to one call layer per (function, inputs), shared by every output
node of one multi-result routine, and keeps the batch axes split across blocks."""

from __future__ import annotations

import dask
import numpy

import dask_gpunumeric as dnp
import dask_gpunumeric.linalg as dla
from dask_gpunumeric._lowering import lower_all


def test_the_results_of_one_svd_share_its_call() -> None:
    host = numpy.random.default_rng(0).standard_normal((4, 5, 3))
    u, s, vh = dla.svd(dnp.array(host, chunks=(1, 5, 3)))
    graph = lower_all([u._read(), s._read(), vh._read()])[0].__dask_graph__()
    calls = [name for name in graph.layers if name.startswith("linalg-call-")]
    assert len(calls) == 1  # one call layer, not one per result
    assert len(graph.layers[calls[0]]) == 4  # one task per batch block
    assert len(u.to_dask().chunks[0]) == 4  # the stack stays spread over blocks
    numpy.testing.assert_allclose(dask.compute(s)[0], numpy.linalg.svd(host, compute_uv=False))


def test_core_axes_are_gathered_whole() -> None:
    inverse = dla.inv(dnp.array(numpy.eye(6) * 2, chunks=(2, 3)))
    assert inverse.to_dask().chunks == ((6,), (6,))
    numpy.testing.assert_array_equal(inverse.compute(), numpy.eye(6) / 2)
