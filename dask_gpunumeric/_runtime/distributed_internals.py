"""Every private or undocumented dask and distributed name dask_gpunumeric relies on.

The rest of the package calls the small functions below, never those names: a release
that renames one is then fixed here, in one place. ``INTERNALS`` lists each name (where it
lives, what it is called); ``tests/unit/_runtime/test_distributed_internals.py`` checks
that the installed dask and distributed still have every one (a failure names the row
below), and scans the package's source for private dask/distributed names used anywhere
else (what counts as private is written in that test).

"Since": the oldest of the releases whose source was read (2024.1.0, 2025.1.0, 2025.9.0)
that holds the same thing. Every row runs in ``tests/cluster`` on the release the test
extra installs (2026.7.1) and on the newest one (``.ci/run``, step "newest dask and
distributed": 2026.8.0 when this was written).

| name | what we use it for (function here: caller) | since | if it disappears |
|---|---|---|---|
| ``distributed.client._current_client`` (context variable), ``_global_client_index``, ``_global_clients`` | which client ``default_client()`` would return, and the marks that change when that answer can (``client_made_current``, ``default_client_marks``: ``client_lookup``) | 2024.1.0 | ``client_registry_readable()`` is False and ``client_lookup`` asks ``distributed.default_client()`` every time: correct, but that call's sort is back, 20-40% of what a tiny operation adds on a cluster |
| ``Client.futures[key].finish()`` (``FutureState.finish``) | futures of keys registered on the scheduler by ``update_data`` become finished, as ``Client.scatter`` marks its own (``mark_futures_finished``: ``lineage``) | 2024.1.0 | a checkpoint's futures never finish: cut lineage with ``Client.scatter`` of chunks gathered to the client instead (two transfers per chunk, through the client) |
| ``Worker.data``, ``Worker.update_data`` | a worker holds a value it already has under a new key, without a copy or a transfer (``alias_worker_data``: ``lineage``) | 2024.1.0 | as for ``finish``, or ``lineage.checkpoint`` returns its arrays unchanged (lineage kept: the scheduler grows a few task records per iteration) |
| ``Scheduler.update_data(who_has=, nbytes=, client=)`` | those keys become the client's data with no task and no dependency (``register_scattered_data``: ``checkpoint_copies``) | 2024.1.0 | as for ``Worker.update_data`` |
| ``Scheduler.extensions["amm"]``, ``ActiveMemoryManagerExtension.policies``, ``.add_policy``, ``ActiveMemoryManagerPolicy.manager`` | ``CheckpointCopies`` runs in place of ``ReduceReplicas`` and runs it itself (``amm_extension``, ``amm_policies``, ``replace_amm_policy``, ``run_policy_for``: ``checkpoint_copies``) | 2024.1.0 | switch the AMM off for the embedded cluster (``distributed.scheduler.active-memory-manager.start: false``): copies are then never dropped, nor remade after a worker loss |
| ``Scheduler.task_groups``, ``Scheduler.computations`` (``Computation.groups``), ``Scheduler.extensions["spans"].spans`` (``Span.groups``) | drop forgotten task groups from the scheduler's history (``live_task_groups``, ``keep_task_groups_in_history``: ``history``) | 2024.1.0 | make both functions do nothing: the scheduler then grows about 17 MiB per 1,000 stencil iterations (measured, ``history``) |
| ``dask.utils.key_split.cache_clear`` (an ``lru_cache``) | empty the cache of key names (``clear_key_name_cache``: ``history``) | 2024.1.0 | do nothing: each process keeps up to 100,000 key names (about 20 MiB; ``benchmarks/soak.py``) |
| ``SpecCluster._start`` (async method), ``.scheduler``, ``.scheduler_spec`` | the scheduler spec is swapped for ``SchedulerProcess`` between the constructor building it and starting it (``cluster_class_with_scheduler_spec``: ``scheduler_process``) | 2024.1.0 | build the spec ourselves and pass ``scheduler=`` and ``workers=`` to ``SpecCluster`` (what ``LocalCluster.__init__`` computes) |
| ``SpecCluster.worker_spec``, ``.workers``, ``.shutdown_scheduler`` | a cluster whose scheduler is lost forgets its workers so closing it does not ask that scheduler (``forget_cluster_processes``: ``cluster``) | 2025.9.0 (``shutdown_scheduler``; the rest 2024.1.0) | closing such a cluster waits out distributed's connect timeout, then succeeds |
| ``dask.array.backends._numel_arraylike``, ``_nannumel`` | the simulated device's ``numel``/``nannumel`` dispatch, as dask registers CuPy's (``numel_like``, ``nannumel_like``: ``_backends/simulated_device.py``) | 2024.1.0 | copy them here (``_nannumel`` is one line; ``_numel_arraylike`` calls ``_numel``, about 25 lines) |
| ``Client._refcount_lock`` (a ``threading.RLock``), ``_thread.RLock._is_owned`` | whether this thread is inside ``Client.submit``/``map``, which hold that lock while they pickle the arguments: an array pickled there is refused, since computing its value would wait for the loop thread, which waits for the lock (``client_lock_held``: ``cluster``) | 2024.1.0 | ``client_lock_held`` returns False: ``client.submit(f, a)`` hangs again instead of raising at once |
| ``Client.scheduler_comm``, ``Scheduler.stream_comms``, ``Scheduler.client_comms``, ``Worker.batched_stream`` (``BatchedSend`` objects), ``BatchedSend.interval`` | the embedded cluster's messages leave at once instead of waiting up to 10 ms (client), 5 ms (scheduler to worker) and 2 ms (worker, scheduler to client) to be batched (``set_send_interval``, ``scheduler_send_streams``, ``worker_send_stream``, ``client_send_stream``: ``send_interval``) | 2024.1.0 | the streams keep distributed's intervals: a check on the embedded cluster costs a round trip of about 10 ms instead of 3 ms (``benchmarks/suite/check_overhead.py``) |
| ``dask.base.collections_to_expr`` (undocumented: "users should not be required to interact with this function") | the expression ``dask.compute`` sends a scheduler, optimized, with its layers' annotations (owner placement), for a computation that asks for other keys than the collection's (``collections_expression``: ``execution.compute_finishing_here``) | 2025.1.0 | ``compute_finishing_here`` calls ``execution.compute`` (the aggregate task runs on the cluster: one more scheduling leg per check) |
| ``Client.futures[key].status`` (``FutureState.status``), ``dask._task_spec.GraphNode``, its ``dependencies`` and ``__call__(values)``, ``Worker.data`` | a check's partial tasks read persisted keys this client holds finished futures of, and are computed by ``Client.run`` on the workers holding them (``futures_finished``, ``is_task``, ``task_dependencies``, ``run_task``: ``parts_in_place``) | 2024.1.0 (``GraphNode``: the task objects of dask 2024.12 and later, not read in an older release) | ``parts_in_place`` returns ``None``: the partial tasks go through the scheduler (a check costs about twice a bare round trip again) |
| ``Client.rpc`` (its connection pool: ``connect``, ``reuse``), the ``run`` handler of ``Worker`` (a coroutine function is awaited in the worker's event loop), ``Worker.executors["default"]`` (the thread pool its tasks run in: ``worker_thread_pool``) (the message ``Client.run`` has the scheduler's ``broadcast`` forward: ``function``, ``args``, ``kwargs`` pickled by ``distributed.protocol.pickle.dumps``, ``wait``; the reply's ``status`` and ``result``) | a check's partial tasks sent to the workers straight from the client, not through the scheduler, where the client talks to its workers directly (``run_on_workers``: ``parts_in_place``), those reading more than a few MiB run in the worker's thread pool | 2024.1.0 | ``run_on_workers`` fails and ``parts_in_place`` asks through ``Client.run`` every time (one more hop each way: a check on the embedded cluster about 3 ms instead of 2.2-2.9 ms); make ``run_on_workers`` call ``Client.run`` |
| ``Server.handlers`` (a worker's operations by name; a handler whose first parameter is ``comm`` is given the connection and may write and read on it), ``distributed.core.Status.dont_reply`` (a handler's result that sends no reply), ``Worker.data``, ``Client.rpc`` (``connect``, ``reuse``) | a worker lends the addresses of its blocks to a reader on this machine and keeps them until it is done (``add_worker_handler``, ``no_reply``, ``worker_connection``, ``give_back_connection``: ``worker_memory``) | 2024.1.0 | ``worker_memory.read`` returns ``None`` (its plugin fails to register): moves into the client are gathered (8 MB from the embedded cluster: about 7-10 ms instead of 3) |
| ``Worker.rpc`` (its connection pool to other workers: an attribute named after a handler sends that handler a message), ``Worker.update_data``, ``Scheduler.update_data``, ``Server.handlers``, the ``run`` handler (as above) | a computation run by the workers among themselves: each worker's share sent by the client (``run_message``, ``ask_worker``), values pushed worker to worker (``reached``, ``worker_pool``), kept values held and registered as scattered data (``hold_worker_data``, ``register_scattered_data``: ``peer_runs``) | 2024.1.0 | ``peer_runs`` fails at its first run and every computation takes the scheduler's route (``gpunumeric.peer-runs`` is off by default) |
| ``dask._task_spec.convert_legacy_graph``, ``Task`` (``func``, ``args``, ``kwargs``, ``substitute``) | a graph's tasks as dask's task objects, and a dependency-free task computed inside its one consumer as a nested task (``graph_tasks``, ``is_plain_task``, ``with_inlined``: ``_lowering/inline_roots.py``) | 2025.1.0 (the task objects of dask 2024.12 and later) | ``graph_tasks`` returns ``None``: every task stays a task of its own (Monte Carlo pi's random blocks are held between two tasks again) |
| ``dask.array._array_expr._collection.from_graph`` (with ``array.query-planning`` on) | an expression array over a task graph's keys: what dask's own ``persist`` of an expression array returns (``expression_from_graph``: ``dask_arrays.for_user``, ``to_dask()``), and, with ``dask._task_spec.TaskRef`` (a reference to a key) as each block, one standing for a task-graph array without its tasks when a dask.array function is called on expressions (``expression_over_keys``: ``dask_arrays``); ``dask._task_spec.Alias`` (``target``): the result's aliases of those keys, read as the keys themselves (``without_aliases``: ``dask_arrays``) | 2025.1.0 | with query planning on, ``to_dask()`` and the reductions of ``dask_arrays`` raise ``NotImplementedError`` naming this row; with it off nothing changes |
| ``dask.array._array_expr._io.FromGraph`` (subclassed: its ``_parameters``, ``operand``, ``_name``), ``dask._collections.new_collection``, ``Expr.__dask_annotations__`` (with ``array.query-planning`` on) | ``to_dask()`` of an annotated graph keeps its annotations: ``FromGraph`` drops its layers', our subclass gives them to the scheduler per key as dask's ``HLGExpr`` does (``expression_from_graph``: ``dask_arrays.for_user``) | 2026.7.1 (older releases not read) | ``expression_from_graph`` raises ``NotImplementedError`` naming this row for an annotated graph; make it call ``from_graph`` (the annotations of ``to_dask()`` arrays are then lost with query planning on) |
| ``dask.array.Array._meta`` | the chunk type of a dask array, kept when an array is rebuilt over new keys (``meta_of``: ``lineage``; see the note below) | 2024.1.0 | ``dask.array.utils.meta_from_array(array)`` (public; rebuilds an empty meta of the same type) |

``_meta`` is dask's metadata attribute: not in ``dask.array.Array``'s documented attributes,
but what every array library built on dask reads. ``meta_of`` is the one place to read it;
the call sites outside ``_runtime`` not moved to it yet are counted in the test.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, cast

import dask
import dask.base
import dask.core
import dask.utils
import distributed
import distributed.client as client_module
from distributed.active_memory_manager import ActiveMemoryManagerPolicy, Suggestion
from distributed.protocol.pickle import dumps


class Internal(NamedTuple):
    """One name we rely on: ``owner`` (a module, class or mapping, by dotted path) has
    ``name`` (an attribute, a method, an instance attribute its source assigns, or a key)."""

    owner: str
    name: str


INTERNALS = (
    Internal("distributed.client", "_current_client"),
    Internal("distributed.client", "_global_client_index"),
    Internal("distributed.client", "_global_clients"),
    Internal("distributed.Client", "futures"),
    Internal("distributed.client.FutureState", "finish"),
    Internal("distributed.Worker", "data"),
    Internal("distributed.Worker", "update_data"),
    Internal("distributed.Scheduler", "update_data"),
    Internal("distributed.Scheduler", "extensions"),
    Internal("distributed.scheduler.DEFAULT_EXTENSIONS", "amm"),
    Internal("distributed.scheduler.DEFAULT_EXTENSIONS", "spans"),
    Internal("distributed.active_memory_manager.ActiveMemoryManagerExtension", "policies"),
    Internal("distributed.active_memory_manager.ActiveMemoryManagerExtension", "add_policy"),
    Internal("distributed.active_memory_manager.ActiveMemoryManagerPolicy", "manager"),
    Internal("distributed.Scheduler", "task_groups"),
    Internal("distributed.Scheduler", "computations"),
    Internal("distributed.scheduler.Computation", "groups"),
    Internal("distributed.spans.SpansSchedulerExtension", "spans"),
    Internal("distributed.spans.Span", "groups"),
    Internal("dask.utils.key_split", "cache_clear"),
    Internal("distributed.deploy.spec.SpecCluster", "_start"),
    Internal("distributed.deploy.spec.SpecCluster", "scheduler"),
    Internal("distributed.deploy.spec.SpecCluster", "scheduler_spec"),
    Internal("distributed.deploy.spec.SpecCluster", "worker_spec"),
    Internal("distributed.deploy.spec.SpecCluster", "workers"),
    Internal("distributed.deploy.spec.SpecCluster", "shutdown_scheduler"),
    Internal("dask.array.backends", "_numel_arraylike"),
    Internal("dask.array.backends", "_nannumel"),
    Internal("dask.array.Array", "_meta"),
    Internal("distributed.Client", "_refcount_lock"),
    Internal("_thread.RLock", "_is_owned"),
    Internal("distributed.Client", "scheduler_comm"),
    Internal("distributed.Scheduler", "stream_comms"),
    Internal("distributed.Scheduler", "client_comms"),
    Internal("distributed.Worker", "batched_stream"),
    Internal("distributed.batched.BatchedSend", "interval"),
    Internal("dask.base", "collections_to_expr"),
    Internal("distributed.Client", "rpc"),
    Internal("distributed.Worker", "run"),
    Internal("distributed.Worker", "handlers"),
    Internal("distributed.core.Status", "dont_reply"),
    Internal("distributed.client.FutureState", "status"),
    Internal("dask", "_task_spec"),
    Internal("dask._task_spec", "GraphNode"),
    Internal("dask._task_spec.GraphNode", "dependencies"),
    Internal("dask._task_spec.GraphNode", "__call__"),
    Internal("dask._task_spec", "convert_legacy_graph"),
    Internal("dask._task_spec", "Task"),
    Internal("dask._task_spec.Task", "substitute"),
    Internal("dask._task_spec.Task", "func"),
    Internal("dask._task_spec.Task", "args"),
    Internal("dask._task_spec.Task", "kwargs"),
    Internal("dask.array._array_expr._collection", "from_graph"),
    Internal("dask.array._array_expr._io", "FromGraph"),
    Internal("dask.array._array_expr._io.FromGraph", "_parameters"),
    Internal("dask._collections", "new_collection"),
    Internal("dask._task_spec", "TaskRef"),
    Internal("dask._task_spec", "Alias"),
    Internal("dask._task_spec.Alias", "target"),
    Internal("distributed.Worker", "rpc"),
)

# --- the client registry (client_lookup) ---------------------------------------------


@functools.cache
def client_registry_readable() -> bool:
    """Whether distributed's client registry has the names ``client_made_current`` and
    ``default_client_marks`` read (asked once, at the first lookup, never at import)."""
    return all(
        hasattr(client_module, name)
        for name in ("_current_client", "_global_client_index", "_global_clients")
    )


def client_made_current() -> distributed.Client | None:
    """The client of the innermost ``Client.as_current()`` block (a task's own client
    inside ``get_client``), which ``default_client()`` returns first; else ``None``."""
    return client_module._current_client.get()


def default_client_marks() -> tuple[int, int]:
    """(clients ever set as default, clients in the registry now): while both stay the
    same and no client is made current, ``default_client()`` keeps its answer."""
    return client_module._global_client_index[0], len(client_module._global_clients)


def client_lock_held(client: distributed.Client) -> bool:
    """Whether this thread holds ``client``'s reference-count lock (``submit``, ``map``
    and ``compute`` hold it while they build and pickle a graph)."""
    lock = getattr(client, "_refcount_lock", None)
    is_owned = getattr(lock, "_is_owned", None)
    return bool(is_owned()) if is_owned is not None else False


# --- futures, worker data, scheduler data (lineage, checkpoint_copies) -----------------


def mark_futures_finished(
    client: distributed.Client, futures: Iterable[distributed.Future]
) -> None:
    """``futures`` of keys already in memory on the cluster (registered with
    :func:`register_scattered_data`) are finished, as ``Client.scatter`` marks its own."""
    for future in futures:
        client.futures[future.key].finish()


def run_on_workers(
    client: distributed.Client,
    workers: Iterable[str],
    function: Callable[..., Any],
    *args: Any,
    timeout: float,
) -> dict[str, Any]:
    """``client.run(function, *args, workers=workers)``, each worker's request sent to it
    by the client itself (the ``run`` message the scheduler's ``broadcast`` would forward):
    one hop each way instead of two. Raises where a worker cannot be reached within
    ``timeout`` seconds (``TimeoutError``: a worker gone, whose address distributed would
    try to connect to until its connect timeout) or a ``function`` raised
    (``RuntimeError`` with the worker's message): the caller takes another route. A
    reached worker's reply is waited for as long as ``function`` runs there."""
    message = run_message(function, *args)
    addresses = list(workers)

    async def replies() -> list[Any]:
        return list(
            await asyncio.gather(*(ask_worker(client, a, message, timeout) for a in addresses))
        )

    return dict(zip(addresses, client.sync(replies), strict=True))


def run_message(function: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """The ``run`` message asking a worker for ``function(*args)`` (``ask_worker``)."""
    return {"function": dumps(function), "args": dumps(args), "kwargs": dumps({}), "wait": True}


async def ask_worker(
    client: distributed.Client, address: str, message: dict[str, Any], timeout: float
) -> Any:
    """The result of the ``run`` ``message`` (``run_message``) sent to the worker at
    ``address`` by the client itself; ``TimeoutError`` where it is not reached within
    ``timeout`` seconds, ``RuntimeError`` (with the worker's message) where the function
    raised there."""
    reply = await (await reached(client.rpc, address, timeout)).run(**message)
    if reply.get("status") != "OK":
        text = reply.get("exception_text", reply)
        raise RuntimeError(f"running a function on {address} failed: {text}")
    return reply["result"]


async def reached(pool: Any, address: str, timeout: float) -> Any:
    """``pool(address)``: the pooled connection of ``pool`` (``Client.rpc``,
    ``Worker.rpc``) to the server at ``address``, whose attributes send it a message
    whose ``op`` is their name, once a connection is made within ``timeout`` seconds
    (``TimeoutError`` otherwise; the message itself then takes as long as it takes)."""
    # Reached first (the connection goes back to the pool, where the request takes it).
    comm = await asyncio.wait_for(pool.connect(address), timeout)
    pool.reuse(address, comm)
    return pool(address)


def worker_pool(worker: Any) -> Any:
    """``worker``'s pool of connections to other servers (``Worker.rpc``)."""
    return worker.rpc


def add_worker_handler(worker: Any, name: str, handler: Callable[..., Any]) -> None:
    """``worker`` answers messages whose ``op`` is ``name`` with ``handler`` (given the
    connection first where its first parameter is ``comm``)."""
    worker.handlers[name] = handler


async def worker_connection(client: distributed.Client, address: str) -> Any:
    """A connection to the worker at ``address`` from ``client``'s pool (made if none is
    free): its own, to write and read messages on, until ``give_back_connection``."""
    return await client.rpc.connect(address)


def give_back_connection(client: distributed.Client, address: str, comm: Any) -> None:
    """``comm`` (from ``worker_connection``, no message left unread on it) back to
    ``client``'s pool."""
    client.rpc.reuse(address, comm)


def no_reply() -> Any:
    """What a worker's handler returns to send no reply (it wrote its own on the
    connection)."""
    return distributed.core.Status.dont_reply


def worker_thread_pool(worker: Any) -> Any:
    """The executor ``worker`` runs its tasks in (``Worker.executors["default"]``)."""
    return worker.executors["default"]


def futures_finished(client: distributed.Client, keys: Iterable[Any]) -> bool:
    """Whether ``client`` holds a finished future of every key of ``keys``."""
    futures = client.futures
    return all(key in futures and futures[key].status == "finished" for key in keys)


def is_task(value: Any) -> bool:
    """Whether a value of a dask graph is one of dask's task objects (``GraphNode``; never
    where dask has none: then no part is computed in place)."""
    graph_node = _task_spec("GraphNode")
    return graph_node is not None and isinstance(value, graph_node)


@functools.cache
def _task_spec(name: str) -> Any:
    """``dask._task_spec.<name>`` (dask's task objects), ``None`` in a dask without them
    (older than 2024.12): looked up at the first call that needs it, never at import."""
    try:
        module = importlib.import_module("dask._task_spec")
    except ImportError:  # pragma: no cover
        return None
    return getattr(module, name, None)


def run_task(task: Any, values: dict[Any, Any]) -> Any:
    """A task's value given ``values`` holding those of the keys it reads."""
    return task(values)


def task_dependencies(task: Any) -> frozenset[Any]:
    """The keys a task of a dask graph reads (``get_dependencies`` gives only those in
    the graph it is given: a persisted key is not)."""
    return frozenset(task.dependencies)


def graph_tasks(graph: Any, keys: Any = None) -> dict[Any, Any] | None:
    """The tasks of a (materialized) dask graph as dask's task objects, legacy tuples
    converted (``keys``: every key they may read, where some are not in ``graph``);
    ``None`` where dask has no such objects."""
    convert = _task_spec("convert_legacy_graph")
    return None if convert is None else dict(convert(dict(graph), keys))


def without_aliases(tasks: dict[Any, Any], keep: set[Any]) -> dict[Any, Any]:
    """``tasks`` (dask's task objects) without their aliases of other keys (``Alias``; those
    in ``keep`` kept), each task that read one reading the key it stood for."""
    alias = _task_spec("Alias")
    targets = {
        key: task.target
        for key, task in tasks.items()
        if type(task) is alias and key not in keep and task.target != key
    }
    if not targets:
        return tasks
    renames = {}
    for key, target in targets.items():
        while target in targets:
            target = targets[target]
        renames[key] = target
    return {
        key: task.substitute(renames) if task.dependencies & renames.keys() else task
        for key, task in tasks.items()
        if key not in renames
    }


def is_plain_task(value: Any) -> bool:
    """Whether a graph's value is a plain call (``Task``: not data, an alias or a
    subclass of its own)."""
    task = _task_spec("Task")
    return task is not None and type(value) is task


def with_inlined(task: Any, inner: dict[Any, Any]) -> Any:
    """``task`` with each key of ``inner`` it reads replaced by that key's own plain task,
    run inside it (nested: computed when ``task`` runs, never held on its own)."""
    nested = {
        key: type(value)(None, value.func, *value.args, **value.kwargs)
        for key, value in inner.items()
    }
    return task.substitute(nested)


def alias_worker_data(worker: Any, renames: dict[Any, Any]) -> dict[Any, int]:
    """On ``worker``: each value held under an old key of ``renames`` also held under the
    new key (the same object, no copy); the new keys' sizes in bytes."""
    return hold_worker_data(worker, {new: worker.data[old] for old, new in renames.items()})


def hold_worker_data(worker: Any, data: dict[Any, Any]) -> dict[Any, int]:
    """On ``worker``: ``data``'s values held under their keys, in its memory (the scheduler
    told of none: ``register_scattered_data``); their sizes in bytes."""
    return dict(worker.update_data(data=data)["nbytes"])


def register_scattered_data(
    scheduler: Any, who_has: dict[Any, list[str]], nbytes: dict[Any, int], client: str
) -> None:
    """On the scheduler: ``who_has``' keys, already held by the workers listed, become data
    of the client with id ``client``, with no task and no dependency (``Client.scatter``'s
    registration)."""
    scheduler.update_data(who_has=who_has, nbytes=nbytes, client=client)


# --- the active memory manager (checkpoint_copies) -------------------------------------


def amm_extension(scheduler: Any) -> Any:
    """The scheduler's active memory manager, ``None`` where it has none."""
    return scheduler.extensions.get("amm")


def amm_policies(manager: Any) -> tuple[ActiveMemoryManagerPolicy, ...]:
    """The policies ``manager`` runs."""
    return tuple(manager.policies)


def replace_amm_policy(
    manager: Any, old: ActiveMemoryManagerPolicy | None, new: ActiveMemoryManagerPolicy
) -> None:
    """``manager`` runs ``new`` instead of ``old`` (``None``: in addition to the others)."""
    if old is not None:
        manager.policies.discard(old)
    manager.add_policy(new)


def run_policy_for(policy: ActiveMemoryManagerPolicy, manager: Any) -> Iterator[Suggestion]:
    """The suggestions of ``policy`` (not registered with ``manager``) run as if it were:
    a policy reads the scheduler through its ``manager``."""
    policy.manager = manager
    return iter(policy.run())


# --- the scheduler's history (history) -------------------------------------------------


def live_task_groups(scheduler: Any) -> set[Any]:
    """The task groups the scheduler still has tasks of."""
    return set(scheduler.task_groups.values())


def keep_task_groups_in_history(scheduler: Any, live: set[Any]) -> None:
    """Only ``live`` task groups stay in the scheduler's recent computations and spans.
    The spans themselves stay: workers report metrics by span id."""
    for computation in scheduler.computations:
        computation.groups = {g for g in computation.groups if g in live}
    spans = scheduler.extensions.get("spans")
    for span in [] if spans is None else spans.spans.values():
        span.groups = {g for g in span.groups if g in live}


def clear_key_name_cache() -> None:
    """Empty ``dask.utils.key_split``'s cache of key names, in this process."""
    dask.utils.key_split.cache_clear()


# --- SpecCluster (scheduler_process, cluster) ------------------------------------------


def cluster_class_with_scheduler_spec(
    cluster_class: type,
    respec: Callable[[Any, dict[str, Any]], dict[str, Any]],
    attributes: dict[str, Any],
) -> type:
    """``cluster_class`` (a ``SpecCluster``) with ``attributes``, whose instances replace
    the scheduler spec their constructor built (``{"cls": ..., "options": {...}}``) by
    ``respec(cluster, spec)`` before starting it: ``SpecCluster._start`` is the one hook
    between building the spec and starting it, both in the constructor."""

    async def _start(self: Any) -> None:
        if self.scheduler is None:  # as SpecCluster: a subclass may have made it already
            self.scheduler_spec = respec(self, self.scheduler_spec)
        await cluster_class._start(self)  # type: ignore[attr-defined]

    return type(cluster_class.__name__, (cluster_class,), {**attributes, "_start": _start})


def forget_cluster_processes(cluster: Any) -> None:
    """``cluster`` (a ``SpecCluster`` whose scheduler is lost, workers already stopped)
    forgets its workers and its scheduler, so closing it asks nobody."""
    cluster.worker_spec.clear()
    cluster.workers.clear()
    cluster.shutdown_scheduler = False


# --- batched sends (send_interval) ------------------------------------------------------


def client_send_stream(client: distributed.Client) -> Any:
    """The batched stream ``client`` sends the scheduler its graphs and releases on."""
    return client.scheduler_comm


def scheduler_send_streams(scheduler: Any) -> list[Any]:
    """The scheduler's batched streams to its workers and to its clients."""
    return [*scheduler.stream_comms.values(), *scheduler.client_comms.values()]


def worker_send_stream(worker: Any) -> Any:
    """The batched stream ``worker`` reports to the scheduler on."""
    return worker.batched_stream


def set_send_interval(stream: Any, seconds: float) -> None:
    """``stream`` (a ``BatchedSend``) waits at most ``seconds`` after a send before the
    next (0: a message leaves as soon as the previous write is done)."""
    if stream is not None and hasattr(stream, "interval"):
        stream.interval = seconds


# --- dask's expressions (execution) ----------------------------------------------------


def collections_expression(collection: Any) -> Any:
    """The expression ``dask.compute`` would send a scheduler for ``collection``: its
    graph optimized, its layers' annotations kept (``__dask_annotations__``)."""
    return dask.base.collections_to_expr([collection])


# --- dask.array (lowering, backends) ---------------------------------------------------

# Functions that look dask's own up when they run, never at import (``dask.array``'s
# attributes differ with ``array.query-planning``: its ``backends`` is then a function,
# not the module). Module-level functions: they travel to workers pickled by reference.


def numel_like(*args: Any, **kwargs: Any) -> Any:
    """``dask.array.backends._numel_arraylike``: ``numel`` of an array-like chunk type."""
    return _dask_array_private("backends", "_numel_arraylike")(*args, **kwargs)


def nannumel_like(*args: Any, **kwargs: Any) -> Any:
    """``dask.array.backends._nannumel``: ``nannumel`` of an array-like chunk type."""
    return _dask_array_private("backends", "_nannumel")(*args, **kwargs)


@functools.cache
def _dask_array_private(module: str, name: str) -> Callable[..., Any]:
    """``dask.array.<module>.<name>``, its module taken from ``sys.modules`` by name; a
    release without it raises here, naming it, at the first call that needs it."""
    owner = importlib.import_module(f"dask.array.{module}")
    found = getattr(owner, name, None)
    if found is None:
        raise NotImplementedError(
            f"dask {dask.__version__} has no dask.array.{module}.{name}: "
            "dask_gpunumeric's _runtime/distributed_internals.py needs a port for it"
        )
    return cast("Callable[..., Any]", found)


def expression_from_graph(array: Any) -> Any:
    """A task-graph dask array as an expression array over its whole graph (its blocks'
    keys renamed by dask, each an alias of the block it stands for). Its layers'
    annotations (``dask.annotate``, owner placement) go with it: dask's ``FromGraph`` drops
    them, so an annotated graph becomes a ``FromGraph`` that gives them to the scheduler as
    dask's ``HLGExpr`` does (``__dask_annotations__``), its aliases annotated as the block
    each stands for."""
    graph = array.__dask_graph__()
    arguments = (dict(graph), array._meta, array.chunks, _block_keys(array), _prefix(array))
    annotations = _annotations_by_key(graph)
    if not annotations:
        return _from_graph()(*arguments)
    from dask._collections import new_collection

    return new_collection(_annotated_from_graph()(*arguments, annotations))


def _annotations_by_key(graph: Any) -> dict[str, dict[Any, Any]]:
    """``{annotation: {key: value}}`` of a ``HighLevelGraph``'s annotated layers."""
    found: dict[str, dict[Any, Any]] = {}
    for layer in getattr(graph, "layers", {}).values():
        for kind, value in (layer.annotations or {}).items():
            found.setdefault(kind, {}).update(
                {key: value(key) if callable(value) else value for key in layer}
            )
    return found


@functools.cache
def _annotated_from_graph() -> type:
    try:
        base: Any = importlib.import_module("dask.array._array_expr._io").FromGraph
    except (ImportError, AttributeError) as error:
        raise NotImplementedError(
            f"dask {dask.__version__} has no dask.array._array_expr._io.FromGraph: "
            "dask_gpunumeric cannot hand over annotated expression arrays "
            "(array.query-planning)"
        ) from error

    class AnnotatedFromGraph(base):  # type: ignore[misc, valid-type]
        _parameters = [*base._parameters, "annotations"]

        def __dask_annotations__(self) -> dict[str, dict[Any, Any]]:
            by_key = self.operand("annotations")
            aliases = {(self._name, *key[1:]): key for key in self.operand("keys")}
            return {
                kind: {**values, **{a: values[k] for a, k in aliases.items() if k in values}}
                for kind, values in by_key.items()
            }

    # Found by pickle and dask's tokenizer as this module's attribute (``__getattr__``):
    # the scheduler unpickles the expression it is sent.
    AnnotatedFromGraph.__qualname__ = "AnnotatedFromGraph"
    AnnotatedFromGraph.__module__ = __name__
    return AnnotatedFromGraph


def __getattr__(name: str) -> Any:
    if name == "AnnotatedFromGraph":
        return _annotated_from_graph()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def expression_over_keys(array: Any) -> Any:
    """An expression array standing for the blocks of a task-graph dask array: each of its
    blocks a reference to one of ``array``'s keys (``TaskRef``), none of ``array``'s tasks in
    its graph (whoever reads the result's tasks supplies them)."""
    keys = _block_keys(array)
    references = {key: _task_spec("TaskRef")(key) for key in keys}
    return _from_graph()(references, array._meta, array.chunks, keys, _prefix(array))


def _from_graph() -> Callable[..., Any]:
    try:
        module = importlib.import_module("dask.array._array_expr._collection")
        return cast("Callable[..., Any]", module.from_graph)
    except (ImportError, AttributeError) as error:
        raise NotImplementedError(
            f"dask {dask.__version__} has no dask.array._array_expr._collection.from_graph: "
            "dask_gpunumeric cannot hand over expression arrays (array.query-planning)"
        ) from error


def _block_keys(array: Any) -> list[Any]:
    return list(dask.core.flatten(array.__dask_keys__()))


def _prefix(array: Any) -> str:
    return str(dask.utils.key_split(array.name))


def meta_of(array: Any) -> Any:
    """The empty chunk-typed array dask keeps as ``array``'s metadata (a dask array)."""
    return array._meta
