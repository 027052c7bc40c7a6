"""The fallback benchmark runs, and what it compares has the right STRUCTURE: the
chunk-wise path maps each block on its own, the gathering path concentrates every block
in one task. No wall-clock asserts."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from benchmarks.fallback import chunkwise_and_gathered, measure

pytestmark = pytest.mark.benchmark


def test_chunkwise_maps_blocks_one_to_one_and_gathering_does_not() -> None:
    x = dnp.asarray(numpy.linspace(-5, 5, 4_000), chunks=(500,)).persist()
    chunkwise, gathered = chunkwise_and_gathered(x)
    graph = dict(chunkwise.to_dask().__dask_graph__())
    inputs = {key for key in graph if key[0] == x.to_dask().name}
    mapped = [key for key in graph if key not in inputs]
    assert len(mapped) == 8
    assert chunkwise.to_dask().numblocks == (8,)
    assert gathered.to_dask().numblocks == (1,)  # a 4,000-element value stays one block
    numpy.testing.assert_array_equal(chunkwise.compute(), gathered.compute())


def test_benchmark_runs() -> None:
    seconds = measure(elements=10_000, blocks=2, repeat=1)
    assert set(seconds) == {"numpy on a host copy", "chunk-wise fallback", "gathering fallback"}
