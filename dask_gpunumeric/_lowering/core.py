"""The traversal: lower every node once (iteratively: graphs can be deep), children first.

Each node is lowered against *stand-in* inputs: dask arrays with the children's names,
chunks and chunk type whose graphs hold one empty layer. dask.array operations merge
every layer of their inputs' graphs into their result, so lowering against the real
inputs costs O(layers so far) per node and O(n^2) for a loop's n iterations (86 s for
1,000 stencil iterations). Here each node costs only its own layers; the one graph of
the result is assembled from them at the end.
"""

from __future__ import annotations

import itertools
from typing import Any

import dask
from dask.highlevelgraph import HighLevelGraph, Layer, MaterializedLayer

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir import leaves as ir_leaves
from .._ir.elementwise import Elementwise
from .._ir.expr import Expr
from .._ir.fused import FusedElementwise
from .._ir.indexing import SetItem
from .._ir.leaves import ChunkValue, DaskData
from .._ir.random import RandomDraw
from .._ir.stencil import Stencil, StencilChain
from .._passes.pipeline import PassSettings, run_passes
from .._runtime import annotations as runtime_annotations
from .._runtime import config, execution, placement
from .._runtime import dask_arrays as da
from .._runtime.distributed_internals import meta_of
from . import (
    chunkwise_call,
    dask_call,
    elementwise,
    fused,
    histograms,
    indexing,
    joining,
    lanes,
    leaves,
    linalg,
    products,
    reductions,
    rolling,
    selection,
    stencil,
)
from .inline_roots import copy_client_values, inline_roots
from .layers import Lowering

lowering_table: dict[type, Lowering] = {  # node type -> lower_<node>
    **chunkwise_call.lowerings,
    **leaves.lowerings,
    **elementwise.lowerings,
    **fused.lowerings,
    **indexing.lowerings,
    **reductions.lowerings,
    **products.lowerings,
    **dask_call.lowerings,
    **selection.lowerings,
    **lanes.lowerings,
    **histograms.lowerings,
    **linalg.lowerings,
    **joining.lowerings,
    **rolling.lowerings,
    **stencil.lowerings,
}


def _stand_in(array: da.Array) -> da.Array:
    """``array`` without its history: same name, chunks and meta; an empty graph layer."""
    graph = HighLevelGraph({array.name: MaterializedLayer({})}, {array.name: set()})
    return da.Array(graph, array.name, array.chunks, meta=meta_of(array))


def lower(expr: Expr, backend: ChunkBackend | None = None, *, placed: bool = True) -> da.Array:
    """The dask array computing ``expr`` with ``backend``'s chunks (default: the
    configured backend)."""
    return lower_all([expr], backend, placed=placed)[0]


def lower_all(
    exprs: list[Expr], backend: ChunkBackend | None = None, *, placed: bool = True
) -> list[da.Array]:
    """Dask arrays computing each of ``exprs``, from one traversal and one shared graph.
    The backend is resolved once here (when not given) and handed to every lowering.

    ``placed=False`` leaves out owner placement (``_place``): for graphs handed to dask
    users (``to_dask``), whose own operations dask fuses with ours, and dask's fusion of
    annotations takes ``workers`` lists only, not the per-key function placement gives."""
    backend = backend or get_backend()
    if len(exprs) == 1 and type(exprs[0]) is ChunkValue:
        # A value computed here, alone (``distributed.wait(x.persist())`` of a solver's
        # iterate): no pass applies to it, and its own array needs no stand-in.
        return [_lowered_value(exprs[0], backend, placed)]
    # fusion and friends: pure Expr -> Expr, switchable by config
    exprs = run_passes(exprs, pass_settings())
    stand_ins: dict[int, da.Array] = {}
    layers: dict[str, Any] = {}
    dependencies: dict[str, set[str]] = {}
    stack: list[tuple[Expr, bool]] = [(expr, False) for expr in reversed(exprs)]
    # once per lowering: it may ask the scheduler
    workers = placement.current_workers() if placed else ()
    while stack:
        node, children_done = stack.pop()
        if node.number in stand_ins:
            continue
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children if child.number not in stand_ins)
            continue
        inputs = [stand_ins[child.number] for child in node.children]
        result = lowering_table[type(node)](node, inputs, backend)
        graph: Any = result.__dask_graph__()
        input_names = {array.name for array in inputs}
        for name, layer in graph.layers.items():
            if name not in input_names:  # an input's stand-in layer: its real one is kept
                layers[name] = _annotate(node, name, layer)
                _place(node, name, layer, (result, inputs), workers)
                dependencies[name] = set(graph.dependencies.get(name, ()))
        stand_ins[node.number] = _stand_in(result)
    # A layer whose name differs from its array's would leave a dangling stand-in name.
    dependencies = {name: deps & layers.keys() for name, deps in dependencies.items()}
    graph = HighLevelGraph(layers, dependencies)
    roots = [stand_ins[expr.number] for expr in exprs]
    if placed and execution.on_cluster():
        graph = copy_client_values(graph, {root.name for root in roots})
    return [LoweredArray(graph, root.name, root.chunks, meta=meta_of(root)) for root in roots]


def _lowered_value(node: ChunkValue, backend: ChunkBackend, placed: bool) -> da.Array:
    """``lower_all([node])`` of a lone value: its array's layers annotated and placed as
    ``lower_all`` does every node's."""
    result = lowering_table[ChunkValue](node, [], backend)
    graph: Any = result.__dask_graph__()
    workers = placement.current_workers() if placed else ()
    for name, layer in graph.layers.items():
        _annotate(node, name, layer)
        _place(node, name, layer, (result, []), workers)
    return LoweredArray(graph, result.name, result.chunks, meta=meta_of(result))


def pass_settings() -> PassSettings:
    """The passes' switches and limits from ``gpunumeric.*`` configuration, read once per
    lowering (so a ``with config.set(...)`` block applies from the next computation)."""
    return PassSettings(
        fusion=_switched_on("fusion"),
        fusion_max_inputs=int(config.get("fusion-max-inputs")),
        halo=_switched_on("halo"),
        halo_max_depth=int(config.get("halo-max-depth")),
        halo_sweeps=int(config.get("halo-sweeps")),
    )


def _switched_on(key: str) -> bool:
    value = config.get(key)
    # Environment variables arrive as strings when dask cannot parse them as YAML.
    return value if isinstance(value, bool) else str(value).lower() not in ("false", "0", "no")


def _annotate(node: Expr, name: str, layer: Layer) -> Layer:
    """``layer`` carrying the annotations ``node`` was built under, and no others: layers
    made while lowering inside an unrelated ``dask.annotate`` block would pick that one up.
    A dask array given by the user (``DaskData``) keeps its own layers' annotations."""
    if isinstance(node, DaskData) and name != node.name:
        return layer
    layer.annotations = runtime_annotations.thaw(node.annotations) if node.annotations else None
    return layer


# Nodes whose result block i is computed by one task from the blocks at i of their inputs
# (or from nothing): their tasks go to the owner of block position i.
BLOCK_ALIGNED = (
    Elementwise,
    FusedElementwise,
    Stencil,
    StencilChain,
    SetItem,
    ir_leaves.Fill,
    ir_leaves.Arange,
    ir_leaves.Linspace,
    ir_leaves.Eye,
    ir_leaves.HostData,
    RandomDraw,  # x and y of equal chunking drawn where x * x + y * y is computed
)


def _place(
    node: Expr,
    name: str,
    layer: Layer,
    arrays: tuple[da.Array, list[da.Array]],
    workers: tuple[str, ...],
) -> None:
    """Add owner-worker annotations (``_runtime/placement.py``) to the per-block tasks of a
    block-aligned node's ``layer``, and to a stencil's slab tasks (the owner of the block
    each slab is cut from). A user's own ``workers`` annotation wins: none are added. Nor
    are any to a layer with ``resources``: its tasks may run only where the resources
    are, and the scheduler fails (``KeyError`` in ``acquire_resources``) when it tries a
    loose owner that lacks them."""
    result, inputs = arrays
    if not workers or not isinstance(node, BLOCK_ALIGNED):
        return
    if {"workers", "resources"} & (layer.annotations or {}).keys():
        return
    if name == result.name:
        sources = {
            (name, *index): (index, result.numblocks)
            for index in itertools.product(*map(range, result.numblocks))
        }
    elif isinstance(node, Stencil | StencilChain) and name == stencil.slab_layer_name(node):
        grids = {array.name: array.numblocks for array in inputs}
        sources = {
            key: (tuple(block[1:]), grids[block[0]])
            for key, block in stencil.slab_sources(layer).items()
        }
    else:
        return
    owners = placement.owner_annotations(sources, workers)
    if owners:
        layer.annotations = {**owners, **(layer.annotations or {})}


def optimize(graph: HighLevelGraph, keys: Any, **kwargs: Any) -> Any:
    """dask.array's optimization, made to keep annotations when a layer has some.

    dask's blockwise fusion merges layers of different annotations (retries, priority,
    resources, workers) into one task with merged ones, unless
    ``optimization.annotations.fuse`` is off; its low-level fusion returns a plain dict,
    which drops every annotation. Annotated graphs get the first switched off and the
    second skipped: nodes of different annotations never share a task. Before either, a
    dependency-free task that one task reads is computed inside it (``inline_roots``:
    placement kept).
    """
    if isinstance(graph, HighLevelGraph):
        graph = inline_roots(graph, keys)
    layers = getattr(graph, "layers", {})
    annotated = any(layer.annotations for layer in layers.values())
    keep = {"optimization.fuse.active": False, "optimization.annotations.fuse": False}
    with dask.config.set(keep if annotated else {}):
        return da.Array.__dask_optimize__(graph, keys, **kwargs)


class LoweredArray(da.Array):
    """The dask array of a lowered expression: a ``dask.array.Array`` whose graph
    optimization keeps the annotations lowering put on its layers."""

    __dask_optimize__ = staticmethod(optimize)
