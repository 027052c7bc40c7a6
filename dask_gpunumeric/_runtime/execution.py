"""Where computations go: ``compute`` and ``persist`` for every materialization.

``gpunumeric.scheduler`` decides: ``distributed`` (default) sends the graph to the active
``distributed.Client``, else to the embedded default cluster (``cluster.py``);
``threads`` and ``synchronous`` keep dask's local schedulers (tiny scripts, the test
suite). ``gpunumeric.progress`` shows a progress bar. A lost scheduler raises
``SchedulerLostError`` within ``gpunumeric.scheduler-timeout`` (``scheduler_loss.py``).
The last computed collections are kept (``last_computed``) so the launcher's
``--dataflow`` can draw them.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

import dask
import dask.threaded
import distributed
import numpy
from dask.core import flatten, get_dependencies
from dask.utils import key_split

from . import checkpoint_copies, config, history, lineage, parts_in_place, peer_runs
from . import distributed_internals as internals
from .cluster import active_client, client_for_computation, in_worker_task
from .nearby_workers import reaches_workers_directly
from .scheduler_loss import check_connected, translated, wait_watched, watched_get

LOCAL_SCHEDULERS = ("threads", "synchronous")


class _Last:
    collections: tuple[Any, ...] = ()
    partial_results: list[distributed.Future] = []


# Whether computations run in this process now (``in_client``), whatever the configured
# scheduler: per thread and task (a context variable), so that one thread's block does not
# move another's computations.
_in_client: contextvars.ContextVar[bool] = contextvars.ContextVar("in_client", default=False)


@contextlib.contextmanager
def in_client() -> Iterator[None]:
    """Inside the block, ``compute``, ``persist`` and ``checkpoint`` run on dask's threaded
    scheduler in this process, even when ``gpunumeric.scheduler`` is ``distributed``: the
    small-work policy (``_array/work_placement.py``) for work whose inputs are here.
    Lowering is not affected (chunks, and so random values, stay those of the cluster).
    Only for this thread (or asyncio task)."""
    token = _in_client.set(True)
    try:
        yield
    finally:
        _in_client.reset(token)


def own_layer(array: Any) -> Any:
    """The table of ``array``'s own keys (a dask array's layer of its name), or ``None``
    when it is not materialized (a user's lazy dask array is not looked into)."""
    graph = array.__dask_graph__()
    layer = getattr(graph, "layers", {}).get(array.name, graph)
    if hasattr(layer, "is_materialized") and not layer.is_materialized():
        return None
    return layer


def held_by_cluster(array: Any) -> bool:
    """Whether ``array`` (a dask array) is held by a distributed cluster: its own layer is
    a table of futures (persisted or scattered there)."""
    layer = own_layer(array)
    return layer is not None and any(isinstance(v, distributed.Future) for v in layer.values())


def scatter_to(
    blocks: dict[str | None, list[Any]],
) -> dict[str | None, list[distributed.Future]]:
    """Each worker's list of values, scattered to that worker (not broadcast; ``None``:
    to any), on the client computations go to: futures in the same order. Scattered
    data has no lineage: each value is kept in two copies on two workers, the second
    asked for at once (``checkpoint_copies.keep_copies``), so one lost worker loses
    none of it."""
    client = client_for_computation()
    check_connected(client)
    with translated(client):
        futures = {worker: _scattered(client, values, worker) for worker, values in blocks.items()}
        keys = [future.key for group in futures.values() for future in group]
        client.run_on_scheduler(checkpoint_copies.keep_copies, keys=keys)
    return futures


# Seconds a scatter waits for its owner worker to be listed, then any worker takes it: an
# owner lost since the worker list was read (at most 2 s old) is never listed again, and
# distributed would wait its connect timeout (30 s) and raise "No valid workers found".
_OWNER_TIMEOUT = 2.0


def _scattered(client: distributed.Client, values: list[Any], worker: str | None) -> Any:
    """``values`` scattered to ``worker`` (``None``: any); to any worker when ``worker``
    is gone (not listed within ``_OWNER_TIMEOUT``, or lost while it received them)."""
    direct = reaches_workers_directly(client)
    if worker is not None:
        try:
            return client.scatter(
                values, workers=[worker], hash=False, direct=direct, timeout=_OWNER_TIMEOUT
            )
        except (TimeoutError, OSError):  # CommClosedError is an OSError
            check_connected(client)
    return client.scatter(values, hash=False, direct=direct)


def cluster_address() -> str:
    """The scheduler address of the client computations go to."""
    return str(client_for_computation().scheduler.address)


def on_cluster() -> bool:
    """Whether computations go to a distributed cluster now (not ``in_client``)."""
    return not _in_client.get() and _wants_distributed()


def compute(*collections: Any) -> tuple[Any, ...]:
    """``dask.compute`` on the configured scheduler."""
    _Last.collections = collections
    client = _distributed_client()
    if client is None:
        with _local_progress():
            return dask.compute(*collections, scheduler=_local_scheduler())
    with translated(client), _seceded_in_worker_task():
        if config.get("progress"):
            futures = client.compute(list(collections))
            distributed.progress(futures, notebook=False)
            return tuple(client.gather(futures, direct=reaches_workers_directly(client)))
        return dask.compute(*collections, scheduler=watched_get(client))


def compute_finishing_here(collection: Any) -> Any:
    """``compute`` of ``collection``, one small block made by a last task from several
    small results (a tree reduction's aggregate of its per-block partial results), with
    that last task run here: on a distributed cluster the results it reads are computed
    there (the graph as ``dask.compute`` sends it, annotations included) and gathered in
    one round trip, then it runs in this process (its floating-point warnings ignored, as
    dask's aggregates on a worker give none). No aggregate task to schedule and no
    partial result moved between workers: the cluster's part of a convergence check is
    then about one plain round trip (``benchmarks/suite/check_overhead.py``). Anywhere else, or for a graph not of that
    shape (no aggregate reading two results or more within the last few steps, several
    blocks, a progress bar), it is ``compute``."""
    client = _distributed_client()
    keys = list(flatten(collection.__dask_keys__()))
    if client is None or config.get("progress") or len(keys) != 1:
        return compute(collection)[0]
    (key,) = keys
    hlg = collection.__dask_graph__()
    graph: Any = dict(hlg)  # as built, before dask's optimization: read in place first
    tail, parts = _last_steps(graph, key)
    futures: list[Any] = []
    _Last.collections = (collection,)
    layers = getattr(hlg, "layers", {}).values()
    annotations = [layer.annotations or {} for layer in layers]
    route: tuple[Any, Any, list[Any], list[Any]] = (None, graph, tail, parts)  # as built
    with translated(client), _seceded_in_worker_task():
        check_connected(client)
        jobs = _in_place_jobs(client, route, annotations)
        if jobs is None:  # the graph as ``dask.compute`` sends it (dask's task objects)
            route = _optimized(collection, key)
            jobs = _in_place_jobs(client, route, annotations)
        values = None if jobs is None else parts_in_place.computed_where_held(client, jobs)
        if values is None and _aggregated(tail, parts):  # the workers among themselves
            values = peer_runs.computed(client, graph, parts, layers)
            if values is not None:
                route = (None, graph, tail, parts)  # as built: the parts computed
        if values is None and route[0] is None:
            route = _optimized(collection, key)
        expression, graph, tail, parts = route
        if values is None and _aggregated(tail, parts):  # through the scheduler
            futures = client.get(expression, parts, sync=False)  # culled to them
            wait_watched(client, futures)
            values = client.gather(futures, direct=reaches_workers_directly(client))
    if values is None:  # no tree's aggregate last: all of it on the cluster
        return compute(collection)[0]
    # Held until the next such computation has asked for its own: a check repeated on
    # the same arrays asks for the same keys (dask names them by their inputs), and a key
    # this client released just before asking for it again could be forgotten by the
    # scheduler in between (distributed then logs "Couldn't gather keys" and recomputes).
    # Not inside a worker's task: the worker's client would hold them past the task.
    _Last.partial_results = [] if in_worker_task() else futures
    with numpy.errstate(all="ignore"):  # a worker's floating-point warnings: none either
        here = {**dict(zip(parts, values, strict=True)), **{k: graph[k] for k in tail}}
        return dask.get(here, key)


def _optimized(collection: Any, key: Any) -> tuple[Any, Any, list[Any], list[Any]]:
    """``(expression, graph, tail, parts)``: the expression ``dask.compute`` would send for
    ``collection``, its graph, and ``_last_steps`` of ``key`` in it."""
    expression = internals.collections_expression(collection)
    graph = expression.__dask_graph__()
    return (expression, graph, *_last_steps(graph, key))


def _in_place_jobs(
    client: distributed.Client,
    route: tuple[Any, Any, list[Any], list[Any]],
    annotations: list[dict[str, Any]],
) -> Any:
    """``parts_in_place.jobs_for`` the parts of a tree's aggregate in ``route``'s graph
    (``(expression, graph, tail, parts)``), else ``None``."""
    _, graph, tail, parts = route
    if not _aggregated(tail, parts):
        return None
    return parts_in_place.jobs_for(client, graph, parts, annotations)


def _aggregated(tail: list[Any], parts: list[Any]) -> bool:
    """Whether ``_last_steps`` found a tree's aggregate of two results or more."""
    return len(parts) >= 2 and "aggregate" in key_split(tail[-1])


def _last_steps(graph: Any, key: Any, longest: int = 3) -> tuple[list[Any], list[Any]]:
    """The tasks from ``key`` down to the first that reads several results (at most
    ``longest`` steps: an alias of a fused key, a cast, a square root of a variance), and
    the results that one reads."""
    tail = [key]
    parts = list(get_dependencies(graph, key))
    while len(parts) == 1 and len(tail) < longest:
        tail.append(parts[0])
        parts = list(get_dependencies(graph, parts[0]))
    return tail, parts


def persist(*collections: Any, synchronous: bool = False) -> tuple[Any, ...]:
    """``dask.persist`` without graph optimization on the configured scheduler: every
    key keeps its task. On a distributed client it is asynchronous (futures).
    ``synchronous``: in this thread instead, whatever the configuration (work on
    blocks held in this process)."""
    _Last.collections = collections
    if synchronous:
        return dask.persist(*collections, scheduler="synchronous", optimize_graph=False)
    client = _distributed_client()
    if client is None:
        with _local_progress():
            return dask.persist(*collections, scheduler=_local_scheduler(), optimize_graph=False)
    check_connected(client)
    by_peers = _persisted_by_peers(client, collections)
    if by_peers is not None:
        return by_peers
    return tuple(client.persist(list(collections), optimize_graph=False))


def _persisted_by_peers(
    client: distributed.Client, collections: tuple[Any, ...]
) -> tuple[Any, ...] | None:
    """``collections`` persisted by the workers among themselves (``peer_runs``), or
    ``None`` where that route is not taken."""
    if not peer_runs.wanted():
        return None
    graphs = [c.__dask_graph__() for c in collections]
    if any(not getattr(g, "layers", None) for g in graphs):  # no layers: no placement
        return None
    layers = [layer for g in graphs for layer in g.layers.values()]
    keys = [list(flatten(c.__dask_keys__())) for c in collections]
    graph = {k: v for g in graphs for k, v in dict(g).items()}
    futures = peer_runs.persisted(client, graph, [k for ks in keys for k in ks], layers)
    if futures is None:
        return None
    persisted = []
    for collection, its_keys in zip(collections, keys, strict=True):
        rebuild, args = collection.__dask_postpersist__()
        persisted.append(rebuild({k: futures[k] for k in its_keys}, *args))
    return tuple(persisted)


def checkpoint(*arrays: Any) -> tuple[Any, ...]:
    """Persisted ``arrays`` with their lineage cut on a distributed client
    (``lineage.checkpoint``: blocks until they are computed), and the scheduler's history
    of finished task groups and every process's cache of key names dropped
    (``history.py``); unchanged elsewhere, where no scheduler keeps either."""
    client = _distributed_client()
    if client is None:
        return arrays
    with _seceded_in_worker_task():
        cut = lineage.checkpoint(client, arrays)
    history.forget_finished_groups(client)
    history.forget_key_names(client)
    return cut


def scheduler_get(graph: Any, keys: Any, **kwargs: Any) -> Any:
    """A dask ``get`` for our collections' ``__dask_scheduler__``: dask calls it when no
    default client exists, e.g. ``dask.persist(x)`` before any computation of ours, so it
    starts the embedded cluster (``gpunumeric.scheduler: distributed``) as ours do, else
    runs dask's local scheduler."""
    client = _distributed_client()
    if client is None:
        return (
            dask.get(graph, keys, **kwargs)
            if _local_scheduler() == "synchronous"
            else (dask.threaded.get(graph, keys, **kwargs))
        )
    return client.get(graph, keys, **kwargs)


def last_computed() -> tuple[Any, ...]:
    """The collections of the last ``compute`` or ``persist`` (for ``--dataflow``)."""
    return _Last.collections


def run_on_workers(function: Callable[[], Any]) -> dict[str, Any] | None:
    """``function()`` on every worker of the active client (``client.run``), by address;
    ``None`` when computations run locally or no cluster is up yet. A worker lost while
    it is asked (its connection closed: a killed worker the scheduler still listed) is
    left out of the answers; what ``function`` raises on a worker is raised here."""
    client = active_client() if _wants_distributed() else None
    if client is None:
        return None
    answers = client.run(function, on_error="return")
    for answer in answers.values():
        if isinstance(answer, Exception) and not isinstance(answer, OSError):
            raise answer  # CommClosedError is an OSError (the worker gone), the rest are not
    return {worker: a for worker, a in answers.items() if not isinstance(a, Exception)}


def _wants_distributed() -> bool:
    scheduler = config.get("scheduler")
    if scheduler not in (*LOCAL_SCHEDULERS, "distributed"):
        raise ValueError(
            f"unknown gpunumeric.scheduler {scheduler!r}; choose distributed, threads "
            "or synchronous"
        )
    return scheduler == "distributed"


def _distributed_client() -> distributed.Client | None:
    return client_for_computation() if on_cluster() else None


def _local_scheduler() -> str:
    scheduler = config.get("scheduler")
    return "threads" if scheduler == "distributed" else scheduler


@contextlib.contextmanager
def _seceded_in_worker_task() -> Iterator[None]:
    """Inside a worker's task, wait for a computation outside the worker's thread pool
    (``distributed.worker_client``: secede, then rejoin), so the tasks it waits for can
    run on that worker's threads, a single-threaded worker's one thread included."""
    if not in_worker_task():
        yield
        return
    with distributed.worker_client():
        yield


@contextlib.contextmanager
def _local_progress() -> Iterator[None]:
    if not config.get("progress"):
        yield
        return
    from dask.diagnostics import ProgressBar

    with ProgressBar():
        yield
