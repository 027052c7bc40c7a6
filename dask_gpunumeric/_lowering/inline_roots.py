"""Random blocks drawn inside the one task that reads them; small client values copied into
the tasks that read them.

Monte Carlo pi draws ``x`` and ``y`` block by block and reads each block once, in
``x * x + y * y < 1.0``, whose blocks the mean's partial task reads once in turn. As
lowered, that is four tasks per block, and two 50 MB random blocks held on a worker
between them. Here a random block that exactly one task reads, and that task no other
block of its layer, is drawn inside that task; the reader, reading nothing then itself,
goes into its own one reader alike. Pi becomes one task per block: draw, draw, compare, partial
mean; nothing big is held between tasks, and the scheduler handles a third of the tasks.

dask does not do this for these graphs: its blockwise fusion keeps layers of different
annotations apart (the lowering's owner placement differs per layer), its low-level fusion
returns a graph without annotations (``core.optimize`` switches it off for annotated
graphs), and neither takes a task of several inputs' producers (``fuse_roots`` wants
equal annotations, and drops them). Here placement is kept: a layer keeps its owners, and
a layer that had none takes those of the tasks it took in (their block's owner).

A value computed in the client and read on a cluster (``ChunkValue``, under the scatter
threshold: a solver's ``p`` in ``a @ p``) is one task holding it, run on some worker; the
tasks that read it wait for that worker's report, and those of the other workers then
fetch it (dense CG on a persisted matrix: at every iteration). It already travels inside
the graph, so ``copy_client_values`` gives each task that reads it a copy of its
own instead, where the copies together still fit in a graph
(``host_blocks.fits_in_a_graph``) and its readers are tables of tasks (a product's, not
dask's blockwise layers, which would be materialized for it): every worker starts at once.

Only where every layer's annotations are the lowering's placement or none (a user's
``dask.annotate`` block stays as written), and never for an output key (an array being
persisted keeps its blocks) or a task that reads a key: data (persisted or scattered
blocks) are never copied into a task.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from dask.core import flatten
from dask.highlevelgraph import HighLevelGraph, MaterializedLayer

from .._runtime import placement
from .._runtime.distributed_internals import graph_tasks, is_plain_task, with_inlined
from .host_blocks import fits_in_a_graph


def inline_roots(graph: HighLevelGraph, keys: Any) -> HighLevelGraph:
    """``graph`` with every random block that one other task reads drawn inside that task
    (repeatedly: a reader that then reads nothing goes into its own reader);
    ``graph`` itself where nothing is to be done or its annotations are not only
    placement."""
    layers = dict(graph.layers)
    owners: dict[str, dict[Any, list[str]]] = {}
    for name, layer in layers.items():
        table = placement.owner_table(layer.annotations)
        if table is None:
            return graph  # a user's annotations: as written
        owners[name] = table
    dependencies = {name: set(found) for name, found in graph.dependencies.items()}
    readers: dict[str, set[str]] = defaultdict(set)
    for name, found in dependencies.items():
        for dependency in found:
            readers[dependency].add(name)
    roots = [n for n in layers if _may_inline(n, layers[n], dependencies[n], readers[n])]
    if not roots:
        return graph  # the common case, decided before any layer is materialized
    outputs = set(flatten(keys))
    layer_keys = {name: set(layer.keys()) for name, layer in layers.items()}
    layer_of = {key: name for name, found in layer_keys.items() for key in found}
    tasks = graph_tasks(graph)
    if tasks is None:
        return graph
    read_by: dict[Any, set[Any]] = defaultdict(set)
    for key, task in tasks.items():
        for dependency in getattr(task, "dependencies", ()):
            read_by[dependency].add(key)
    changed: set[str] = set()
    while roots:
        name = roots.pop()
        reader = _one_reader(name, layer_keys[name], layer_of, tasks, read_by, outputs)
        if reader is None:
            continue
        table, inherited = owners[reader], owners.pop(name)
        for key in layer_keys[name]:
            (user,) = read_by.pop(key)
            tasks[user] = with_inlined(tasks[user], {key: tasks.pop(key)})
            if key in inherited and user not in table:
                table[user] = inherited[key]
        del layers[name], layer_keys[name]
        dependencies.pop(name)
        dependencies[reader].discard(name)
        changed.add(reader)
        changed.discard(name)
        if not dependencies[reader]:
            roots.append(reader)
    if not changed:
        return graph
    for name in changed:
        layers[name] = MaterializedLayer(
            {key: tasks[key] for key in layer_keys[name]},
            annotations=placement.annotations_of(owners[name]),
        )
    return HighLevelGraph(layers, dependencies)


# The layers taken in first: random draws (``RandomDraw`` nodes' layers, named by their
# node type), cheap to make where they are read and large to hold. A reader that has
# taken in all it read is taken in next in turn.
DRAWN = "randomdraw-"


def _may_inline(name: str, layer: Any, dependencies: set[str], readers: set[str]) -> bool:
    """Whether a layer could be taken into its reader, by the layer alone: a random
    draw's table of calls, with no dependency and one reader layer."""
    if not name.startswith(DRAWN) or dependencies or len(readers) != 1:
        return False
    if not isinstance(layer, MaterializedLayer):
        return False
    first = next(iter(layer.mapping.values()), None)
    return is_plain_task(first) or (type(first) is tuple and bool(first) and callable(first[0]))


def _one_reader(
    name: str,
    keys: set[Any],
    layer_of: dict[Any, str],
    tasks: dict[Any, Any],
    read_by: dict[Any, set[Any]],
    outputs: set[Any],
) -> str | None:
    """The one layer whose tasks read every task of layer ``name`` (its ``keys``), each
    read by exactly one plain call that reads no other of them (a block into the task of the
    same block: as many tasks as before, as parallel), when each is a plain call reading
    no key and none is an output; else ``None``."""
    reader: str | None = None
    taken: set[Any] = set()
    for key in keys:
        task: Any = tasks.get(key)
        users = read_by.get(key, set())
        if key in outputs or not is_plain_task(task) or task.dependencies or len(users) != 1:
            return None
        (user,) = users
        if not is_plain_task(tasks.get(user)):
            return None  # an alias (a rename of the key) would become the call itself
        owner = layer_of.get(user)
        if owner is None or owner == name or (reader is not None and owner != reader):
            return None
        if user in taken:
            return None  # one task would run several: the work of several workers in one
        taken.add(user)
        reader = owner
    return reader


# A value computed in the client (``ChunkValue`` nodes' layers, named by their node type).
CLIENT_VALUE = "chunkvalue-"


def copy_client_values(graph: HighLevelGraph, outputs: set[str]) -> HighLevelGraph:
    """``graph`` with each small client value (not one of the layers ``outputs``) copied
    into every task that reads it, where those are tables of plain calls (see the module
    docstring); ``graph`` itself where there is none."""
    layers = dict(graph.layers)
    dependencies = {name: set(found) for name, found in graph.dependencies.items()}
    changed = False
    for name in [n for n in layers if n.startswith(CLIENT_VALUE) and n not in outputs]:
        readers = [r for r, found in dependencies.items() if name in found]
        copied = _with_copies(name, layers, readers, dependencies)
        if copied is None:
            continue
        layers.update(copied)
        del layers[name], dependencies[name]
        for reader in readers:
            dependencies[reader].discard(name)
        changed = True
    return HighLevelGraph(layers, dependencies) if changed else graph


def _with_copies(
    name: str, layers: dict[str, Any], readers: list[str], dependencies: dict[str, set[str]]
) -> dict[str, MaterializedLayer] | None:
    """The reader layers of the client value ``name``, each task that reads it with a copy
    of it inside; ``None`` where it stays a task of its own."""
    value = layers[name]
    parts = [value, *(layers[r] for r in readers)]
    if dependencies[name] or not readers or not all(_placed_table(p) for p in parts):
        return None
    if len(value.mapping) != 1:
        return None
    (key,) = value.mapping
    task: Any = (graph_tasks(value.mapping) or {}).get(key)
    if not is_plain_task(task) or task.dependencies:
        return None
    nbytes = sum(int(getattr(arg, "nbytes", 0)) for arg in task.args)
    copied: dict[str, MaterializedLayer] = {}
    users = 0
    for reader in readers:
        known = set(layers[reader].mapping).union(
            *(layers[d].get_output_keys() for d in dependencies[reader])
        )
        tasks = graph_tasks(layers[reader].mapping, known) or {}
        reading = [k for k, t in tasks.items() if key in getattr(t, "dependencies", ())]
        if not all(is_plain_task(tasks[k]) for k in reading):
            return None  # an alias (a rename of the key) would become the call itself
        users += len(reading)
        if not fits_in_a_graph(nbytes * users):
            return None  # decided before the other readers are converted
        for k in reading:
            tasks[k] = with_inlined(tasks[k], {key: task})
        copied[reader] = MaterializedLayer(tasks, annotations=layers[reader].annotations)
    return copied


def _placed_table(layer: Any) -> bool:
    """Whether ``layer`` is a table of tasks (not dask's blockwise layer, which would be
    materialized) annotated by the lowering's placement or not at all."""
    return (
        isinstance(layer, MaterializedLayer)
        and placement.owner_table(layer.annotations) is not None
    )
