"""Moving a persisted array's value into this process, and whether the workers are near.

The placement rule (``_array/work_placement.py``) may move a small array held by the
cluster into this process once, where a loop that reads it at every check would otherwise
pay a round trip per check (dense CG on a persisted 1,000 x 1,000 matrix: 40 checks of
about 3 ms against NumPy's 10 ms for the whole solve). It does that only where the move is
cheap: the workers run on this machine (the embedded cluster, a ``LocalCluster`` of the
user's), not across a network from a laptop (``nearby_workers``). This module moves.
"""

from __future__ import annotations

from typing import Any

import dask
import distributed
import numpy
from dask.array.dispatch import concatenate_lookup
from dask.core import flatten

from . import config, nearby_workers, parts_in_place, worker_memory
from . import distributed_internals as internals
from .cluster import client_for_computation
from .execution import own_layer
from .partitioning import block_regions
from .scheduler_loss import check_connected, translated


def workers_share_this_machine() -> bool:
    """Whether every worker of the client computations go to runs on this machine
    (``nearby_workers``): a move from them is a copy between processes, not a transfer
    over a network."""
    return nearby_workers.workers_share_this_machine(client_for_computation())


def fetch(*arrays: Any) -> list[Any]:
    """The values of the persisted dask ``arrays``, each as one chunk in this process:
    their blocks read out of the memory of the workers on this machine holding them,
    straight into place (``worker_memory``), else gathered from the workers that hold
    them (one exchange for all; straight from the workers where
    ``nearby_workers.reaches_workers_directly``), or taken as they are where they are
    held in this process (dask's local schedulers), and put together here."""
    keys = [list(flatten(array.__dask_keys__())) for array in arrays]
    blocks: list[list[Any]] = []
    for array, flat in zip(arrays, keys, strict=True):
        layer = own_layer(array)
        blocks.append([layer[key] for key in flat] if layer is not None else [])
    futures = [f for b in blocks for f in b if isinstance(f, distributed.Future)]
    if futures:
        client = client_for_computation()
        check_connected(client)
        with translated(client):
            read = _read_from_worker_memory(client, arrays, blocks)
            if read is not None:
                return read
            direct = nearby_workers.reaches_workers_directly(client)
            values = client.gather(futures, direct=direct)
            gathered = dict(zip(futures, values, strict=True))
        blocks = [[gathered.get(f, f) if isinstance(f, distributed.Future) else f for f in b]
                  for b in blocks]  # fmt: skip
    result = []
    for array, held in zip(arrays, blocks, strict=True):
        if held and all(hasattr(block, "shape") for block in held):
            result.append(_joined(held, array.chunks))
        else:  # blocks still to compute (a user's lazy array)
            (value,) = dask.compute(array, scheduler="sync")
            result.append(value)
    return result


def _read_from_worker_memory(
    client: distributed.Client, arrays: tuple[Any, ...], blocks: list[list[Any]]
) -> list[Any] | None:
    """The values of ``arrays`` read out of the workers' memory (``worker_memory``) where
    that route serves them all: every block persisted, NumPy's chunks, workers on this
    machine that the client talks to directly (one made with ``direct_to_workers=False``
    keeps distributed's route), ``gpunumeric.local-moves`` on; else ``None``."""
    if not (
        config.get("local-moves")
        and worker_memory.available()
        and all(
            type(internals.meta_of(array)) is numpy.ndarray
            and not array.dtype.hasobject
            and all(isinstance(block, distributed.Future) for block in held)
            for array, held in zip(arrays, blocks, strict=True)
        )
        and nearby_workers.workers_share_this_machine(client)
        and nearby_workers.reaches_workers_directly(client)
    ):
        return None
    return worker_memory.read(client, list(zip(arrays, blocks, strict=True)))


def computed_where_held(*arrays: Any) -> list[Any] | None:
    """The values of ``arrays`` (dask arrays of ours, not persisted: a check's products of
    persisted blocks), each as one chunk in this process: every block of each computed by
    the worker holding what it reads, with no task (``parts_in_place``: one message to
    each worker and its reply, not a graph through the scheduler), and put together here;
    ``None`` where one block cannot be computed so (the caller persists them and
    fetches)."""
    if config.get("progress"):
        return None  # a bar follows the scheduler's tasks
    client = client_for_computation()
    keys = [list(flatten(array.__dask_keys__())) for array in arrays]
    graph: dict[Any, Any] = {}
    annotations: list[dict[str, Any]] = []
    for array in arrays:
        layered = array.__dask_graph__()
        graph.update(layered)
        annotations += [layer.annotations or {} for layer in layered.layers.values()]
    held = {key: value for key, value in graph.items() if isinstance(value, distributed.Future)}
    tasks = internals.graph_tasks(
        {key: value for key, value in graph.items() if key not in held}, graph.keys()
    )
    if tasks is None:
        return None
    wanted = [key for flat in keys for key in flat]
    check_connected(client)
    with translated(client):
        jobs = parts_in_place.jobs_for(client, {**tasks, **held}, wanted, annotations)
        values = None if jobs is None else parts_in_place.computed_where_held(client, jobs)
    if values is None:
        return None
    found = dict(zip(wanted, values, strict=True))
    return [
        _joined([found[key] for key in flat], array.chunks)
        for array, flat in zip(arrays, keys, strict=True)
    ]


def _joined(blocks: list[Any], chunks: tuple[tuple[int, ...], ...]) -> Any:
    """The blocks (in C order of their block indices) of an array of ``chunks`` as one
    array: NumPy's written once into an array made for them (joining them axis by axis
    would copy each twice or more: 2 s for 800 MB in 16 blocks here, against 0.3 s),
    other chunk types joined by their namespace's ``concatenate``."""
    if len(blocks) == 1:
        return blocks[0]
    if all(type(block) is numpy.ndarray for block in blocks):
        joined = numpy.empty(tuple(map(sum, chunks)), dtype=blocks[0].dtype)
        for region, block in zip(block_regions(chunks), blocks, strict=True):
            joined[region] = block
        return joined
    return _assembled(_nested(iter(blocks), tuple(map(len, chunks))), type(blocks[0]))


def _nested(blocks: Any, numblocks: tuple[int, ...]) -> Any:
    """The flat ``blocks`` nested as dask nests keys (one list level per axis)."""
    if not numblocks:
        return next(blocks)
    return [_nested(blocks, numblocks[1:]) for _ in range(numblocks[0])]


def _assembled(nested: Any, kind: type) -> Any:
    """Nested blocks put together along each axis (``concatenate`` of their type)."""
    if not isinstance(nested, list):
        return nested
    parts = [_assembled(item, kind) for item in nested]
    if len(parts) == 1:
        return parts[0]
    return concatenate_lookup.dispatch(kind)(parts, axis=-(_depth(nested) + 1))


def _depth(nested: Any) -> int:
    """How many list levels lie below the first item of ``nested``: the axis the items of
    ``nested`` are joined along, counted from the last (keys nest axis by axis)."""
    depth = 0
    item = nested[0]
    while isinstance(item, list):
        depth += 1
        item = item[0]
    return depth
