"""Owner annotations by structure: with distributed workers known, the per-block tasks of a
stencil (and of the creation layers before it) carry the owner of their block position as
a loose ``workers`` restriction, contiguous ranges of blocks per worker; a user's own
``dask.annotate(workers=...)`` wins; without a distributed client nothing is added."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import dask
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._runtime import placement
from dask_gpunumeric.testing import assert_eq

WORKERS = ("tcp://10.0.0.1:1", "tcp://10.0.0.2:1", "tcp://10.0.0.3:1")
GRID, CHUNKS = 36, (12, 9)  # 3 x 4 = 12 blocks, four per worker


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, ...]]:
    """Lowering sees three distributed workers (the computation itself runs on threads)."""
    monkeypatch.setattr(placement, "current_workers", lambda: WORKERS)
    yield WORKERS


def seed_step(xp: Any, grid: Any) -> None:
    center, north, south = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, :-2]
    center[:] = 0.2 * (center + north + east + west + south)


def grids() -> tuple[Any, Any]:
    import numpy

    host, grid = numpy.zeros((GRID, GRID)), dnp.zeros((GRID, GRID), chunks=CHUNKS)
    for array in (host, grid):
        array[0, :] = 40.0
        seed_step(numpy if array is host else dnp, array)
    return host, grid


def owners_of(layer: Any, keys: list[Any]) -> list[str]:
    annotations = layer.annotations or {}
    assert annotations.get("allow_other_workers") is True, annotations
    found = [annotations["workers"](key) for key in keys]
    assert all(isinstance(w, list) and len(w) == 1 for w in found), found
    return [w[0] for w in found]


def placed_graph(array: Any) -> tuple[Any, str]:
    """The graph our computations send (the dask protocol: placed), and its output name."""
    (name,) = array.__dask_layers__()
    return array.__dask_graph__(), name


def test_stencil_blocks_and_slabs_go_to_contiguous_owners(workers: tuple[str, ...]) -> None:
    host, grid = grids()
    graph, name = placed_graph(grid)
    assert name.startswith("stencil-"), name
    block_keys = [(name, *index) for index in itertools.product(range(3), range(4))]
    owners = owners_of(graph.layers[name], block_keys)
    # C order, contiguous ranges: four blocks per worker, in the workers' order.
    assert owners == [w for w in workers for _ in range(4)]
    slabs = graph.layers[f"{name}-slab"]
    assert len(slabs) > 0
    sources = {key: task[1] for key, task in dict(slabs).items()}
    slab_owners = owners_of(slabs, list(sources))
    for (key, source), owner in zip(sources.items(), slab_owners, strict=True):
        assert owner == owners[block_keys.index((name, *source[1:]))], (key, source)
    creation = [graph.layers[n] for n in graph.layers if n.startswith("fill-")]
    assert creation, list(graph.layers)
    for layer in creation:
        fill_name = next(iter(dict(layer)))[0]
        keys = [(fill_name, *k[1:]) for k in block_keys]
        assert owners_of(layer, keys) == owners  # the first placement agrees
    assert_eq(grid, host)


def test_a_users_workers_annotation_wins(workers: tuple[str, ...]) -> None:
    import numpy

    host, grid = numpy.zeros((GRID, GRID)), dnp.zeros((GRID, GRID), chunks=CHUNKS)
    host[0, :] = grid[0, :] = 40.0
    placed_graph(grid)
    seed_step(numpy, host)
    with dask.annotate(workers=["tcp://10.0.0.9:1"]):
        seed_step(dnp, grid)
    graph, name = placed_graph(grid)
    annotations = graph.layers[name].annotations
    assert annotations == {"workers": ["tcp://10.0.0.9:1"]}
    assert_eq(grid, host)


def test_no_owner_annotations_without_distributed_workers() -> None:
    host, grid = grids()
    assert placement.current_workers() == ()  # the suite computes on threads
    graph, _ = placed_graph(grid)
    assert all("workers" not in (layer.annotations or {}) for layer in graph.layers.values())
    assert_eq(grid, host)


def test_to_dask_leaves_owners_out_and_keeps_the_users_annotations(
    workers: tuple[str, ...],
) -> None:
    """dask's fusion of annotations takes ``workers`` lists, not placement's per-key
    function: the graph handed to dask users has none, and dask operations on it work."""
    import numpy

    host = numpy.arange(float(GRID * GRID)).reshape(GRID, GRID)
    x = dnp.array(host, chunks=CHUNKS)
    with dask.annotate(retries=3):
        y = x * 2 + 1
    graph, name = placed_graph(y)
    assert callable(graph.layers[name].annotations["workers"])  # placed for our runs
    exported = y.to_dask()
    layers = exported.__dask_graph__().layers
    assert not any(callable((layer.annotations or {}).get("workers")) for layer in layers.values())
    assert layers[exported.name].annotations == {"retries": 3}
    # dask's own optimization (blockwise fusion of its layer with ours) runs here
    result = (exported + 1).T.compute(scheduler="synchronous")
    numpy.testing.assert_array_equal(get_backend().to_host(result), (host * 2 + 2).T)
