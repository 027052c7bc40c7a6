"""dask.array's task-graph arrays, whatever ``array.query-planning`` says.

Lowering builds dask arrays over task graphs (``HighLevelGraph`` layers it annotates and
places) and calls dask.array's functions on them (``blockwise``, ``map_blocks``, the tree
reductions, ``tensordot``...). With dask's array query planning on (``array.query-planning:
True``), the names in the ``dask.array`` namespace become expression arrays and functions
that build them, some of them not implemented yet; the public modules below keep the
task-graph ones, whatever that key says. Every module of this package that builds or
names a dask array takes it from here (``from .._runtime import dask_arrays as da``), so
the package behaves the same with the key on or off.

With query planning on, dask's tree reductions build expressions whatever module they are
called from, so a reduction of a task-graph array fails inside dask. The functions here that
reduce (:func:`reduction`, :func:`sum`) and those named by path
(:func:`function`) are then called as a user would call them: on expression arrays standing
for their task-graph inputs (same keys), their result's tasks taken back as a task-graph
array through the collection protocol (``__dask_graph__``). A function dask has not written
for expressions yet (``tensordot``, ``tril``, ``fft.fft``...: it raises
``NotImplementedError``) runs its task-graph version on the task-graph inputs.

A dask array handed to a user (``to_dask()``) is of the kind the process uses:
:func:`for_user`. One handed to us (``from_dask``, ``numpy.asarray`` of a collection) may be
of either kind: :func:`is_dask_array`, :func:`task_graph_array`.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import dask
import numpy
from dask.array.core import (
    Array,
    blockwise,
    broadcast_to,
    concatenate,
    finalize,
    from_array,
    map_blocks,
    normalize_chunks,
)
from dask.array.gufunc import apply_gufunc
from dask.array.routines import sqrt
from dask.core import flatten
from dask.highlevelgraph import HighLevelGraph

__all__ = [
    "Array",
    "apply_gufunc",
    "blockwise",
    "broadcast_to",
    "compute",
    "concatenate",
    "finalize",
    "for_user",
    "from_array",
    "function",
    "is_dask_array",
    "map_blocks",
    "normalize_chunks",
    "reduction",
    "sqrt",
    "sum",
    "task_graph_array",
]

compute = dask.compute


def reduction(kind: str) -> Any:
    """dask.array's reduction or scan named ``kind`` (``sum``, ``var``, ``cumsum``...)
    over task-graph arrays."""
    legacy = getattr(_module("reductions"), kind)
    bridged = _bridged(legacy)
    if kind not in _MOMENTS:
        return bridged

    @functools.wraps(bridged)
    def moment(array: Array, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("dtype") is None and array.dtype.kind != "c" and query_planning():
            # dask asks ``numpy.iscomplexobj`` of an array given no dtype (expression
            # arrays refuse), then takes this one: the same computation
            kwargs["dtype"] = numpy.var(numpy.ones(1, dtype=array.dtype)).dtype
        return bridged(array, *args, **kwargs)

    return moment


_MOMENTS = frozenset({"var", "std", "nanvar", "nanstd"})


def sum(*args: Any, **kwargs: Any) -> Array:  # noqa: A001 - dask.array's name
    """``dask.array.sum`` over task-graph arrays."""
    return reduction("sum")(*args, **kwargs)


# Where dask.array's namespace takes its task-graph functions from, searched in order.
_MODULES = (
    "core",
    "routines",
    "creation",
    "reductions",
    "rechunk",
    "ufunc",
    "gufunc",
    "overlap",
    "reshape",
    "slicing",
    "percentile",
    "einsumfuncs",
)


def function(path: str) -> Any:
    """dask.array's task-graph function at ``path`` under ``dask.array`` (``"stack"``,
    ``"fft.rfft"``, ``"linalg.qr"``, ``"Array.view"``): the one ``dask.array.<path>`` names
    with query planning off."""
    head, _, rest = path.partition(".")
    if head == "Array":  # a method: ``Array.view``
        owner: Any = Array
    elif rest:  # a submodule's function: ``fft.rfft``
        owner = _module(head)
    else:
        found = (getattr(_module(name), head, None) for name in _MODULES)
        legacy = next((f for f in found if f is not None), None)
        if legacy is None:
            raise AttributeError(f"dask.array has no task-graph function {path!r}")
        return _bridged(legacy, path)
    return _bridged(functools.reduce(getattr, rest.split("."), owner), path)


def _bridged(legacy: Any, path: str | None = None) -> Any:
    """``legacy`` (a task-graph function); with query planning on, the function at ``path``
    in ``dask.array``'s namespace (else ``legacy`` itself) called on expression arrays that
    stand for the task-graph arguments, its result taken back as task-graph arrays."""

    @functools.wraps(legacy)
    def call(*args: Any, **kwargs: Any) -> Any:
        if not query_planning():
            return legacy(*args, **kwargs)
        import dask.array

        try:
            # ``dask.array.fft`` is then a function, not the module: its module's
            # functions take task-graph arrays
            target = (
                legacy if path is None else functools.reduce(getattr, path.split("."), dask.array)
            )
        except AttributeError:
            return legacy(*args, **kwargs)
        try:
            return _on_expressions(target, args, kwargs)
        except NotImplementedError as error:  # not written for expressions yet
            try:
                return legacy(*args, **kwargs)
            except AttributeError as legacy_error:  # it reduces through expressions
                raise NotImplementedError(
                    f"dask {dask.__version__} with array.query-planning on has no "
                    f"{path or legacy.__name__} that dask_gpunumeric can use (for expression "
                    f"arrays: {error or 'not implemented'}; for task-graph arrays: "
                    f"{legacy_error}); set array.query-planning to False before dask.array "
                    "is imported"
                ) from error

    return call


def _on_expressions(target: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from . import distributed_internals as internals

    inputs: dict[str, Array] = {}

    def standing_in(value: Any) -> Any:
        if isinstance(value, Array):
            inputs[value.name] = value
            return internals.expression_over_keys(value)
        if type(value) in (list, tuple):
            return type(value)(standing_in(item) for item in value)
        return value

    result = target(*standing_in(args), **{k: standing_in(v) for k, v in kwargs.items()})
    known = {key for array in inputs.values() for key in flatten(array.__dask_keys__())}
    return _taken_back(result, known, list(inputs.values()))


def _taken_back(result: Any, known: set[Any], inputs: list[Array]) -> Any:
    """A dask array's tasks (those of ``known`` keys left out: they are the inputs' own) as
    one layer of a task-graph array over ``inputs``; tuples and lists item by item."""
    if type(result) in (list, tuple):
        return type(result)(_taken_back(item, known, inputs) for item in result)
    if not is_dask_array(result):
        return result
    # A task-graph result too: dask's scans build one over expression arrays, whose layers
    # then read the inputs' keys without naming their layers.
    from . import distributed_internals as internals

    tasks = internals.graph_tasks(result.__dask_graph__())
    if tasks is None:  # pragma: no cover - expressions came with dask's task objects
        raise NotImplementedError("dask's expression arrays without its task objects")
    outputs = set(flatten(result.__dask_keys__()))
    # dask's aliases of the inputs' keys (FromGraph's renames) read as those keys: their
    # readers are then plain tasks reading our blocks (inline_roots takes them in)
    own = internals.without_aliases(
        {key: task for key, task in tasks.items() if key not in known}, outputs
    )
    (name,) = {key[0] for key in outputs}  # the lowered expression's
    graph = HighLevelGraph.from_collections(name, own, dependencies=list[Any](inputs))
    return _array_like(graph, name, result)


def _array_like(graph: HighLevelGraph, name: str, like: Any) -> Array:
    """A task-graph array over ``graph`` with ``like``'s chunks and metadata, or its dtype
    where dask inferred no metadata (a function that fails on an empty chunk)."""
    from . import distributed_internals as internals

    meta = internals.meta_of(like)
    if meta is None:
        return Array(graph, name, like.chunks, dtype=like.dtype)
    return Array(graph, name, like.chunks, meta=meta)


def _module(name: str) -> Any:
    return importlib.import_module(f"dask.array.{name}")


def query_planning() -> bool:
    """Whether ``dask.array``'s namespace holds expression arrays in this process (dask's
    ``array.query-planning``, fixed at dask.array's first import)."""
    import dask.array

    return dask.array.Array is not Array


def is_dask_array(value: Any) -> bool:
    """Whether ``value`` is a dask array of either kind (task graph or expression)."""
    import dask.array

    return isinstance(value, (Array, dask.array.Array))


def task_graph_array(array: Any) -> Array:
    """A dask array of either kind as a task-graph array with the same keys, values and
    chunks (an expression array through the collection protocol: its graph, keys and
    metadata; the graph is materialized once here)."""
    if isinstance(array, Array):
        return array
    (name,) = {key[0] for key in flatten(array.__dask_keys__())}
    graph = HighLevelGraph.from_collections(name, dict(array.__dask_graph__()), dependencies=())
    return _array_like(graph, name, array)


def for_user(array: Array) -> Any:
    """A task-graph array as the kind of dask array this process uses: itself, or (with
    query planning on) an expression array over the same graph and keys."""
    if not query_planning():
        return array
    from . import distributed_internals as internals

    return internals.expression_from_graph(array)
