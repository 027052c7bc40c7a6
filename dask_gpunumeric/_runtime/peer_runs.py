"""A computation run by the workers among themselves: no task for the scheduler.

Through the scheduler every task of a computation costs it about a millisecond of CPU
(``docs/scaling.md``): a stencil's iterations are a task per block and a ghost-slab task
per pair of neighbouring blocks, so at 1,024 workers the scheduler alone would take
seconds per iteration. Here the client plans the whole computation once, as owner
placement would place it (``placement.py``: each task on the owner of its block, a task
without one with the first task it reads), and sends each worker its share in one
message, straight (the client must reach its workers: ``reaches_workers_directly``). Each
worker runs its share's tasks in its thread pool as their inputs arrive, and pushes each
value another worker's task reads (a ghost slab, a partial result) to that worker
itself, worker to worker. Nothing goes through the scheduler while it runs.

- ``computed``: the values of some keys, sent back in the workers' replies (the partial
  results of a check, ``execution.compute_finishing_here``);
- ``persisted``: futures of the computation's keys, held by the workers that computed
  them (each holds its values in its memory when its share is done), registered with
  the scheduler as scattered data once every worker is done (``Client.scatter``'s
  registration): no task, no lineage. A worker lost later loses its blocks (the next
  computation that reads them raises), as a checkpoint's key whose two copies are lost.
  The next run reading them asks no one where they are (``_Registered.holders``).

Taken only when ``gpunumeric.peer-runs`` is on, no layer is placed by a user
(``dask.annotate``: resources, workers, retries), every input is a finished future of
this client, and every worker the plan names is one the client lists. Where anything
fails (a task raises, a worker is lost or not reached), every worker of the run is told
to drop it, values already held are released (through the scheduler, as any data of
the client), and the caller takes the scheduler's route, which computes it again or
raises what the tasks raise.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import distributed
from dask.sizeof import sizeof
from distributed.protocol import to_serialize

from . import config, placement
from . import distributed_internals as internals
from .nearby_workers import reaches_workers_directly
from .parts_in_place import IN_LOOP_BYTES

logger = logging.getLogger(__name__)

VALUE = "gpunumeric_peer_value"
DROP = "gpunumeric_peer_drop"
# Seconds to reach a worker before the run is given up (a worker gone since the client
# last listed its workers).
REACH = 5.0
# Seconds the other workers of a failed run get to answer before the caller moves on.
SETTLE = 10.0


class PeerValues(distributed.WorkerPlugin):
    """Adds the handlers of a run's values and of its drop to a worker
    (``Client.register_plugin``: every worker, and each that joins later)."""

    name = "gpunumeric-peer-values"

    def setup(self, worker: distributed.Worker) -> None:
        handlers = _Handlers(worker.address)
        internals.add_worker_handler(worker, VALUE, handlers.value)
        internals.add_worker_handler(worker, DROP, handlers.drop)


class _Handlers:
    """One worker's handlers (bound methods: distributed logs a handler's name)."""

    def __init__(self, address: str) -> None:
        self.address = address

    def value(self, run: str, key: Any, value: Any) -> None:
        _received(self.address, run, key, value)

    def drop(self, run: str) -> None:
        _dropped(self.address, run)


class _Registered:
    """The schedulers whose workers have ``PeerValues``; the requests this process sent
    workers for runs (``requests_sent``)."""

    schedulers: set[str] = set()
    requests = 0
    # per scheduler: where the values kept by this process's runs are held, by key (the
    # next run's inputs: no ``who_has`` asked); a run that fails forgets them
    holders: dict[str, dict[Any, str]] = {}


def requests_sent() -> int:
    """How many requests this process has sent workers for runs so far, each a share of
    a run (``run_share``): the client's messages that stand for the scheduler's tasks
    (``benchmarks/weak_scaling.py`` counts them)."""
    return _Registered.requests


# --- the client's side ----------------------------------------------------------------


class _Plan:
    """Each worker's share of a computation: its tasks (in an order that runs each after
    those it reads), the inputs it reads from its memory, and where its values go."""

    def __init__(self, run: str) -> None:
        self.run = run
        self.shares: dict[str, dict[str, Any]] = {}

    def share(self, address: str) -> dict[str, Any]:
        if address not in self.shares:
            self.shares[address] = {
                "run": self.run,
                "tasks": {},
                "inputs": [],
                "sends": collections.defaultdict(list),
                "returns": [],
                "keeps": [],
            }
        return self.shares[address]


def computed(
    client: distributed.Client, graph: Any, keys: list[Any], layers: Iterable[Any]
) -> list[Any] | None:
    """The values of ``keys`` of ``graph`` (a dask graph as built, of ``layers``: their
    annotations), computed by the workers among themselves; ``None`` where the route is
    not taken or failed (see the module docstring)."""
    plan = _planned(client, graph, keys, layers, keep=False)
    if plan is None:
        return None
    replies = _ran(client, plan)
    if replies is None:
        return None
    found: dict[Any, Any] = {}
    for reply in replies.values():
        found.update(reply["values"])
    return [found[key] for key in keys]


def persisted(
    client: distributed.Client, graph: Any, keys: list[Any], layers: Iterable[Any]
) -> dict[Any, distributed.Future] | None:
    """Futures of ``keys`` of ``graph`` (as ``computed``), their values held by the
    workers that computed them and registered with the scheduler as scattered data;
    ``None`` where the route is not taken or failed."""
    plan = _planned(client, graph, keys, layers, keep=True)
    replies = None if plan is None else _ran(client, plan)
    if replies is None:
        return None
    try:
        futures = _registered_futures(client, {a: reply["held"] for a, reply in replies.items()})
    except Exception:  # noqa: BLE001 - the scheduler's route
        logger.debug("a peer run's values not registered", exc_info=True)
        return None
    if any(key not in futures for key in keys):  # a worker gone since it replied
        return None  # those registered are released as ``futures`` goes
    address = client.scheduler.address
    known = _Registered.holders.get(address, {})
    _Registered.holders[address] = {
        **{key: a for key, a in known.items() if key in client.futures},
        **{key: a for a, reply in replies.items() for key in reply["held"]},
    }
    return futures


def _registered_futures(
    client: distributed.Client, held: dict[str, dict[Any, int]]
) -> dict[Any, distributed.Future]:
    """Futures of the values ``held`` by each worker (its keys and their sizes), made
    data of ``client`` on the scheduler (no task, no lineage); none of those of a worker
    the scheduler no longer lists (removed since it replied)."""
    who_has = {key: [address] for address, sizes in held.items() for key in sizes}
    nbytes = {key: size for sizes in held.values() for key, size in sizes.items()}
    done = client.run_on_scheduler(_register, who_has=who_has, nbytes=nbytes, client=client.id)
    futures: dict[Any, distributed.Future] = {k: distributed.Future(k, client) for k in done}
    internals.mark_futures_finished(client, futures.values())
    return futures


def wanted() -> bool:
    """Whether ``gpunumeric.peer-runs`` is on."""
    return bool(config.get("peer-runs"))


def _planned(
    client: distributed.Client, graph: Any, keys: list[Any], layers: Iterable[Any], keep: bool
) -> _Plan | None:
    """The plan of ``keys``' computation, or ``None`` where the route is not taken (or
    planning failed: a scheduler's answer missing, a graph dask cannot convert)."""
    if not wanted() or client.asynchronous:
        return None
    if keep and any(key in client.futures for key in keys):
        return None  # computed or being computed already: the scheduler's to reuse
    try:
        return _plan(client, graph, keys, layers, keep)
    except Exception:  # noqa: BLE001 - the scheduler's route computes (or raises) it
        logger.debug("a peer run not planned; through the scheduler", exc_info=True)
        return None


def _plan(
    client: distributed.Client, graph: Any, keys: list[Any], layers: Iterable[Any], keep: bool
) -> _Plan | None:
    """``_planned``'s plan, or ``None``; may raise."""
    if not reaches_workers_directly(client) or not _registered(client):
        return None
    owners: dict[Any, list[str]] = {}
    for layer in layers:
        table = placement.owner_table(getattr(layer, "annotations", None))
        if table is None:  # a user's placement, retries, resources: the scheduler's
            return None
        owners.update(table)
    tasks, inputs = _needed(graph, keys)
    if tasks is None or not tasks:
        return None
    if inputs and not internals.futures_finished(client, inputs):
        return None
    workers = placement.workers_of(client)
    if not workers:
        return None
    known = _Registered.holders.get(client.scheduler.address, {})
    holders = {key: known[key] for key in inputs if known.get(key) in workers}
    if len(holders) < len(inputs):  # not all held where a run of ours left them
        asked = client.who_has(list(inputs.values()))
        holders = {key: where[0] for key, where in asked.items() if where}
    if len(holders) < len(inputs) or not set(holders.values()) <= set(workers):
        return None
    where = _assigned(tasks, owners, holders, workers)
    if where is None:
        return None
    plan = _Plan(uuid.uuid4().hex)
    for key, address in holders.items():
        plan.share(address)["inputs"].append(key)
    for key, task in tasks.items():
        share = plan.share(where[key])
        share["tasks"][key] = task
        for dependency in internals.task_dependencies(task):
            source = where[dependency]
            sends = plan.share(source)["sends"][dependency]
            if source != where[key] and where[key] not in sends:
                sends.append(where[key])
    for key in keys:
        plan.share(where[key])["keeps" if keep else "returns"].append(key)
    for share in plan.shares.values():
        share["sends"] = dict(share["sends"])
        share["workers"] = list(plan.shares)
    return plan


def _needed(
    graph: Any, keys: list[Any]
) -> tuple[dict[Any, Any] | None, dict[Any, distributed.Future]]:
    """The tasks of ``graph`` that ``keys`` need, as dask's task objects, in an order that
    puts each after those it reads, and the persisted keys they read (the futures in the
    graph, by key); ``(None, ...)`` where the graph has other kinds of values."""
    built = dict(graph)
    futures = {
        key: value
        for key, value in built.items()
        if isinstance(value, distributed.Future) and value.key == key
    }
    inputs = futures.keys()
    if any(isinstance(v, distributed.Future) for k, v in built.items() if k not in inputs):
        return None, futures
    converted = internals.graph_tasks({k: v for k, v in built.items() if k not in inputs}, built)
    if converted is None:
        return None, futures
    order: dict[Any, Any] = {}
    read: set[Any] = set()
    stack: list[tuple[Any, bool]] = [(key, False) for key in reversed(keys)]
    while stack:
        key, ready = stack.pop()
        if key in order or key in read:
            continue
        if key in inputs:
            read.add(key)
            continue
        task = converted.get(key)
        if task is None:
            return None, futures
        if ready:
            order[key] = task
            continue
        stack.append((key, True))
        stack.extend(
            (d, False)
            for d in internals.task_dependencies(task)
            if d not in order and d not in read
        )
    return order, {key: futures[key] for key in read}


def _assigned(
    tasks: Mapping[Any, Any],
    owners: Mapping[Any, list[str]],
    holders: Mapping[Any, str],
    workers: tuple[str, ...],
) -> dict[Any, str] | None:
    """The worker of every task and input: an input's holder, a task's owner (placement),
    else the worker of the first task or input it reads, else that of the first task that
    reads it, else the first worker; ``None`` where an owner is not among ``workers``."""
    where: dict[Any, str] = dict(holders)
    listed = set(workers)
    for key, task in tasks.items():
        owner = owners.get(key)
        if owner:
            if owner[0] not in listed:
                return None
            where[key] = owner[0]
            continue
        read = [d for d in sorted(internals.task_dependencies(task), key=str) if d in where]
        if read:
            where[key] = where[read[0]]
    readers: dict[Any, str] = {}
    for key, task in reversed(list(tasks.items())):  # readers before what they read
        if key not in where:
            where[key] = readers.get(key, workers[0])
        for dependency in internals.task_dependencies(task):
            readers.setdefault(dependency, where[key])
    return where


def _ran(client: distributed.Client, plan: _Plan) -> dict[str, dict[str, Any]] | None:
    """Each worker's reply (``run_share``), once every worker has run its share of
    ``plan``; ``None`` where one failed or was not reached: then every worker is told to
    drop the run, and values some already held are released."""
    messages = {
        address: internals.run_message(run_share, share) for address, share in plan.shares.items()
    }
    _Registered.requests += len(messages)

    async def run() -> tuple[dict[str, Any] | None, dict[str, Any]]:
        asks = {
            address: asyncio.ensure_future(internals.ask_worker(client, address, message, REACH))
            for address, message in messages.items()
        }
        done, pending = await asyncio.wait(asks.values(), return_when=asyncio.FIRST_EXCEPTION)
        if all(ask.exception() is None for ask in done):
            return {address: ask.result() for address, ask in asks.items()}, {}
        logger.debug("a peer run failed; through the scheduler", exc_info=_failure(done))
        # every worker but those that answered (one whose ask failed may be running yet)
        answered = [a for a, ask in asks.items() if ask.done() and ask.exception() is None]
        await _drop(client, plan.run, [a for a in asks if a not in answered])
        if pending:
            await asyncio.wait(pending, timeout=SETTLE)
        for ask in pending:
            ask.cancel()
        ended = [(a, ask) for a, ask in asks.items() if ask.done() and not ask.cancelled()]
        return None, {a: ask.result() for a, ask in ended if ask.exception() is None}

    try:
        replies, stranded = client.sync(run)
    except Exception:  # noqa: BLE001 - the scheduler's route computes (or raises) it
        logger.debug("a peer run failed; through the scheduler", exc_info=True)
        return None
    if replies is None:
        _Registered.holders.pop(client.scheduler.address, None)  # one may have moved
    held = {a: reply["held"] for a, reply in stranded.items() if reply["held"]}
    if held:  # by workers that finished: released (registered, then their futures go)
        try:
            _registered_futures(client, held)
        except Exception:  # noqa: BLE001 - a worker gone: its values with it
            logger.debug("a failed peer run's values not released", exc_info=True)
    return replies


def _failure(done: set[asyncio.Task[Any]]) -> BaseException | None:
    return next((ask.exception() for ask in done if ask.exception() is not None), None)


async def _drop(client: distributed.Client, run: str, workers: Iterable[str]) -> None:
    """Tell ``workers`` to drop ``run`` (their waits end, their values go)."""

    async def tell(address: str) -> None:
        try:
            peer = await internals.reached(client.rpc, address, REACH)
            await getattr(peer, DROP)(run=run)
        except Exception:  # noqa: BLE001 - a worker gone has nothing left to drop
            pass

    await asyncio.gather(*(tell(address) for address in workers))


def _registered(client: distributed.Client) -> bool:
    """Whether ``client``'s workers have ``PeerValues`` (registered the first time)."""
    address = client.scheduler.address
    if address not in _Registered.schedulers:
        try:
            client.register_plugin(PeerValues(), name=PeerValues.name)
        except Exception:  # noqa: BLE001 - plugins refused: the scheduler's route
            return False
        _Registered.schedulers.add(address)
    return True


def _register(
    who_has: dict[Any, list[str]], nbytes: dict[Any, int], client: str, dask_scheduler: Any = None
) -> list[Any]:
    """On the scheduler (``client.run_on_scheduler``): a run's kept values, held by the
    workers listed, become data of ``client``, but for those of a worker this scheduler
    no longer lists (``update_data`` would leave such a key in memory with no holder, and
    a computation reading it would wait for ever); the keys registered."""
    known = {k: w for k, w in who_has.items() if all(a in dask_scheduler.workers for a in w)}
    internals.register_scattered_data(dask_scheduler, known, nbytes, client)
    return list(known)


# --- a worker's side --------------------------------------------------------------------


class _DroppedError(Exception):
    """The run was dropped (a task failed on some worker, or a worker was lost)."""


class _Run:
    """A worker's values of one run that other workers sent it, as they arrive."""

    def __init__(self) -> None:
        self.values: dict[Any, asyncio.Future[Any]] = {}
        self.dropped = False

    def slot(self, key: Any) -> asyncio.Future[Any]:
        if key not in self.values:
            self.values[key] = asyncio.get_running_loop().create_future()
            if self.dropped:
                self.values[key].set_exception(_DroppedError())
        return self.values[key]

    def drop(self) -> None:
        self.dropped = True
        for value in self.values.values():
            if not value.done():
                value.set_exception(_DroppedError())
                value.exception()  # retrieved: no one may wait for it any more


class _Runs:
    """Per worker (address) and run: the values received. A run ended (done, dropped) is
    remembered for a while, so a value sent to it late is not kept."""

    open: dict[tuple[str, str], _Run] = {}
    ended: dict[tuple[str, str], None] = {}  # the last ENDED, in the order they ended
    telling: set[asyncio.Task[None]] = set()  # drops told in the background
    # (address, time.time(), bytes) of each value received from another worker
    received: collections.deque[tuple[str, float, int]] = collections.deque(maxlen=100_000)


def received_since(address: str, since: float) -> int:
    """Bytes the worker at ``address`` (in this process) received from other workers for
    runs since ``since`` (a ``time.time()``; the last 100,000 values at most)."""
    return sum(size for at, when, size in _Runs.received if at == address and when >= since)


ENDED = 65_536


def _run_of(address: str, run: str) -> _Run | None:
    if (address, run) in _Runs.ended:
        return None
    return _Runs.open.setdefault((address, run), _Run())


def _ended(address: str, run: str) -> None:
    _Runs.ended[(address, run)] = None
    if len(_Runs.ended) > ENDED:
        del _Runs.ended[next(iter(_Runs.ended))]


def _received(address: str, run: str, key: Any, value: Any) -> None:
    """A worker's handler: ``value`` of ``key`` for ``run``, sent by another worker."""
    _Runs.received.append((address, time.time(), sizeof(value)))
    current = _run_of(address, run)
    if current is not None:
        slot = current.slot(key)
        if not slot.done():
            slot.set_result(value)


def _dropped(address: str, run: str) -> None:
    """A worker's handler: drop ``run`` (its waits raise, its values go)."""
    current = _Runs.open.pop((address, run), None)
    _ended(address, run)
    if current is not None:
        current.drop()


async def run_share(share: dict[str, Any], dask_worker: Any = None) -> dict[Any, Any]:
    """On a worker (``run`` message): its ``share`` of a run (``_Plan``), each task run
    once what it reads is here (in the event loop when it reads at most
    ``IN_LOOP_BYTES``, else in the thread pool), each value other workers read sent to
    them; the values of ``returns`` (sent back), those of ``keeps`` held in its memory
    (their sizes sent back: the scheduler learns of them from the client).
    Where anything fails every worker of the run is told to drop it, and it raises."""
    address, run = dask_worker.address, share["run"]
    current = _run_of(address, run)
    if current is None:
        raise _DroppedError(run)
    try:
        values = await _values(share, dask_worker, current)
    except BaseException as error:
        _dropped(address, run)
        if not isinstance(error, _DroppedError):  # the others wait on this one: tell them
            for peer in share["workers"]:
                if peer != address:
                    _in_background(_tell(dask_worker, peer, DROP, run=run))
        raise
    if current.dropped:  # told to drop meanwhile: the client will not register these
        raise _DroppedError(run)
    _Runs.open.pop((address, run), None)
    _ended(address, run)
    kept = {key: values[key] for key in share["keeps"]}
    return {
        "values": {key: values[key] for key in share["returns"]},
        "held": internals.hold_worker_data(dask_worker, kept) if kept else {},
    }


async def _values(share: dict[str, Any], worker: Any, current: _Run) -> dict[Any, Any]:
    """The values of ``share``'s kept and returned keys (see ``run_share``)."""
    loop = asyncio.get_running_loop()
    pool = internals.worker_thread_pool(worker)
    threads = asyncio.Semaphore(max(1, int(getattr(worker, "nthreads", 1) or 1)))
    tasks: dict[Any, Any] = share["tasks"]
    wanted = set(share["returns"]) | set(share["keeps"])
    local: dict[Any, asyncio.Future[Any]] = {key: loop.create_future() for key in tasks}
    readers: collections.Counter[Any] = collections.Counter(
        d for task in tasks.values() for d in internals.task_dependencies(task)
    )
    sent: list[asyncio.Future[Any]] = []

    def publish(key: Any, value: Any) -> None:
        if readers[key] or key in wanted:  # else only other workers read it
            local.setdefault(key, loop.create_future()).set_result(value)
        else:
            local.pop(key, None)
        for peer in share["sends"].get(key, ()):
            sent.append(
                asyncio.ensure_future(
                    _tell(
                        worker,
                        peer,
                        VALUE,
                        run=share["run"],
                        key=key,
                        value=to_serialize(value),
                    )
                )
            )

    def source(key: Any) -> asyncio.Future[Any]:
        return local[key] if key in local else current.slot(key)

    in_memory = getattr(worker.data, "fast", worker.data)  # zict.Buffer's, or a dict
    for key in share["inputs"]:  # one spilled is read back in the thread pool
        held = in_memory[key] if key in in_memory else None
        if held is None:
            held = await loop.run_in_executor(pool, worker.data.__getitem__, key)
        publish(key, held)

    async def one(key: Any, task: Any) -> None:
        dependencies = internals.task_dependencies(task)
        read = {d: await source(d) for d in dependencies}
        if read and sum(map(sizeof, read.values())) <= IN_LOOP_BYTES:  # sooner than a thread
            value = internals.run_task(task, read)
        else:
            async with threads:
                value = await loop.run_in_executor(pool, internals.run_task, task, read)
        publish(key, value)
        for d in dependencies:  # a value no task here reads any more goes
            readers[d] -= 1
            if readers[d] == 0 and d not in wanted:
                local.pop(d, None)
                current.values.pop(d, None)

    runs = [asyncio.ensure_future(one(key, task)) for key, task in tasks.items()]
    try:
        await asyncio.gather(*runs)
        await asyncio.gather(*sent)
    except BaseException:
        for pending in (*runs, *sent):
            pending.cancel()
        raise
    return {key: local[key].result() for key in wanted}


async def _tell(worker: Any, address: str, op: str, **message: Any) -> None:
    """Send the worker at ``address`` (another one) a ``message`` for its handler ``op``
    (``REACH`` seconds to reach it; the message then takes as long as it takes)."""
    peer = await internals.reached(internals.worker_pool(worker), address, REACH)
    await getattr(peer, op)(**message)


def _in_background(telling: Any) -> None:
    """``telling`` (a ``_tell``) run on, its failure ignored (a peer gone has no run)."""
    task = asyncio.ensure_future(telling)
    _Runs.telling.add(task)
    task.add_done_callback(_told)


def _told(task: asyncio.Task[None]) -> None:
    _Runs.telling.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved: a peer gone is no error of the run's
