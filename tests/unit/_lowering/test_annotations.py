"""Annotations recorded on nodes reach every layer they lower to, survive graph
optimization, and are never merged across nodes whose annotations differ."""

from __future__ import annotations

from typing import Any

import dask
import numpy
import pytest
from dask.base import collections_to_expr

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq

GPU = {"resources": {"GPU": 1}}
URGENT = {"priority": 10, "retries": 3}


def _build() -> tuple[Any, dict[str, dict[str, Any]], numpy.ndarray]:
    """``sqrt(x) * 3`` under GPU, ``+ 1`` under URGENT, ``* x`` with none; x multi-block."""
    host = numpy.arange(20000.0)
    x = dnp.asarray(host)
    with dask.annotate(**GPU):
        y = dnp.sqrt(x) * 3
    with dask.annotate(**URGENT):
        z = y + 1
    w = z * x
    names = {
        "gpu": {y._read().name, y._read().children[0].name},
        "urgent": {z._read().name},
        "none": {w._read().name},
    }
    return w, names, (numpy.sqrt(host) * 3 + 1) * host


def _node(key: Any) -> str:
    """The node a task belongs to: a fused layer's name is its root's plus ``~digest``."""
    return key[0].split("~")[0]


def _sent_annotations(collection: Any) -> dict[str, dict[Any, Any]]:
    """The per-key annotations dask hands the scheduler, after its optimization."""
    return collections_to_expr([collection]).__dask_annotations__()


@pytest.mark.usefixtures("four_workers")
def test_every_layer_of_a_node_carries_its_annotations() -> None:
    w, names, expected = _build()
    with dnp.config.set(fusion=False):  # a layer per node (fused, sqrt has none of its own)
        layers = w.to_dask().dask.layers
    assert len(w.to_dask().chunks[0]) > 1
    for name in names["gpu"]:
        assert layers[name].annotations == GPU
    assert layers[next(iter(names["urgent"]))].annotations == URGENT
    assert layers[next(iter(names["none"]))].annotations is None
    assert_eq(w, expected)


def test_lowering_inside_another_annotate_block_keeps_the_nodes_own() -> None:
    w, names, _ = _build()
    with dask.annotate(resources={"TPU": 1}), dnp.config.set(fusion=False):
        layers = w.to_dask().dask.layers
    assert layers[next(iter(names["none"]))].annotations is None
    assert {layers[n].annotations["resources"]["GPU"] for n in names["gpu"]} == {1}


@pytest.mark.parametrize("fusion", [False, True])
def test_optimization_neither_drops_nor_merges_different_annotations(fusion: bool) -> None:
    with dnp.config.set(fusion=fusion):
        w, names, expected = _build()
        blocks = len(w.to_dask().chunks[0])
        for collection in (w, w.to_dask()):
            sent = _sent_annotations(collection)
            resources, priorities = sent["resources"], sent["priority"]
            # Every GPU key is a block of a GPU node; no key has two nodes' annotations.
            assert len(resources) >= blocks
            assert {_node(key) for key in resources} <= names["gpu"]
            assert {_node(key) for key in priorities} == names["urgent"]
            assert set(resources).isdisjoint(priorities)
            assert {sent["retries"][key] for key in priorities} == {3}
        assert_eq(w, expected)


def test_unannotated_graphs_are_still_fused_by_dask() -> None:
    x = dnp.asarray(numpy.arange(20000.0))
    plus_one = x + 1
    chain = (plus_one * 2 - 3).to_dask()
    optimized = collections_to_expr([chain]).__dask_graph__()
    # The intermediate nodes' tasks were fused into the last one's.
    assert not any(key[0] == plus_one._read().name for key in optimized)
    assert _sent_annotations(chain) == {}
