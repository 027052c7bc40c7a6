"""A check's partial results computed where their blocks are, in one ``Client.run``.

A convergence check of arrays persisted on a cluster (``float(x.sum())``) is a few
partial tasks, each reading one block some worker holds, and an aggregate that
``execution.compute_finishing_here`` runs in the client; a solver's product with a small
result (``a @ p`` of a persisted matrix) is a task per block of its result, each reading
blocks one worker holds, joined in the client (``data_moves.computed_where_held``). Sent
through the scheduler the tasks cost a graph update, a task on each worker, their
completion reports and a gather: on the embedded cluster of a 2-core machine about twice
a bare ``client.submit(...).result()`` round trip (``benchmarks/suite/check_overhead.py``).

Here each partial task, with the tasks of the graph it reads (a fused elementwise step
before the sum), goes to every worker in one ``Client.run``; each worker computes the
parts whose inputs it holds in its ``data`` and sends their values back in its reply:
no task, no key, nothing stored. ``Client.run`` sends one message out and one back
through the scheduler. A client that talks to its workers directly
(``nearby_workers.reaches_workers_directly``: the embedded cluster's, one whose workers run
on this machine, one made on a worker or with ``direct_to_workers=True``) sends
each worker the same message itself and gets the reply straight back
(``distributed_internals.run_on_workers``): about 2.2-2.9 ms a check on a 2-core machine
instead of 3 ms (``benchmarks/suite/check_overhead.py``). Where that fails (a worker
listed by the client up to two seconds ago and gone since, not reached within
``DIRECT_TIMEOUT``), ``Client.run`` asks the workers the scheduler knows. Either way, the
route is taken only when every input is a key this client holds a finished future of, no
task is placed by ``resources`` or a strict ``workers`` annotation (those run where the
scheduler would put them), the parts are small graphs and each worker's inputs are in its
memory (a replica of a block makes its part computed twice). A worker computes its parts
in its event loop when they read at most ``IN_LOOP_BYTES`` together (a sum of 4 MiB takes
about a millisecond: the loop's other messages wait that long), else each in its thread
pool, where its tasks run, the loop answering meanwhile. When any part is computed by no
worker (its inputs on two workers, spilled, lost, or still being computed), or anything
fails, the caller takes the scheduler's route for all of them, which raises what the
tasks raise. The values are those of the same tasks on the same blocks. A reached worker
is waited for with no timeout of its own: one that does not answer holds the check as it
would hold the scheduler's route.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

import distributed

from . import distributed_internals as internals
from . import placement
from .nearby_workers import reaches_workers_directly

# A part's graph: the partial task and the tasks it reads, a few fused steps at most.
MAX_PART_TASKS = 8
# Inputs a worker reads at most in its event loop (a sum of 4 MiB takes about a
# millisecond: the loop's other messages wait that long); more go to its thread pool.
IN_LOOP_BYTES = 4 << 20
# A worker asked directly that has not been reached by then (gone since the client last
# listed its workers) sends the check the scheduler's way.
DIRECT_TIMEOUT = 1.0


Jobs = dict[Any, tuple[dict[Any, Any], frozenset[Any]]]


def jobs_for(
    client: distributed.Client, graph: Any, parts: list[Any], annotations: Collection[dict]
) -> Jobs | None:
    """Each of the tasks ``parts`` of ``graph`` with the tasks it reads and the persisted
    keys it reads (finished futures of ``client``), or ``None`` where one cannot be
    computed in place (see the module docstring). ``annotations`` are the graph's
    layers'. Nothing is asked of the cluster."""
    if any(_placed_strictly(layer) for layer in annotations):
        return None
    jobs: Jobs = {}
    for part in parts:
        tasks = _part_graph(graph, part)
        if tasks is None:
            return None
        inputs = frozenset().union(*map(internals.task_dependencies, tasks.values()))
        inputs -= tasks.keys()
        if not inputs or not internals.futures_finished(client, inputs):
            return None
        jobs[part] = (tasks, inputs)
    return jobs


def computed_where_held(client: distributed.Client, jobs: Jobs) -> list[Any] | None:
    """The values of the parts of ``jobs`` (``jobs_for``) in order, computed by the
    workers holding their inputs, or ``None`` when a part was computed by none or
    ``Client.run`` failed."""
    replies = _asked_directly(client, jobs) if reaches_workers_directly(client) else None
    if replies is None:
        try:
            replies = client.run(compute_held_parts, jobs)
        except Exception:  # noqa: BLE001 - the scheduler's route computes (or raises) them
            return None
    found: dict[Any, Any] = {}
    for values in replies.values():
        found.update(values)
    if any(part not in found for part in jobs):
        return None
    return [found[part] for part in jobs]


def _asked_directly(client: distributed.Client, jobs: Jobs) -> dict[str, Any] | None:
    """``Client.run``'s replies, each worker asked by the client itself (the workers it
    listed last), or ``None`` where that failed (see the module docstring)."""
    try:
        return internals.run_on_workers(
            client, placement.workers_of(client), compute_held_parts, jobs, timeout=DIRECT_TIMEOUT
        )
    except Exception:  # noqa: BLE001 - ``Client.run`` asks the workers the scheduler knows
        return None


def _placed_strictly(annotations: dict[str, Any]) -> bool:
    """Whether a layer's tasks must run where the scheduler puts them: ``resources``
    (a GPU), or ``workers`` without ``allow_other_workers`` (a user's placement; ours,
    owner placement, allows others)."""
    if "resources" in annotations:
        return True
    return "workers" in annotations and not annotations.get("allow_other_workers")


def _part_graph(graph: Any, part: Any) -> dict[Any, Any] | None:
    """``part``'s task and the tasks of ``graph`` it reads, directly or not; ``None``
    when they are more than ``MAX_PART_TASKS``."""
    tasks: dict[Any, Any] = {}
    stack = [part]
    while stack:
        key = stack.pop()
        if key in tasks:
            continue
        task = graph[key]
        if isinstance(task, distributed.Future):
            if task.key == key:
                continue  # a persisted key in the graph: an input
            return None
        if len(tasks) == MAX_PART_TASKS or not internals.is_task(task):
            return None
        tasks[key] = task
        stack.extend(k for k in internals.task_dependencies(task) if k in graph)
    return tasks


async def compute_held_parts(jobs: Jobs, dask_worker: Any) -> dict[Any, Any]:
    """On a worker (``Client.run``, in its event loop, where it reads its data): the values
    of the parts whose inputs this worker holds in memory (a spilled input is not read
    from disk here), each from its tasks and those inputs: here when they read at most
    ``IN_LOOP_BYTES`` together, else each in the worker's thread pool (in parallel, as
    its tasks)."""
    in_memory = getattr(dask_worker.data, "fast", dask_worker.data)  # zict.Buffer's, or a dict
    mine = {
        part: (tasks, {key: in_memory[key] for key in inputs})
        for part, (tasks, inputs) in jobs.items()
        if all(key in in_memory for key in inputs)
    }
    held = sum(
        getattr(value, "nbytes", 0) for _, inputs in mine.values() for value in inputs.values()
    )
    if held <= IN_LOOP_BYTES:
        return {part: _value(part, tasks, dict(inputs)) for part, (tasks, inputs) in mine.items()}
    loop = asyncio.get_running_loop()
    pool = internals.worker_thread_pool(dask_worker)
    values = await asyncio.gather(
        *(
            loop.run_in_executor(pool, _value, part, tasks, dict(inputs))
            for part, (tasks, inputs) in mine.items()
        )
    )
    return dict(zip(mine, values, strict=True))


def _value(key: Any, tasks: dict[Any, Any], values: dict[Any, Any]) -> Any:
    """``key``'s value from ``tasks`` (a part's few) and ``values`` (its inputs, and the
    values computed so far): each task called on what it reads, as dask's task objects
    run (``dask.get`` costs about 50 us more per part for its scheduling)."""
    if key not in values:
        task = tasks[key]
        for dependency in internals.task_dependencies(task):
            _value(dependency, tasks, values)
        values[key] = internals.run_task(task, values)
    return values[key]
